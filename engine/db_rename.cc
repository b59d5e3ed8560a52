// RENAME TABLE and the swap that ends a copying ALTER TABLE or TRUNCATE. A file is never renamed
// while open: its table leaves the pool (its pages written first), the renames are logged as
// kMoveBack entries in a catalog write before they are made, and the table is opened again
// under its new name. The write that names the tables anew takes the entries out: it is the
// commit point. An open that finds the entries renames the files back (UndoUncommittedMoves),
// so after a crash every table has its old name and file or its new ones.
#include <fmt/format.h>

#include <algorithm>

#include "engine/db_impl.h"
#include "engine/system_space.h"
#include "engine/table_impl.h"

namespace strata::engine {

namespace {

std::string FileOf(const std::string& database, const std::string& name) { return database + "/" + name + ".ibd"; }

Status NoSuchTable(const std::string& database, const std::string& name) {
  return Status::NotFound(fmt::format("Table '{}.{}' doesn't exist", database, name))
      .Because(Status::Reason::kNoSuchTable);
}

}  // namespace

// The table stays in the catalog while closed, as an unavailable one (a catalog written now
// still names it); ReopenTableLocked, or the statement's commit, takes it out of there.
Status DatabaseImpl::CloseTableLocked(const std::string& key) {
  auto it = tables_.find(key);
  TableImpl& t = *it->second->impl_;
  STRATA_RETURN_IF_ERROR(pool_->FlushSpace(t.space().id()));
  unavailable_[key] = {t.meta().space_id, t.space().path(),
                       Status::Corruption(fmt::format("table {} was closed for a rename that did not finish; the "
                                                      "next open has it again",
                                                      key))
                           .Because(Status::Reason::kTableUnavailable)};
  tables_.erase(it);  // ~TableImpl: the pool lets go of the space, then the file closes
  return Status::Ok();
}

Status DatabaseImpl::ReopenTableLocked(const std::string& database, const std::string& name, std::uint32_t space_id) {
  auto ts = OpenTablespace(database, name, space_id);
  if (!ts.ok()) return ts.status();
  const ondisk::SpaceId id = (*ts)->id();
  pool_->Register(ts->get());
  auto impl = TableImpl::Open(*pool_, mu_, *ts);
  if (!impl.ok()) {
    if (*ts) pool_->Discard(id);  // still ours: the table was not made
    return impl.status();
  }
  STRATA_RETURN_IF_ERROR((*impl)->Rename(database, name, false));
  AttachTable(**impl);
  unavailable_.erase(TableKey(database, name));
  tables_[TableKey(database, name)] = std::unique_ptr<Table>(new Table(std::move(*impl), this));
  return Status::Ok();
}

// Logs the moves (each entry's file goes from `back` to `path`), then makes them, in order.
// On failure the moves made are undone and the log is as before.
Status DatabaseImpl::MoveFiles(const std::vector<DdlLogEntry>& moves) {
  ddl_log_.insert(ddl_log_.end(), moves.begin(), moves.end());
  Status s = SaveCatalog();
  std::size_t done = 0;
  for (; s.ok() && done < moves.size(); ++done) {
    const auto from = dir_ / moves[done].back, to = dir_ / moves[done].path;
    s = env_->Rename(from, to);
    if (s.ok()) s = env_->SyncDir(to.parent_path());
    if (s.ok() && from.parent_path() != to.parent_path()) s = env_->SyncDir(from.parent_path());
    if (!s.ok()) break;
  }
  if (s.ok()) return s;
  // Undone in reverse; should that fail too, the entries stay for the next open to finish.
  for (std::size_t k = done + 1; k-- > 0;) {
    if (k >= moves.size()) continue;
    const auto now = dir_ / moves[k].path, back = dir_ / moves[k].back;
    if (env_->Exists(now) && !env_->Exists(back) &&
        (!env_->Rename(now, back).ok() || !env_->SyncDir(back.parent_path()).ok()))
      return s.WithContext("renaming back failed too; the next open renames the files back");
  }
  for (const auto& m : moves) ForgetDdlLog(m.path);
  (void)SaveCatalog();  // else the next open finds the entries, and nothing to move
  return s;
}

Status DatabaseImpl::UndoUncommittedMoves() {
  for (auto it = ddl_log_.rbegin(); it != ddl_log_.rend(); ++it) {
    if (it->kind != DdlLogEntry::Kind::kMoveBack) continue;
    const auto now = dir_ / it->path, back = dir_ / it->back;
    if (!env_->Exists(now) || env_->Exists(back)) continue;  // not made, or already undone
    STRATA_RETURN_IF_ERROR(
        env_->Rename(now, back).WithContext("undoing a rename whose statement did not commit (catalog DDL log)"));
    STRATA_RETURN_IF_ERROR(env_->SyncDir(back.parent_path()));
  }
  return Status::Ok();  // FinishDdlLog empties the log once the tables are open
}

// A crash during a copying ALTER TABLE left its copy: it goes, as the statement did.
Status DatabaseImpl::DropWorkTables() {
  if (read_only_) return Status::Ok();
  WriterLock lock(mu_);
  std::vector<std::string> keys;
  auto collect = [&](const std::string& key) {
    if (std::string_view(key).substr(key.find('/') + 1).starts_with(kWorkTablePrefix)) keys.push_back(key);
  };
  for (const auto& [key, t] : tables_) collect(key);
  for (const auto& [key, t] : unavailable_) collect(key);
  if (keys.empty()) return Status::Ok();
  return DropTablesLocked(keys, "", nullptr).WithContext("dropping what an interrupted ALTER TABLE left");
}

Status DatabaseImpl::RenameTable(const std::string& database, const std::string& name, const std::string& to_database,
                                 const std::string& to_name) {
  STRATA_RETURN_IF_ERROR(CheckTableOrDatabaseName(to_name));
  STRATA_RETURN_IF_ERROR(CheckIdentifier(to_name));
  WriterLock lock(mu_);
  if (read_only_) return ReadOnly();
  const std::string key = TableKey(database, name), to_key = TableKey(to_database, to_name);
  auto it = tables_.find(key);
  if (it == tables_.end()) {
    if (auto u = unavailable_.find(key); u != unavailable_.end()) return u->second.why;
    return NoSuchTable(database, name);
  }
  if (std::find(databases_.begin(), databases_.end(), to_database) == databases_.end())
    return Status::NotFound(fmt::format("Unknown database '{}'", to_database))
        .Because(Status::Reason::kUnknownDatabase);
  if (tables_.count(to_key) || unavailable_.count(to_key))
    return Status::AlreadyExists(fmt::format("Table '{}' already exists", to_name))
        .Because(Status::Reason::kTableExists);
  const std::uint32_t space_id = it->second->impl_->meta().space_id;
  const std::string from_file = FileOf(database, name), to_file = FileOf(to_database, to_name);
  STRATA_RETURN_IF_ERROR(CloseTableLocked(key));
  Status s = MoveFiles({{DdlLogEntry::Kind::kMoveBack, to_file, from_file}});
  if (s.ok()) {
    s = ReopenTableLocked(to_database, to_name, space_id);
    if (!s.ok()) (void)env_->Rename(dir_ / to_file, dir_ / from_file);  // else the next open moves it back
  }
  if (!s.ok()) {
    (void)ReopenTableLocked(database, name, space_id);
    return s;
  }
  ForgetDdlLog(to_file);
  unavailable_.erase(key);
  STRATA_RETURN_IF_ERROR(SaveCatalog());  // the commit point
  TableImpl& renamed = *tables_[to_key]->impl_;
  STRATA_RETURN_IF_ERROR(renamed.Rename(to_database, to_name, true));  // an open mends a crash before this
  return pool_->FlushSpace(renamed.space().id());
}

Status DatabaseImpl::ReplaceTable(const std::string& database, const std::string& table,
                                  const std::string& replacement) {
  WriterLock lock(mu_);
  if (read_only_) return ReadOnly();
  const std::string key = TableKey(database, table), work_key = TableKey(database, replacement);
  auto old_it = tables_.find(key), work_it = tables_.find(work_key);
  if (old_it == tables_.end()) return NoSuchTable(database, table);
  if (work_it == tables_.end()) return NoSuchTable(database, replacement);
  const std::uint32_t old_space = old_it->second->impl_->meta().space_id;
  const std::uint32_t work_space = work_it->second->impl_->meta().space_id;
  const std::string file = FileOf(database, table), work_file = FileOf(database, replacement);
  // The old file steps aside under a name no table has, InnoDB's #sql-ib<table id>.
  const std::string parked = FileOf(database, fmt::format("#sql-ib{}", old_it->second->impl_->meta().table_id));
  STRATA_RETURN_IF_ERROR(CloseTableLocked(key));
  Status s = CloseTableLocked(work_key);
  bool moved = false;
  if (s.ok()) {
    s = MoveFiles({{DdlLogEntry::Kind::kMoveBack, parked, file}, {DdlLogEntry::Kind::kMoveBack, file, work_file}});
    moved = s.ok();
  }
  if (s.ok()) s = ReopenTableLocked(database, table, work_space);
  if (!s.ok()) {
    // Both as they were, so far as it goes; what cannot be put back the next open puts back.
    if (moved) {
      (void)env_->Rename(dir_ / file, dir_ / work_file);
      (void)env_->Rename(dir_ / parked, dir_ / file);
      ForgetDdlLog(parked);
      ForgetDdlLog(file);
      (void)SaveCatalog();
    }
    if (!tables_.count(key)) (void)ReopenTableLocked(database, table, old_space);
    if (!tables_.count(work_key)) (void)ReopenTableLocked(database, replacement, work_space);
    return s;
  }
  // One write takes the moves out and names the parked file for removal: the commit point.
  ForgetDdlLog(parked);
  ForgetDdlLog(file);
  ddl_log_.push_back({DdlLogEntry::Kind::kRemoveFile, parked, {}});
  unavailable_.erase(work_key);
  STRATA_RETURN_IF_ERROR(SaveCatalog());
  STRATA_RETURN_IF_ERROR(env_->Remove(dir_ / parked).WithContext("the change is committed; the next open removes it"));
  STRATA_RETURN_IF_ERROR(env_->SyncDir((dir_ / parked).parent_path()));
  ForgetDdlLog(parked);
  STRATA_RETURN_IF_ERROR(SaveCatalog());
  TableImpl& now = *tables_[key]->impl_;
  STRATA_RETURN_IF_ERROR(now.Rename(database, table, true));  // an open mends a crash before this
  return pool_->FlushSpace(now.space().id());
}

}  // namespace strata::engine
