// The catalog (ibdata1's list of databases and tables) and the DDL that changes it. DDL is
// made durable at once: the file, its directory entry, then the catalog.
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

Status DatabaseImpl::SaveCatalog() {
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

Status DatabaseImpl::CreateDatabase(const std::string& name) {
  std::unique_lock lock(mu_);
  if (read_only_) return ReadOnly();
  if (!CheckTableOrDatabaseName(name).ok())
    return Status::InvalidArgument(fmt::format("database name '{}' is not allowed", name));
  STRATA_RETURN_IF_ERROR(CheckIdentifier(name));
  if (std::find(databases_.begin(), databases_.end(), name) != databases_.end()) {
    return Status::AlreadyExists(fmt::format("Can't create database '{}'; database exists", name))
        .Because(Status::Reason::kDatabaseExists);
  }
  STRATA_RETURN_IF_ERROR(env_->CreateDir(dir_ / name));
  STRATA_RETURN_IF_ERROR(env_->SyncDir(dir_));
  databases_.push_back(name);
  return SaveCatalog();
}

std::vector<std::string> DatabaseImpl::ListDatabases() const {
  std::shared_lock lock(mu_);
  return databases_;
}

Result<Table*> DatabaseImpl::CreateTable(const TableSpec& spec) {
  STRATA_RETURN_IF_ERROR(spec.Validate());
  std::unique_lock lock(mu_);
  if (std::find(databases_.begin(), databases_.end(), spec.database) == databases_.end()) {
    return Status::NotFound(fmt::format("Unknown database '{}'", spec.database))
        .Because(Status::Reason::kUnknownDatabase);
  }
  const std::string key = TableKey(spec.database, spec.name);
  if (tables_.count(key))
    return Status::AlreadyExists(fmt::format("Table '{}' already exists", spec.name))
        .Because(Status::Reason::kTableExists);
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

Result<Table*> DatabaseImpl::GetTable(const std::string& database, const std::string& name) {
  std::shared_lock lock(mu_);
  auto it = tables_.find(TableKey(database, name));
  if (it == tables_.end())
    return Status::NotFound(fmt::format("Table '{}.{}' doesn't exist", database, name))
        .Because(Status::Reason::kNoSuchTable);
  return it->second.get();
}

Status DatabaseImpl::DropTable(const std::string& database, const std::string& name) {
  std::unique_lock lock(mu_);
  if (read_only_) return ReadOnly();
  auto it = tables_.find(TableKey(database, name));
  if (it == tables_.end())
    return Status::NotFound(fmt::format("Unknown table '{}.{}'", database, name))
        .Because(Status::Reason::kUnknownTable);
  const auto path = it->second->path();
  tables_.erase(it);  // ~TableImpl: the pool lets go of the space before its file closes
  STRATA_RETURN_IF_ERROR(SaveCatalog());
  STRATA_RETURN_IF_ERROR(env_->Remove(path));
  return env_->SyncDir(path.parent_path());
}

Status DatabaseImpl::DropDatabase(const std::string& name) {
  if (read_only_) return ReadOnly();
  for (const std::string& table : ListTables(name)) STRATA_RETURN_IF_ERROR(DropTable(name, table));
  std::unique_lock lock(mu_);
  auto it = std::find(databases_.begin(), databases_.end(), name);
  if (it == databases_.end()) {
    return Status::NotFound(fmt::format("Can't drop database '{}'; database doesn't exist", name))
        .Because(Status::Reason::kNoDatabaseToDrop);
  }
  databases_.erase(it);
  STRATA_RETURN_IF_ERROR(SaveCatalog());
  (void)env_->Remove(dir_ / name);  // stays when something else put files there
  return env_->SyncDir(dir_);
}

std::vector<std::string> DatabaseImpl::ListTables(const std::string& database) const {
  std::shared_lock lock(mu_);
  std::vector<std::string> out;
  for (const auto& [key, t] : tables_) {
    if (t->spec().database == database) out.push_back(t->spec().name);
  }
  return out;
}

Status DatabaseImpl::CreateIndex(const std::string& database, const std::string& table, const IndexSpec& index) {
  std::unique_lock lock(mu_);
  if (read_only_) return ReadOnly();
  auto it = tables_.find(TableKey(database, table));
  if (it == tables_.end())
    return Status::NotFound(fmt::format("Table '{}.{}' doesn't exist", database, table))
        .Because(Status::Reason::kNoSuchTable);
  STRATA_RETURN_IF_ERROR(it->second->impl_->AddIndex(index, next_index_id_++));
  STRATA_RETURN_IF_ERROR(pool_->FlushSpace(it->second->impl_->space().id()));
  return SaveCatalog();
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
