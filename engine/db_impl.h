// The Database behind its face (db.h): the open data directory's parts and who owns them.
//
//   DatabaseImpl ─┬─ BufferPool, RedoLog, Doublewrite, ibdata1's Tablespace  (pages and log)
//                 ├─ Rseg, TrxSys, LockSys                                    (transactions)
//                 ├─ CommitPipeline   commit, durability, early release (INV-3)
//                 ├─ Checkpointer     log room and the checkpoint, its thread
//                 ├─ PurgeSys         history removal (INV-7), its thread
//                 ├─ HotRowGroups     hot-row group commit's queues
//                 └─ tables: Table (face) → TableImpl (B-trees of one tablespace)
//
// Its methods are in files by job: db_open.cc (open, load, shutdown, flush, redo on/off),
// db_ddl.cc (catalog and DDL), transaction.cc (statements, rollback, crash's transactions,
// status), hot_row.cc (RunGrouped). The engine's other files use it; nothing above the engine
// sees it.
#pragma once

#include <map>
#include <memory>
#include <shared_mutex>
#include <string>
#include <vector>

#include "engine/checkpointer.h"
#include "engine/commit_pipeline.h"
#include "engine/db.h"
#include "engine/doublewrite.h"
#include "engine/env.h"
#include "engine/hot_row.h"
#include "engine/purge.h"
#include "engine/system_space.h"

namespace strata::engine {

class DatabaseImpl final : public Database {
 public:
  static Result<std::unique_ptr<Database>> Open(const std::filesystem::path& dir, DatabaseOptions options);
  ~DatabaseImpl() override;

  // ---- Database ----
  Result<std::unique_ptr<Transaction>> Begin(TransactionOptions options) override;
  EngineStatus StatusReport() override;
  std::uint64_t history_list_length() const override;
  Result<std::uint64_t> Purge() override;
  void set_lock_wait_timeout(std::chrono::milliseconds t) override;
  Status set_flush_log_at_trx_commit(int value) override { return pipeline_->set_flush_log_at_trx_commit(value); }
  int flush_log_at_trx_commit() const override { return pipeline_->flush_log_at_trx_commit(); }
  void set_early_lock_release(bool on) override { pipeline_->set_early_lock_release(on); }
  bool early_lock_release() const override { return pipeline_->early_lock_release(); }
  void set_max_elr_dependent_trx_count(std::size_t n) override { pipeline_->set_max_elr_dependent_trx_count(n); }
  std::size_t max_elr_dependent_trx_count() const override { return pipeline_->max_elr_dependent_trx_count(); }
  Status WaitDurable() override { return pipeline_->WaitDurable(); }
  Status RunGrouped(const std::string& group, const std::function<Status(Transaction&)>& body) override;
  void set_group_commit_tables(const std::string& list) override { hot_rows_.set_tables(list); }
  std::string group_commit_tables() const override { return hot_rows_.tables(); }
  bool groups_commits_of(const std::string& database, const std::string& table) const override {
    return hot_rows_.covers(database, table);
  }
  Status CreateDatabase(const std::string& name) override;
  std::vector<std::string> ListDatabases() const override;
  Status DropDatabase(const std::string& name) override;
  Result<Table*> CreateTable(const TableSpec& spec) override;
  Result<Table*> GetTable(const std::string& database, const std::string& name) override;
  Status DropTable(const std::string& database, const std::string& name) override;
  std::vector<std::string> ListTables(const std::string& database) const override;
  Status CreateIndex(const std::string& database, const std::string& table, const IndexSpec& index) override;
  Status AlterColumnsInstantly(const std::string& database, const std::string& table, const TableSpec& next,
                               const std::vector<std::optional<std::size_t>>& sources,
                               const std::vector<Value>& fills) override;
  Status RenameTable(const std::string& database, const std::string& name, const std::string& to_database,
                     const std::string& to_name) override;
  Status ReplaceTable(const std::string& database, const std::string& table, const std::string& replacement) override;
  Status Flush() override;
  Status SetRedoLogging(bool enabled) override;
  bool redo_logging() const override;
  RedoStats redo_stats() const override;
  BufferPoolStats buffer_pool_stats() override;
  const RecoveryStats& recovery() const override { return recovery_; }
  DoublewriteStats doublewrite_stats() const override { return dblwr_->stats(); }
  const std::filesystem::path& dir() const override { return dir_; }

  // ---- for the faces (Table, Transaction) ----
  // A statement: of `trx` when given, else an autocommit transaction of its own. On failure
  // its own changes are rolled back (a deadlock takes the whole transaction).
  Status RunStatement(Transaction* trx, const std::function<Status(TrxImpl&)>& body);
  CommitPipeline& pipeline() { return *pipeline_; }
  // Undoes records at or past to_undo_no; a failure halts the database.
  Status RollbackTrx(TrxImpl& trx, std::uint64_t to_undo_no);
  Status RollbackAndEnd(TrxImpl& trx);  // the whole transaction, then its end (or abandonment)

