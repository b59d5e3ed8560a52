// Loading mysqldump files fast: the statements of a dump run as `strata sql` would run them,
// except its INSERTs, whose rows are read straight from the text (values_reader.h) by a pool
// of threads and applied by one loader per table, so that tables load side by side and
// reading overlaps writing. Rows of one table are applied in the dump's order, each INSERT
// as one statement (it succeeds or changes nothing). Into an empty table whose rows come in
// primary key order (a dump's usual case) they go through a BulkLoad: B-trees built
// bottom-up, secondary indexes sorted at the end, the rows published when the table's
// section ends (its DROP TABLE of the next load, a statement that reads data, or Finish).
//
//   Importer im(*db, {.database = "shop", .threads = 4});
//   im.Feed(text_block) ... im.FinishFile();   // per file
//   ImportResult r = im.Finish();
#pragma once

#include "sql/engine_api.h"

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "engine/db.h"
#include "sqltext/script.h"
#include "sql/session.h"

namespace strata::sql {

struct ImportOptions {
  // Created when missing and USE'd first. Without it, a dump that uses a table before any USE
  // (mysqldump of one database) loads into the database its header names
  // ("-- Host: localhost    Database: shop"), created when missing.
  std::string database;
  unsigned threads = 0;  // row readers; 0: one per core
  bool force = false;    // go on after a failed statement, as `mysql --force`
};

struct ImportError {
  SqlError error;
  std::uint64_t line = 0;  // where the statement starts in its file
  std::string file;
  std::uint64_t ordinal = 0;  // the statement's place in the whole import (1: the first)
};

// A warning a statement of the dump left (SHOW WARNINGS level Warning or Error): something it
// asked for that did not happen as written.
struct ImportWarning {
  SqlWarning warning;
  std::uint64_t line = 0;
  std::string file;
};

struct ImportResult {
  std::uint64_t rows = 0;           // rows inserted
  std::uint64_t bulk_rows = 0;      // of which built bottom-up into empty tables (BulkLoad)
  std::uint64_t statements = 0;     // statements run
  std::uint64_t skipped = 0;        // versioned statements this server does not support
  std::uint64_t notes = 0;          // SHOW WARNINGS level Note ("Unknown table" of DROP IF EXISTS, ...)
  std::uint64_t warning_count = 0;  // level Warning, of which the first kKeptWarnings are kept:
  std::vector<ImportWarning> warnings;
  static constexpr std::size_t kKeptWarnings = 20;
  std::set<std::string> tables;     // "db.table" that received rows
  std::string header_database;      // the header's database, when the dump needed it (ImportOptions::database)
  std::vector<ImportError> errors;  // the first stops the import unless `force`
  // Tables load side by side, so when a statement fails, another table's loader may already
  // have applied INSERTs that come after it in the dump (every one before it is applied).
  std::uint64_t rows_after_error = 0, statements_after_error = 0;
};

class Importer {
 public:
  Importer(Database& db, ImportOptions options);
  ~Importer();

  // The statements of one file, in pieces of any size; false once an error stopped it.
  bool Feed(std::string_view text);
  // The end of the current file (a last statement without a delimiter runs); the next Feed
  // starts a new file, counting lines from 1, named `file` in errors.
  bool FinishFile();
  void StartFile(std::string file);
  // Waits for every table's rows to be applied.
  ImportResult Finish();

  // For progress: rows applied so far, and the table the reader is on.
  std::uint64_t rows() const { return rows_.load(); }
  std::string current_table() const;

 private:
  struct Job;
  struct TableLoad;
  bool OnStatement(ScriptStatement& st);
  bool FastInsert(ScriptStatement& st);
  void ScanHeader(std::string_view text);
  // Before a statement that needs a database when none is selected: the header's one.
  void UseHeaderDatabase(const ScriptStatement& st);
  void Fail(ImportError e);
  void Warn(const StatementOutcome& o, std::uint64_t line, const std::string& file);
  bool Stopped() const { return stopped_.load(); }
  // Waits until every queued row is in and published (bulk loads finished).
  void Drain();
  // Ends the loaders of the named tables ("db.table"), or of all, once their rows are in.
  void RetireLoaders(const std::vector<std::string>* only = nullptr);
  std::uint64_t Apply(TableLoad& t, Job& job);  // the rows it inserted
  void ParseLoop();
  void LoadLoop(TableLoad* t);

  Database& db_;
  ImportOptions options_;
  Session session_;
  // session_'s settings as the INSERTs read since its last other statement see them.
  std::shared_ptr<const Session::Settings> settings_;
  StatementSplitter splitter_;
  std::string file_;
  std::string header_database_;  // from the current file's header comment
  bool header_scanned_ = false;

  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::vector<std::unique_ptr<Job>> parse_queue_;  // FIFO (front at index 0)
  std::vector<std::unique_ptr<Job>> graveyard_;    // applied jobs, for a reader thread to free
  std::map<Table*, std::unique_ptr<TableLoad>> tables_;
  std::size_t in_flight_ = 0;  // jobs queued or being parsed or applied
  bool closing_ = false;       // the parser threads end
  bool closed_ = false;        // Finish ran
  std::vector<std::thread> parsers_;
  std::string current_table_;

  std::atomic<bool> stopped_{false};
  // The first failed statement's ordinal: INSERTs before it are applied, those after it not
  // (unless already applied when the failure became known).
  std::atomic<std::uint64_t> stop_ordinal_{UINT64_MAX};
  std::vector<std::pair<std::uint64_t, std::uint64_t>> applied_;  // (ordinal, rows) of each applied INSERT
  std::atomic<std::uint64_t> rows_{0};
  std::atomic<std::uint64_t> bulk_rows_{0};
  ImportResult result_;
};

}  // namespace strata::sql
