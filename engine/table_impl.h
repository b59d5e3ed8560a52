// A table's insides: its tablespace, one B-tree per index, the SDI tree at page 3, and the
// conversion between rows and index records. Internal to the engine; Table (db.h) is the face.
#pragma once

#include <atomic>
#include <memory>
#include <shared_mutex>

#include "engine/btree.h"
#include "engine/buffer_pool.h"
#include "engine/catalog.h"
#include "engine/db.h"
#include "engine/lob_store.h"
#include "engine/lock_sys.h"
#include "engine/read_view.h"
#include "engine/rseg.h"
#include "engine/table_records.h"
#include "engine/thread_annotations.h"
#include "engine/trx_sys.h"
#include "engine/undo_record.h"
#include "ondisk/value.h"

namespace strata::engine {

// What a table's statements need of the transaction system.
struct TrxServices {
  TrxSys* trx_sys = nullptr;
  LockSys* locks = nullptr;
  Rseg* rseg = nullptr;
  // Gives the transaction an id and registers it as a writer (write lock held).
  std::function<Status(TrxImpl&)> ensure_writable;
};

// A row lock a statement found it must wait for: the statement lets go of the table, waits,
// and runs again from the start (the lock then held).
struct LockWait {
  bool needed = false;
  std::string key;
  LockMode mode = LockMode::kExclusive;
  LockKind kind = LockKind::kRecord;
};

// The definition an instant ALTER makes of `old` (TableImpl::AlterColumnsInstantly has the
// arguments): columns placed and versioned, dropped ones kept; NotSupported for what cannot
// be done instantly.
Result<TableSpec> InstantSpec(const TableSpec& old, TableSpec next,
                              const std::vector<std::optional<std::size_t>>& sources, const std::vector<Value>& fills);

class TableImpl {
 public:
  class BulkAccess;  // what a bulk load may reach (below)
  // A new table in a new, empty tablespace registered with the pool: SDI tree at page 3,
  // clustered root at page 4, secondary roots after it.
  static Result<std::unique_ptr<TableImpl>> Create(BufferPool& pool, SharedMutex& mu, std::unique_ptr<Tablespace> space,
                                                   TableMeta meta, std::uint64_t* next_index_id);
  // An existing tablespace: the definition comes from its SDI. The table takes `space` once it
  // is built; when the SDI cannot be read, `space` stays with the caller.
  static Result<std::unique_ptr<TableImpl>> Open(BufferPool& pool, SharedMutex& mu, std::unique_ptr<Tablespace>& space);
  // The pages every write starts from, checked before anything is written to the file: page 0
  // the FSP header of this space with the engine's flags, page 2 a segment inode page, page 3
  // the SDI root. Corruption naming the file, page and what was expected.
  static Status CheckHeaders(BufferPool& pool, const Tablespace& space);
  // Takes the space out of the buffer pool before its file closes.
  ~TableImpl();

  void set_services(TrxServices s) { svc_ = std::move(s); }

  // Statements of a transaction (Database::RunStatement rolls back a failed one).
  Status Insert(TrxImpl& trx, const Row& row, InsertOptions options = {});
  Result<std::optional<Row>> Get(TrxImpl& trx, const std::vector<Value>& primary_key, RowLock lock);
  Status Update(TrxImpl& trx, const Row& row);
  Status Delete(TrxImpl& trx, const std::vector<Value>& primary_key);
  Status Scan(TrxImpl& trx, const ScanOptions& options, const std::function<bool(const Row&)>& fn);
  Status Check();

  // Rollback of one undo record of this table, and purge of one (the database's write lock
  // held). Both may run again after a crash: they check what the record still needs.
  Status Undo(const UndoRecord& rec, std::uint64_t roll_ptr);
  Status Purge(const UndoRecord& rec, std::uint64_t trx_id, const ReadView& purge_view);
  std::size_t n_key() const { return rec_.shape(0).n_key; }
  // Adds a secondary index (the caller holds the database's write lock).
  Status AddIndex(const IndexSpec& index, std::uint64_t index_id);
  // Instant ADD/DROP COLUMN (Database::AlterColumnsInstantly; the caller holds the database's
  // write lock).
  Status AlterColumnsInstantly(const TableSpec& next, const std::vector<std::optional<std::size_t>>& sources,
                               const std::vector<Value>& fills);
  // Takes the name the catalog gives it (after RENAME TABLE or a copying ALTER); `write` also
  // rewrites its definition (SDI) with it, else the name is only this object's.
  Status Rename(const std::string& database, const std::string& name, bool write);

  // Called before each write statement (no page latched): keeps the log from filling.
  struct Hooks {
    std::function<Status()> before_write;
  };
  void set_hooks(Hooks h) { hooks_ = std::move(h); }

  const TableMeta& meta() const { return meta_; }
  Tablespace& space() { return *space_; }
  std::uint64_t last_insert_id() const { return last_insert_id_; }
  std::uint64_t next_auto_increment() const;
  TableStats stats() const;
  Result<TableSize> Size() const;

