// Where stored procedures, functions, triggers and views are kept: rows of a `mysql`.`proc` table, as
// MariaDB keeps routines (one row each, its CREATE statement as SHOW CREATE gives it), made on
// the first CREATE PROCEDURE, FUNCTION, TRIGGER or VIEW. Its rows are written like any table's, so a routine is as durable as
// a committed row and survives a crash the same way.
#pragma once

#include "sql/engine_api.h"

#include <optional>
#include <string>
#include <vector>

#include "engine/db.h"

namespace strata::sql {

inline constexpr const char* kRoutineDatabase = "mysql";
inline constexpr const char* kRoutineTable = "proc";

enum class RoutineKind : std::uint8_t { kProcedure, kFunction, kTrigger, kView };
inline RoutineKind KindOf(bool function) { return function ? RoutineKind::kFunction : RoutineKind::kProcedure; }
const char* KindName(RoutineKind kind);  // "PROCEDURE", "FUNCTION", "TRIGGER", "VIEW"

struct StoredRoutine {
  std::string database, name;  // a trigger's database is its table's
  RoutineKind kind = RoutineKind::kProcedure;
  std::string text;      // CREATE [DEFINER=...] PROCEDURE ... as the user wrote it
  std::string sql_mode;  // the session's when it was created: the routine runs with it
  std::string created;   // 'YYYY-MM-DD hh:mm:ss.ffffff': triggers fire in this order
};

// The routine of that name (compared without regard to case, as the server does), or nullopt.
Result<std::optional<StoredRoutine>> FindRoutine(Database& db, const std::string& database, const std::string& name,
                                                 RoutineKind kind);
// Adds `r`, or replaces the routine of its name when `replace`; AlreadyExists otherwise.
Status SaveRoutine(Database& db, const StoredRoutine& r, bool replace);
// `r` in place of the row of (r.database, old_name, r.kind), in one transaction: RENAME of a view.
Status RenameRoutine(Database& db, const std::string& old_name, const StoredRoutine& r);
// False when there was none of that name.
Result<bool> DeleteRoutine(Database& db, const std::string& database, const std::string& name, RoutineKind kind);
// Every routine and trigger, ordered by database, name.
Result<std::vector<StoredRoutine>> ListRoutines(Database& db);
// Counts the changes made to routines and triggers in this process: a session's parsed copies
// are good while it stays the same (reading mysql.proc for each statement would make every
// statement wait for the asynchronous commits before it).
std::uint64_t RoutineChanges();

// The routines and triggers of a database that is being dropped go with it.
Status DeleteRoutinesOf(Database& db, const std::string& database);

}  // namespace strata::sql
