// Foreign keys as definitions: naming a new one and the index it needs, the checks CREATE and
// ALTER TABLE make of it against its parent (the reasons InnoDB gives as warning 150), and its
// text as SHOW CREATE TABLE and the errors print it. Enforcing them on rows is
// session_foreign_keys.cc.
#pragma once

#include "sql/engine_api.h"

#include <optional>
#include <string>
#include <vector>

#include "sql/ast.h"
#include "sql/parser.h"

namespace strata::sql {

// "CASCADE", "SET NULL", ... as the grammar reads them; RESTRICT when not written, and for SET
// DEFAULT, which InnoDB does not do.
engine::ForeignKeyAction ForeignKeyActionNamed(const std::string& words);
const char* ForeignKeyActionName(engine::ForeignKeyAction action);

// Adds the key `d` declares to `spec` (a table of `database`): named `<table>_ibfk_<n>` past the
// table's other such names when it has no name, referencing `database` when it names none,
// and with an index of its columns unless an index (or the primary key) starts with them
// already — named as MariaDB names it: the constraint's name, else FOREIGN KEY's own, else its
// first column's.
void AddForeignKey(TableSpec& spec, const ForeignKeyDecl& d, const std::string& database);

// Why InnoDB would not take `fk` of `child` whose parent is `parent` (nullptr: none of that
// name), in the words of its warning 150; nullopt when it is well formed.
std::optional<std::string> ForeignKeyProblem(const TableSpec& child, const engine::ForeignKeySpec& fk,
                                             const TableSpec* parent);

// The index of `spec` whose leading columns are `columns` (in order): "PRIMARY", a secondary
// index's name, or nullopt.
std::optional<std::string> LeadingIndex(const TableSpec& spec, const std::vector<std::string>& columns);

// CONSTRAINT `name` FOREIGN KEY (`a`) REFERENCES `p` (`id`) ON DELETE CASCADE: the parent's
// database written when it is not `database`, or always with `qualify`.
std::string ForeignKeyText(const engine::ForeignKeySpec& fk, const std::string& database, bool qualify = false,
                           bool actions = true);

// 1452 and 1451: a row of `child` (a table of `database`) whose parent `fk` does not find, or a
// parent row whose children `fk` keeps.
SqlError NoParentRow(const std::string& database, const std::string& child, const engine::ForeignKeySpec& fk);
SqlError ParentRowReferenced(const std::string& database, const std::string& child, const engine::ForeignKeySpec& fk);

// 1005 with InnoDB's warning 150 (`reason`) and 1215 before and after it, as the server lists them.
SqlError CannotCreateForeignKey(const std::string& database, const std::string& table, const std::string& key,
                                const std::string& reason, std::vector<SqlWarning>& warnings);

// 1005 (errno 121) for a constraint whose name the database has already (InnoDB keeps them
// per database), with the server's 121 (naming `work`, the table being written: an ALTER's
// work table) and 1022 around it.
SqlError DuplicateConstraint(const std::string& database, const std::string& table, const std::string& work,
                             const engine::ForeignKeySpec& fk, std::vector<SqlWarning>& warnings);

}  // namespace strata::sql
