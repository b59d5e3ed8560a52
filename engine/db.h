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
// InsertOptions), `db_options.h` (DatabaseOptions, TransactionOptions), `isolation.h`,
// `engine_status.h` (EngineStatus, TableStats and the parts' counters). This header is the face only: the state behind it is
// DatabaseImpl's (engine/db_impl.h), which the engine's own files use.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <future>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/db_options.h"
#include "engine/engine_status.h"
#include "engine/row.h"
#include "engine/schema.h"

namespace strata::engine {

class DatabaseImpl;
class TableImpl;
struct TrxImpl;

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
  friend class DatabaseImpl;  // makes it, and hands its state to the statements it is given to
  Transaction(DatabaseImpl* db, std::unique_ptr<TrxImpl> impl);
  DatabaseImpl* db_;
  std::unique_ptr<TrxImpl> impl_;
};

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

// Tables named with this prefix are a statement's work in progress (the copy a copying ALTER
// TABLE fills): an open after a crash drops them, as MySQL drops its #sql- tables.
inline constexpr std::string_view kWorkTablePrefix = "#sql-";

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
  // Visits rows in index order while `fn` returns true. `fn` runs with the database's lock
  // held: it must not write (the write would wait for the lock forever).
  Status Scan(const ScanOptions& options, const std::function<bool(const Row&)>& fn, Transaction* trx = nullptr);

  // A bulk load into this table (see BulkLoad): NotSupported unless the table is empty and
  // has a primary key and no unique secondary index (whose duplicates could only be found
  // at the end, after rows were in).
  Result<std::unique_ptr<BulkLoad>> BeginBulkLoad();
  // Encodes rows for BulkLoad::Add from any thread. NotSupported when a row needs what only
  // the load itself may do (an AUTO_INCREMENT value to assign, a column to move off-page).
  Result<BulkLoad::PreparedRows> PrepareBulkRows(const std::vector<Row>& rows, InsertOptions options = {});

  std::uint64_t last_insert_id() const;
  // The value the next generated AUTO_INCREMENT gets; 0 when the table has no such column.
  std::uint64_t next_auto_increment() const;
  TableStats stats() const;
  // Corruption naming the page when a segment header or inode is damaged.
  Result<TableSize> size() const;
  // Structural check of every index of the table (see Btree::Check).
  Status Check();
  const std::filesystem::path& path() const;
  std::uint64_t file_bytes() const;  // the tablespace's size (pages × page size)

 private:
  friend class DatabaseImpl;  // makes it, and reaches its TableImpl
  Table(std::unique_ptr<TableImpl> impl, DatabaseImpl* db);
  std::unique_ptr<TableImpl> impl_;
  DatabaseImpl* db_;
};

// A data directory, open. Open gives the one implementation (DatabaseImpl); the methods are
// virtual so that this header holds the API and nothing of the state behind it.
class Database {
 public:
  // Creates (when allowed and missing) or opens a data directory. Busy when another process
  // holds it; Corruption naming the file when a file is damaged.
  static Result<std::unique_ptr<Database>> Open(const std::filesystem::path& dir, DatabaseOptions options);
  virtual ~Database() = default;  // writes every dirty page

  virtual Result<std::unique_ptr<Transaction>> Begin(TransactionOptions options = {}) = 0;
  // The transaction system's state: history list length, purge progress, transactions.
  virtual EngineStatus StatusReport() = 0;
  virtual std::uint64_t history_list_length() const = 0;
  // Runs purge now as far as the oldest read view allows; the undo logs it removed.
  virtual Result<std::uint64_t> Purge() = 0;
  virtual void set_lock_wait_timeout(std::chrono::milliseconds t) = 0;
  // SET GLOBAL innodb_flush_log_at_trx_commit: 0, 1 or 2, for commits from now on.
  virtual Status set_flush_log_at_trx_commit(int value) = 0;
  virtual int flush_log_at_trx_commit() const = 0;
  virtual void set_early_lock_release(bool on) = 0;
  virtual bool early_lock_release() const = 0;
  virtual void set_max_elr_dependent_trx_count(std::size_t n) = 0;
  virtual std::size_t max_elr_dependent_trx_count() const = 0;
  // Durable up to everything committed so far (the end of a script that committed
  // asynchronously waits here before it reports success).
  virtual Status WaitDurable() = 0;

