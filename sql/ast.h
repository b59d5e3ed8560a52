// The statements the SQL front end understands, as the parser builds them.
#pragma once

#include "sql/engine_api.h"

#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "engine/db.h"
#include "engine/schema.h"
#include "engine/value.h"

namespace strata::sql {

// How a literal was written, which decides how it compares and converts: a hex string or
// `_binary '...'` compares as bytes; a decimal literal keeps its exact digits. kBinCollated is
// text read from a column of a _bin collation: bytes decide, but trailing spaces do not.
enum class LiteralKind : std::uint8_t { kPlain, kBinary, kDecimal, kBinCollated };

struct Expr;
using ExprPtr = std::unique_ptr<Expr>;

struct Expr {
  enum class Kind : std::uint8_t {
    kLiteral,       // value, literal_kind
    kColumn,        // name (table: the qualifier, when given)
    kUserVar,       // name
    kSystemVar,     // name (lower case, without session./global.)
    kUnary,         // op: "NOT", "-", "~"; args[0]
    kBinary,        // op: "OR" "AND" "XOR" "=" "<=>" "<>" "<" "<=" ">" ">=" "+" "-" "*" "/" "DIV" "%"; args[0], args[1]
    kFunction,      // name (upper case); args; star for COUNT(*)
    kIn,            // args[0] IN (args[1..]); negated
    kBetween,       // args[0] BETWEEN args[1] AND args[2]; negated
    kIsNull,        // args[0] IS [NOT] NULL
    kLike,          // args[0] LIKE args[1]; negated
    kDefault,       // DEFAULT in INSERT/UPDATE
    kLocalVar,      // a stored routine's parameter or DECLAREd variable: name, slot
    kTriggerField,  // a trigger's NEW.c or OLD.c: table ("NEW" or "OLD"), name
  };
  Kind kind = Kind::kLiteral;
  Value value;
  LiteralKind literal_kind = LiteralKind::kPlain;
  std::string name, table, op;
  std::vector<ExprPtr> args;
  bool negated = false;
  bool star = false;
  bool distinct = false;  // an aggregate over distinct values: COUNT(DISTINCT a, b), SUM(DISTINCT a)
  // GROUP_CONCAT's ORDER BY keys (descending where `second`); its SEPARATOR is `value`.
  std::vector<std::pair<ExprPtr, bool>> order;
  bool hex_number = false;  // a 0x... literal: bytes, and a number where one is wanted (X'...' is bytes only)
  std::size_t offset = 0;   // where it starts in the statement text
  std::uint32_t slot = 0;   // kLocalVar: its place in the routine's frame (RoutineFrame::values)
  std::string written;      // kFunction: the name as written (a stored function's error names it so)
  // Levels from here to the deepest leaf. The parser refuses trees taller than
  // kMaxExpressionDepth, so evaluating (and destroying) one cannot run out of stack.
  std::uint32_t height = 1;
};

inline constexpr std::uint32_t kMaxExpressionDepth = 1000;

struct TableName {
  std::string database;  // empty: the session's current database
  std::string name;
};

// Where SELECT ... INTO and FETCH ... INTO put a value: a user variable (@name) or a
// routine's local variable (its slot).
struct IntoTarget {
  bool user = false;
  std::string name;
  std::uint32_t slot = 0;
};

struct OrderItem {
  ExprPtr expr;
  bool descending = false;
};

// ---- statements ----------------------------------------------------------------------------

struct CreateDatabase {
  std::string name;
  bool if_not_exists = false;
  std::vector<std::string> ignored;  // options accepted without effect (shown as warnings)
};
struct DropDatabase {
  std::string name;
  bool if_exists = false;
};
struct Use {
  std::string name;
};

struct ColumnDefault {
  std::optional<Value> value;  // the literal default (NULL included: Value::Null())
  bool current_timestamp = false;
};

// A FOREIGN KEY as written: the constraint (its name empty when none was given, its
// ref_database when the REFERENCES did not name one) and the name of the index it asks for.
struct ForeignKeyDecl {
  engine::ForeignKeySpec spec;
  std::string index_name;
};

struct CreateTable {
  TableName table;
  bool if_not_exists = false;
  std::optional<TableName> like;     // CREATE TABLE t LIKE other: nothing else is given
  TableSpec spec;                    // database left empty when not given
  std::vector<bool> default_now;     // per column: DEFAULT CURRENT_TIMESTAMP
  std::vector<std::string> ignored;  // clauses accepted without effect (shown as warnings)
  std::vector<ForeignKeyDecl> foreign_keys;
  // CREATE TABLE ... [IGNORE | REPLACE] SELECT: the rows, and the columns of the SELECT that
  // `spec` does not define (session_create_select.cc).
  std::shared_ptr<const struct Select> select;
  bool select_ignore = false, select_replace = false;
};

struct DropTable {
  std::vector<TableName> tables;
  bool if_exists = false;
};
struct CreateIndex {
  TableName table;
  IndexSpec index;
};

// ALTER TABLE: its changes in the order written, each applied to the table the ones before it
// left (as the server applies them), then the table rebuilt, renamed or indexed.
struct AlterTable {
  struct Change {
    enum class Kind : std::uint8_t {
      kAddColumn,      // definition: the column; first / after: where
      kDropColumn,     // name
      kChangeColumn,   // name (the column's old name), definition; first / after (MODIFY, CHANGE)
      kRenameColumn,   // name, new_name
      kSetDefault,     // name, value
      kDropDefault,    // name
      kAddIndex,       // definition: the index in definitions.spec.indexes
      kAddPrimaryKey,  // definitions.spec.primary_key
      kDropIndex,      // name
      kDropPrimaryKey,
      kRenameIndex,     // name, new_name
      kConvertCharset,  // definition: a column of the charset and collation every text column takes
      kAddForeignKey,   // definition: the key in definitions.foreign_keys
      kDropForeignKey   // name
    };
    Kind kind = Kind::kAddColumn;
    std::string name, new_name;
    std::size_t definition = 0;
    bool first = false;
    std::string after;
    bool if_exists = false;   // DROP ... IF EXISTS (MariaDB)
    bool auto_named = false;  // kAddIndex written without a name: its first column's, then _2, _3 ...
    Value value;              // kSetDefault: the literal
    LiteralKind literal_kind = LiteralKind::kPlain;
  };
  TableName table;
  std::vector<Change> changes;
  // The columns and keys the changes bring (as CREATE TABLE reads them), and what the
  // statement accepts without effect (its `ignored`).
  CreateTable definitions;
  std::optional<TableName> rename_to;
  std::optional<std::uint64_t> auto_increment;
  std::string algorithm;  // ALGORITHM=, upper case; empty when not given
  bool rebuild = false;   // ENGINE=, FORCE
};

// LOAD DATA [LOCAL] INFILE: the file's lines into rows, as the server splits them (its defaults:
// tab between fields, newline after lines, backslash escapes, \N for NULL).
struct LoadData {
  std::string file;
  bool local = false;
  bool replace = false, ignore = false;
  TableName table;
  std::string fields_terminated = "\t", enclosed, escaped = "\\";
  std::string lines_starting, lines_terminated = "\n";
  std::uint64_t ignore_lines = 0;
  std::vector<std::string> columns;  // empty: every column in order
};

struct RenameTable {
  std::vector<std::pair<TableName, TableName>> renames;
};
struct Truncate {
  TableName table;
};

struct Assignment {
  std::string column;
  ExprPtr value;
};

// The qualifier the parser gives VALUES(c) of ON DUPLICATE KEY UPDATE (a column of the row the
// INSERT wanted); no table is named so.
inline constexpr std::string_view kInsertedRow = "\x01VALUES()";

struct Select;

// A view's WITH CHECK OPTION carried into the INSERT or UPDATE that writes through it: every
// row written must satisfy `condition` (the view's WHERE), or 1369 names `view`.
struct ViewCheck {
  ExprPtr condition;
  std::string view;  // `db`.`v`
};
// As MariaDB checks them: the view the statement names decides. WITH LOCAL CHECK OPTION checks
// its WHERE alone, CASCADED the WHERE of every view below it too (in its name), none nothing,
// whatever the views below it say.
struct ViewChecks {
  std::vector<ViewCheck> conditions;
  std::string view;       // 'db.v': the view the statement named (empty: it named a table)
  std::string cascading;  // that view, when it has CASCADED CHECK OPTION
};

struct Insert {
  TableName table;
  std::vector<std::string> columns;  // empty: every column in order
  std::vector<std::vector<ExprPtr>> rows;
  std::shared_ptr<const Select> select;  // INSERT ... SELECT: the rows it gives instead
  // ON DUPLICATE KEY UPDATE: what a row that collides is set to; MySQL 8.0's VALUES (...) AS
  // alias [(columns)] names the wanted row (alias.c), as VALUES(c) does.
  std::vector<Assignment> on_duplicate;
  std::string alias;
  std::vector<std::string> alias_columns;
  bool ignore = false;
  bool replace = false;
  ViewChecks view_checks;
};

struct Update {
  bool ignore = false;  // UPDATE IGNORE: duplicates skipped, values mended, with warnings
  TableName table;
  std::vector<Assignment> set;
  ExprPtr where;
  std::vector<OrderItem> order_by;
  std::optional<std::uint64_t> limit;
  ViewChecks view_checks;
};

struct Delete {
  TableName table;
  ExprPtr where;
  std::vector<OrderItem> order_by;
  std::optional<std::uint64_t> limit;
};

struct SelectItem {
  ExprPtr expr;       // null for `*`
  std::string alias;  // as written after AS, else empty
  std::string text;   // the expression as written (the column heading without an alias)
};

struct Select {
  bool distinct = false;  // SELECT DISTINCT: equal output rows once
  std::vector<SelectItem> items;
  std::optional<TableName> from;
  std::string from_alias;  // FROM t AS x: x (empty without one)
  ExprPtr where;
  std::vector<OrderItem> group_by;  // MariaDB also sorts the groups by them (ASC/DESC per item)
  bool rollup = false;              // GROUP BY ... WITH ROLLUP: a total after each group of groups
  ExprPtr having;
  std::vector<OrderItem> order_by;
  std::optional<std::uint64_t> limit;
  std::uint64_t offset = 0;
  RowLock lock = RowLock::kNone;
  std::vector<IntoTarget> into;  // SELECT ... INTO: one row's values kept, not sent
};

struct Begin {
  bool consistent_snapshot = false;
};
struct Commit {};
struct Rollback {};
struct Savepoint {
  enum class Kind : std::uint8_t { kSet, kRollbackTo, kRelease };
  Kind kind = Kind::kSet;
  std::string name;
};
struct ChecksumTable {
  std::vector<TableName> tables;
};

struct SetVariable {
  enum class Scope : std::uint8_t { kSession, kGlobal, kUser, kLocal, kNewRow };  // kNewRow: SET NEW.c
  Scope scope = Scope::kSession;
  std::string name;        // lower case for system variables
  std::uint32_t slot = 0;  // kLocal: a routine's variable
  ExprPtr value;
};
struct Set {
  std::vector<SetVariable> items;
};
struct SetTransaction {
  Isolation isolation = Isolation::kRepeatableRead;
  bool global = false;
  bool count = false;  // SHOW COUNT(*) WARNINGS / ERRORS
};

struct AlterInstanceRedo {
  bool enable = true;
};
// Statements a dump carries that change nothing here: LOCK/UNLOCK TABLES, ALTER TABLE ...
// DISABLE/ENABLE KEYS, SET NAMES. `what` names it for the shell.
struct NoOp {
  std::string what;
};

struct Show {
  enum class What : std::uint8_t {
    kDatabases,
    kTables,
    kCreateTable,
    kTableStatus,
    kEngineStatus,
    kStatus,
    kVariables,
    kColumns,
    kWarnings,
    kErrors,
    kCreateProcedure,  // table: the routine's name
    kCreateFunction,
    kProcedureStatus,
    kFunctionStatus,
    kCreateTrigger,
    kCreateView  // table: the view
  };
  What what = What::kTables;
  TableName table;       // SHOW CREATE TABLE / COLUMNS
  std::string database;  // FROM db
  std::optional<std::string> like;
  bool global = false;
  bool count = false;  // SHOW COUNT(*) WARNINGS / ERRORS
  bool full = false;   // SHOW FULL TABLES: with their Table_type
};

struct Routine;  // sql/routine.h

// CREATE PROCEDURE / FUNCTION: the routine as parsed, and the statement's text, which is what
// is stored (and parsed again when it is called).
struct CreateRoutine {
  std::shared_ptr<Routine> routine;
  std::string text;
  bool if_not_exists = false;
  bool or_replace = false;
};
struct DropRoutine {
  bool function = false;
  TableName name;
  bool if_exists = false;
};
struct Call {
  TableName name;
  std::vector<ExprPtr> args;
};
enum class TriggerEvent : std::uint8_t { kInsert, kUpdate, kDelete };
struct DropTrigger {
  TableName name;
  bool if_exists = false;
};

// CREATE [OR REPLACE] [ALGORITHM = ...] [DEFINER = ...] [SQL SECURITY ...] VIEW and ALTER VIEW.
enum class CheckOption : std::uint8_t { kNone, kCascaded, kLocal };
struct CreateView {
  TableName name;
  std::vector<std::string> columns;  // (a, b, ...) after the name: the view's column names
  std::shared_ptr<const Select> select;
  std::string algorithm = "UNDEFINED";  // UNDEFINED, MERGE or TEMPTABLE
  std::string definer;                  // `user`@`host`
  bool invoker = false;                 // SQL SECURITY INVOKER
  CheckOption check = CheckOption::kNone;
  bool or_replace = false, alter = false, if_not_exists = false;
  bool algorithm_given = false, definer_given = false, security_given = false;  // ALTER keeps the rest
};
struct DropView {
  std::vector<TableName> views;
  bool if_exists = false;
};

using Statement = std::variant<CreateDatabase, DropDatabase, Use, CreateTable, DropTable, CreateIndex, Insert, Update,
                               Delete, Select, Begin, Commit, Rollback, Set, SetTransaction, AlterInstanceRedo, NoOp,
                               Show, AlterTable, RenameTable, Truncate, Savepoint, ChecksumTable, LoadData,
                               CreateRoutine, DropRoutine, Call, DropTrigger, CreateView, DropView>;

}  // namespace strata::sql
