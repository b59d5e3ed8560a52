#include "sql/import.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "sqltext/lexer.h"
#include "sql/parser.h"
#include "sql/column_fit.h"
#include "sql/row_builder.h"
#include "sql/values_reader.h"
#include "ondisk/identifier.h"

namespace strata::sql {

namespace {

// Results of statements in a dump (a SELECT, a SHOW) go nowhere, as `mysql < dump` run
// with its output discarded.
struct Discard : ResultSink {
  void Header(const std::vector<ColumnHeader>&) override {}
  void Row(const std::vector<std::optional<std::string>>&) override {}
};

}  // namespace

// One INSERT on its way: read by a parser thread, applied by its table's loader.
struct Importer::Job {
  std::uint64_t seq = 0;
  std::uint64_t ordinal = 0;  // in the whole import (ImportError::ordinal)
  TableLoad* table = nullptr;
  std::string text;
  std::size_t values_at = 0;
  std::vector<std::string> columns;
  std::uint64_t line = 0;
  std::string file;
  InsertOptions insert_options;  // the session's sql_mode when the INSERT was read
  bool strict = true;            // ... and whether it was strict
  // ... and all it had SET (foreign_key_checks, sql_mode, time_zone...), for a fallback
  std::shared_ptr<const Session::Settings> settings;
  std::vector<Row> rows;
  std::size_t row_count = 0;        // rows.size() before they were dropped for `prepared`
  BulkLoad::PreparedRows prepared;  // the rows encoded, while the table may bulk load
  bool fallback = false;            // not only literals: the loader runs it through a session
  std::optional<SqlError> error;
};

struct Importer::TableLoad {
  Table* table = nullptr;
  std::string database, name;
  std::uint64_t assigned = 0;  // jobs numbered so far (the reader's side)
  std::uint64_t applied = 0;   // jobs applied, in number order
  std::map<std::uint64_t, std::unique_ptr<Job>> ready;
  std::thread loader;
  std::unique_ptr<Session> session;  // for INSERTs that are more than literals
  bool retire = false;               // the loader ends once everything assigned is applied
  bool publish = false;              // finish the bulk load once everything assigned is applied
  std::unique_ptr<BulkLoad> bulk;    // while rows go in bottom-up (the loader's own)
  bool bulk_tried = false;
  std::atomic<bool> bulk_possible{true};  // readers encode rows for the bulk load meanwhile
};

Importer::Importer(Database& db, ImportOptions options) : db_(db), options_(std::move(options)), session_(db) {
  if (!options_.database.empty()) {
    Discard none;
    (void)session_.Execute("CREATE DATABASE IF NOT EXISTS " + ondisk::QuoteIdentifier(options_.database), none);
    auto o = session_.Execute("USE " + ondisk::QuoteIdentifier(options_.database), none);
    if (o.error) Fail({*o.error, 0, ""});
  }
  unsigned n = options_.threads ? options_.threads : std::max(1u, std::thread::hardware_concurrency());
  for (unsigned i = 0; i < n; ++i) parsers_.emplace_back([this] { ParseLoop(); });
}

Importer::~Importer() { (void)Finish(); }

std::string Importer::current_table() const {
  std::lock_guard lock(mu_);
  return current_table_;
}

void Importer::StartFile(std::string file) {
  file_ = std::move(file);
  splitter_ = StatementSplitter();
  header_database_.clear();
  header_scanned_ = false;
}

// mysqldump and mariadb-dump open with "-- Host: localhost    Database: shop".
void Importer::ScanHeader(std::string_view text) {
  header_scanned_ = true;
  text = text.substr(0, 4096);
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t nl = std::min(text.find('\n', at), text.size());
    const std::string_view line = text.substr(at, nl - at);
    at = nl + 1;
    if (line.rfind("-- Host:", 0) != 0) continue;
    const std::size_t db = line.find("Database: ");
    if (db == std::string_view::npos) return;
    std::string_view name = line.substr(db + 10);
    while (!name.empty() && std::isspace(static_cast<unsigned char>(name.back()))) name.remove_suffix(1);
    header_database_ = std::string(name);
    return;
  }
}