  // Hot-row group commit: runs `body` (one statement) in a transaction shared with the other
  // statements queued on the same `group` (a table and row) meanwhile. One leader runs them in
  // queue order, each as a statement of its own (a failure undoes that statement alone),
  // commits them as one, and each caller returns once that commit is durable: one lock
  // acquisition, one commit record and one fsync for the lot.
  virtual Status RunGrouped(const std::string& group, const std::function<Status(Transaction&)>& body) = 0;
  // SET GLOBAL hot_row_group_commit_tables = 'db.t1,db.t2': every autocommit single-row UPDATE
  // of these tables goes through RunGrouped, hint or not.
  virtual void set_group_commit_tables(const std::string& list) = 0;
  virtual std::string group_commit_tables() const = 0;
  virtual bool groups_commits_of(const std::string& database, const std::string& table) const = 0;

  virtual Status CreateDatabase(const std::string& name) = 0;
  virtual std::vector<std::string> ListDatabases() const = 0;
  // Drops its tables, then the database; NotFound when there is none.
  virtual Status DropDatabase(const std::string& name) = 0;
  // AlreadyExists when the table exists.
  virtual Result<Table*> CreateTable(const TableSpec& spec) = 0;
  // NotFound when there is no such table.
  virtual Result<Table*> GetTable(const std::string& database, const std::string& name) = 0;
  virtual Status DropTable(const std::string& database, const std::string& name) = 0;
  virtual std::vector<std::string> ListTables(const std::string& database) const = 0;
  // Adds a secondary index and fills it from the table's rows.
  virtual Status CreateIndex(const std::string& database, const std::string& table, const IndexSpec& index) = 0;
  // ALTER TABLE ... ADD/DROP COLUMN as MySQL 8.0.29+'s ALGORITHM=INSTANT does it: no row is
  // touched, the table gains a row version (its records keep theirs). `next` is the new
  // definition: column k is the table's column sources[k] (renamed or moved at most) or, for
  // nullopt, a new one that rows written before read as fills[k]; the table's columns no
  // source names are dropped. Atomic and durable. NotSupported (changing nothing) for what
  // cannot be done so: a 65th version (kMaxRowVersion), a changed index, key or column type.
  virtual Status AlterColumnsInstantly(const std::string& database, const std::string& table, const TableSpec& next,
                                       const std::vector<std::optional<std::size_t>>& sources,
                                       const std::vector<Value>& fills) = 0;
  // RENAME TABLE, into another database too: the file takes the new name. Atomic and durable:
  // after a crash the table has its old name or its new one. The Table* handed out for it
  // before is no longer valid.
  virtual Status RenameTable(const std::string& database, const std::string& name, const std::string& to_database,
                             const std::string& to_name) = 0;
  // The end of a copying ALTER TABLE or of TRUNCATE: `replacement`, a table of the same
  // database (made under a kWorkTablePrefix name and filled), takes `table`'s name and file
  // name, and `table` is dropped, in one commit: after a crash there is the old table or the
  // new one. Table* handed out for either before is no longer valid.
  virtual Status ReplaceTable(const std::string& database, const std::string& table,
                              const std::string& replacement) = 0;

  // Writes every dirty page, syncs the files and moves the checkpoint to the end of the log.
  virtual Status Flush() = 0;
  // ALTER INSTANCE DISABLE|ENABLE INNODB REDO_LOG. Disabling makes later changes unlogged
  // (fast, and lost or half-written by a crash: the directory then refuses to open, see
  // Open). Enabling writes every dirty page and a checkpoint before it returns, so a later
  // crash recovers everything.
  virtual Status SetRedoLogging(bool enabled) = 0;
  virtual bool redo_logging() const = 0;  // Innodb_redo_log_enabled
  virtual RedoStats redo_stats() const = 0;
  virtual BufferPoolStats buffer_pool_stats() = 0;
  // The recovery that ran at Open (zeros when the log was clean).
  virtual const RecoveryStats& recovery() const = 0;
  virtual DoublewriteStats doublewrite_stats() const = 0;
  virtual const std::filesystem::path& dir() const = 0;
};

}  // namespace strata::engine
