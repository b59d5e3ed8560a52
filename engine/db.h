// The engine's public API (architecture layer 12): a data directory holding InnoDB-layout
// files, tables in it, and row operations on them.
//
//   auto db = Database::Open("/data/strata", {});
//   TableSpec spec{"shop", "orders", {{"id", ColumnType::kBigInt, ...}, ...}, {"id"}, {}};
//   auto t = (*db)->CreateTable(spec);
//   (*t)->Insert({Value::Int(1), Value::String("first")});
//
// The data directory (architecture.md §2): `ibdata1` (the system tablespace, with the
// engine's catalog of tables), `<database>/<table>.ibd` per table, and `strata.lock`, held
// while the directory is open so that a second process gets a clear error.
//
// Each operation is its own transaction: it changes pages in mini-transactions whose redo is
// durable (flush_log_at_trx_commit=1) before the operation returns; after a crash, Open
// replays the log. Undo and multi-statement transactions come with the transactions issue. Operations on one Database are safe from many threads
// (writes run one at a time). Pages reach the files when the page cleaner or eviction writes
// them, on Flush(), and when the database closes.
#pragma once

#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <atomic>
#include <condition_variable>
#include <shared_mutex>
#include <thread>
#include <string>
#include <vector>

#include "engine/buffer_pool.h"
#include "engine/doublewrite.h"
#include "engine/env.h"
#include "engine/recovery.h"
#include "engine/redo_log.h"
#include "engine/schema.h"

namespace strata::engine {

using Row = std::vector<Value>;  // one value per column, in the table's column order

struct DatabaseOptions {
  std::size_t buffer_pool_bytes = 128u << 20;  // innodb_buffer_pool_size
  std::uint64_t redo_log_bytes = 96u << 20;    // the circular log's capacity (a new log only)
  // innodb_flush_log_at_trx_commit: 1 durable at each commit; 2 written at commit, synced
  // every second; 0 written and synced every second.
  int flush_log_at_trx_commit = 1;
  // Commits from many threads share log writes and fsyncs. Off (for measuring what it buys):
  // each commit's change and its fsync run alone, one commit after another.
  bool group_commit = true;
  // Opens a directory that stopped uncleanly with redo logging disabled, without recovery and
  // refusing every write, so that what is readable can be copied out.
  bool read_only_salvage = false;
  bool create_if_missing = true;
  bool page_cleaner = true;
  Env* env = nullptr;  // Env::Default() when null
};

struct ScanOptions {
  std::string index = "PRIMARY";  // or a secondary index's name
  std::vector<Value> from;        // a key prefix to start at; empty: from an end
  bool forward = true;            // ascending from the first key >= from, or descending from the last <= from
};

struct TableStats {
  std::uint64_t rows_inserted = 0, rows_updated = 0, rows_deleted = 0;
  std::uint64_t page_splits = 0, page_merges = 0;
};

class Database;
class TableImpl;

class Table {
 public:
  ~Table();
  const TableSpec& spec() const;

  // AlreadyExists for a duplicate primary or unique key (nothing is changed then).
  // An AUTO_INCREMENT column given NULL or 0 gets the next value.
  Status Insert(const Row& row);
  // Inserts rows in order; stops at the first failure, which names the row's position.
  Status InsertBatch(const std::vector<Row>& rows);
  // The row with this primary key (values of the primary key columns, or the hidden row id).
  Result<std::optional<Row>> Get(const std::vector<Value>& primary_key);
  // Replaces the row that has the same primary key; NotFound when there is none.
  Status Update(const Row& row);
  Status Delete(const std::vector<Value>& primary_key);
  // Visits rows in index order while `fn` returns true.
  Status Scan(const ScanOptions& options, const std::function<bool(const Row&)>& fn);

  std::uint64_t last_insert_id() const;
  TableStats stats() const;
  // Structural check of every index of the table (see Btree::Check).
  Status Check();
  const std::filesystem::path& path() const;

 private:
  friend class Database;
  explicit Table(std::unique_ptr<TableImpl> impl);
  std::unique_ptr<TableImpl> impl_;
};

class Database {
 public:
  // Creates (when allowed and missing) or opens a data directory. Busy when another process
  // holds it; Corruption naming the file when a file is damaged.
  static Result<std::unique_ptr<Database>> Open(const std::filesystem::path& dir, DatabaseOptions options);
  ~Database();  // writes every dirty page

  Status CreateDatabase(const std::string& name);
  std::vector<std::string> ListDatabases() const;
  // AlreadyExists when the table exists.
  Result<Table*> CreateTable(const TableSpec& spec);
  // NotFound when there is no such table.
  Result<Table*> GetTable(const std::string& database, const std::string& name);
  Status DropTable(const std::string& database, const std::string& name);
  std::vector<std::string> ListTables(const std::string& database) const;
  // Adds a secondary index and fills it from the table's rows.
  Status CreateIndex(const std::string& database, const std::string& table, const IndexSpec& index);

  // Writes every dirty page, syncs the files and moves the checkpoint to the end of the log.
  Status Flush();
  // ALTER INSTANCE DISABLE|ENABLE INNODB REDO_LOG. Disabling makes later changes unlogged
  // (fast, and lost or half-written by a crash: the directory then refuses to open, see
  // Open). Enabling writes every dirty page and a checkpoint before it returns, so a later
  // crash recovers everything.
  Status SetRedoLogging(bool enabled);
  bool redo_logging() const;  // Innodb_redo_log_enabled
  RedoStats redo_stats() const;
  BufferPoolStats buffer_pool_stats();
  // The recovery that ran at Open (zeros when the log was clean).
  const RecoveryStats& recovery() const { return recovery_; }
  DoublewriteStats doublewrite_stats() const { return dblwr_->stats(); }
  const std::filesystem::path& dir() const { return dir_; }

 private:
  Database() = default;
  Status Load();
  Status SaveCatalog();
  Result<std::unique_ptr<Tablespace>> OpenTablespace(const std::string& database, const std::string& name,
                                                     std::uint32_t space_id);
  Status Checkpoint();
  Status FreeCheck();  // keeps the log from filling: flushes pages and checkpoints past half
  Status BeforeWrite();
  Status AfterWrite();
  void AttachTable(TableImpl& t);
  void BackgroundLoop();

  std::filesystem::path dir_;
  DatabaseOptions options_;
  Env* env_ = nullptr;
  std::unique_ptr<FileLock> lock_;
  std::unique_ptr<BufferPool> pool_;
  std::unique_ptr<Tablespace> system_;
  std::unique_ptr<RedoLog> log_;
  std::unique_ptr<Doublewrite> dblwr_;
  RecoveryStats recovery_;
  bool salvage_ = false;
  bool opened_ = false;  // a database that failed to open is not flushed on destruction
  std::mutex bg_mu_;
  std::condition_variable bg_cv_;
  bool bg_stop_ = false;
  std::thread background_;
  std::mutex serial_commit_mu_;  // group_commit off: held from a write's start to its fsync
  std::atomic<std::uint64_t> commits_{0};
  mutable std::shared_mutex mu_;  // writers exclusive, readers shared
  std::map<std::string, std::unique_ptr<Table>> tables_;  // "db/table"
  std::vector<std::string> databases_;
  std::uint32_t next_space_id_ = 1;
  std::uint64_t next_index_id_ = 1;
  std::uint64_t next_table_id_ = 1;
  friend class TableImpl;
};

}  // namespace strata::engine