void Importer::UseHeaderDatabase(const ScriptStatement& st) {
  if (header_database_.empty() || !session_.database().empty()) return;
  const Parsed parsed = Parse(st.text);
  if (!parsed.statement) return;
  const Statement& s = *parsed.statement;
  if (std::holds_alternative<NoOp>(s) || std::holds_alternative<Set>(s) || std::holds_alternative<SetTransaction>(s) ||
      std::holds_alternative<Use>(s) || std::holds_alternative<CreateDatabase>(s) ||
      std::holds_alternative<DropDatabase>(s)) {
    return;
  }
  Discard none;
  const std::string quoted = ondisk::QuoteIdentifier(header_database_);
  (void)session_.Execute("CREATE DATABASE IF NOT EXISTS " + quoted, none);
  auto o = session_.Execute("USE " + quoted, none);
  if (o.error) return Fail({*o.error, st.line, file_, result_.statements});
  result_.header_database = header_database_;
}

void Importer::Fail(ImportError e) {
  std::lock_guard lock(mu_);
  if (!options_.force) {
    // Loaders find failures out of dump order: the earliest is the one that stops the import.
    if (e.ordinal >= stop_ordinal_.load()) return;
    stop_ordinal_ = e.ordinal;
    result_.errors.clear();
    stopped_ = true;
  }
  result_.errors.push_back(std::move(e));
}

void Importer::Warn(const StatementOutcome& o, std::uint64_t line, const std::string& file) {
  if (o.warnings.empty()) return;
  std::lock_guard lock(mu_);
  for (const SqlWarning& w : o.warnings) {
    if (w.level == SqlWarning::Level::kNote) {
      ++result_.notes;
      continue;
    }
    if (result_.warnings.size() < ImportResult::kKeptWarnings) result_.warnings.push_back({w, line, file});
    ++result_.warning_count;
  }
}

bool Importer::Feed(std::string_view text) {
  if (Stopped()) return false;
  if (!header_scanned_) ScanHeader(text);
  splitter_.Feed(text, [this](ScriptStatement& st) { return OnStatement(st); });
  return !Stopped();
}

bool Importer::FinishFile() {
  if (!Stopped()) splitter_.Finish([this](ScriptStatement& st) { return OnStatement(st); });
  return !Stopped();
}

bool Importer::OnStatement(ScriptStatement& st) {
  if (Stopped()) return false;
  ++result_.statements;
  if (st.text.size() > kMaxAllowedPacket) {
    Fail({PacketTooLarge(), st.line, file_, result_.statements});
    return false;
  }
  UseHeaderDatabase(st);
  if (FastInsert(st)) return !Stopped();
  const Parsed parsed = Parse(st.text);
  if (parsed.statement) {
    // Statements that only define or set things run at once, beside the loaders. DROP TABLE
    // first lets the loaders of the tables it drops finish (and the tables be published);
    // anything else that reads or changes data waits until every queued row is in.
    const Statement& s = *parsed.statement;
    const bool independent = std::holds_alternative<NoOp>(s) || std::holds_alternative<Set>(s) ||
                             std::holds_alternative<SetTransaction>(s) || std::holds_alternative<Use>(s) ||
                             std::holds_alternative<CreateDatabase>(s) || std::holds_alternative<CreateTable>(s);
    if (const auto* drop = std::get_if<DropTable>(&s)) {
      std::vector<std::string> names;
      for (const TableName& n : drop->tables)
        names.push_back((n.database.empty() ? session_.database() : n.database) + "." + n.name);
      RetireLoaders(&names);
    } else if (!independent) {
      Drain();
      if (std::holds_alternative<DropDatabase>(s)) RetireLoaders();
    }
  }
  Discard none;
  const StatementOutcome o = session_.Run(parsed, none);
  settings_.reset();  // (a statement may SET: the next INSERT takes a fresh copy)
  if (o.skipped) ++result_.skipped;
  Warn(o, st.line, file_);
  if (o.error) Fail({*o.error, st.line, file_, result_.statements});
  return !Stopped();
}

