// The engine's public API (architecture.md §3, layer 11): a data directory holding InnoDB-layout
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
// Transactions (architecture layers 8-10): Begin() starts one; each Table call given it is
// a statement of it, and a statement that fails rolls back only itself. A call without a
// transaction is an autocommit statement. Changes write undo records in ibdata1's rollback
// segment; Commit makes the commit durable (flush_log_at_trx_commit=1) before it returns and
// then releases the row locks; Rollback and a crash undo what the undo log holds. Reads are
// consistent (MVCC, older versions built from undo) unless they ask for a row lock; purge
// removes delete-marked rows and committed undo no read view needs any more. See
// engine/README.md for the transaction model and where it departs from InnoDB.
//
// Operations on one Database are safe from many threads (page changes run one at a time,
// commits share log flushes). Pages reach the files when the page cleaner or eviction writes
// them, on Flush(), and when the database closes.
//
// The vocabulary the API speaks has headers of its own: `row.h` (Row, RowLock, ScanOptions,
// InsertOptions), `db_options.h` (DatabaseOptions, TransactionOptions), `engine_status.h`
// (EngineStatus, TableStats).
#pragma once

#include <chrono>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <atomic>
#include <condition_variable>
#include <future>
#include <shared_mutex>
#include <thread>
#include <string>
#include <vector>

#include "engine/buffer_pool.h"
#include "engine/db_options.h"
#include "engine/doublewrite.h"
#include "engine/engine_status.h"
#include "engine/env.h"
#include "engine/recovery.h"
#include "engine/redo_log.h"
#include "engine/row.h"
#include "engine/schema.h"
#include "engine/trx_sys.h"

namespace strata::engine {

class Database;

class Transaction {
 public:
  ~Transaction();  // rolls back a transaction still active
  // Durable when it returns (as flush_log_at_trx_commit asks); its locks are released then,
  // or before the log write with early lock release.
  Status Commit();
  // Asynchronous commit: returns once the commit record is in the log buffer, with the locks
  // released (as early lock release does); the future turns ready when the commit is durable,
  // or with the error that kept it from being so.
  std::shared_future<Status> CommitAsync();
  Status Rollback();
  bool active() const;
  // A statement made of several calls (an UPDATE of many rows) marks where it began and, when
  // one of its calls fails, undoes back to the mark: the transaction goes on without it.
  std::uint64_t Savepoint() const;
  Status RollbackToSavepoint(std::uint64_t savepoint);
  std::uint64_t id() const;  // 0 until its first write
  Isolation isolation() const;

 private:
  friend class Database;
  friend class Table;
  Transaction(Database* db, std::unique_ptr<TrxImpl> impl);
  Database* db_;
  std::unique_ptr<TrxImpl> impl_;
};

class TableImpl;

// Rows loaded into an empty table without inserting them one by one: they must come in
// ascending primary key order; the clustered index is built bottom-up as they arrive
// (InnoDB's sorted index build) and each secondary index from its entries, sorted, at
// Finish. The table's readers see it empty until Finish publishes the rows. No undo is
// written: the load is not a transaction, and a crash before Finish leaves the table empty
// (with redo on) or the directory refusing to open (with redo off, as any unlogged change).
class BulkLoad {
 public:
  // A statement's rows encoded as index records, made on any thread without the database's
  // lock (see Table::PrepareBulkRows); Add then only appends them.
  struct Prepared;
  struct PreparedDeleter {
    void operator()(Prepared* p) const;
  };
  using PreparedRows = std::unique_ptr<Prepared, PreparedDeleter>;

  ~BulkLoad();
  // Adds one statement's rows, all or none of them. InvalidArgument: a value its column
  // cannot hold. NotSupported: a row whose key is not above the previous one (or a key this
  // load cannot sort); the load is as before the call and may be finished, the rest
  // inserted the ordinary way.
  Status Add(const std::vector<Row>& rows, InsertOptions options = {});
  Status Add(Prepared& rows);
  Status Finish();
  std::uint64_t rows() const;

 private:
  friend class Table;
  struct State;
  explicit BulkLoad(std::unique_ptr<State> state);
  static Result<std::unique_ptr<BulkLoad>> Begin(TableImpl& table);
  static Result<PreparedRows> Prepare(TableImpl& table, const std::vector<Row>& rows, InsertOptions options);
  std::unique_ptr<State> s_;
};

class Table {
 public:
  ~Table();
  const TableSpec& spec() const;

