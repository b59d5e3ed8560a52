// Opening a data directory (creating it when new), loading what is in it, and the shutdown;
// Flush and the redo log switch, which write every page as a shutdown does.
#include <fmt/format.h>

#include <algorithm>
#include <mutex>
#include <stdexcept>

#include "engine/data_dir.h"
#include "engine/db_impl.h"
#include "engine/recovery.h"
#include "engine/system_space.h"
#include "engine/table_impl.h"
#include "ondisk/checksum.h"
#include "ondisk/fil_header.h"
#include "ondisk/fsp_header.h"
#include "ondisk/redo_record.h"

namespace strata::engine {

using namespace strata::ondisk;

Status DatabaseImpl::OpenDoublewrite() {
  auto dblwr = Doublewrite::Open(*env_, dir_ / "ib_doublewrite", pool_->options().page_size);
  if (!dblwr.ok()) return dblwr.status();
  dblwr_ = std::move(*dblwr);
  // Page writes go through the doublewrite area while redo is on (INV-2); with redo off a
  // crash is unrecoverable anyway, and bulk loads skip the extra write.
  pool_->doublewrite = [this](const std::vector<BufferPool::PageImage>& pages,
                              const BufferPool::WriteInPlace& in_place) {
    if (!pool_->redo_enabled()) return in_place(false);  // synced by the flush that enables redo
    return dblwr_->Write(pages, [&] { return in_place(true); });
  };
  return Status::Ok();
}

// A new data directory: the marker first, then the files, and the marker removed once every
// file is complete and synced (a creation cut short is recognised and started over).
Status DatabaseImpl::CreateFiles() {
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
  checkpointer_ = std::make_unique<Checkpointer>(*pool_, *log_);
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

Result<std::unique_ptr<Database>> DatabaseImpl::Open(const std::filesystem::path& dir, DatabaseOptions options) {
  auto db = std::unique_ptr<DatabaseImpl>(new DatabaseImpl());
  db->dir_ = dir;
  db->options_ = options;
  db->env_ = options.env ? options.env : Env::Default();
  if (options.open_files > 0) db->env_->SetOpenFilesLimit(options.open_files);
  Env& env = *db->env_;
  const auto ibdata = dir / "ibdata1";
  const auto logfile = dir / "ib_logfile0";
  auto kind = ClassifyDataDir(env, dir);  // reads only: nothing is written to a directory not known to be ours
  if (!kind.ok()) return kind.status();
  const bool exists = *kind == DataDirKind::kStrata;
  db->no_writes_ = options.read_only || options.force_recovery >= 6;
  if (!exists && (!options.create_if_missing || db->no_writes_)) {
    return Status::NotFound(fmt::format("{}: no Strata data directory here{}", dir.string(),
                                        db->no_writes_ ? " (a read-only open creates nothing)" : ""));
  }
  // The pool first: a size the machine cannot give is refused before anything is written.
  BufferPoolOptions bp;
  bp.bytes = options.buffer_pool_bytes;
  bp.page_cleaner = options.page_cleaner && !db->no_writes_;
  try {
    db->pool_ = std::make_unique<BufferPool>(bp);
  } catch (const std::exception& e) {  // its memory (bad_alloc, length_error) or its cleaner thread
    return Status::InvalidArgument(
        fmt::format("a buffer pool of {} MiB cannot be allocated on this machine ({}); give a smaller one",
                    bp.bytes >> 20, e.what()));
  }
  if (!db->no_writes_) STRATA_RETURN_IF_ERROR(env.CreateDir(dir));
  auto lock = env.LockFile(dir / "strata.lock");
  if (!lock.ok()) {
    if (lock.status().code() == Status::Code::kBusy)
      return Status::Busy(fmt::format("data directory {} is in use: {}", dir.string(), lock.status().message()));
    // A read-only mount cannot hold a lock file; a read-only open writes nothing to guard.
    if (!db->no_writes_)
      return lock.status().WithContext(fmt::format("data directory {} cannot be locked", dir.string()));
  } else {
    db->lock_ = std::move(*lock);
  }
  // A creation that stopped part way (a crash, a full disk): nothing in it was ever used.
  if (*kind == DataDirKind::kUnfinishedCreation) STRATA_RETURN_IF_ERROR(RemoveCreatedFiles(env, dir));
  if (!exists) {
    Status created = db->CreateFiles();
    if (!created.ok()) {
      // Leave the directory as new again, so that the next open (with room on the disk, say)
      // creates it rather than refusing it for ever.
      db->checkpointer_.reset();
      db->pool_.reset();
      db->dblwr_.reset();
      db->log_.reset();
      db->system_.reset();
      (void)RemoveCreatedFiles(env, dir);  // the creation's own error is the one to report
      return created.WithContext(fmt::format("creating the data directory {}", dir.string()));
    }
  } else {
    if (!db->no_writes_) STRATA_RETURN_IF_ERROR(db->OpenDoublewrite());  // it restores by writing
    auto log = RedoLog::Open(env, logfile, db->no_writes_);
    if (!log.ok()) return log.status();
    db->log_ = std::move(*log);
    db->checkpointer_ = std::make_unique<Checkpointer>(*db->pool_, *db->log_);
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
    auto f = env.OpenFile(ibdata, db->no_writes_ ? OpenMode::kReadOnly : OpenMode::kExisting);
    if (!f.ok()) return f.status();
    auto ts = Tablespace::Open(std::move(*f), SpaceId(0), bp.page_size);
    if (!ts.ok()) return ts.status();
    db->system_ = std::move(*ts);
    db->pool_->Register(db->system_.get());
    db->pool_->set_redo(db->log_.get());
    db->pool_->before_write = [log = db->log_.get()](Lsn lsn) { return log->FlushUpTo(lsn); };
  }
  db->read_only_ = db->no_writes_ || options.force_recovery >= 3;
  db->skip_redo_ = options.force_recovery >= 6;
  STRATA_RETURN_IF_ERROR(db->Load());
  if (db->log_->flags() & kLogFlagNoLogging) {
    // Reopened after a clean shutdown with logging still disabled: it stays disabled, and a
    // crash from here on is unsafe again.
    db->pool_->set_redo_enabled(false);
    if (!db->read_only_) STRATA_RETURN_IF_ERROR(db->log_->SetFlags(kLogFlagNoLogging | kLogFlagCrashUnsafe));
  }
  if (!db->read_only_) {
    db->checkpointer_->StartThread();
    db->recovery_.history_at_open = db->history_list_length();
    if (options.purge && options.force_recovery < 2) db->purge_->StartThread();
  }
  db->opened_ = true;
  return std::unique_ptr<Database>(std::move(db));
}

DatabaseImpl::~DatabaseImpl() {
  if (!pool_) return;
  // innodb_fast_shutdown=0: purge all the history no read view holds before stopping.
  if (opened_ && !read_only_ && options_.fast_shutdown == 0 && purge_) (void)Purge();
  purge_.reset();
  pipeline_.reset();  // what was committed asynchronously is durable (or failed) first
  if (checkpointer_) checkpointer_->StopThread();
  if (trx_sys_) trx_sys_->AbandonAll();
  if (opened_ && !read_only_ && log_) {
    // A clean shutdown: every page written and the checkpoint at the end of the log, so the
    // next open has nothing to replay (and with logging disabled, nothing to fear).
    if (Flush().ok() && !pool_->redo_enabled()) (void)log_->SetFlags(kLogFlagNoLogging);
  }
  // The pool (and its page cleaner) goes first, before the files it could still write to.
  pool_->StopCleaner();
  WriterLock lock(mu_);  // every other thread has stopped; for the checker
  tables_.clear();       // each table takes its space out of the pool first
  pool_.reset();
}

// Opens every table of the catalog: first their files (recovery may touch any of them), then
// the log's replay, then the tables' definitions from their (now recovered) SDI.
void DatabaseImpl::CreateTransactionParts() {
  pipeline_ = std::make_unique<CommitPipeline>(
      CommitPipeline::Parts{mu_, *pool_, *log_, *rseg_, *trx_sys_, *lock_sys_},
      CommitSettings{options_.flush_log_at_trx_commit, options_.enable_early_lock_release,
                     options_.max_elr_dependent_trx_count, options_.group_commit, !read_only_});
  purge_ =
      std::make_unique<PurgeSys>(PurgeSys::Parts{mu_, *rseg_, *trx_sys_, [this](std::uint64_t id) {
                                                   mu_.AssertHeld();  // purge calls it with the lock it was given held
                                                   return TableById(id);
                                                 }});
}

// ibdata1's torn pages mended from the doublewrite area and its share of the log applied; the
// log's mini-transactions past the checkpoint are returned for the tables' turn.
Result<std::vector<RedoGroup>> DatabaseImpl::RecoverSystemSpace() {
  if (dblwr_)
    STRATA_RETURN_IF_ERROR(dblwr_->Restore([this](SpaceId id) { return id == SpaceId(0) ? system_.get() : nullptr; }));
  auto groups = log_->Recover(pool_->options().page_size.bytes());
  if (!groups.ok()) return groups.status();
  if (no_writes_ && !groups->empty()) {
    return Status::InvalidArgument(fmt::format(
        "{}: the redo log holds {} mini-transactions past its checkpoint (the server crashed, or the files were "
        "copied while it ran); crash recovery would write them into the files, which a read-only open never does. "
        "Open a writable copy, or use --force-recovery 6 to read the files as they are (older than the log)",
        (dir_ / "ib_logfile0").string(), groups->size()));
  }
  auto st = ApplyRedo(*pool_, *groups, [](SpaceId id) { return id == SpaceId(0); });
  if (!st.ok()) return st.status();
  recovery_ = *st;
  return groups;
}

// ibdata1 is recovered first (its torn pages, then its share of the log), because the catalog
// is one of its pages and the log may hold the last DDL statement's change to it; then the
// tables the recovered catalog lists, then their share of the log, then what the DDL log says
// is left to remove.
Status DatabaseImpl::Load() {
  std::vector<RedoGroup> groups;
  if (!skip_redo_) {
    auto recovered = RecoverSystemSpace();
    if (!recovered.ok()) return recovered.status();
    groups = std::move(*recovered);
  }
  STRATA_RETURN_IF_ERROR(CheckSystemSpaceHeaders(*pool_, *system_));
  auto catalog = ReadCatalog(*pool_, *system_);
  if (!catalog.ok()) return catalog.status();
  {
    WriterLock lock(mu_);
    databases_ = catalog->databases;
    ddl_log_ = catalog->ddl_log;
    next_space_id_ = catalog->next_space_id;
    next_index_id_ = catalog->next_index_id;
    next_table_id_ = catalog->next_table_id;
    if (!no_writes_) STRATA_RETURN_IF_ERROR(UndoUncommittedMoves());
  }
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
  // A table whose file cannot be opened, replayed or trusted is left unopened, named with the
  // reason, and nothing is written to it; the others open as usual.
  auto set_aside = [&](std::size_t i, const Status& why) {
    const auto& t = catalog->tables[i];
    if (spaces[i]) {
      pool_->Discard(spaces[i]->id());
      spaces[i].reset();
    }
    // MySQL's ER_TABLE_CORRUPT words, then what was found.
    const Status named = Status::Corruption(fmt::format("Operation cannot be performed. The table '{}.{}' is missing, "
                                                        "corrupt or contains bad data: {}",
                                                        t.database, t.name, why.message()))
                             .Because(Status::Reason::kTableUnavailable);
    WriterLock lock(mu_);
    unavailable_[TableKey(t.database, t.name)] = {t.space_id, dir_ / t.database / (t.name + ".ibd"), named};
    recovery_.unavailable_tables.push_back(named.message());
  };
  for (std::size_t i = 0; i < catalog->tables.size(); ++i) {
    const auto& t = catalog->tables[i];
    auto ts = OpenTablespace(t.database, t.name, t.space_id);
    spaces.emplace_back();
    if (!ts.ok()) {
      const Status::Code code = ts.status().code();
      // A missing or damaged file is this table's problem; anything else (no file descriptors
      // left, say) is the open's, and is said as such.
      if (code != Status::Code::kNotFound && code != Status::Code::kCorruption && code != Status::Code::kNotSupported)
        return ts.status();
      set_aside(i, ts.status());
      continue;
    }
    pool_->Register(ts->get());
    spaces.back() = std::move(*ts);
  }
  if (!skip_redo_) {
    if (dblwr_) STRATA_RETURN_IF_ERROR(dblwr_->Restore([this](SpaceId id) { return pool_->space(id); }));
    DamagedSpaces damaged;
    auto st = ApplyRedo(
        *pool_, groups, [](SpaceId id) { return id != SpaceId(0); }, &damaged);
    if (!st.ok()) return st.status();
    recovery_.applied += st->applied;
    recovery_.skipped += st->skipped;
    recovery_.pages += st->pages;
    recovery_.threads = std::max(recovery_.threads, st->threads);
    log_->ReleaseRecovery();
    for (std::size_t i = 0; i < spaces.size(); ++i) {
      if (!spaces[i]) continue;
      if (auto it = damaged.find(spaces[i]->id().value()); it != damaged.end()) set_aside(i, it->second);
    }
  }
  for (std::size_t i = 0; i < spaces.size(); ++i) {
    if (!spaces[i]) continue;
    if (Status s = TableImpl::CheckHeaders(*pool_, *spaces[i]); !s.ok()) set_aside(i, s);
  }
  if (!skip_redo_ && !groups.empty()) STRATA_RETURN_IF_ERROR(Flush());
  rseg_ = std::make_unique<Rseg>(*pool_, *system_, PageNo(6));  // TRX_SYS slot 0
  trx_sys_ = std::make_unique<TrxSys>(*pool_, *system_);
  lock_sys_ = std::make_unique<LockSys>(LockSys::Options{options_.lock_wait_timeout, options_.deadlock_detect});
  CreateTransactionParts();
  for (std::size_t i = 0; i < catalog->tables.size(); ++i) {
    if (!spaces[i]) continue;
    const auto& t = catalog->tables[i];
    auto impl = TableImpl::Open(*pool_, mu_, spaces[i]);
    if (!impl.ok()) {
      set_aside(i, impl.status());
      continue;
    }
    // A crash between a rename's commit and the rewrite of the definition it names: the
    // catalog's name is the table's.
    if ((*impl)->meta().spec.database != t.database || (*impl)->meta().spec.name != t.name) {
      if (Status s = (*impl)->Rename(t.database, t.name, !read_only_ && !no_writes_); !s.ok()) {
        set_aside(i, s);
        continue;
      }
    }
    AttachTable(**impl);
    WriterLock lock(mu_);
    tables_[TableKey(t.database, t.name)] = std::unique_ptr<Table>(new Table(std::move(*impl), this));
  }
  unregister.armed = false;
  if (!read_only_) {
    WriterLock lock(mu_);
    STRATA_RETURN_IF_ERROR(FinishDdlLog());
  }
  STRATA_RETURN_IF_ERROR(LoadTransactions(options_.force_recovery < 3 && !no_writes_));
  return DropWorkTables();
}

Result<std::unique_ptr<Tablespace>> DatabaseImpl::OpenTablespace(const std::string& database, const std::string& name,
                                                                 std::uint32_t space_id) {
  const auto path = dir_ / database / (name + ".ibd");
  auto f = env_->OpenFile(path, no_writes_ ? OpenMode::kReadOnly : OpenMode::kExisting);
  if (!f.ok())
    return f.status().WithContext(
        fmt::format("table {}.{} is in the catalog but its file cannot be opened", database, name));
  auto ts = Tablespace::Open(std::move(*f), SpaceId(space_id), pool_->options().page_size);
  if (!ts.ok()) return ts.status();
  // A file that is another table's (copied over this one, say) must be refused before the
  // doublewrite area or the log writes this table's pages into it. A torn page 0 is left to
  // the doublewrite area, which holds a copy with the right id.
  std::vector<std::byte> page0(pool_->options().page_size.bytes());
  if ((*ts)->size() > 0 && !(*ts)->Read(PageNo(0), page0).ok()) {
    const PageCheck check = ValidatePage(page0, false);
    if (check.valid && !check.lsn_mismatch && CheckPlacement(page0, PageNo(0), SpaceId(space_id)).space_id_differs) {
      return Status::Corruption(fmt::format(
          "{}: page 0 offset {} says space id {}, but the catalog gives table {}.{} space "
          "id {} (a file copied from another table?); nothing was changed",
          path.string(), FilHeader::kSpaceId, FilHeader(page0).space_id().value(), database, name, space_id));
    }
  }
  return ts;
}

Status DatabaseImpl::ReadOnly() const {
  return Status::NotSupported(fmt::format("the database is open read-only (--force-recovery {}): changes are refused",
                                          options_.force_recovery));
}

Status DatabaseImpl::BeforeWrite() {
  if (read_only_) return ReadOnly();
  return checkpointer_->FreeCheck();
}

Status DatabaseImpl::Flush() {
  STRATA_RETURN_IF_ERROR(pool_->FlushAll());
  STRATA_RETURN_IF_ERROR(pool_->cleaner_status());
  if (skip_redo_ || !pool_->redo_enabled()) return Status::Ok();
  return checkpointer_->Checkpoint();
}

Status DatabaseImpl::SetRedoLogging(bool enabled) {
  WriterLock lock(mu_);
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

bool DatabaseImpl::redo_logging() const { return pool_->redo_enabled(); }
RedoStats DatabaseImpl::redo_stats() const {
  RedoStats st = log_->stats();
  st.commits = pipeline_ ? pipeline_->commits() : 0;
  return st;
}
BufferPoolStats DatabaseImpl::buffer_pool_stats() { return pool_->stats(); }

}  // namespace strata::engine