bool Importer::FastInsert(ScriptStatement& st) {
  auto head = ReadInsertHead(st.text);
  if (!head || head->statement.ignore || head->statement.replace) return false;
  const Insert& ins = head->statement;
  const std::size_t values_at = head->values_at;
  auto table = session_.FindTable(ins.table);
  if (!table.ok()) return false;  // the full path reports it
  // The full path fires triggers and finds parents, row by row.
  if (session_.HasTriggers((*table)->spec()) || session_.ChecksForeignKeys((*table)->spec())) return false;
  std::unique_lock lock(mu_);
  auto& load = tables_[*table];
  if (!load) {
    load = std::make_unique<TableLoad>();
    load->table = *table;
    load->database = ins.table.database.empty() ? session_.database() : ins.table.database;
    load->name = ins.table.name;
    load->session = std::make_unique<Session>(db_);
    Discard none;
    (void)load->session->Execute("USE " + ondisk::QuoteIdentifier(load->database), none);
    TableLoad* raw = load.get();
    load->loader = std::thread([this, raw] { LoadLoop(raw); });
    result_.tables.insert(load->database + "." + load->name);
  }
  auto job = std::make_unique<Job>();
  job->seq = load->assigned++;
  job->ordinal = result_.statements;
  job->table = load.get();
  job->text = std::move(st.text);
  job->values_at = values_at;
  job->columns = ins.columns;
  job->line = st.line;
  job->file = file_;
  job->insert_options = session_.insert_options();
  job->strict = session_.strict();
  if (!settings_) settings_ = std::make_shared<const Session::Settings>(session_.settings());
  job->settings = settings_;
  current_table_ = load->database + "." + load->name;
  // Bounded: a few statements per reader thread (each up to a packet, 16 MiB by default).
  const std::size_t limit = 2 * parsers_.size() + 2;
  cv_.wait(lock, [&] { return in_flight_ < limit || stopped_; });
  ++in_flight_;
  parse_queue_.push_back(std::move(job));
  cv_.notify_all();
  return true;
}

void Importer::ParseLoop() {
  for (;;) {
    std::unique_ptr<Job> job;
    {
      std::unique_lock lock(mu_);
      cv_.wait(lock, [&] { return closing_ || !parse_queue_.empty(); });
      if (parse_queue_.empty()) return;
      job = std::move(parse_queue_.front());
      parse_queue_.erase(parse_queue_.begin());
    }
    auto builder = RowBuilder::For(job->table->table->spec(), job->columns);
    if (!builder.ok()) {
      job->error = builder.error();
    } else if (auto rows = ReadRows(job->text, job->values_at, *builder); !rows) {
      job->fallback = true;  // not only literals
    } else if (!rows->ok()) {
      job->error = rows->error();
    } else {
      job->rows = std::move(**rows);
      job->row_count = job->rows.size();
      if (job->table->bulk_possible) {
        // The encoding a bulk load needs is done here, beside the other readers, rather
        // than by the table's one loader.
        auto prepared = job->table->table->PrepareBulkRows(job->rows, job->insert_options);
        if (prepared.ok()) {
          job->prepared = std::move(*prepared);
          job->rows = {};  // freed here, not by the loader (read again from the text if needed)
        }
      }
    }
    // Jobs the loaders are done with are freed here too: a loader is one thread per table.
    std::vector<std::unique_ptr<Job>> done;
    {
      std::lock_guard lock(mu_);
      done.swap(graveyard_);
    }
    done.clear();
    std::lock_guard lock(mu_);
    TableLoad* t = job->table;
    t->ready[job->seq] = std::move(job);
    cv_.notify_all();
  }
}

// Applies a table's INSERTs in the dump's order. The first goes into a bulk load when the
// table is empty and allows one (rows in key order build the B-trees bottom-up); a row out of
// order ends the bulk load and the rest go in as ordinary inserts.
void Importer::LoadLoop(TableLoad* t) {
  for (;;) {
    std::unique_ptr<Job> job;
    {
      std::unique_lock lock(mu_);
      const auto done = [&] { return t->applied == t->assigned; };
      cv_.wait(lock, [&] { return t->ready.count(t->applied) || ((t->retire || t->publish) && done()); });
      auto it = t->ready.find(t->applied);
      if (it != t->ready.end()) {
        job = std::move(it->second);
        t->ready.erase(it);
      } else if (!t->bulk) {
        t->publish = false;
        cv_.notify_all();
        if (t->retire) return;
        continue;
      }
    }
    if (!job) {  // publish: the rows of the bulk load become the table's
      Status s = t->bulk->Finish();
      if (!s.ok()) Fail({FromStatus(s), 0, ""});
      std::lock_guard lock(mu_);
      t->bulk.reset();
      continue;
    }
    // What comes before the failing statement is applied even after the failure is known.
    const std::uint64_t rows = job->ordinal < stop_ordinal_.load() ? Apply(*t, *job) : 0;
    rows_ += rows;
    std::lock_guard lock(mu_);
    if (rows) applied_.emplace_back(job->ordinal, rows);
    ++t->applied;
    --in_flight_;
    graveyard_.push_back(std::move(job));
    cv_.notify_all();
  }
}

