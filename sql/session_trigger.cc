// Triggers: CREATE TRIGGER, DROP TRIGGER, SHOW CREATE TRIGGER, and firing them around each
// row an INSERT, UPDATE or DELETE changes (ApplyInsert, DoUpdate, DoDelete call FireTriggers).
// A trigger is a routine whose frame holds the row's NEW and OLD values; its statements run in
// the transaction of the statement that fired it, and its failure fails that statement, which
// is then undone whole, as the server does.
#include <fmt/format.h>

#include "sql/routine.h"
#include "sql/routine_store.h"
#include "sql/session.h"
#include "sql/session_context.h"

namespace strata::sql {

namespace {

SqlError NoSuchTrigger() { return {1360, "HY000", "Trigger does not exist"}; }

}  // namespace

StatementOutcome Session::DoCreateTrigger(const CreateRoutine& c) {
  const Routine& r = *c.routine;
  TableName table = r.trigger->table;
  if (table.database.empty()) table.database = r.name.database.empty() ? database_ : r.name.database;
  if (table.database.empty()) return Error(NoDatabase());
  if (!r.name.database.empty() && r.name.database != table.database)
    return Error({1435, "HY000", "Trigger in wrong schema"});
  auto t = FindTable(table);
  if (!t.ok()) {
    if (auto view = FindView(table); view.ok() && *view)
      return Error({1347, "HY000", fmt::format("'{}.{}' is not of type 'BASE TABLE'", table.database, table.name)});
    return Error(t.error());
  }
  auto existing = FindRoutine(db_, table.database, r.name.name, RoutineKind::kTrigger);
  if (!existing.ok()) return Error(FromStatus(existing.status()));
  StatementOutcome o;
  if (*existing && !c.or_replace) {
    SqlError e{1359, "HY000", fmt::format("Trigger '{}.{}' already exists", table.database, r.name.name)};
    if (!c.if_not_exists) return Error(e);
    o.warnings.push_back({SqlWarning::Level::kNote, e.code, e.message});
    return o;
  }
  StoredRoutine stored{table.database, r.name.name, RoutineKind::kTrigger, c.text, *SystemVariable("sql_mode"), ""};
  if (Status s = SaveRoutine(db_, stored, c.or_replace); !s.ok()) return Error(FromStatus(s));
  return o;
}

StatementOutcome Session::DoDropTrigger(const DropTrigger& d) {
  const std::string database = d.name.database.empty() ? database_ : d.name.database;
  if (database.empty()) return Error(NoDatabase());
  auto deleted = DeleteRoutine(db_, database, d.name.name, RoutineKind::kTrigger);
  if (!deleted.ok()) return Error(FromStatus(deleted.status()));
  StatementOutcome o;
  if (!*deleted) {
    if (!d.if_exists) return Error(NoSuchTrigger());
    o.warnings.push_back({SqlWarning::Level::kNote, 1360, NoSuchTrigger().message});
  }
  return o;
}

StatementOutcome Session::ShowCreateTrigger(const Show& s, ResultSink& sink) {
  const std::string database = s.table.database.empty() ? database_ : s.table.database;
  if (database.empty()) return Error(NoDatabase());
  auto stored = FindRoutine(db_, database, s.table.name, RoutineKind::kTrigger);
  if (!stored.ok()) return Error(FromStatus(stored.status()));
  if (!*stored) return Error(NoSuchTrigger());
  sink.Header({{"Trigger"},
               {"sql_mode"},
               {"SQL Original Statement"},
               {"character_set_client"},
               {"collation_connection"},
               {"Database Collation"},
               {"Created"}});
  sink.Row({(*stored)->name, (*stored)->sql_mode, (*stored)->text, "utf8mb4", "utf8mb4_general_ci",
            "utf8mb4_general_ci", (*stored)->created.substr(0, 22)});
  StatementOutcome o;
  o.result_set = true;
  o.rows = 1;
  return o;
}

SqlResult<std::vector<std::shared_ptr<const Routine>>> Session::TriggersOf(const std::string& database,
                                                                           const std::string& table) {
  RefreshRoutineCaches();
  const std::string table_key = database + "\n" + table;
  if (auto hit = triggers_of_.find(table_key); hit != triggers_of_.end()) return hit->second;
  std::vector<std::shared_ptr<const Routine>> out;
  auto all = ListRoutines(db_);
  if (!all.ok()) return FromStatus(all.status());
  std::vector<const StoredRoutine*> ours;
  for (const StoredRoutine& r : *all) {
    if (r.kind == RoutineKind::kTrigger && r.database == database) ours.push_back(&r);
  }
  std::stable_sort(ours.begin(), ours.end(),
                   [](const StoredRoutine* a, const StoredRoutine* b) { return a->created < b->created; });
  for (const StoredRoutine* r : ours) {
    const std::string key = fmt::format("{}\n{}\nTRIGGER", r->database, r->name);
    auto& cached = routine_cache_[key];
    if (cached.first != r->text || !cached.second) {
      Parsed p = Parse(r->text);
      auto* create = p.statement ? std::get_if<CreateRoutine>(&*p.statement) : nullptr;
      if (p.error || !create || !create->routine->trigger)
        return SqlError{1457, "HY000", fmt::format("Failed to load trigger {}.{}", r->database, r->name)};
      create->routine->name = {r->database, r->name};
      create->routine->sql_mode = r->sql_mode;
      cached = {r->text, std::move(create->routine)};
    }
    const TriggerInfo& t = *cached.second->trigger;
    if (t.table.name == table && (t.table.database.empty() || t.table.database == database))
      out.push_back(cached.second);
  }
  triggers_of_[table_key] = out;
  return out;
}

bool Session::HasTriggers(const TableSpec& spec) {
  auto triggers = TriggersOf(spec.database, spec.name);
  return !triggers.ok() || !triggers->empty();
}

SqlResult<TableTriggers> Session::LoadTriggers(const TableSpec& spec, TriggerEvent event) {
  TableTriggers out;
  auto all = TriggersOf(spec.database, spec.name);
  if (!all.ok()) return all.error();
  for (auto& r : *all) {
    if (r->trigger->event != event) continue;
    (r->trigger->before ? out.before : out.after).push_back(r);
  }
  return out;
}

std::optional<SqlError> Session::FireTriggers(const std::vector<std::shared_ptr<const Routine>>& triggers,
                                              const TableSpec& spec, Row* new_row, const Row* old_row,
                                              std::vector<SqlWarning>& warnings) {
  for (const auto& r : triggers) {
    RoutineFrame frame(*r);
    frame.table = &spec;
    frame.new_row = new_row;
    frame.old_row = old_row;
    StatementOutcome o;
    FirstValueSink nowhere;  // a trigger returns no result set (refused at CREATE TRIGGER)
    if (!frame_) failed_line_ = 0;
    std::optional<SqlError> e = RunRoutine(*r, frame, nowhere, o);
    warnings.insert(warnings.end(), o.warnings.begin(), o.warnings.end());
    if (e) {
      NoteWhereRoutineFailed(*r, *e);
      return e;
    }
  }
  return std::nullopt;
}

std::optional<SqlError> Session::SetNewField(const std::string& column, const SqlValue& value) {
  if (!frame_ || !frame_->new_row || !frame_->table)
    return SqlError{1054, "42S22", fmt::format("Unknown column '{}' in 'NEW'", column)};
  auto at = FindColumn(*frame_->table, column);
  if (!at) return SqlError{1054, "42S22", fmt::format("Unknown column '{}' in 'NEW'", column)};
  (*frame_->new_row)[*at] = ToColumn(value, frame_->table->columns[*at]);
  return std::nullopt;
}

std::optional<SqlError> Session::RefuseIfTriggered(const std::string& database, const std::string& table,
                                                   const char* what) {
  auto triggers = TriggersOf(database, table);
  if (!triggers.ok()) return triggers.error();
  if (triggers->empty()) return std::nullopt;
  return NotSupported(
      fmt::format("{} of a table with triggers (drop them first: {} has {})", what, table, triggers->size()));
}

Status Session::DropTriggersOf(const std::string& database, const std::string& table) {
  auto triggers = TriggersOf(database, table);
  if (!triggers.ok()) return Status::Corruption(triggers.error().message);
  for (const auto& r : *triggers) {
    auto deleted = DeleteRoutine(db_, database, r->name.name, RoutineKind::kTrigger);
    if (!deleted.ok()) return deleted.status();
  }
  return Status::Ok();
}

SqlResult<SqlValue> SessionContext::TriggerField(const Expr& field) const {
  const RoutineFrame* f = s_.frame_;
  const Row* row = !f ? nullptr : field.table == "NEW" ? f->new_row : f->old_row;
  if (row && f->table) {
    if (auto at = FindColumn(*f->table, field.name)) return FromColumn((*row)[*at], f->table->columns[*at]);
  }
  return SqlError{1054, "42S22", fmt::format("Unknown column '{}' in '{}'", field.name, field.table)};
}

}  // namespace strata::sql