 private:
  TableImpl(BufferPool& pool, SharedMutex& mu, std::unique_ptr<Tablespace> space, TableMeta meta);
  void BuildShapes();
  Status WriteSdi();
  // Runs a write statement under the write lock, waiting for row locks between attempts.
  Status Write(TrxImpl& trx, const std::function<Status(LockWait&)>& body);
  Status InsertLocked(TrxImpl& trx, const Row& row, InsertOptions options, LockWait& wait);
  Status UpdateLocked(TrxImpl& trx, const Row& row, LockWait& wait);
  Status DeleteLocked(TrxImpl& trx, const std::vector<Value>& primary_key, LockWait& wait);
  Status ScanConsistent(TrxImpl& trx, std::size_t index, const Tuple& from, const ScanOptions& options,
                        const std::function<bool(const Row&)>& fn);
  Status ScanLocking(TrxImpl& trx, std::size_t index, Tuple from, const ScanOptions& options,
                     const std::function<bool(const Row&)>& fn);
  // The view a consistent read of this statement uses (null: READ UNCOMMITTED, the latest).
  const ReadView* ViewFor(TrxImpl& trx);
  // Row locks (transaction.cc has the waits). `rec_trx` is the DB_TRX_ID of the record being
  // locked, when it exists: an active writer's implicit lock is made explicit first.
  Status LockRecord(TrxImpl& trx, const std::string& key, std::uint64_t rec_trx, LockMode mode, LockKind kind,
                    LockWait& wait);
  Status InsertIntention(TrxImpl& trx, std::size_t index, const Tuple& record, LockWait& wait);
  // The lock name of the record after `record` in the index (its supremum at the end).
  Result<std::string> NextKey(std::size_t index, const Tuple& record);
  // Undo.
  Result<std::uint64_t> WriteUndo(TrxImpl& trx, UndoRecord& rec);
  // MVCC.
  Result<std::optional<Tuple>> VisibleVersion(Tuple record, bool deleted, const ReadView& view);
  // The version before this one (through its DB_ROLL_PTR); none when the record was inserted.
  Result<bool> PreviousVersion(Tuple& record, bool& deleted);
  // Whether the record or a version of it some read view may still see has this entry in
  // secondary index `index`.
  Result<bool> VersionsHaveEntry(Tuple record, bool deleted, std::size_t index, const Tuple& entry,
                                 const ReadView& view);
  // Whether two entries of secondary index `index` are the same under its collations (an
  // entry stands for the row's versions whose values compare equal to it).
  bool SameEntry(std::size_t index, const Tuple& a, const Tuple& b) const {
    return a.size() == b.size() && SameKey(rec_.shape(index), a, b, a.size());
  }
  Status SecInsertOrUnmark(std::size_t index, const Tuple& entry);
  Status SecMark(std::size_t index, const Tuple& entry, bool deleted);  // NotFound tolerated
  Status SecRemove(std::size_t index, const Tuple& entry);              // NotFound tolerated
  Status LoadCounters();
  Result<Row> RowOf(const Tuple& clustered);
  // Moves the longest columns off-page until the record fits half a page (DYNAMIC rules).
  Status Externalize(Tuple& clustered);
  Status FreeExternal(const Tuple& clustered);
  Status CheckUnique(TrxImpl& trx, std::size_t index, const Tuple& secondary, const Tuple& own_key, LockWait& wait);
  Status PersistAutoinc();
  // AUTO_INCREMENT: a NULL (or 0) gets the next value, which is returned; values used raise the
  // counter. An error once the column's type has no next value.
  Result<std::optional<std::uint64_t>> AssignAutoinc(Row& row, InsertOptions options) const;
  void NoteAutoinc(const Row& row);
  // A write that failed on I/O or found damage part-way may have left an index half changed:
  // the table then refuses further writes until the database is reopened (CheckWritable says
  // so), so that nothing builds on a change only half made.
  Status Guard(Status s);
  Status CheckWritable() const;

  BufferPool& pool_;
  SharedMutex& mu_;
  std::unique_ptr<Tablespace> space_;
  TableMeta meta_;
  TableRecords rec_;  // rows to records and back, per index
  std::vector<std::unique_ptr<Btree>> trees_;
  std::unique_ptr<Btree> sdi_;
  std::unique_ptr<LobStore> lobs_;
  std::uint64_t autoinc_ = 0;  // the last AUTO_INCREMENT value handed out or seen
  std::uint64_t persisted_autoinc_ = 0;
  std::uint64_t next_row_id_ = 1;
  std::uint64_t last_insert_id_ = 0;
  TableStats stats_;
  std::atomic<std::uint64_t> lock_requests_{0};  // LockRecord calls (from readers too: not under the write lock)
  Status failed_;
  Hooks hooks_;
  TrxServices svc_;
};

// What a bulk load (table_bulk.cc) may reach of a table, and nothing else: its lock, its
// trees, the record builders (with the trees' shapes), the AUTO_INCREMENT counter, and the guards
// every write goes through.
class TableImpl::BulkAccess {
 public:
  explicit BulkAccess(TableImpl& t) : t_(t) {}
  SharedMutex& mu() { return t_.mu_; }
  const TableSpec& spec() const { return t_.meta_.spec; }
  std::size_t n_trees() const { return t_.trees_.size(); }
  Btree& tree(std::size_t index) { return *t_.trees_[index]; }
  // The records of rows: a bulk load builds them with row id 0 (a table without a primary key
  // is never bulk loaded).
  const TableRecords& records() const { return t_.rec_; }
  std::size_t page_size() const { return t_.space_->page_size().bytes(); }
  Result<std::optional<std::uint64_t>> AssignAutoinc(Row& row, InsertOptions options) const {
    return t_.AssignAutoinc(row, options);
  }
  std::uint64_t& autoinc() { return t_.autoinc_; }
  void set_last_insert_id(std::uint64_t id) { t_.last_insert_id_ = id; }
  void CountInserted(std::uint64_t rows) { t_.stats_.rows_inserted += rows; }
  Status CheckWritable() const { return t_.CheckWritable(); }
  Status Guard(Status s) { return t_.Guard(std::move(s)); }
  // Room in the log before a stretch of writes, as every writer makes (see Hooks).
  Status BeforeWrite() { return t_.hooks_.before_write ? t_.Guard(t_.hooks_.before_write()) : Status::Ok(); }
  Status PersistAutoinc() { return t_.PersistAutoinc(); }

 private:
  TableImpl& t_;
};

}  // namespace strata::engine
