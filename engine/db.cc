#include "engine/db.h"

#include <fmt/format.h>

#include <algorithm>
#include <mutex>

#include "engine/system_space.h"
#include "engine/table_impl.h"
#include "ondisk/fsp_header.h"

namespace strata::engine {

using namespace strata::ondisk;

namespace {
constexpr std::uint32_t kNewTablePages = 7;  // FIL_IBD_FILE_INITIAL_SIZE
std::string Key(const std::string& db, const std::string& table) { return db + "/" + table; }
}  // namespace

// ---- Table -------------------------------------------------------------------------------

Table::Table(std::unique_ptr<TableImpl> impl) : impl_(std::move(impl)) {}
Table::~Table() = default;
const TableSpec& Table::spec() const { return impl_->meta().spec; }
Status Table::Insert(const Row& row) { return impl_->Insert(row); }
Status Table::InsertBatch(const std::vector<Row>& rows) {
  for (std::size_t i = 0; i < rows.size(); ++i) {
    STRATA_RETURN_IF_ERROR(impl_->Insert(rows[i]).WithContext(fmt::format("row {} of the batch", i + 1)));
  }
  return Status::Ok();
}
Result<std::optional<Row>> Table::Get(const std::vector<Value>& primary_key) { return impl_->Get(primary_key); }
Status Table::Update(const Row& row) { return impl_->Update(row); }
Status Table::Delete(const std::vector<Value>& primary_key) { return impl_->Delete(primary_key); }
Status Table::Scan(const ScanOptions& options, const std::function<bool(const Row&)>& fn) { return impl_->Scan(options, fn); }
std::uint64_t Table::last_insert_id() const { return impl_->last_insert_id(); }
TableStats Table::stats() const { return impl_->stats(); }
Status Table::Check() { return impl_->Check(); }
const std::filesystem::path& Table::path() const { return impl_->space().path(); }

// ---- Database ----------------------------------------------------------------------------

Result<std::unique_ptr<Database>> Database::Open(const std::filesystem::path& dir, DatabaseOptions options) {
  auto db = std::unique_ptr<Database>(new Database());
  db->dir_ = dir;
  db->options_ = options;
  db->env_ = options.env ? options.env : Env::Default();
  Env& env = *db->env_;
  const auto ibdata = dir / "ibdata1";
  const bool exists = env.Exists(ibdata);
  if (!exists && !options.create_if_missing) return Status::NotFound(fmt::format("{}: no Strata data directory here", dir.string()));
  STRATA_RETURN_IF_ERROR(env.CreateDir(dir));
  auto lock = env.LockFile(dir / "strata.lock");
  if (!lock.ok()) return Status::Busy(fmt::format("data directory {} is in use: {}", dir.string(), lock.status().message()));
  db->lock_ = std::move(*lock);
  BufferPoolOptions bp;
  bp.bytes = options.buffer_pool_bytes;
  bp.page_cleaner = options.page_cleaner;
  db->pool_ = std::make_unique<BufferPool>(bp);
  if (!exists) {
    auto f = env.OpenFile(ibdata, OpenMode::kCreateNew);
    if (!f.ok()) return f.status();
    STRATA_RETURN_IF_ERROR((*f)->Resize(std::uint64_t{kSystemSpaceInitialPages} * bp.page_size.bytes()));
    db->system_ = std::make_unique<Tablespace>(std::move(*f), SpaceId(0), bp.page_size, kSystemSpaceInitialPages);
    db->pool_->Register(db->system_.get());
    STRATA_RETURN_IF_ERROR(CreateSystemSpace(*db->pool_, *db->system_));
    STRATA_RETURN_IF_ERROR(db->pool_->FlushSpace(SpaceId(0)));
    STRATA_RETURN_IF_ERROR(env.SyncDir(dir));
  } else {
    auto f = env.OpenFile(ibdata, OpenMode::kExisting);
    if (!f.ok()) return f.status();
    auto ts = Tablespace::Open(std::move(*f), SpaceId(0), bp.page_size);
    if (!ts.ok()) return ts.status();
    db->system_ = std::move(*ts);
    db->pool_->Register(db->system_.get());
  }
  STRATA_RETURN_IF_ERROR(db->Load());
  return db;
}

Database::~Database() {
  if (!pool_) return;
  (void)Flush();  // nothing to report to: the caller wanting the status calls Flush() first
  tables_.clear();
}

Status Database::Load() {
  auto catalog = ReadCatalog(*pool_, *system_);
  if (!catalog.ok()) return catalog.status();
  databases_ = catalog->databases;
  next_space_id_ = catalog->next_space_id;
  next_index_id_ = catalog->next_index_id;
  next_table_id_ = catalog->next_table_id;
  for (const auto& t : catalog->tables) {
    auto table = OpenTableFile(t.database, t.name, t.space_id);
    if (!table.ok()) return table.status();
    tables_[Key(t.database, t.name)] = std::move(*table);
  }
  return Status::Ok();
}

Result<std::unique_ptr<Table>> Database::OpenTableFile(const std::string& database, const std::string& name, std::uint32_t space_id) {
  const auto path = dir_ / database / (name + ".ibd");
  auto f = env_->OpenFile(path, OpenMode::kExisting);
  if (!f.ok()) return f.status().WithContext(fmt::format("table {}.{} is in the catalog but its file cannot be opened", database, name));
  auto ts = Tablespace::Open(std::move(*f), SpaceId(space_id), pool_->options().page_size);
  if (!ts.ok()) return ts.status();
  pool_->Register(ts->get());
  auto impl = TableImpl::Open(*pool_, mu_, std::move(*ts));
  if (!impl.ok()) return impl.status();
  return std::unique_ptr<Table>(new Table(std::move(*impl)));
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
  if (name.empty() || name.find_first_of("/\\.") != std::string::npos) return Status::InvalidArgument(fmt::format("database name '{}' is not allowed", name));
  if (std::find(databases_.begin(), databases_.end(), name) != databases_.end()) {
    return Status::AlreadyExists(fmt::format("Can't create database '{}'; database exists", name));
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
    return Status::NotFound(fmt::format("Unknown database '{}'", spec.database));
  }
  const std::string key = Key(spec.database, spec.name);
  if (tables_.count(key)) return Status::AlreadyExists(fmt::format("Table '{}' already exists", spec.name));
  const auto path = dir_ / spec.database / (spec.name + ".ibd");
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
  if (!impl.ok()) {
    pool_->Discard(space_id);
    (void)env_->Remove(path);
    return impl.status();
  }
  auto table = std::unique_ptr<Table>(new Table(std::move(*impl)));
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
  if (it == tables_.end()) return Status::NotFound(fmt::format("Table '{}.{}' doesn't exist", database, name));
  return it->second.get();
}

Status Database::DropTable(const std::string& database, const std::string& name) {
  std::unique_lock lock(mu_);
  auto it = tables_.find(Key(database, name));
  if (it == tables_.end()) return Status::NotFound(fmt::format("Unknown table '{}.{}'", database, name));
  const SpaceId space = it->second->impl_->space().id();
  const auto path = it->second->path();
  tables_.erase(it);
  pool_->Discard(space);
  STRATA_RETURN_IF_ERROR(SaveCatalog());
  STRATA_RETURN_IF_ERROR(env_->Remove(path));
  return env_->SyncDir(path.parent_path());
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
  auto it = tables_.find(Key(database, table));
  if (it == tables_.end()) return Status::NotFound(fmt::format("Table '{}.{}' doesn't exist", database, table));
  STRATA_RETURN_IF_ERROR(it->second->impl_->AddIndex(index, next_index_id_++));
  STRATA_RETURN_IF_ERROR(pool_->FlushSpace(it->second->impl_->space().id()));
  return SaveCatalog();
}

Status Database::Flush() {
  STRATA_RETURN_IF_ERROR(pool_->FlushAll());
  return pool_->cleaner_status();
}

BufferPoolStats Database::buffer_pool_stats() { return pool_->stats(); }

}  // namespace strata::engine