std::uint64_t Importer::Apply(TableLoad& t, Job& job) {
  auto fail = [&](SqlError e) {
    Fail({std::move(e), job.line, job.file, job.ordinal});
    return std::uint64_t{0};
  };
  if (job.error) return fail(*job.error);
  if (job.fallback) {
    Discard none;
    if (job.settings) t.session->Adopt(*job.settings);
    const StatementOutcome o = t.session->Execute(job.text, none);
    if (o.error) return fail(*o.error);
    Warn(o, job.line, job.file);
    return o.rows;
  }
  if (!t.bulk_tried) {
    t.bulk_tried = true;
    auto b = t.table->BeginBulkLoad();
    if (b.ok()) {
      std::lock_guard lock(mu_);
      t.bulk = std::move(*b);
    } else {
      t.bulk_possible = false;
    }
  }
  if (t.bulk) {
    Status s = job.prepared ? t.bulk->Add(*job.prepared) : t.bulk->Add(job.rows, job.insert_options);
    if (s.ok()) {
      bulk_rows_ += job.row_count;
      return job.row_count;
    }
    if (!s.IsNotSupported() && !IsValueError(s)) return fail(FromStatus(s));
    // Out of key order, or a value to refuse or mend with the row named: what is loaded is
    // published, and inserts take over.
    t.bulk_possible = false;
    Status f = t.bulk->Finish();
    {
      std::lock_guard lock(mu_);
      t.bulk.reset();
    }
    if (!f.ok()) return fail(FromStatus(f));
  }
  if (job.prepared) {  // its rows were dropped once encoded: read them again
    auto builder = RowBuilder::For(t.table->spec(), job.columns);
    auto rows = builder.ok() ? ReadRows(job.text, job.values_at, *builder) : std::nullopt;
    if (!rows || !rows->ok())
      return fail(rows && !rows->ok() ? rows->error() : SqlError{1105, "HY000", "rows could not be read again"});
    job.rows = std::move(**rows);
  }
  StatementOutcome o;
  if (auto e = InsertFitted(*t.table, job.rows, nullptr, job.insert_options, job.strict, o.warnings))
    return fail(std::move(*e));
  Warn(o, job.line, job.file);
  return job.rows.size();
}

void Importer::Drain() {
  std::unique_lock lock(mu_);
  for (auto& [table, load] : tables_) load->publish = true;
  cv_.notify_all();
  cv_.wait(lock, [&] {
    if (in_flight_) return false;
    for (auto& [table, load] : tables_) {
      if (load->bulk || load->publish) return false;
    }
    return true;
  });
}

ImportResult Importer::Finish() {
  if (closed_) return result_;
  closed_ = true;
  Drain();
  RetireLoaders();
  result_.bulk_rows = bulk_rows_.load();
  {
    std::lock_guard lock(mu_);
    closing_ = true;
    cv_.notify_all();
  }
  for (auto& p : parsers_) p.join();
  result_.rows = rows_.load();
  for (const auto& [ordinal, rows] : applied_) {
    if (ordinal > stop_ordinal_.load() && rows > 0) {
      ++result_.statements_after_error;
      result_.rows_after_error += rows;
    }
  }
  return result_;
}

void Importer::RetireLoaders(const std::vector<std::string>* only) {
  std::vector<std::unique_ptr<TableLoad>> loads;
  {
    std::lock_guard lock(mu_);
    for (auto it = tables_.begin(); it != tables_.end();) {
      const std::string name = it->second->database + "." + it->second->name;
      if (only && std::find(only->begin(), only->end(), name) == only->end()) {
        ++it;
        continue;
      }
      it->second->retire = true;
      loads.push_back(std::move(it->second));
      it = tables_.erase(it);
    }
    cv_.notify_all();
  }
  for (auto& l : loads) l->loader.join();
}

}  // namespace strata::sql