  // Each call is a statement: of `trx` when given, else an autocommit transaction of its own.
  // A failed statement changes nothing; Deadlock means the whole transaction was rolled back.
  //
  // AlreadyExists for a duplicate primary or unique key. An AUTO_INCREMENT column given NULL
  // or 0 gets the next value.
  Status Insert(const Row& row, Transaction* trx = nullptr, InsertOptions options = {});
  // Inserts rows in order as one statement; the first failure names the row's position.
  Status InsertBatch(const std::vector<Row>& rows, Transaction* trx = nullptr, InsertOptions options = {});
  // The row with this primary key (values of the primary key columns, or the hidden row id):
  // the version the transaction's read view sees, or with a lock the latest one.
  Result<std::optional<Row>> Get(const std::vector<Value>& primary_key, Transaction* trx = nullptr,
                                 RowLock lock = RowLock::kNone);
  // Replaces the row that has the same primary key; NotFound when there is none.
  Status Update(const Row& row, Transaction* trx = nullptr);
  Status Delete(const std::vector<Value>& primary_key, Transaction* trx = nullptr);
  // Visits rows in index order while `fn` returns true.
  Status Scan(const ScanOptions& options, const std::function<bool(const Row&)>& fn, Transaction* trx = nullptr);

  // A bulk load into this table (see BulkLoad): NotSupported unless the table is empty and
  // has a primary key and no unique secondary index (whose duplicates could only be found
  // at the end, after rows were in).
  Result<std::unique_ptr<BulkLoad>> BeginBulkLoad();
  // Encodes rows for BulkLoad::Add from any thread. NotSupported when a row needs what only
  // the load itself may do (an AUTO_INCREMENT value to assign, a column to move off-page).
  Result<BulkLoad::PreparedRows> PrepareBulkRows(const std::vector<Row>& rows, InsertOptions options = {});

  std::uint64_t last_insert_id() const;
  TableStats stats() const;
  // Structural check of every index of the table (see Btree::Check).
  Status Check();
  const std::filesystem::path& path() const;
  std::uint64_t file_bytes() const;  // the tablespace's size (pages × page size)

 private:
  friend class Database;
  Table(std::unique_ptr<TableImpl> impl, Database* db);
  std::unique_ptr<TableImpl> impl_;
  Database* db_;
};

class Database {
 public:
  // Creates (when allowed and missing) or opens a data directory. Busy when another process
  // holds it; Corruption naming the file when a file is damaged.
  static Result<std::unique_ptr<Database>> Open(const std::filesystem::path& dir, DatabaseOptions options);
  ~Database();  // writes every dirty page

  Result<std::unique_ptr<Transaction>> Begin(TransactionOptions options = {});
  // The transaction system's state: history list length, purge progress, transactions.
  EngineStatus StatusReport();
  std::uint64_t history_list_length() const;
  // Runs purge now as far as the oldest read view allows; the undo logs it removed.
  Result<std::uint64_t> Purge();
  void set_lock_wait_timeout(std::chrono::milliseconds t);
  // SET GLOBAL innodb_flush_log_at_trx_commit: 0, 1 or 2, for commits from now on.
  Status set_flush_log_at_trx_commit(int value);
  int flush_log_at_trx_commit() const { return flush_log_at_trx_commit_; }
  void set_early_lock_release(bool on) { elr_enabled_ = on; }
  bool early_lock_release() const { return elr_enabled_; }
  void set_max_elr_dependent_trx_count(std::size_t n) { elr_max_ = n; }
  std::size_t max_elr_dependent_trx_count() const { return elr_max_; }
  // Durable up to everything committed so far (the end of a script that committed
  // asynchronously waits here before it reports success).
  Status WaitDurable();

  // Hot-row group commit: runs `body` (one statement) in a transaction shared with the other
  // statements queued on the same `group` (a table and row) meanwhile. One leader runs them in
  // queue order, each as a statement of its own (a failure undoes that statement alone),
  // commits them as one, and each caller returns once that commit is durable: one lock
  // acquisition, one commit record and one fsync for the lot.
  Status RunGrouped(const std::string& group, const std::function<Status(Transaction&)>& body);
  // SET GLOBAL hot_row_group_commit_tables = 'db.t1,db.t2': every autocommit single-row UPDATE
  // of these tables goes through RunGrouped, hint or not.
  void set_group_commit_tables(const std::string& list);
  std::string group_commit_tables() const;
  bool groups_commits_of(const std::string& database, const std::string& table) const;