 private:
  DatabaseImpl() = default;
  // Open and shutdown (db_open.cc).
  Status CreateFiles();      // a new data directory's files
  Status OpenDoublewrite();  // and route page writes through it
  Status Load();
  Result<std::vector<RedoGroup>> RecoverSystemSpace();  // Load's first step
  void CreateTransactionParts();  // the commit pipeline and purge, once the rollback segment is read
  Result<std::unique_ptr<Tablespace>> OpenTablespace(const std::string& database, const std::string& name,
                                                     std::uint32_t space_id);
  Status BeforeWrite();
  Status ReadOnly() const;  // the refusal of a change under force_recovery >= 3
  // Catalog and DDL (db_ddl.cc).
  Status SaveCatalog() REQUIRES(mu_);  // the commit point of a DDL statement
  // The open table a DDL statement changes (the write lock held): NotFound, or read-only refused.
  Result<TableImpl*> TableToChange(const std::string& database, const std::string& table) REQUIRES(mu_);
  void ForgetDdlLog(const std::string& path) REQUIRES(mu_);
  std::vector<std::string> ListTablesLocked(const std::string& database) const REQUIRES_SHARED(mu_);
  Status FinishDdlLog() REQUIRES(mu_);  // at open: removes what the DDL log names, then empties it
  // Drops the tables (and the database folder, when given) in one catalog write; committed
  // says whether that write was made durable.
  Status DropTablesLocked(const std::vector<std::string>& keys, const std::string& database_dir, bool* committed)
      REQUIRES(mu_);
  void AttachTable(TableImpl& t);
  // Renames (db_rename.cc). A table leaves the pool (its pages written first) before its file
  // is renamed, and is opened again from the new name; `moves` are logged before the renames
  // and taken out of the log by the commit.
  Status CloseTableLocked(const std::string& key) REQUIRES(mu_);
  Status ReopenTableLocked(const std::string& database, const std::string& name, std::uint32_t space_id) REQUIRES(mu_);
  Status MoveFiles(const std::vector<DdlLogEntry>& moves) REQUIRES(mu_);
  Status UndoUncommittedMoves() REQUIRES(mu_);  // at open, before the tables' files are opened
  Status DropWorkTables();                      // at open, once transactions are recovered
  TableImpl* TableById(std::uint64_t table_id) REQUIRES_SHARED(mu_);
  static std::string TableKey(const std::string& database, const std::string& table);  // tables_'s key
  // Transactions (transaction.cc).
  Status LoadTransactions(bool roll_back);  // the rollback segment, and rollback of what a crash left
  Status EnsureWritable(TrxImpl& trx);      // an id and undo logs (write lock held)
  Status UndoDownTo(TrxImpl& trx, std::uint64_t to_undo_no) REQUIRES(mu_);

  std::filesystem::path dir_;
  DatabaseOptions options_;
  Env* env_ = nullptr;
  std::unique_ptr<FileLock> lock_;
  std::unique_ptr<BufferPool> pool_;
  std::unique_ptr<Tablespace> system_;
  std::unique_ptr<RedoLog> log_;
  std::unique_ptr<Doublewrite> dblwr_;
  RecoveryStats recovery_;
  bool read_only_ = false;  // force_recovery >= 3: every change refused, nothing flushed at close
  bool skip_redo_ = false;  // force_recovery 6: no doublewrite restore, no redo replay
  bool no_writes_ = false;  // read_only or force_recovery 6: files opened read-only, nothing created
  bool opened_ = false;     // a database that failed to open is not flushed on destruction
  // Writers exclusive, readers shared: the tables, the catalog (the members below that say
  // so, checked by clang), and every page change: a statement's B-tree work runs under it, taken
  // by TableImpl, the commit pipeline and purge through the reference they are given.
  mutable SharedMutex mu_;
  std::map<std::string, std::unique_ptr<Table>> tables_ GUARDED_BY(mu_);  // "db/table"
  // In the catalog but not opened (file missing or damaged): listed, refused with the reason,
  // droppable.
  struct UnavailableTable {
    std::uint32_t space_id = 0;
    std::filesystem::path path;
    Status why;
  };
  std::map<std::string, UnavailableTable> unavailable_ GUARDED_BY(mu_);
  std::vector<std::string> databases_ GUARDED_BY(mu_);
  // What the next open removes, unless a statement finishes first.
  std::vector<DdlLogEntry> ddl_log_ GUARDED_BY(mu_);
  std::uint32_t next_space_id_ GUARDED_BY(mu_) = 1;
  std::uint64_t next_index_id_ GUARDED_BY(mu_) = 1;
  std::uint64_t next_table_id_ GUARDED_BY(mu_) = 1;
  std::unique_ptr<Rseg> rseg_;
  std::unique_ptr<TrxSys> trx_sys_;
  std::unique_ptr<LockSys> lock_sys_;
  std::vector<std::unique_ptr<TrxImpl>> unrolled_;  // left active by a crash, not rolled back (force_recovery >= 3)
  std::unique_ptr<CommitPipeline> pipeline_;
  std::unique_ptr<Checkpointer> checkpointer_;
  std::unique_ptr<PurgeSys> purge_;
  HotRowGroups hot_rows_;
};

}  // namespace strata::engine
