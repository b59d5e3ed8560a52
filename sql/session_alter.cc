// ALTER TABLE, RENAME TABLE, TRUNCATE, CHECKSUM TABLE and savepoints. A copying ALTER fills a work table of the
// new definition from the old one's rows and swaps it in (Database::ReplaceTable): a crash
// leaves the old table or the new one, and the next open drops the work table.
#include <fmt/format.h>

#include <algorithm>

#include "sql/alter_plan.h"
#include "sql/checksum.h"
#include "sql/column_fit.h"
#include "sql/ddl_check.h"
#include "sql/row_builder.h"
#include "sql/session.h"
#include "sql/session_context.h"

namespace strata::sql {

namespace {

constexpr std::size_t kCopyBatch = 1000;

// A value that needs no conversion between the two columns: stored the same way.
bool SameStorage(const engine::Column& a, const engine::Column& b) {
  return a.type == b.type && a.length == b.length && a.scale == b.scale && a.charset == b.charset &&
         a.is_unsigned == b.is_unsigned && a.elements == b.elements && a.collation_id == b.collation_id;
}

std::string Qualified(const std::string& database, const std::string& table) { return database + "." + table; }

// An INSERT's words for a value that does not fit, as the server words them when ALTER TABLE
// copies it: a string cut short is "Data truncated" (1265), text that is no number is
// "Truncated incorrect INTEGER value" (1292).
SqlError AsAlterCopyError(SqlError e, const std::string& work, const std::string& table) {
  // A key of the copy is named as the table's ("Duplicate entry '1' for key 't.PRIMARY'").
  if (const std::size_t at = e.message.find("'" + work + "."); at != std::string::npos)
    e.message.replace(at + 1, work.size(), table);
  if (e.code == 1406 && e.message.starts_with("Data too long")) {
    e.code = 1265, e.sqlstate = "01000";
    e.message = "Data truncated" + e.message.substr(std::string_view("Data too long").size());
  } else if (e.code == 1366) {
    for (const auto& [said, type] :
         {std::pair<std::string_view, std::string_view>{"Incorrect integer value: ", "INTEGER"},
          {"Incorrect decimal value: ", "DECIMAL"},
          {"Incorrect double value: ", "DOUBLE"}}) {
      const std::size_t end = e.message.rfind(" for column ");
      if (!e.message.starts_with(said) || end == std::string::npos) continue;
      e = {1292, "22007",
           fmt::format("Truncated incorrect {} value: {}", type, e.message.substr(said.size(), end - said.size()))};
      break;
    }
  }
  return e;
}

}  // namespace

std::string Session::WorkTableName(const char* what) {
  return fmt::format("{}{}-{}-{}", engine::kWorkTablePrefix, what, id_, ++work_tables_);
}

std::vector<std::string> Session::UserTables(const std::string& database) const {
  std::vector<std::string> names = db_.ListTables(database);
  std::erase_if(names, [](const std::string& n) { return n.starts_with(engine::kWorkTablePrefix); });
  return names;
}

// The old rows, each made a row of the new definition as an INSERT would store it: values
// converted to their column's new type (strict mode refuses what does not fit, naming the
// row; otherwise it is mended with a warning), new columns given their default. They are read
// kCopyBatch at a time in primary key order, each batch from where the last one ended, all in
// one read view; a scan holds the table while it visits rows, so the batch is written after.
// (A table without a primary key is read whole first: its rows have no key to resume from.)
std::optional<SqlError> Session::CopyRows(Table& from, Table& to, const AlterPlan& plan, StatementOutcome& o) {
  const TableSpec& old = from.spec();
  const TableSpec& spec = plan.spec;
  std::vector<std::size_t> key;
  for (const std::string& k : old.primary_key) key.push_back(*FindColumn(old, k));
  auto key_of = [&](const Row& r) {
    std::vector<Value> v;
    for (std::size_t c : key) v.push_back(r[c]);
    return v;
  };
  auto snapshot = db_.Begin({Isolation::kRepeatableRead, true});
  if (!snapshot.ok()) return FromStatus(snapshot.status());
  std::uint64_t copied = 0;
  ScanOptions resume;
  for (bool more = true; more;) {
    if (interrupted()) return Interrupted();
    std::vector<Row> read;
    Status scanned = from.Scan(
        resume,
        [&](const Row& r) {
          if (read.empty() && !resume.from.empty() && key_of(r) == resume.from) return true;  // the last batch's end
          read.push_back(r);
          return key.empty() || read.size() < kCopyBatch;
        },
        snapshot->get());
    if (!scanned.ok()) return FromStatus(scanned);
    more = !key.empty() && read.size() == kCopyBatch;
    if (more) resume.from = key_of(read.back());
    std::vector<Row> batch;
    for (const Row& r : read) {
      ++copied;
      Row out(spec.columns.size());
      for (std::size_t k = 0; k < spec.columns.size(); ++k) {
        const engine::Column& c = spec.columns[k];
        if (const auto source = plan.sources[k]) {
          const engine::Column& was = old.columns[*source];
          out[k] = SameStorage(was, c) ? r[*source] : ToColumn(FromColumn(r[*source], was), c);
        } else {
          out[k] = RowBuilder::DefaultOf(c).value_or(ImplicitDefault(c));
        }
        // A NULL where the new definition forbids one is cut to the type's zero, as the server
        // does: an error in strict mode, else a warning.
        if (out[k].is_null() && !c.nullable && !c.auto_increment) {
          const SqlError cut{1265, "01000", fmt::format("Data truncated for column '{}' at row {}", c.name, copied)};
          if (strict()) return cut;
          o.warnings.push_back({SqlWarning::Level::kWarning, cut.code, cut.message});
          out[k] = ImplicitDefault(c);
        }
      }
      batch.push_back(std::move(out));
    }
    for (std::size_t at = 0; at < batch.size(); at += kCopyBatch) {
      const std::vector<Row> part(batch.begin() + static_cast<std::ptrdiff_t>(at),
                                  batch.begin() + static_cast<std::ptrdiff_t>(std::min(batch.size(), at + kCopyBatch)));
      const std::size_t first = copied - batch.size() + at + 1;
      if (auto failed = InsertFitted(to, part, nullptr, insert_options(), strict(), o.warnings, first))
        return AsAlterCopyError(std::move(*failed), to.spec().name, old.name);
    }
  }
  o.rows = copied;
  return std::nullopt;
}

StatementOutcome Session::CopyAltered(Table& table, const AlterPlan& plan, const AlterTable& a) {
  TableSpec spec = plan.spec;
  const std::string name = spec.name;
  spec.name = WorkTableName("alter");
  // The counter carries over (rows deleted at the end do not give their numbers back), unless
  // the statement sets it.
  spec.auto_increment = a.auto_increment ? *a.auto_increment : table.next_auto_increment();
  auto work = db_.CreateTable(spec);
  if (!work.ok()) return Error(FromStatus(work.status()));
  StatementOutcome o;
  o.warnings = plan.notes;
  auto failed = CopyRows(table, **work, plan, o);
  if (!failed) failed = CheckAddedForeignKeys(**work, plan);
  Status swapped = failed ? Status::Ok() : db_.ReplaceTable(spec.database, name, spec.name);
  if (failed || !swapped.ok()) {
    (void)db_.DropTable(spec.database, spec.name);  // else the next open drops it
    return Error(failed ? *failed : FromStatus(swapped));
  }
  return o;
}

// Whether the statement only adds, drops, renames or moves columns and sets their defaults,
// what MySQL 8.0.29+ does with ALGORITHM=INSTANT (the engine refuses the rest: a changed type,
// an indexed column dropped).
bool Session::InstantCandidate(const AlterTable& a, const AlterPlan& plan) {
  using K = AlterTable::Change::Kind;
  if (!plan.copy || a.rebuild || a.auto_increment || !plan.added_foreign_keys.empty()) return false;
  bool adds_or_drops = false;
  for (const auto& c : a.changes) {
    if (c.kind == K::kAddColumn || c.kind == K::kDropColumn) {
      adds_or_drops = true;
    } else if (c.kind != K::kChangeColumn && c.kind != K::kRenameColumn && c.kind != K::kSetDefault &&
               c.kind != K::kDropDefault) {
      return false;
    }
  }
  for (std::size_t k = 0; k < plan.spec.columns.size(); ++k) {
    if (!plan.sources[k] && plan.default_now[k]) return false;  // each row would get the time
  }
  return adds_or_drops;
}

// ALGORITHM=INSTANT, or no algorithm on a table that has rows (MySQL rebuilds an empty one):
// the columns change without a copy, the table gaining a row version. Nothing when the
// statement is not for that (the caller copies); an error when INSTANT was asked and cannot be.
std::optional<StatementOutcome> Session::AlterInstantly(Table& table, const AlterPlan& plan, const AlterTable& a) {
  const bool asked = a.algorithm == "INSTANT";
  if ((!asked && !a.algorithm.empty() && a.algorithm != "DEFAULT") || !InstantCandidate(a, plan)) return std::nullopt;
  const TableSpec& spec = table.spec();
  auto refuse = [&](const std::string& reason) -> std::optional<StatementOutcome> {
    if (!asked) return std::nullopt;
    return Error(
        {1846, "0A000", fmt::format("ALGORITHM=INSTANT is not supported. Reason: {}. Try ALGORITHM=COPY", reason)});
  };
  if (spec.row_version >= engine::kMaxRowVersion)
    return refuse(
        fmt::format("Maximum row versions reached for table {}/{}. No more columns can be added or "
                    "dropped instantly",
                    spec.database, spec.name));
  if (!asked) {
    bool empty = true;
    Status st = table.Scan({}, [&](const Row&) { return empty = false; });
    if (!st.ok()) return Error(FromStatus(st));
    if (empty) return std::nullopt;
  }
  std::vector<Value> fills(plan.spec.columns.size());
  for (std::size_t k = 0; k < fills.size(); ++k) {
    if (!plan.sources[k])
      fills[k] = RowBuilder::DefaultOf(plan.spec.columns[k]).value_or(ImplicitDefault(plan.spec.columns[k]));
  }
  Status st = db_.AlterColumnsInstantly(spec.database, spec.name, plan.spec, plan.sources, fills);
  if (st.code() == Status::Code::kNotSupported) return refuse(st.message());
  if (!st.ok()) return Error(FromStatus(st));
  StatementOutcome o;
  o.warnings = plan.notes;
  return o;
}

StatementOutcome Session::DoAlterTable(const AlterTable& a) {
  auto table = FindTable(a.table);
  if (!table.ok()) return Error(table.error());
  const TableSpec& spec = (*table)->spec();
  auto plan = PlanAlter(spec, a);
  if (!plan.ok()) return Error(plan.error());
  bool in_place = !plan->copy;
  if (a.algorithm == "INSTANT" && (plan->copy || !plan->indexes_only.empty()) && !InstantCandidate(a, *plan))
    return Error({1845, "0A000", "ALGORITHM=INSTANT is not supported for this operation. Try ALGORITHM=COPY"});
  if (a.algorithm == "INPLACE" && plan->copy && a.changes.empty() && !a.rebuild)
    return Error({1845, "0A000", "ALGORITHM=INPLACE is not supported for this operation. Try ALGORITHM=COPY"});
  if (a.rename_to) {
    if (auto refused = CheckUserTableName(a.rename_to->name)) return Error(*refused);
    if (auto refused = RefuseIfTriggered(spec.database, spec.name, "ALTER TABLE ... RENAME")) return Error(*refused);
    if (auto refused = RefuseIfReferenced(spec.database, spec.name, "ALTER TABLE ... RENAME")) return Error(*refused);
  }
  {
    StatementOutcome refused;
    if (auto e = AlterKeepsReferences(spec, *plan, refused.warnings)) {
      refused.error = std::move(*e);
      refused.error_listed = !refused.warnings.empty();
      return refused;
    }
  }
  // The table and its spec go when the copy replaces them.
  const std::string database = spec.database, name = spec.name;
  const std::size_t old_indexes = spec.indexes.size();
  StatementOutcome o;
  std::optional<StatementOutcome> instant;
  if (plan->copy) instant = AlterInstantly(**table, *plan, a);
  if (instant) {
    if (instant->error) return std::move(*instant);
    o = std::move(*instant);
    in_place = true;
  } else if (plan->copy) {
    o = CopyAltered(**table, *plan, a);
    if (o.error) return o;
  } else {
    o.warnings = plan->notes;
    for (const IndexSpec& index : plan->indexes_only) {
      Status st = db_.CreateIndex(database, name, index);
      if (!st.ok()) return Error(FromStatus(st));
    }
  }
  for (SqlWarning& note : DuplicateIndexNotes(plan->spec, old_indexes)) o.warnings.push_back(std::move(note));
  for (const std::string& w : a.definitions.ignored)
    o.warnings.push_back({SqlWarning::Level::kWarning, 1235, "Accepted without effect: " + w});
  if (a.rename_to) {
    const std::string& to_database = a.rename_to->database.empty() ? database : a.rename_to->database;
    if (to_database != database || a.rename_to->name != name) {
      Status st = db_.RenameTable(database, name, to_database, a.rename_to->name);
      if (!st.ok()) return Error(FromStatus(st));
    }
  }
  // "Records: N  Duplicates: 0  Warnings: W" for a statement that touched rows, as the client shows it.
  if (!in_place || !plan->indexes_only.empty() || instant)
    o.info = fmt::format("Records: {}  Duplicates: 0  Warnings: {}", in_place ? 0 : o.rows, o.warnings.size());
  if (in_place) o.rows = 0;
  return o;
}

// In order; when one fails, those before it are renamed back, so the statement is all or nothing.
StatementOutcome Session::DoRenameTable(const RenameTable& r) {
  std::vector<std::pair<TableName, TableName>> done;  // (a view's are undone as views)
  auto resolve = [&](const TableName& n) { return TableName{n.database.empty() ? database_ : n.database, n.name}; };
  std::optional<SqlError> failed;
  for (const auto& [from_name, to_name] : r.renames) {
    const TableName from = resolve(from_name), to = resolve(to_name);
    if (from.database.empty() || to.database.empty()) {
      failed = SqlError{1046, "3D000", "No database selected"};
      break;
    }
    if ((failed = CheckUserTableName(to.name))) break;
    auto view = db_.GetTable(from.database, from.name).ok() ? SqlResult<bool>(false) : RenameView(from, to);
    if (!view.ok()) {
      failed = view.error();
      break;
    }
    if (*view) {
      done.emplace_back(from, to);
      continue;
    }
    if (!db_.GetTable(from.database, from.name).ok()) {
      failed = SqlError{1146, "42S02", fmt::format("Table '{}' doesn't exist", Qualified(from.database, from.name))};
      break;
    }
    if ((failed = RefuseIfTriggered(from.database, from.name, "RENAME TABLE"))) break;
    if ((failed = RefuseIfReferenced(from.database, from.name, "RENAME TABLE"))) break;
    Status st = db_.RenameTable(from.database, from.name, to.database, to.name);
    if (!st.ok()) {
      failed = FromStatus(st);
      break;
    }
    done.emplace_back(from, to);
  }
  if (!failed) return {};
  for (auto it = done.rbegin(); it != done.rend(); ++it) {
    if (db_.GetTable(it->second.database, it->second.name).ok())
      (void)db_.RenameTable(it->second.database, it->second.name, it->first.database, it->first.name);
    else
      (void)RenameView(it->second, it->first);
  }
  return Error(*failed);
}

// An empty table of the same definition swapped in, its AUTO_INCREMENT counter back at 1, as
// MariaDB's TRUNCATE leaves it.
StatementOutcome Session::DoTruncate(const Truncate& t) {
  auto table = FindTable(t.table);
  if (!table.ok()) return Error(table.error());
  TableSpec spec = (*table)->spec();
  if (auto refused = TruncateAllowed(spec)) return Error(*refused);
  const std::string name = spec.name;
  spec.name = WorkTableName("truncate");
  spec.auto_increment = 0;  // from 1 again, whatever CREATE TABLE's AUTO_INCREMENT= said
  auto work = db_.CreateTable(spec);
  if (!work.ok()) return Error(FromStatus(work.status()));
  if (Status st = db_.ReplaceTable(spec.database, name, spec.name); !st.ok()) {
    (void)db_.DropTable(spec.database, spec.name);
    return Error(FromStatus(st));
  }
  return {};
}

// Savepoints of the open transaction by name (case-insensitive); outside one, SAVEPOINT sets
// nothing and ROLLBACK TO finds nothing, as in the server with autocommit on.
StatementOutcome Session::DoSavepoint(const Savepoint& s) {
  auto trx = StatementTransaction();
  if (!trx.ok()) return Error(trx.error());
  if (!*trx) savepoints_.clear();
  auto it = std::find_if(savepoints_.begin(), savepoints_.end(),
                         [&](const auto& p) { return EqualsIgnoreCase(p.first, s.name); });
  if (s.kind == Savepoint::Kind::kSet) {
    if (!*trx) return {};
    if (it != savepoints_.end()) savepoints_.erase(it);
    savepoints_.emplace_back(s.name, (*trx)->Savepoint());
    return {};
  }
  if (it == savepoints_.end()) return Error({1305, "42000", fmt::format("SAVEPOINT {} does not exist", s.name)});
  if (s.kind == Savepoint::Kind::kRelease) {
    savepoints_.erase(it, savepoints_.end());
    return {};
  }
  Status st = (*trx)->RollbackToSavepoint(it->second);
  savepoints_.erase(it + 1, savepoints_.end());  // the savepoint itself stays, as in the server
  if (!st.ok()) return Error(FromStatus(st));
  return {};
}

// A row per table named, its checksum (checksum.h) or NULL with the error as a diagnostic for
// one that is not there, as the server answers.
StatementOutcome Session::DoChecksum(const ChecksumTable& c, ResultSink& sink, Transaction* trx) {
  StatementOutcome o;
  o.result_set = true;
  sink.Header({{"Table", false}, {"Checksum", true}});
  for (const TableName& n : c.tables) {
    const std::string label = (n.database.empty() ? database_ : n.database) + "." + n.name;
    auto t = FindTable(n);
    if (!t.ok()) {
      if (t.error().code == 1046) return Error(t.error());
      sink.Row({label, std::nullopt});
      ++o.rows;
      o.warnings.push_back({SqlWarning::Level::kError, t.error().code, t.error().message});
      continue;
    }
    const TableSpec& spec = (*t)->spec();
    if (auto refusal = ChecksumRefusal(spec)) return Error(NotSupported(*refusal));
    std::uint32_t sum = 0;
    Status failed = Status::Ok();
    Status st = (*t)->Scan(
        {},
        [&](const Row& r) {
          auto crc = RowChecksum(spec, r);
          if (!crc.ok()) failed = crc.status();
          sum += crc.ok() ? *crc : 0;
          return crc.ok() && !interrupted();
        },
        trx);
    if (interrupted()) return Error(Interrupted());
    if (!st.ok() || !failed.ok()) return Error(FromStatus(st.ok() ? failed : st));
    sink.Row({label, std::to_string(sum)});
    ++o.rows;
  }
  return o;
}

}  // namespace strata::sql
