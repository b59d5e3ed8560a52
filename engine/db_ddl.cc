// The catalog (ibdata1's list of databases and tables) and the DDL that changes it, each
// statement atomic and durable through the catalog page and its DDL log (system_space.h).
#include <fmt/format.h>

#include <algorithm>
#include <mutex>

#include "engine/system_space.h"
#include "engine/db_impl.h"
#include "engine/table_impl.h"

namespace strata::engine {

using namespace strata::ondisk;

namespace {
constexpr std::uint32_t kNewTablePages = 7;  // FIL_IBD_FILE_INITIAL_SIZE
}  // namespace

void DatabaseImpl::AttachTable(TableImpl& t) {
  t.set_hooks({[this] { return BeforeWrite(); }});
  t.set_services({trx_sys_.get(), lock_sys_.get(), rseg_.get(), [this](TrxImpl& trx) { return EnsureWritable(trx); }});
}

// The commit point of a DDL statement (system_space.h): the catalog page rewritten in one
// mini-transaction, durable before this returns.
Status DatabaseImpl::SaveCatalog() {
  Catalog c;
  c.next_space_id = next_space_id_;
  c.next_index_id = next_index_id_;
  c.next_table_id = next_table_id_;
  c.databases = databases_;
  c.ddl_log = ddl_log_;
  for (const auto& [key, t] : tables_) {
    c.tables.push_back({t->spec().database, t->spec().name, t->impl_->meta().space_id});
  }
  for (const auto& [key, t] : unavailable_) {
    const auto slash = key.find('/');
    c.tables.push_back({key.substr(0, slash), key.substr(slash + 1), t.space_id});
  }
  STRATA_RETURN_IF_ERROR(WriteCatalog(*pool_, *system_, c));
  return pool_->FlushSpace(SpaceId(0));  // the log first (INV-1), so the change is durable
}

void DatabaseImpl::ForgetDdlLog(const std::string& path) {
  std::erase_if(ddl_log_, [&](const DdlLogEntry& e) { return e.path == path; });
}

// Removes what the DDL log names: the files of drops that committed, and what creates that
// did not commit had made; then the log is emptied (renames that did not commit were undone
// before the tables opened). Files before directories.
Status DatabaseImpl::FinishDdlLog() {
  if (ddl_log_.empty()) return Status::Ok();
  std::stable_partition(ddl_log_.begin(), ddl_log_.end(),
                        [](const DdlLogEntry& e) { return e.kind == DdlLogEntry::Kind::kRemoveFile; });
  for (const auto& e : ddl_log_) {
    if (e.kind == DdlLogEntry::Kind::kMoveBack) continue;  // undone before the tables opened
    const auto path = dir_ / e.path;
    if (!env_->Exists(path)) continue;
    Status removed = env_->Remove(path);
    // A database folder holding files that are not ours stays, as DROP DATABASE leaves it.
    if (!removed.ok() && e.kind == DdlLogEntry::Kind::kRemoveFile)
      return removed.WithContext("finishing a DDL statement");
    STRATA_RETURN_IF_ERROR(env_->SyncDir(path.parent_path()));
  }
  ddl_log_.clear();
  return SaveCatalog();
}

Status DatabaseImpl::CreateDatabase(const std::string& name) {
  WriterLock lock(mu_);
  if (read_only_) return ReadOnly();
  if (!CheckTableOrDatabaseName(name).ok())
    return Status::InvalidArgument(fmt::format("database name '{}' is not allowed", name));
  STRATA_RETURN_IF_ERROR(CheckIdentifier(name));
  if (std::find(databases_.begin(), databases_.end(), name) != databases_.end()) {
    return Status::AlreadyExists(fmt::format("Can't create database '{}'; database exists", name))
        .Because(Status::Reason::kDatabaseExists);
  }
  // The folder is logged for removal before it exists, and the write that adds the database
  // takes the entry out: a crash in between leaves no folder the catalog does not know.
  ddl_log_.push_back({DdlLogEntry::Kind::kRemoveDir, name, {}});
  STRATA_RETURN_IF_ERROR(SaveCatalog());
  STRATA_RETURN_IF_ERROR(env_->CreateDir(dir_ / name));
  STRATA_RETURN_IF_ERROR(env_->SyncDir(dir_));
  ForgetDdlLog(name);
  databases_.push_back(name);
  return SaveCatalog();
}

std::vector<std::string> DatabaseImpl::ListDatabases() const {
  ReaderLock lock(mu_);
  return databases_;
}

Result<Table*> DatabaseImpl::CreateTable(const TableSpec& spec) {
  STRATA_RETURN_IF_ERROR(spec.Validate());
  WriterLock lock(mu_);
  if (std::find(databases_.begin(), databases_.end(), spec.database) == databases_.end()) {
    return Status::NotFound(fmt::format("Unknown database '{}'", spec.database))
        .Because(Status::Reason::kUnknownDatabase);
  }
  const std::string key = TableKey(spec.database, spec.name);
  if (tables_.count(key) || unavailable_.count(key))
    return Status::AlreadyExists(fmt::format("Table '{}' already exists", spec.name))
        .Because(Status::Reason::kTableExists);
  if (read_only_) return ReadOnly();
  const std::string file = spec.database + "/" + spec.name + ".ibd";
  const auto path = dir_ / file;
  // The new file is logged for removal (with the ids it takes) before it is made; the write
  // that adds the table takes the entry out. A crash in between: the next open removes it.
  const SpaceId space_id(next_space_id_++);
  const std::uint64_t table_id = next_table_id_++;
  const std::uint64_t first_index_id = next_index_id_;
  next_index_id_ += 1 + spec.indexes.size();
  ddl_log_.push_back({DdlLogEntry::Kind::kRemoveFile, file, {}});
  STRATA_RETURN_IF_ERROR(SaveCatalog());
  // A file the catalog does not know was left by a CREATE whose removal failed.
  if (env_->Exists(path)) STRATA_RETURN_IF_ERROR(env_->Remove(path));
  auto f = env_->OpenFile(path, OpenMode::kCreateNew);
  if (!f.ok()) return f.status();
  const PageSize ps = pool_->options().page_size;
  STRATA_RETURN_IF_ERROR((*f)->Resize(std::uint64_t{kNewTablePages} * ps.bytes()));
  auto ts = std::make_unique<Tablespace>(std::move(*f), space_id, ps, kNewTablePages);
  pool_->Register(ts.get());
  TableMeta meta;
  meta.spec = spec;
  meta.spec.ClearRowVersions();  // a new table (also a copying ALTER's) has no row versions
  meta.table_id = table_id;
  std::uint64_t index_id = first_index_id;
  auto impl = TableImpl::Create(*pool_, mu_, std::move(ts), std::move(meta), &index_id);
  if (!impl.ok()) {  // the pool let go of the space as the half-built table went
    if (env_->Remove(path).ok()) {
      ForgetDdlLog(file);
      (void)SaveCatalog();  // else the next open removes it
    }
    return impl.status();
  }
  AttachTable(**impl);
  STRATA_RETURN_IF_ERROR(pool_->FlushSpace(space_id));
  STRATA_RETURN_IF_ERROR(env_->SyncDir(dir_ / spec.database));
  auto table = std::unique_ptr<Table>(new Table(std::move(*impl), this));
  Table* out = table.get();
  tables_[key] = std::move(table);
  ForgetDdlLog(file);
  STRATA_RETURN_IF_ERROR(SaveCatalog());  // the commit point
  return out;
}

Result<Table*> DatabaseImpl::GetTable(const std::string& database, const std::string& name) {
  ReaderLock lock(mu_);
  auto it = tables_.find(TableKey(database, name));
  if (it == tables_.end()) {
    if (auto u = unavailable_.find(TableKey(database, name)); u != unavailable_.end()) return u->second.why;
    return Status::NotFound(fmt::format("Table '{}.{}' doesn't exist", database, name))
        .Because(Status::Reason::kNoSuchTable);
  }
  return it->second.get();
}

// Takes the tables out of the catalog with their files logged for removal in one write (the
// commit point); only then do their pages leave the pool and their files go, and the log
// entries with them. Until that write is durable the tables stay whole: their changes not yet
// on their pages are still in the log, which a checkpoint cannot pass while the pages are dirty.
Status DatabaseImpl::DropTablesLocked(const std::vector<std::string>& keys, const std::string& database_dir,
                                      bool* committed_out) {
  std::vector<decltype(tables_)::node_type> dropped;
  std::vector<decltype(unavailable_)::node_type> dropped_unavailable;  // only their files to remove
  std::vector<DdlLogEntry> removals;
  for (const auto& key : keys) {
    std::filesystem::path path;
    if (auto node = tables_.extract(key)) {
      path = node.mapped()->path();
      dropped.push_back(std::move(node));
    } else {
      auto gone = unavailable_.extract(key);
      path = gone.mapped().path;
      dropped_unavailable.push_back(std::move(gone));
    }
    removals.push_back({DdlLogEntry::Kind::kRemoveFile, std::filesystem::relative(path, dir_).generic_string(), {}});
  }
  if (!database_dir.empty()) removals.push_back({DdlLogEntry::Kind::kRemoveDir, database_dir, {}});
  ddl_log_.insert(ddl_log_.end(), removals.begin(), removals.end());
  Status committed = SaveCatalog();
  if (!committed.ok()) {
    // Not known to be durable: the tables stay open as they were (the next catalog write
    // names them again), and the error says the statement failed.
    for (auto& node : dropped) tables_.insert(std::move(node));
    for (auto& node : dropped_unavailable) unavailable_.insert(std::move(node));
    for (const auto& e : removals) ForgetDdlLog(e.path);
    return committed;
  }
  if (committed_out) *committed_out = true;
  dropped.clear();  // ~TableImpl: the pool lets go of each space before its file closes
  for (const auto& e : removals) {
    const auto path = dir_ / e.path;
    Status removed = env_->Exists(path) ? env_->Remove(path) : Status::Ok();  // a missing table's file
    if (!removed.ok()) {
      // A database folder holding files that are not ours stays (the catalog no longer lists it).
      if (e.kind == DdlLogEntry::Kind::kRemoveDir) {
        ForgetDdlLog(e.path);
        continue;
      }
      return removed.WithContext("the drop is committed; the next open removes the file");
    }
    STRATA_RETURN_IF_ERROR(env_->SyncDir(path.parent_path()));
    ForgetDdlLog(e.path);
  }
  return SaveCatalog();
}

Status DatabaseImpl::DropTable(const std::string& database, const std::string& name) {
  WriterLock lock(mu_);
  if (read_only_) return ReadOnly();
  const std::string key = TableKey(database, name);
  if (!tables_.count(key) && !unavailable_.count(key))
    return Status::NotFound(fmt::format("Unknown table '{}.{}'", database, name))
        .Because(Status::Reason::kUnknownTable);
  return DropTablesLocked({key}, "", nullptr);
}

// One catalog write drops the database and every table in it: after a crash it is all there
// or all gone.
Status DatabaseImpl::DropDatabase(const std::string& name) {
  WriterLock lock(mu_);
  if (read_only_) return ReadOnly();
  auto it = std::find(databases_.begin(), databases_.end(), name);
  if (it == databases_.end()) {
    return Status::NotFound(fmt::format("Can't drop database '{}'; database doesn't exist", name))
        .Because(Status::Reason::kNoDatabaseToDrop);
  }
  std::vector<std::string> keys;
  for (const std::string& table : ListTablesLocked(name)) keys.push_back(TableKey(name, table));
  const auto at = databases_.erase(it) - databases_.begin();
  bool committed = false;
  Status s = DropTablesLocked(keys, name, &committed);
  if (!committed) databases_.insert(databases_.begin() + at, name);  // it is still there
  return s;
}

std::vector<std::string> DatabaseImpl::ListTables(const std::string& database) const {
  ReaderLock lock(mu_);
  return ListTablesLocked(database);
}

// Unopened tables too: they exist, and SHOW TABLES and DROP see them.
std::vector<std::string> DatabaseImpl::ListTablesLocked(const std::string& database) const {
  std::vector<std::string> out;
  const std::string prefix = database + "/";
  for (const auto& [key, t] : tables_) {
    if (key.starts_with(prefix)) out.push_back(key.substr(prefix.size()));
  }
  for (const auto& [key, t] : unavailable_) {
    if (key.starts_with(prefix)) out.push_back(key.substr(prefix.size()));
  }
  std::sort(out.begin(), out.end());
  return out;
}

Result<TableImpl*> DatabaseImpl::TableToChange(const std::string& database, const std::string& table) {
  if (read_only_) return ReadOnly();
  auto it = tables_.find(TableKey(database, table));
  if (it == tables_.end())
    return Status::NotFound(fmt::format("Table '{}.{}' doesn't exist", database, table))
        .Because(Status::Reason::kNoSuchTable);
  return it->second->impl_.get();
}

Status DatabaseImpl::CreateIndex(const std::string& database, const std::string& table, const IndexSpec& index) {
  WriterLock lock(mu_);
  auto t = TableToChange(database, table);
  if (!t.ok()) return t.status();
  // The id is taken in the catalog first, so that an index a crash left half built (its
  // pages unused, the table's definition without it) never shares an id with a later one.
  const std::uint64_t index_id = next_index_id_++;
  STRATA_RETURN_IF_ERROR(SaveCatalog());
  // The commit point is the table's definition (SDI) naming the index, one mini-transaction.
  STRATA_RETURN_IF_ERROR((*t)->AddIndex(index, index_id));
  return pool_->FlushSpace((*t)->space().id());
}

Status DatabaseImpl::AlterColumnsInstantly(const std::string& database, const std::string& table, const TableSpec& next,
                                           const std::vector<std::optional<std::size_t>>& sources,
                                           const std::vector<Value>& fills) {
  WriterLock lock(mu_);
  auto t = TableToChange(database, table);
  if (!t.ok()) return t.status();
  STRATA_RETURN_IF_ERROR((*t)->AlterColumnsInstantly(next, sources, fills));
  return pool_->FlushSpace((*t)->space().id());
}

std::string DatabaseImpl::TableKey(const std::string& database, const std::string& table) {
  return database + "/" + table;
}

TableImpl* DatabaseImpl::TableById(std::uint64_t table_id) {
  for (auto& [key, t] : tables_) {
    if (t->impl_->meta().table_id == table_id) return t->impl_.get();
  }
  return nullptr;
}

}  // namespace strata::engine
