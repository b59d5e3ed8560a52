// BulkLoad: rows in primary key order into an empty table, the indexes built bottom-up.
#include <fmt/format.h>

#include <algorithm>
#include <mutex>

#include "engine/db.h"
#include "engine/table_impl.h"

namespace strata::engine {

struct BulkLoad::State {
  TableImpl* t = nullptr;
  std::optional<Btree::BulkBuilder> clustered;
  std::vector<std::vector<Tuple>> secondary;  // per secondary index, in arrival order
  std::optional<Tuple> last_key;
  std::uint64_t rows = 0;
  bool finished = false;
};

BulkLoad::BulkLoad(std::unique_ptr<State> state) : s_(std::move(state)) {}
BulkLoad::~BulkLoad() { (void)Finish(); }
std::uint64_t BulkLoad::rows() const { return s_->rows; }

Result<std::unique_ptr<BulkLoad>> Table::BeginBulkLoad() { return BulkLoad::Begin(*impl_); }

Result<std::unique_ptr<BulkLoad>> BulkLoad::Begin(TableImpl& t) {
  std::unique_lock lock(t.mu_);
  STRATA_RETURN_IF_ERROR(t.CheckWritable());
  if (t.meta_.spec.primary_key.empty()) return Status::NotSupported("bulk load needs a primary key");
  for (const IndexSpec& ix : t.meta_.spec.indexes) {
    if (ix.unique) return Status::NotSupported(fmt::format("bulk load into a table with unique key '{}'", ix.name));
  }
  bool empty = true;
  STRATA_RETURN_IF_ERROR(t.trees_[0]->Scan({}, true, [&](const Tuple&) {
    empty = false;
    return false;
  }));
  if (!empty) return Status::NotSupported("bulk load into a table that has rows");
  auto state = std::make_unique<BulkLoad::State>();
  state->t = &t;
  state->clustered.emplace(*t.trees_[0]);
  state->secondary.resize(t.trees_.size() - 1);
  return std::unique_ptr<BulkLoad>(new BulkLoad(std::move(state)));
}

namespace {

int CompareKeys(const Tuple& a, const Tuple& b, const std::vector<CompareKind>& kinds) {
  for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) {
    const int c = CompareField(kinds[i], a[i].null, a[i].span(), b[i].null, b[i].span());
    if (c) return c;
  }
  return 0;
}

}  // namespace

Status BulkLoad::Add(const std::vector<Row>& rows, InsertOptions options) {
  State& s = *s_;
  TableImpl& t = *s.t;
  if (s.finished) return Status::InvalidArgument("the bulk load has finished");
  const auto& kinds = t.shapes_[0].compare;
  // Encode and check the whole statement before anything of it goes in.
  std::vector<Tuple> records;
  records.reserve(rows.size());
  std::optional<Tuple> last = s.last_key;
  std::unique_lock lock(t.mu_);  // AUTO_INCREMENT, off-page columns and pages are shared state
  STRATA_RETURN_IF_ERROR(t.CheckWritable());
  if (t.hooks_.before_write) STRATA_RETURN_IF_ERROR(t.Guard(t.hooks_.before_write()));  // room in the log
  const std::uint64_t autoinc_before = t.autoinc_;
  auto undo_autoinc = [&] { t.autoinc_ = autoinc_before; };
  for (std::size_t i = 0; i < rows.size(); ++i) {
    Row row = rows[i];
    if (row.size() != t.meta_.spec.columns.size()) {
      undo_autoinc();
      return Status::InvalidArgument(fmt::format("Column count doesn't match value count: {} columns, {} values",
                                                 t.meta_.spec.columns.size(), row.size()));
    }
    const auto generated = t.AssignAutoinc(row, options);
    auto record = t.ClusteredRecord(row, 0);
    if (!record.ok()) {
      undo_autoinc();
      return rows.size() > 1 ? record.status().WithContext(fmt::format("row {} of the batch", i + 1)) : record.status();
    }
    Tuple key = t.KeyOf(*record);
    if (last && CompareKeys(key, *last, kinds) <= 0) {
      undo_autoinc();
      return Status::NotSupported(fmt::format("row {} of the batch is not above the previous primary key", i + 1));
    }
    t.NoteAutoinc(row);
    if (generated) t.last_insert_id_ = *generated;
    last = std::move(key);
    records.push_back(std::move(*record));
  }
  for (Tuple& r : records) {
    STRATA_RETURN_IF_ERROR(t.Guard(t.Externalize(r)));
    for (std::size_t i = 1; i < t.trees_.size(); ++i) s.secondary[i - 1].push_back(t.SecondaryRecord(i, r));
    STRATA_RETURN_IF_ERROR(t.Guard(s.clustered->Add(r)));
  }
  s.last_key = std::move(last);
  s.rows += records.size();
  t.stats_.rows_inserted += records.size();
  return Status::Ok();
}

Status BulkLoad::Finish() {
  State& s = *s_;
  if (s.finished) return Status::Ok();
  s.finished = true;
  TableImpl& t = *s.t;
  std::unique_lock lock(t.mu_);
  STRATA_RETURN_IF_ERROR(t.Guard(s.clustered->Finish()));
  for (std::size_t i = 1; i < t.trees_.size(); ++i) {
    auto& entries = s.secondary[i - 1];
    const auto& kinds = t.shapes_[i].compare;
    std::sort(entries.begin(), entries.end(), [&](const Tuple& a, const Tuple& b) { return CompareKeys(a, b, kinds) < 0; });
    Btree::BulkBuilder build(*t.trees_[i]);
    for (std::size_t k = 0; k < entries.size(); ++k) {
      if (k % 4096 == 0 && t.hooks_.before_write) STRATA_RETURN_IF_ERROR(t.Guard(t.hooks_.before_write()));
      STRATA_RETURN_IF_ERROR(t.Guard(build.Add(entries[k])));
    }
    STRATA_RETURN_IF_ERROR(t.Guard(build.Finish()));
    entries = {};
  }
  return t.PersistAutoinc();
}

}  // namespace strata::engine