  Status CreateDatabase(const std::string& name);
  std::vector<std::string> ListDatabases() const;
  // Drops its tables, then the database; NotFound when there is none.
  Status DropDatabase(const std::string& name);
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
  Status CreateFiles();      // a new data directory's files (Open)
  Status OpenDoublewrite();  // and route page writes through it
  Status Load();
  Status SaveCatalog();
  Result<std::unique_ptr<Tablespace>> OpenTablespace(const std::string& database, const std::string& name,
                                                     std::uint32_t space_id);
  Status Checkpoint();
  Status FreeCheck();  // keeps the log from filling: flushes pages and checkpoints past half
  Status BeforeWrite();
  Status ReadOnly() const;  // the refusal of a change under force_recovery >= 3
  void AttachTable(TableImpl& t);
  void BackgroundLoop();
  void PurgeLoop();
  // Transactions (transaction.cc).
  Status LoadTransactions(bool roll_back);  // the rollback segment, and rollback of what a crash left
  Status RunStatement(TrxImpl* trx, Isolation autocommit_isolation, const std::function<Status(TrxImpl&)>& body);
  // `in_memory`, when given, runs once the commit is in memory, before it is made durable.
  Status CommitTrx(TrxImpl& trx, const std::function<void()>& in_memory = nullptr);
  // A commit in two halves: in memory (numbered, undo logs closed, and with `release_early`
  // the locks released and the transaction ended), then durability (as
  // flush_log_at_trx_commit asks) and the end of a transaction still holding its locks.
  struct CommitTicket {
    Status status;
    ondisk::Lsn lsn;         // the log end at the commit: durable to here acknowledges it
    bool released = false;   // locks released before durability
  };
  CommitTicket CommitInMemory(TrxImpl& trx, bool release_early);
  Status CommitDurable(TrxImpl& trx, const CommitTicket& ticket);
  Status MakeDurable(ondisk::Lsn lsn);  // as flush_log_at_trx_commit asks
  void StopWrites(const Status& cause);  // after a failed log write: nothing more is accepted
  void Halt(const Status& cause);        // after a failed rollback: no statement is accepted
  Status WriteStopped() const;
  // Undoes records at or past to_undo_no; a failure halts the database (see AbandonTrx).
  Status RollbackTrx(TrxImpl& trx, std::uint64_t to_undo_no);
  Status UndoDownTo(TrxImpl& trx, std::uint64_t to_undo_no);  // mu_ held
  Status RollbackAndEnd(TrxImpl& trx);  // the whole transaction, then its end (or abandonment)
  void AbandonTrx(TrxImpl& trx);
  Status EndTrx(TrxImpl& trx, bool commit);
  Status EnsureWritable(TrxImpl& trx);  // an id and undo logs (write lock held)
  Result<std::uint64_t> PurgeOneLog(const ReadView& view);  // 1 when a log was purged
  TableImpl* TableById(std::uint64_t table_id);

  std::filesystem::path dir_;
  DatabaseOptions options_;
  Env* env_ = nullptr;
  std::unique_ptr<FileLock> lock_;
  std::unique_ptr<BufferPool> pool_;
  std::unique_ptr<Tablespace> system_;
  std::unique_ptr<RedoLog> log_;
  std::unique_ptr<Doublewrite> dblwr_;
  RecoveryStats recovery_;
  bool read_only_ = false;   // force_recovery >= 3: every change refused, nothing flushed at close
  bool skip_redo_ = false;   // force_recovery 6: no doublewrite restore, no redo replay
  bool opened_ = false;  // a database that failed to open is not flushed on destruction
  std::mutex bg_mu_;
  std::condition_variable bg_cv_;
  std::atomic<bool> bg_stop_{false};  // set under bg_mu_ (for the waits); purge also reads it between logs
  std::thread background_;
  std::mutex serial_commit_mu_;  // group_commit off: held from a write's start to its fsync
  std::atomic<std::uint64_t> commits_{0};
  std::atomic<int> flush_log_at_trx_commit_{1};
  std::atomic<bool> elr_enabled_{false};
  std::atomic<std::size_t> elr_max_{1000};
  std::atomic<std::size_t> elr_waiting_{0};      // released early, not yet durable
  std::atomic<std::uint64_t> elr_lsn_{0};        // newest early-released commit
  mutable std::mutex stop_mu_;
  Status write_stop_;                            // set by StopWrites
  std::atomic<bool> writes_stopped_{false};
  Status halt_;                                  // set by Halt
  std::atomic<bool> halted_{false};
  std::unique_ptr<class AsyncCommitQueue> async_commits_;
  std::unique_ptr<struct HotRowGroups> hot_rows_;
  mutable std::mutex group_tables_mu_;
  std::vector<std::string> group_commit_tables_;  // "db.table"
  mutable std::shared_mutex mu_;  // writers exclusive, readers shared
  std::map<std::string, std::unique_ptr<Table>> tables_;  // "db/table"
  std::vector<std::string> databases_;
  std::unique_ptr<Rseg> rseg_;
  std::unique_ptr<TrxSys> trx_sys_;
  std::vector<std::unique_ptr<TrxImpl>> unrolled_;  // left active by a crash, not rolled back (force_recovery >= 3)
  std::unique_ptr<LockSys> lock_sys_;
  std::thread purge_thread_;
  std::mutex purge_mu_;  // one purge at a time
  std::atomic<std::uint64_t> purged_logs_{0}, purged_records_{0};
  std::uint32_t next_space_id_ = 1;
  std::uint64_t next_index_id_ = 1;
  std::uint64_t next_table_id_ = 1;
  friend class TableImpl;
  friend class Transaction;
  friend class Table;
};

}  // namespace strata::engine
