#include "engine/db.h"

#include <fmt/format.h>

#include <algorithm>
#include <mutex>

#include "engine/async_commit.h"
#include "engine/data_dir.h"
#include "engine/hot_row.h"
#include "engine/system_space.h"
#include "engine/table_impl.h"
#include "ondisk/checksum.h"
#include "ondisk/fil_header.h"
#include "ondisk/fsp_header.h"
#include "ondisk/redo_record.h"

namespace strata::engine {

using namespace strata::ondisk;

namespace {
constexpr std::uint32_t kNewTablePages = 7;  // FIL_IBD_FILE_INITIAL_SIZE
std::string Key(const std::string& db, const std::string& table) { return db + "/" + table; }
}  // namespace

// ---- Table -------------------------------------------------------------------------------

Table::Table(std::unique_ptr<TableImpl> impl, Database* db) : impl_(std::move(impl)), db_(db) {}
Table::~Table() = default;
const TableSpec& Table::spec() const { return impl_->meta().spec; }

Status Table::Insert(const Row& row, Transaction* trx, InsertOptions options) {
  return db_->RunStatement(trx ? trx->impl_.get() : nullptr, Isolation::kRepeatableRead,
                           [&](TrxImpl& t) { return impl_->Insert(t, row, options); });
}
Status Table::InsertBatch(const std::vector<Row>& rows, Transaction* trx, InsertOptions options) {
  return db_->RunStatement(trx ? trx->impl_.get() : nullptr, Isolation::kRepeatableRead, [&](TrxImpl& t) {
    for (std::size_t i = 0; i < rows.size(); ++i) {
      Status s = impl_->Insert(t, rows[i], options);
      if (!s.ok()) return rows.size() > 1 ? s.WithContext(fmt::format("row {} of the batch", i + 1)) : s;
    }
    return Status::Ok();
  });
}
Result<std::optional<Row>> Table::Get(const std::vector<Value>& primary_key, Transaction* trx, RowLock lock) {
  std::optional<Row> out;
  Status s = db_->RunStatement(trx ? trx->impl_.get() : nullptr, Isolation::kRepeatableRead, [&](TrxImpl& t) {
    auto r = impl_->Get(t, primary_key, lock);
    if (!r.ok()) return r.status();
    out = std::move(*r);
    return Status::Ok();
  });
  if (!s.ok()) return s;
  return out;
}
Status Table::Update(const Row& row, Transaction* trx) {
  return db_->RunStatement(trx ? trx->impl_.get() : nullptr, Isolation::kRepeatableRead,
                           [&](TrxImpl& t) { return impl_->Update(t, row); });
}
Status Table::Delete(const std::vector<Value>& primary_key, Transaction* trx) {
  return db_->RunStatement(trx ? trx->impl_.get() : nullptr, Isolation::kRepeatableRead,
                           [&](TrxImpl& t) { return impl_->Delete(t, primary_key); });
}
Status Table::Scan(const ScanOptions& options, const std::function<bool(const Row&)>& fn, Transaction* trx) {
  return db_->RunStatement(trx ? trx->impl_.get() : nullptr, Isolation::kRepeatableRead,
                           [&](TrxImpl& t) { return impl_->Scan(t, options, fn); });
}
std::uint64_t Table::last_insert_id() const { return impl_->last_insert_id(); }
TableStats Table::stats() const { return impl_->stats(); }
Status Table::Check() { return impl_->Check(); }
const std::filesystem::path& Table::path() const { return impl_->space().path(); }
std::uint64_t Table::file_bytes() const { return std::uint64_t{impl_->space().size()} * impl_->space().page_size().bytes(); }

// ---- Database ----------------------------------------------------------------------------

Status Database::OpenDoublewrite() {
  auto dblwr = Doublewrite::Open(*env_, dir_ / "ib_doublewrite", pool_->options().page_size);
  if (!dblwr.ok()) return dblwr.status();
  dblwr_ = std::move(*dblwr);
  // Page writes go through the doublewrite area while redo is on (INV-2); with redo off a
  // crash is unrecoverable anyway, and bulk loads skip the extra write.
  pool_->doublewrite = [this](const std::vector<BufferPool::PageImage>& pages, const BufferPool::WriteInPlace& in_place) {
    if (!pool_->redo_enabled()) return in_place(false);  // synced by the flush that enables redo
    return dblwr_->Write(pages, [&] { return in_place(true); });
  };
  return Status::Ok();
}

// A new data directory: the marker first, then the files, and the marker removed once every
// file is complete and synced (a creation cut short is recognised and started over).
Status Database::CreateFiles() {
  Env& env = *env_;
  {
    auto marker = env.OpenFile(dir_ / kCreationMarker, OpenMode::kCreate);
    if (!marker.ok()) return marker.status();
    STRATA_RETURN_IF_ERROR((*marker)->Sync());
  }
  STRATA_RETURN_IF_ERROR(env.SyncDir(dir_));
  STRATA_RETURN_IF_ERROR(OpenDoublewrite());
  auto log = RedoLog::Create(env, dir_ / "ib_logfile0", options_.redo_log_bytes);
  if (!log.ok()) return log.status();
  log_ = std::move(*log);
  pool_->set_redo(log_.get());
  const PageSize ps = pool_->options().page_size;
  auto f = env.OpenFile(dir_ / "ibdata1", OpenMode::kCreateNew);
  if (!f.ok()) return f.status();
  STRATA_RETURN_IF_ERROR((*f)->Resize(std::uint64_t{kSystemSpaceInitialPages} * ps.bytes()));
  system_ = std::make_unique<Tablespace>(std::move(*f), SpaceId(0), ps, kSystemSpaceInitialPages);
  pool_->Register(system_.get());
  pool_->before_write = [log = log_.get()](Lsn lsn) { return log->FlushUpTo(lsn); };
  STRATA_RETURN_IF_ERROR(CreateSystemSpace(*pool_, *system_));
  STRATA_RETURN_IF_ERROR(Flush());
  STRATA_RETURN_IF_ERROR(env.SyncDir(dir_));
  STRATA_RETURN_IF_ERROR(env.Remove(dir_ / kCreationMarker));
  return env.SyncDir(dir_);
}

Result<std::unique_ptr<Database>> Database::Open(const std::filesystem::path& dir, DatabaseOptions options) {
  auto db = std::unique_ptr<Database>(new Database());
  db->dir_ = dir;
  db->options_ = options;
  db->flush_log_at_trx_commit_ = options.flush_log_at_trx_commit;
  db->elr_enabled_ = options.enable_early_lock_release;
  db->elr_max_ = options.max_elr_dependent_trx_count;
  db->env_ = options.env ? options.env : Env::Default();
  Env& env = *db->env_;
  const auto ibdata = dir / "ibdata1";
  const auto logfile = dir / "ib_logfile0";
  auto kind = ClassifyDataDir(env, dir);  // reads only: nothing is written to a directory not known to be ours
  if (!kind.ok()) return kind.status();
  const bool exists = *kind == DataDirKind::kStrata;
  if (!exists && !options.create_if_missing) return Status::NotFound(fmt::format("{}: no Strata data directory here", dir.string()));
  STRATA_RETURN_IF_ERROR(env.CreateDir(dir));
  auto lock = env.LockFile(dir / "strata.lock");
  if (!lock.ok()) {
    if (lock.status().code() == Status::Code::kBusy) return Status::Busy(fmt::format("data directory {} is in use: {}", dir.string(), lock.status().message()));
    return lock.status().WithContext(fmt::format("data directory {} cannot be locked", dir.string()));
  }
  db->lock_ = std::move(*lock);
  // A creation that stopped part way (a crash, a full disk): nothing in it was ever used.
  if (*kind == DataDirKind::kUnfinishedCreation) STRATA_RETURN_IF_ERROR(RemoveCreatedFiles(env, dir));
  BufferPoolOptions bp;
  bp.bytes = options.buffer_pool_bytes;
  bp.page_cleaner = options.page_cleaner;
  db->pool_ = std::make_unique<BufferPool>(bp);
  if (!exists) {
    Status created = db->CreateFiles();
    if (!created.ok()) {
      // Leave the directory as new again, so that the next open (with room on the disk, say)
      // creates it rather than refusing it for ever.
      db->pool_.reset();
      db->dblwr_.reset();
      db->log_.reset();
      db->system_.reset();
      (void)RemoveCreatedFiles(env, dir);  // the creation's own error is the one to report
      return created.WithContext(fmt::format("creating the data directory {}", dir.string()));
    }
  } else {
    STRATA_RETURN_IF_ERROR(db->OpenDoublewrite());
    auto log = RedoLog::Open(env, logfile);
    if (!log.ok()) return log.status();
    db->log_ = std::move(*log);
    if (db->log_->flags() & kLogFlagCrashUnsafe) {
      if (options.force_recovery < 6) {
        return Status::Corruption(fmt::format(
            "{} stopped without a clean shutdown while redo logging was disabled (ALTER INSTANCE DISABLE INNODB "
            "REDO_LOG). Changes made since then were never logged: a crash may have lost some of them or left pages "
            "half-written, so no table here can be trusted. Restore a backup, or open it with --force-recovery 6 "
            "(read-only, nothing replayed) to copy out what is readable.",
            dir.string()));
      }
    }
    auto f = env.OpenFile(ibdata, OpenMode::kExisting);
    if (!f.ok()) return f.status();
    auto ts = Tablespace::Open(std::move(*f), SpaceId(0), bp.page_size);
    if (!ts.ok()) return ts.status();
    db->system_ = std::move(*ts);
    db->pool_->Register(db->system_.get());
    db->pool_->set_redo(db->log_.get());
    db->pool_->before_write = [log = db->log_.get()](Lsn lsn) { return log->FlushUpTo(lsn); };
  }
  db->read_only_ = options.force_recovery >= 3;
  db->skip_redo_ = options.force_recovery >= 6;
  STRATA_RETURN_IF_ERROR(db->Load());
  if (db->log_->flags() & kLogFlagNoLogging) {
    // Reopened after a clean shutdown with logging still disabled: it stays disabled, and a
    // crash from here on is unsafe again.
    db->pool_->set_redo_enabled(false);
    if (!db->read_only_) STRATA_RETURN_IF_ERROR(db->log_->SetFlags(kLogFlagNoLogging | kLogFlagCrashUnsafe));
  }
  if (!db->read_only_) {
    db->async_commits_ = std::make_unique<AsyncCommitQueue>([d = db.get()](Lsn lsn) { return d->MakeDurable(lsn); });
    db->hot_rows_ = std::make_unique<HotRowGroups>();
    db->background_ = std::thread([d = db.get()] { d->BackgroundLoop(); });
    db->recovery_.history_at_open = db->history_list_length();
    if (options.purge && options.force_recovery < 2) db->purge_thread_ = std::thread([d = db.get()] { d->PurgeLoop(); });
  }
  db->opened_ = true;
  return db;
}

Database::~Database() {
  if (!pool_) return;
  // innodb_fast_shutdown=0: purge all the history no read view holds before stopping.
  if (opened_ && !read_only_ && options_.fast_shutdown == 0 && trx_sys_) (void)Purge();
  {
    std::lock_guard l(bg_mu_);
    bg_stop_ = true;
  }
  bg_cv_.notify_all();
  async_commits_.reset();  // what was committed asynchronously is durable (or failed) first
  if (background_.joinable()) background_.join();
  if (purge_thread_.joinable()) purge_thread_.join();
  if (trx_sys_) trx_sys_->AbandonAll();
  if (opened_ && !read_only_ && log_) {
    // A clean shutdown: every page written and the checkpoint at the end of the log, so the
    // next open has nothing to replay (and with logging disabled, nothing to fear).
    if (Flush().ok() && !pool_->redo_enabled()) (void)log_->SetFlags(kLogFlagNoLogging);
  }
  // The pool (and its page cleaner) goes first, before the files it could still write to.
  pool_->StopCleaner();
  tables_.clear();  // each table takes its space out of the pool first
  pool_.reset();
}

// Opens every table of the catalog: first their files (recovery may touch any of them), then
// the log's replay, then the tables' definitions from their (now recovered) SDI.
Status Database::Load() {
  auto catalog = ReadCatalog(*pool_, *system_);
  if (!catalog.ok()) return catalog.status();
  databases_ = catalog->databases;
  next_space_id_ = catalog->next_space_id;
  next_index_id_ = catalog->next_index_id;
  next_table_id_ = catalog->next_table_id;
  std::vector<std::unique_ptr<Tablespace>> spaces;
  // A failed open leaves no page of these files in the pool (nothing half-recovered is written).
  struct Unregister {
    BufferPool& pool;
    std::vector<std::unique_ptr<Tablespace>>& spaces;
    bool armed = true;
    ~Unregister() {
      if (!armed) return;
      for (auto& ts : spaces) {
        if (ts) pool.Discard(ts->id());
      }
    }
  } unregister{*pool_, spaces};
  for (const auto& t : catalog->tables) {
    auto ts = OpenTablespace(t.database, t.name, t.space_id);
    if (!ts.ok()) return ts.status();
    pool_->Register(ts->get());
    spaces.push_back(std::move(*ts));
  }
  if (!skip_redo_) {
    // Torn pages first (from their doublewrite copies), then the log replayed onto them.
    STRATA_RETURN_IF_ERROR(dblwr_->Restore([this](SpaceId id) { return pool_->space(id); }));
    auto groups = log_->Recover(pool_->options().page_size.bytes());
    if (!groups.ok()) return groups.status();
    auto st = ApplyRedo(*pool_, *groups);
    if (!st.ok()) return st.status();
    recovery_ = *st;
    log_->ReleaseRecovery();
    if (!groups->empty()) STRATA_RETURN_IF_ERROR(Flush());
  }
  rseg_ = std::make_unique<Rseg>(*pool_, *system_, PageNo(6));  // TRX_SYS slot 0
  trx_sys_ = std::make_unique<TrxSys>(*pool_, *system_);
  lock_sys_ = std::make_unique<LockSys>(LockSys::Options{options_.lock_wait_timeout, options_.deadlock_detect});
  for (std::size_t i = 0; i < catalog->tables.size(); ++i) {
    const auto& t = catalog->tables[i];
    auto impl = TableImpl::Open(*pool_, mu_, spaces[i]);  // on failure, the guard above discards
    if (!impl.ok()) return impl.status().WithContext(fmt::format("table {}.{}", t.database, t.name));
    AttachTable(**impl);
    tables_[Key(t.database, t.name)] = std::unique_ptr<Table>(new Table(std::move(*impl), this));
  }
  unregister.armed = false;
  return LoadTransactions(options_.force_recovery < 3);
}

Result<std::unique_ptr<Tablespace>> Database::OpenTablespace(const std::string& database, const std::string& name,
                                                             std::uint32_t space_id) {
  const auto path = dir_ / database / (name + ".ibd");
  auto f = env_->OpenFile(path, OpenMode::kExisting);
  if (!f.ok()) return f.status().WithContext(fmt::format("table {}.{} is in the catalog but its file cannot be opened", database, name));
  auto ts = Tablespace::Open(std::move(*f), SpaceId(space_id), pool_->options().page_size);
  if (!ts.ok()) return ts.status();
  // A file that is another table's (copied over this one, say) must be refused before the
  // doublewrite area or the log writes this table's pages into it. A torn page 0 is left to
  // the doublewrite area, which holds a copy with the right id.
  std::vector<std::byte> page0(pool_->options().page_size.bytes());
  if ((*ts)->size() > 0 && !(*ts)->Read(PageNo(0), page0).ok()) {
    const PageCheck check = ValidatePage(page0, false);
    if (check.valid && !check.lsn_mismatch && CheckPlacement(page0, PageNo(0), SpaceId(space_id)).space_id_differs) {
      return Status::Corruption(fmt::format("{}: page 0 offset {} says space id {}, but the catalog gives table {}.{} space "
                                            "id {} (a file copied from another table?); nothing was changed",
                                            path.string(), FilHeader::kSpaceId, FilHeader(page0).space_id().value(),
                                            database, name, space_id));
    }
  }
  return ts;
}

void Database::AttachTable(TableImpl& t) {
  t.set_hooks({[this] { return BeforeWrite(); }});
  t.set_services({trx_sys_.get(), lock_sys_.get(), rseg_.get(), [this](TrxImpl& trx) { return EnsureWritable(trx); }});
}

Status Database::ReadOnly() const {
  return Status::NotSupported(fmt::format("the database is open read-only (--force-recovery {}): changes are refused",
                                          options_.force_recovery));
}

Status Database::BeforeWrite() {
  if (read_only_) return ReadOnly();
  return FreeCheck();
}

Status Database::FreeCheck() {
  if (log_->used() < log_->capacity() / 2) return Status::Ok();
  STRATA_RETURN_IF_ERROR(pool_->FlushAll());
  return Checkpoint();
}

// The checkpoint LSN: the oldest change not yet written to its page, or the end of the log.
Status Database::Checkpoint() {
  Lsn cp;
  {
    std::unique_lock gate(log_->commit_gate());
    const std::uint64_t oldest = pool_->OldestModification();
    cp = oldest ? Lsn(oldest) : log_->lsn();
  }
  if (cp <= log_->checkpoint_lsn()) return Status::Ok();
  STRATA_RETURN_IF_ERROR(log_->FlushUpTo(cp));
  // Pages written since the last sync (by eviction, say) must be on disk before the log
  // forgets how to redo them.
  STRATA_RETURN_IF_ERROR(pool_->SyncAll());
  return log_->Checkpoint(cp);
}

void Database::BackgroundLoop() {
  std::unique_lock l(bg_mu_);
  while (!bg_stop_) {
    bg_cv_.wait_for(l, std::chrono::seconds(1), [this] { return bg_stop_.load(); });
    if (bg_stop_) break;
    l.unlock();
    if (pool_->redo_enabled()) {
      (void)log_->FlushUpTo(log_->lsn());  // modes 0 and 2: durable within a second
      (void)Checkpoint();
    }
    l.lock();
  }
}

Status Database::SetRedoLogging(bool enabled) {
  std::unique_lock lock(mu_);
  if (read_only_) return ReadOnly();
  if (enabled == pool_->redo_enabled()) return Status::Ok();
  if (!enabled) {
    STRATA_RETURN_IF_ERROR(log_->FlushUpTo(log_->lsn()));
    STRATA_RETURN_IF_ERROR(log_->SetFlags(kLogFlagNoLogging | kLogFlagCrashUnsafe));
    pool_->set_redo_enabled(false);
    return Status::Ok();
  }
  // Everything changed while unlogged reaches its page, and recovery will start after it.
  STRATA_RETURN_IF_ERROR(pool_->FlushAll());
  STRATA_RETURN_IF_ERROR(log_->WriteCurrentBlock());
  STRATA_RETURN_IF_ERROR(log_->Checkpoint(log_->lsn()));
  STRATA_RETURN_IF_ERROR(log_->SetFlags(0));
  pool_->set_redo_enabled(true);
  return Status::Ok();
}

bool Database::redo_logging() const { return pool_->redo_enabled(); }
RedoStats Database::redo_stats() const {
  RedoStats st = log_->stats();
  st.commits = commits_.load();
  return st;
}

Status Database::SaveCatalog() {
  Catalog c;
  c.next_space_id = next_space_id_;
  c.next_index_id = next_index_id_;
  c.next_table_id = next_table_id_;
  c.databases = databases_;
  for (const auto& [key, t] : tables_) {
    c.tables.push_back({t->spec().database, t->spec().name, t->impl_->meta().space_id});
  }
  STRATA_RETURN_IF_ERROR(WriteCatalog(*pool_, *system_, c));
  return pool_->FlushSpace(SpaceId(0));
}

Status Database::CreateDatabase(const std::string& name) {
  std::unique_lock lock(mu_);
  if (read_only_) return ReadOnly();
  if (name.empty() || name.find_first_of("/\\.") != std::string::npos) return Status::InvalidArgument(fmt::format("database name '{}' is not allowed", name));
  STRATA_RETURN_IF_ERROR(CheckIdentifier(name));
  if (std::find(databases_.begin(), databases_.end(), name) != databases_.end()) {
    return Status::AlreadyExists(fmt::format("Can't create database '{}'; database exists", name)).Because(Status::Reason::kDatabaseExists);
  }
  STRATA_RETURN_IF_ERROR(env_->CreateDir(dir_ / name));
  STRATA_RETURN_IF_ERROR(env_->SyncDir(dir_));
  databases_.push_back(name);
  return SaveCatalog();
}

std::vector<std::string> Database::ListDatabases() const {
  std::shared_lock lock(mu_);
  return databases_;
}

Result<Table*> Database::CreateTable(const TableSpec& spec) {
  STRATA_RETURN_IF_ERROR(spec.Validate());
  std::unique_lock lock(mu_);
  if (std::find(databases_.begin(), databases_.end(), spec.database) == databases_.end()) {
    return Status::NotFound(fmt::format("Unknown database '{}'", spec.database)).Because(Status::Reason::kUnknownDatabase);
  }
  const std::string key = Key(spec.database, spec.name);
  if (tables_.count(key)) return Status::AlreadyExists(fmt::format("Table '{}' already exists", spec.name)).Because(Status::Reason::kTableExists);
  if (read_only_) return ReadOnly();
  const auto path = dir_ / spec.database / (spec.name + ".ibd");
  // A file the catalog does not know was left by a CREATE that crashed before it finished.
  if (env_->Exists(path)) STRATA_RETURN_IF_ERROR(env_->Remove(path));
  auto f = env_->OpenFile(path, OpenMode::kCreateNew);
  if (!f.ok()) return f.status();
  const PageSize ps = pool_->options().page_size;
  STRATA_RETURN_IF_ERROR((*f)->Resize(std::uint64_t{kNewTablePages} * ps.bytes()));
  auto ts = std::make_unique<Tablespace>(std::move(*f), SpaceId(next_space_id_++), ps, kNewTablePages);
  pool_->Register(ts.get());
  const SpaceId space_id = ts->id();
  TableMeta meta;
  meta.spec = spec;
  meta.table_id = next_table_id_++;
  auto impl = TableImpl::Create(*pool_, mu_, std::move(ts), std::move(meta), &next_index_id_);
  if (!impl.ok()) {  // the pool let go of the space as the half-built table went
    (void)env_->Remove(path);
    return impl.status();
  }
  AttachTable(**impl);
  auto table = std::unique_ptr<Table>(new Table(std::move(*impl), this));
  Table* out = table.get();
  tables_[key] = std::move(table);
  // DDL is made durable at once: the new file, its directory entry, then the catalog.
  STRATA_RETURN_IF_ERROR(pool_->FlushSpace(space_id));
  STRATA_RETURN_IF_ERROR(env_->SyncDir(dir_ / spec.database));
  STRATA_RETURN_IF_ERROR(SaveCatalog());
  return out;
}

Result<Table*> Database::GetTable(const std::string& database, const std::string& name) {
  std::shared_lock lock(mu_);
  auto it = tables_.find(Key(database, name));
  if (it == tables_.end()) return Status::NotFound(fmt::format("Table '{}.{}' doesn't exist", database, name)).Because(Status::Reason::kNoSuchTable);
  return it->second.get();
}

Status Database::DropTable(const std::string& database, const std::string& name) {
  std::unique_lock lock(mu_);
  if (read_only_) return ReadOnly();
  auto it = tables_.find(Key(database, name));
  if (it == tables_.end()) return Status::NotFound(fmt::format("Unknown table '{}.{}'", database, name)).Because(Status::Reason::kUnknownTable);
  const auto path = it->second->path();
  tables_.erase(it);  // ~TableImpl: the pool lets go of the space before its file closes
  STRATA_RETURN_IF_ERROR(SaveCatalog());
  STRATA_RETURN_IF_ERROR(env_->Remove(path));
  return env_->SyncDir(path.parent_path());
}

Status Database::DropDatabase(const std::string& name) {
  if (read_only_) return ReadOnly();
  for (const std::string& table : ListTables(name)) STRATA_RETURN_IF_ERROR(DropTable(name, table));
  std::unique_lock lock(mu_);
  auto it = std::find(databases_.begin(), databases_.end(), name);
  if (it == databases_.end()) {
    return Status::NotFound(fmt::format("Can't drop database '{}'; database doesn't exist", name)).Because(Status::Reason::kNoDatabaseToDrop);
  }
  databases_.erase(it);
  STRATA_RETURN_IF_ERROR(SaveCatalog());
  (void)env_->Remove(dir_ / name);  // stays when something else put files there
  return env_->SyncDir(dir_);
}

std::vector<std::string> Database::ListTables(const std::string& database) const {
  std::shared_lock lock(mu_);
  std::vector<std::string> out;
  for (const auto& [key, t] : tables_) {
    if (t->spec().database == database) out.push_back(t->spec().name);
  }
  return out;
}

Status Database::CreateIndex(const std::string& database, const std::string& table, const IndexSpec& index) {
  std::unique_lock lock(mu_);
  if (read_only_) return ReadOnly();
  auto it = tables_.find(Key(database, table));
  if (it == tables_.end()) return Status::NotFound(fmt::format("Table '{}.{}' doesn't exist", database, table)).Because(Status::Reason::kNoSuchTable);
  STRATA_RETURN_IF_ERROR(it->second->impl_->AddIndex(index, next_index_id_++));
  STRATA_RETURN_IF_ERROR(pool_->FlushSpace(it->second->impl_->space().id()));
  return SaveCatalog();
}

Status Database::Flush() {
  STRATA_RETURN_IF_ERROR(pool_->FlushAll());
  STRATA_RETURN_IF_ERROR(pool_->cleaner_status());
  if (skip_redo_ || !pool_->redo_enabled()) return Status::Ok();
  return Checkpoint();
}

BufferPoolStats Database::buffer_pool_stats() { return pool_->stats(); }

}  // namespace strata::engine
