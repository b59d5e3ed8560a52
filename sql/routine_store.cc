#include "sql/routine_store.h"

#include <fmt/chrono.h>
#include <fmt/format.h>

#include <atomic>
#include <chrono>

namespace strata::sql {

namespace {

// db, name, type, body, sql_mode, created; keyed as MariaDB's mysql.proc is (db, name, type).
// The database compares byte for byte (database names are case-sensitive here), the name
// without regard to case (routine names are not).
TableSpec ProcSpec() {
  TableSpec spec;
  spec.database = kRoutineDatabase;
  spec.name = kRoutineTable;
  Column db = engine::NotNull(engine::Col("db", ColumnType::kChar, 64));
  db.binary_collation = true;
  spec.columns = {db,
                  engine::NotNull(engine::Col("name", ColumnType::kChar, 64)),
                  engine::NotNull(engine::Col("type", ColumnType::kVarchar, 9)),
                  engine::NotNull(engine::Col("body", ColumnType::kLongText)),
                  engine::NotNull(engine::Col("sql_mode", ColumnType::kText)),
                  engine::NotNull(engine::Col("created", ColumnType::kVarchar, 26))};
  spec.primary_key = {"db", "name", "type"};
  return spec;
}

std::vector<Value> Key(const std::string& database, const std::string& name, RoutineKind kind) {
  return {Value::String(database), Value::String(name), Value::String(KindName(kind))};
}

// The table, or nullptr when no routine was ever made (and `create` is false).
Result<Table*> ProcTable(Database& db, bool create) {
  const auto databases = db.ListDatabases();
  if (std::find(databases.begin(), databases.end(), kRoutineDatabase) == databases.end()) {
    if (!create) return static_cast<Table*>(nullptr);
    STRATA_RETURN_IF_ERROR(db.CreateDatabase(kRoutineDatabase));
  }
  auto t = db.GetTable(kRoutineDatabase, kRoutineTable);
  if (t.ok() || !t.status().IsNotFound()) return t;
  if (!create) return static_cast<Table*>(nullptr);
  return db.CreateTable(ProcSpec());
}

std::atomic<std::uint64_t> changes{0};

StoredRoutine FromRow(const Row& row) {
  const std::string& type = row[2].as_string();
  const RoutineKind kind = type == "FUNCTION"  ? RoutineKind::kFunction
                           : type == "TRIGGER" ? RoutineKind::kTrigger
                           : type == "VIEW"    ? RoutineKind::kView
                                               : RoutineKind::kProcedure;
  return {row[0].as_string(), row[1].as_string(), kind, row[3].as_string(), row[4].as_string(), row[5].as_string()};
}

}  // namespace

const char* KindName(RoutineKind kind) {
  switch (kind) {
    case RoutineKind::kFunction:
      return "FUNCTION";
    case RoutineKind::kTrigger:
      return "TRIGGER";
    case RoutineKind::kView:
      return "VIEW";
    case RoutineKind::kProcedure:
      break;
  }
  return "PROCEDURE";
}

Result<std::optional<StoredRoutine>> FindRoutine(Database& db, const std::string& database, const std::string& name,
                                                 RoutineKind kind) {
  auto table = ProcTable(db, false);
  if (!table.ok()) return table.status();
  if (!*table) return std::optional<StoredRoutine>();
  auto row = (*table)->Get(Key(database, name, kind));
  if (!row.ok()) return row.status();
  if (!*row) return std::optional<StoredRoutine>();
  return std::optional<StoredRoutine>(FromRow(**row));
}

Status SaveRoutine(Database& db, const StoredRoutine& r, bool replace) {
  auto table = ProcTable(db, true);
  if (!table.ok()) return table.status();
  std::string created = r.created;
  if (created.empty()) {  // to the microsecond: a table's triggers fire in this order
    const auto now = std::chrono::floor<std::chrono::microseconds>(std::chrono::system_clock::now());
    const auto seconds = std::chrono::floor<std::chrono::seconds>(now);
    created = fmt::format("{:%Y-%m-%d %H:%M:%S}.{:06}", seconds, (now - seconds).count());
  }
  const Row row = {Value::String(r.database), Value::String(r.name),     Value::String(KindName(r.kind)),
                   Value::String(r.text),     Value::String(r.sql_mode), Value::String(created)};
  auto trx = db.Begin();
  if (!trx.ok()) return trx.status();
  if (replace) {
    auto old = (*table)->Get(Key(r.database, r.name, r.kind), trx->get(), RowLock::kExclusive);
    if (!old.ok()) return old.status();
    if (*old) STRATA_RETURN_IF_ERROR((*table)->Delete(Key(r.database, r.name, r.kind), trx->get()));
  }
  STRATA_RETURN_IF_ERROR((*table)->Insert(row, trx->get()));
  Status committed = (*trx)->Commit();
  changes.fetch_add(1);
  return committed;
}

Status RenameRoutine(Database& db, const std::string& old_name, const StoredRoutine& r) {
  auto table = ProcTable(db, false);
  if (!table.ok()) return table.status();
  if (!*table) return Status::NotFound(old_name);
  const Row row = {Value::String(r.database), Value::String(r.name),     Value::String(KindName(r.kind)),
                   Value::String(r.text),     Value::String(r.sql_mode), Value::String(r.created)};
  auto trx = db.Begin();
  if (!trx.ok()) return trx.status();
  STRATA_RETURN_IF_ERROR((*table)->Delete(Key(r.database, old_name, r.kind), trx->get()));
  STRATA_RETURN_IF_ERROR((*table)->Insert(row, trx->get()));
  Status committed = (*trx)->Commit();
  changes.fetch_add(1);
  return committed;
}

std::uint64_t RoutineChanges() { return changes.load(); }

Result<bool> DeleteRoutine(Database& db, const std::string& database, const std::string& name, RoutineKind kind) {
  auto found = FindRoutine(db, database, name, kind);
  if (!found.ok()) return found.status();
  if (!*found) return false;
  auto table = ProcTable(db, false);
  if (!table.ok()) return table.status();
  STRATA_RETURN_IF_ERROR((*table)->Delete(Key((*found)->database, (*found)->name, kind)));
  changes.fetch_add(1);
  return true;
}

Result<std::vector<StoredRoutine>> ListRoutines(Database& db) {
  std::vector<StoredRoutine> out;
  auto table = ProcTable(db, false);
  if (!table.ok()) return table.status();
  if (!*table) return out;
  STRATA_RETURN_IF_ERROR((*table)->Scan({}, [&](const Row& row) {
    out.push_back(FromRow(row));
    return true;
  }));
  return out;
}

Status DeleteRoutinesOf(Database& db, const std::string& database) {
  auto all = ListRoutines(db);
  if (!all.ok()) return all.status();
  for (const StoredRoutine& r : *all) {
    if (r.database != database) continue;
    auto deleted = DeleteRoutine(db, r.database, r.name, r.kind);
    if (!deleted.ok()) return deleted.status();
  }
  return Status::Ok();
}

}  // namespace strata::sql
