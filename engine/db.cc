// The faces of db.h: Database::Open and Table's methods, each a statement run by the
// DatabaseImpl on the table's TableImpl. (Transaction's are in transaction.cc.)
#include "engine/db.h"

#include <fmt/format.h>

#include "engine/db_impl.h"
#include "engine/table_impl.h"

namespace strata::engine {

Result<std::unique_ptr<Database>> Database::Open(const std::filesystem::path& dir, DatabaseOptions options) {
  return DatabaseImpl::Open(dir, options);
}

Table::Table(std::unique_ptr<TableImpl> impl, DatabaseImpl* db) : impl_(std::move(impl)), db_(db) {}
Table::~Table() = default;
const TableSpec& Table::spec() const { return impl_->meta().spec; }

Status Table::Insert(const Row& row, Transaction* trx, InsertOptions options) {
  return db_->RunStatement(trx, [&](TrxImpl& t) { return impl_->Insert(t, row, options); });
}
Status Table::InsertBatch(const std::vector<Row>& rows, Transaction* trx, InsertOptions options) {
  return db_->RunStatement(trx, [&](TrxImpl& t) {
    for (std::size_t i = 0; i < rows.size(); ++i) {
      Status s = impl_->Insert(t, rows[i], options);
      if (!s.ok()) return rows.size() > 1 ? s.WithContext(fmt::format("row {} of the batch", i + 1)) : s;
    }
    return Status::Ok();
  });
}
Result<std::optional<Row>> Table::Get(const std::vector<Value>& primary_key, Transaction* trx, RowLock lock) {
  std::optional<Row> out;
  Status s = db_->RunStatement(trx, [&](TrxImpl& t) {
    auto r = impl_->Get(t, primary_key, lock);
    if (!r.ok()) return r.status();
    out = std::move(*r);
    return Status::Ok();
  });
  if (!s.ok()) return s;
  return out;
}
Status Table::Update(const Row& row, Transaction* trx) {
  return db_->RunStatement(trx, [&](TrxImpl& t) { return impl_->Update(t, row); });
}
Status Table::Delete(const std::vector<Value>& primary_key, Transaction* trx) {
  return db_->RunStatement(trx, [&](TrxImpl& t) { return impl_->Delete(t, primary_key); });
}
Status Table::Scan(const ScanOptions& options, const std::function<bool(const Row&)>& fn, Transaction* trx) {
  return db_->RunStatement(trx, [&](TrxImpl& t) { return impl_->Scan(t, options, fn); });
}
std::uint64_t Table::last_insert_id() const { return impl_->last_insert_id(); }
TableStats Table::stats() const { return impl_->stats(); }
Result<TableSize> Table::size() const { return impl_->Size(); }
std::uint64_t Table::next_auto_increment() const { return impl_->next_auto_increment(); }
Status Table::Check() { return impl_->Check(); }
const std::filesystem::path& Table::path() const { return impl_->space().path(); }
std::uint64_t Table::file_bytes() const {
  return std::uint64_t{impl_->space().size()} * impl_->space().page_size().bytes();
}

}  // namespace strata::engine
