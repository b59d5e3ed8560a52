#include <fmt/format.h>

#include <algorithm>
#include <mutex>

#include "engine/row_codec.h"
#include "engine/space_manager.h"
#include "engine/table_impl.h"
#include "ondisk/fsp_header.h"
#include "ondisk/index_page.h"
#include "ondisk/sdi.h"
#include "ondisk/value.h"

namespace strata::engine {

using namespace strata::ondisk;

namespace {

constexpr std::uint64_t kInsertRollPtr = std::uint64_t{1} << 55;  // the insert flag of DB_ROLL_PTR
constexpr std::size_t kExternMinLength = 2 * kExternRefSize;      // BTR_EXTERN_LOCAL_STORED_MAX_SIZE

std::string Be(std::uint64_t v, std::size_t width) { return BigEndianField(v, width); }

IndexShape SdiShape() {
  IndexShape s;
  s.id = kSdiIndexId;
  s.leaf = SdiLayout();
  s.compare.assign(s.leaf.fields.size(), CompareKind::kBinary);
  s.n_key = 2;
  s.n_unique = 2;
  s.clustered = true;
  s.page_type = PageType::kSdi;
  s.Finish();
  return s;
}

}  // namespace

TableImpl::TableImpl(BufferPool& pool, std::shared_mutex& mu, std::unique_ptr<Tablespace> space, TableMeta meta)
    : pool_(pool), mu_(mu), space_(std::move(space)), meta_(std::move(meta)) {}

// The pool lets go of the space (waiting for a write of its pages in flight) before the
// Tablespace member closes the file. No mini-transaction of this thread may hold its pages.
TableImpl::~TableImpl() {
  if (space_) pool_.Discard(space_->id());
}

void TableImpl::BuildShapes() {
  fields_.clear();
  shapes_.clear();
  trees_.clear();
  for (std::size_t i = 0; i < meta_.indexes.size(); ++i) {
    fields_.push_back(IndexFields(meta_.spec, i));
    IndexShape s;
    s.id = meta_.indexes[i].id;
    s.clustered = i == 0;
    std::size_t keys = 0;
    for (const auto& f : fields_.back()) {
      if (f.column >= 0) {
        s.leaf.fields.push_back(StorageOf(meta_.spec.columns[static_cast<std::size_t>(f.column)]));
        s.compare.push_back(CompareKindOf(meta_.spec.columns[static_cast<std::size_t>(f.column)]));
      } else {
        const bool row_id = f.column == kRowIdColumn;
        s.leaf.fields.push_back(FieldDef::Fixed(row_id                     ? "DB_ROW_ID"
                                                : f.column == kTrxIdColumn ? "DB_TRX_ID"
                                                                           : "DB_ROLL_PTR",
                                                row_id                     ? kDbRowIdSize
                                                : f.column == kTrxIdColumn ? kDbTrxIdSize
                                                                           : kDbRollPtrSize));
        s.compare.push_back(CompareKind::kBinary);
      }
      keys += f.key;
    }
    // Clustered records are ordered by the key alone; secondary records by every field (the
    // appended primary key makes them unique), and node pointers carry all of them.
    s.n_key = s.clustered ? keys : s.leaf.fields.size();
    s.n_unique = s.clustered ? keys : meta_.spec.indexes[i - 1].unique ? keys : 0;
    s.Finish();
    shapes_.push_back(std::move(s));
    trees_.push_back(std::make_unique<Btree>(pool_, *space_, shapes_.back(), meta_.indexes[i].root));
  }
  trx_pos_ = FieldOfColumn(0, kTrxIdColumn);
  roll_pos_ = FieldOfColumn(0, kRollPtrColumn);
  // Btree keeps its own copy of the shape, so shapes_ may move.
  lobs_ = std::make_unique<LobStore>(pool_, *space_, meta_.indexes[0].root);
}

Result<std::unique_ptr<TableImpl>> TableImpl::Create(BufferPool& pool, std::shared_mutex& mu,
                                                     std::unique_ptr<Tablespace> space, TableMeta meta,
                                                     std::uint64_t* next_index_id) {
  meta.space_id = space->id().value();
  meta.space_flags = FspFlags::EncodeMySql(space->page_size(), true, true, true);
  // The table owns the space from here, so a failure below gives the space back to the pool
  // (~TableImpl) after the mini-transaction, declared later, has ended and released its pages.
  auto t = std::unique_ptr<TableImpl>(new TableImpl(pool, mu, std::move(space), std::move(meta)));
  Tablespace& ts = *t->space_;
  {
    Mtr mtr(pool);
    MtrPageStore store(mtr, ts);
    STRATA_RETURN_IF_ERROR(SpaceManager(store).Init(t->meta_.space_flags));
    auto sdi_root = Btree::Create(mtr, ts, SdiShape());
    if (!sdi_root.ok()) return sdi_root.status();
    if (sdi_root->value() != 3) return Status::Corruption("new tablespace: the SDI root is not page 3");
    const std::size_t n = 1 + t->meta_.spec.indexes.size();
    t->meta_.indexes.clear();
    for (std::size_t i = 0; i < n; ++i) t->meta_.indexes.push_back({(*next_index_id)++, kNullPage});
    t->BuildShapes();
    for (std::size_t i = 0; i < n; ++i) {
      auto root = Btree::Create(mtr, ts, t->shapes_[i]);
      if (!root.ok()) return root.status();
      t->meta_.indexes[i].root = *root;
    }
    mtr.Commit();
  }
  t->BuildShapes();
  t->sdi_ = std::make_unique<Btree>(pool, ts, SdiShape(), PageNo(3));
  STRATA_RETURN_IF_ERROR(t->WriteSdi());
  return t;
}

Result<std::unique_ptr<TableImpl>> TableImpl::Open(BufferPool& pool, std::shared_mutex& mu,
                                                   std::unique_ptr<Tablespace>& space) {
  Btree sdi(pool, *space, SdiShape(), PageNo(3));
  std::optional<std::string> json;
  Status error;
  STRATA_RETURN_IF_ERROR(sdi.Scan({}, true, [&](const Tuple& t) {
    if (LoadBe(t[0].span(), 0, 4) != static_cast<std::uint32_t>(SdiType::kTable)) return true;
    auto text = InflateSdi(t[6].span(), static_cast<std::uint32_t>(LoadBe(t[4].span(), 0, 4)));
    if (!text.ok())
      error = text.status();
    else
      json = *text;
    return false;
  }));
  STRATA_RETURN_IF_ERROR(error.WithContext(space->path().string() + ": SDI"));
  if (!json) return Status::Corruption(space->path().string() + ": no table definition in the SDI");
  auto meta = TableMetaFromSdi(*json);
  if (!meta.ok()) return meta.status().WithContext(space->path().string());
  meta->space_id = space->id().value();
  meta->space_flags = FspFlags::EncodeMySql(space->page_size(), true, true, true);
  auto t = std::unique_ptr<TableImpl>(new TableImpl(pool, mu, std::move(space), std::move(*meta)));
  t->BuildShapes();
  t->sdi_ = std::make_unique<Btree>(pool, *t->space_, SdiShape(), PageNo(3));
  STRATA_RETURN_IF_ERROR(t->LoadCounters());
  return t;
}

// The SDI records: the table (type 1, keyed by table id) and the tablespace (type 2).
Status TableImpl::WriteSdi() {
  const std::pair<SdiType, std::pair<std::uint64_t, std::string>> docs[] = {
      {SdiType::kTable, {meta_.table_id, TableSdi(meta_)}},
      {SdiType::kTablespace, {meta_.space_id, TablespaceSdi(meta_)}}};
  for (const auto& [type, doc] : docs) {
    const auto z = DeflateSdi(doc.second);
    Tuple t{Datum::Of(Be(static_cast<std::uint32_t>(type), 4)),
            Datum::Of(Be(doc.first, 8)),
            Datum::Of(Be(0, 6)),
            Datum::Of(Be(kInsertRollPtr, 7)),
            Datum::Of(Be(doc.second.size(), 4)),
            Datum::Of(Be(z.size(), 4)),
            Datum::Of(std::string(reinterpret_cast<const char*>(z.data()), z.size()))};
    Status s = sdi_->Insert(t);
    if (s.IsAlreadyExists()) s = sdi_->Update(t);
    if (!s.ok()) return s.WithContext("writing the table definition (SDI)");
  }
  return Status::Ok();
}

// AUTO_INCREMENT lives where MariaDB keeps it, in PAGE_ROOT_AUTO_INC (the clustered root's
// PAGE_MAX_TRX_ID field); the next hidden row id follows the largest one in the table.
Status TableImpl::LoadCounters() {
  {
    auto root = pool_.Read({space_->id(), meta_.indexes[0].root});
    if (!root.ok()) return root.status();
    autoinc_ = persisted_autoinc_ = Load64(root->page(), IndexPage::kMaxTrxId);
  }
  if (meta_.spec.primary_key.empty()) {
    STRATA_RETURN_IF_ERROR(trees_[0]->Scan({}, false, [&](const Tuple& t) {
      next_row_id_ = LoadBe(t[0].span(), 0, 6) + 1;
      return false;
    }));
  }
  return Status::Ok();
}

Status TableImpl::PersistAutoinc() {
  if (autoinc_ == persisted_autoinc_) return Status::Ok();
  Mtr mtr(pool_);
  auto root = mtr.Write({space_->id(), meta_.indexes[0].root});
  if (!root.ok()) return root.status();
  Store64(*root, IndexPage::kMaxTrxId, autoinc_);
  persisted_autoinc_ = autoinc_;
  return Status::Ok();
}

std::size_t TableImpl::FieldOfColumn(std::size_t index, int column) const {
  const auto& f = fields_[index];
  for (std::size_t i = 0; i < f.size(); ++i) {
    if (f[i].column == column) return i;
  }
  return f.size();
}

std::size_t TableImpl::IndexByName(const std::string& name) const {
  if (name == "PRIMARY" || name == "GEN_CLUST_INDEX") return 0;
  for (std::size_t i = 0; i < meta_.spec.indexes.size(); ++i) {
    if (meta_.spec.indexes[i].name == name) return i + 1;
  }
  return meta_.indexes.size();
}

Result<Tuple> TableImpl::ClusteredRecord(const Row& row, std::uint64_t row_id) {
  Tuple t;
  for (const auto& f : fields_[0]) {
    if (f.column == kRowIdColumn) {
      t.push_back(Datum::Of(Be(row_id, 6)));
    } else if (f.column == kTrxIdColumn) {
      t.push_back(Datum::Of(Be(0, 6)));  // set by the statement that writes the record
    } else if (f.column == kRollPtrColumn) {
      t.push_back(Datum::Of(Be(kInsertRollPtr, 7)));
    } else {
      auto d =
          EncodeValue(meta_.spec.columns[static_cast<std::size_t>(f.column)], row[static_cast<std::size_t>(f.column)]);
      if (!d.ok()) return d.status();
      t.push_back(std::move(*d));
    }
  }
  return t;
}

Tuple TableImpl::SecondaryRecord(std::size_t index, const Tuple& clustered) const {
  Tuple t;
  for (const auto& f : fields_[index]) t.push_back(clustered[FieldOfColumn(0, f.column)]);
  return t;
}

Result<Tuple> TableImpl::PrimaryKey(const std::vector<Value>& values) const {
  Tuple key;
  const auto& spec = meta_.spec;
  if (spec.primary_key.empty()) {
    if (values.size() != 1) return Status::InvalidArgument("a table without a primary key is looked up by its row id");
    const Value& v = values[0];
    const std::uint64_t id = v.is_uint() ? v.as_uint() : v.is_int() ? static_cast<std::uint64_t>(v.as_int()) : 0;
    key.push_back(Datum::Of(Be(id, 6)));
    return key;
  }
  if (values.size() != spec.primary_key.size()) {
    return Status::InvalidArgument(
        fmt::format("the primary key has {} columns, {} values given", spec.primary_key.size(), values.size()));
  }
  for (std::size_t i = 0; i < values.size(); ++i) {
    auto d = EncodeValue(spec.columns[*spec.ColumnIndex(spec.primary_key[i])], values[i]);
    if (!d.ok()) return d.status();
    key.push_back(std::move(*d));
  }
  return key;
}

Result<Row> TableImpl::RowOf(const Tuple& clustered) {
  Row row(meta_.spec.columns.size());
  for (std::size_t i = 0; i < fields_[0].size(); ++i) {
    const int c = fields_[0][i].column;
    if (c < 0) continue;
    const Column& col = meta_.spec.columns[static_cast<std::size_t>(c)];
    Datum d = clustered[i];
    if (d.external) {
      auto ref = ExternRef::Decode(d.span(), d.bytes.size() - kExternRefSize);
      auto bytes = lobs_->Read(ref);
      if (!bytes.ok()) return bytes.status();
      d = Datum::Of(std::move(*bytes));
    }
    auto v = DecodeValue(col, d);
    if (!v.ok()) return v.status().WithContext("column " + col.name);
    row[static_cast<std::size_t>(c)] = std::move(*v);
  }
  return row;
}

Status TableImpl::Externalize(Tuple& t) {
  const std::size_t limit = BtrPage::FreeSpaceOfEmpty(space_->page_size().bytes()) / 2;
  // A row's long columns are logged page by page with no checkpoint in between, after the
  // statement's free check left at most half the log used: more than a quarter of the log
  // could fill it. MySQL refuses at a tenth with this message (MariaDB, which loads the
  // 10 MB rows of our test dump on the same 96 MiB log, has no such limit).
  if (const RedoLog* log = pool_.redo(); log && pool_.redo_enabled()) {
    std::uint64_t long_bytes = 0;
    for (std::size_t i = 0; i < t.size(); ++i) {
      if (shapes_[0].leaf.fields[i].big() && !t[i].null && !t[i].external) long_bytes += t[i].bytes.size();
    }
    if (long_bytes > log->capacity() / 4 && EncodedSize(shapes_[0].leaf, t) > limit) {
      return Status::InvalidArgument(
                 fmt::format(
                     "The size of BLOB/TEXT data inserted in one row is greater than 25% of redo log size ({} bytes of "
                     "{}); the "
                     "redo log's size is set when a data directory is created (DatabaseOptions::redo_log_bytes).",
                     long_bytes, log->capacity()))
          .Because(Status::Reason::kRowTooLargeForLog);
    }
  }
  for (;;) {
    const std::size_t size = EncodedSize(shapes_[0].leaf, t);
    if (size <= limit) return Status::Ok();
    std::size_t best = t.size();
    for (std::size_t i = 0; i < t.size(); ++i) {
      const FieldDef& f = shapes_[0].leaf.fields[i];
      if (!f.is_variable() || !f.big() || t[i].null || t[i].external || t[i].bytes.size() <= kExternMinLength) continue;
      if (best == t.size() || t[i].bytes.size() > t[best].bytes.size()) best = i;
    }
    if (best == t.size()) {
      return Status::InvalidArgument(
          fmt::format("Row size too large: the record takes {} bytes and at most {} fit in a page "
                      "once long columns move off-page",
                      size, limit));
    }
    auto ref = lobs_->Write(t[best].bytes);
    if (!ref.ok()) return ref.status();
    std::string local(kExternRefSize, '\0');
    ref->EncodeTo(MutableBytes(reinterpret_cast<std::byte*>(local.data()), local.size()), 0);
    t[best] = Datum{false, true, std::move(local)};
  }
}

Status TableImpl::FreeExternal(const Tuple& t) {
  for (const auto& d : t) {
    if (d.external) STRATA_RETURN_IF_ERROR(lobs_->Free(ExternRef::Decode(d.span(), d.bytes.size() - kExternRefSize)));
  }
  return Status::Ok();
}

std::string TableImpl::DuplicateMessage(std::size_t index, const Tuple& record) const {
  std::string shown;
  const std::size_t n = shapes_[index].n_unique;
  for (std::size_t i = 0; i < n; ++i) {
    const int c = fields_[index][i].column;
    std::string v = record[i].bytes;
    if (c >= 0) {
      auto value = DecodeValue(meta_.spec.columns[static_cast<std::size_t>(c)], record[i]);
      if (value.ok()) v = value->ToString();
    }
    shown += (i ? "-" : "") + v;
  }
  const std::string name = index == 0 ? "PRIMARY" : meta_.spec.indexes[index - 1].name;
  return fmt::format("Duplicate entry '{}' for key '{}.{}'", shown, meta_.spec.name, name);
}

Status TableImpl::CheckWritable() const {
  if (failed_.ok()) return Status::Ok();
  return Status::IoError(
      fmt::format("table {}.{} stopped accepting writes after an earlier failure ({}); reopen the "
                  "database once the cause is fixed",
                  meta_.spec.database, meta_.spec.name, failed_.ToString()));
}

Status TableImpl::Guard(Status s) {
  if (!s.ok() && failed_.ok() &&
      (s.code() == Status::Code::kIoError || s.IsCorruption() || s.code() == Status::Code::kBusy)) {
    failed_ = s;
  }
  return s;
}

Status TableImpl::Check() {
  std::shared_lock lock(mu_);
  STRATA_RETURN_IF_ERROR(sdi_->Check());
  std::vector<std::uint64_t> live(trees_.size(), 0);  // delete-marked entries wait for purge
  for (std::size_t i = 0; i < trees_.size(); ++i) {
    STRATA_RETURN_IF_ERROR(trees_[i]->Check());
    STRATA_RETURN_IF_ERROR(
        trees_[i]->ScanMarked({}, true, [&](const Tuple&, bool deleted) { return live[i] += !deleted, true; }));
  }
  // At every statement boundary, committed or not, the live entries of a secondary index are
  // exactly the rows' current values: each live row has its own entry, not delete-marked (named
  // when missing), and there are no more live entries than rows.
  Status inner;
  STRATA_RETURN_IF_ERROR(trees_[0]->ScanMarked({}, true, [&](const Tuple& row, bool deleted) {
    if (deleted) return true;
    for (std::size_t i = 1; i < trees_.size() && inner.ok(); ++i) {
      auto m = trees_[i]->GetMarked(SecondaryRecord(i, row));
      if (!m.ok()) {
        inner = m.status();
      } else if (!m->has_value() || (*m)->deleted) {
        // The row named by its primary key (column = value), or by its hidden row id.
        std::string key;
        auto r = RowOf(row);
        for (std::size_t c = 0; r.ok() && c < meta_.spec.columns.size(); ++c) {
          const auto& pk = meta_.spec.primary_key;
          if (std::find(pk.begin(), pk.end(), meta_.spec.columns[c].name) == pk.end()) continue;
          key += (key.empty() ? "" : ", ") + meta_.spec.columns[c].name + " = " + (*r)[c].ToString();
        }
        if (key.empty()) key = "DB_ROW_ID " + std::to_string(LoadBe(row[0].span(), 0, row[0].bytes.size()));
        inner =
            Status::Corruption(fmt::format("index '{}': the row with {} has {} entry", meta_.spec.indexes[i - 1].name,
                                           key, m->has_value() ? "a delete-marked" : "no"));
      }
    }
    return inner.ok();
  }));
  STRATA_RETURN_IF_ERROR(inner);
  for (std::size_t i = 1; i < trees_.size(); ++i) {
    if (live[i] != live[0]) {
      return Status::Corruption(
          fmt::format("index '{}' has {} entries for {} rows", meta_.spec.indexes[i - 1].name, live[i], live[0]));
    }
  }
  return Status::Ok();
}

Status TableImpl::AddIndex(const IndexSpec& index, std::uint64_t index_id) {
  STRATA_RETURN_IF_ERROR(CheckWritable());
  TableMeta next = meta_;
  next.spec.indexes.push_back(index);
  STRATA_RETURN_IF_ERROR(next.spec.Validate());
  // Every row's entry, sorted, then inserted in order (the pages fill as a sorted build's).
  std::vector<Tuple> records;
  const std::size_t i = next.spec.indexes.size();
  auto fields = IndexFields(next.spec, i);
  STRATA_RETURN_IF_ERROR(trees_[0]->ScanMarked({}, true, [&](const Tuple& t, bool deleted) {
    if (deleted) return true;
    Tuple s;
    for (const auto& f : fields) s.push_back(t[FieldOfColumn(0, f.column)]);
    records.push_back(std::move(s));
    return true;
  }));
  const TableMeta before = meta_;
  meta_ = std::move(next);
  meta_.indexes.push_back({index_id, kNullPage});
  BuildShapes();
  {
    Mtr mtr(pool_);
    auto root = Btree::Create(mtr, *space_, shapes_[i]);
    if (!root.ok()) return root.status();
    meta_.indexes[i].root = *root;
  }
  BuildShapes();
  const auto& shape = shapes_[i];
  std::sort(records.begin(), records.end(), [&](const Tuple& a, const Tuple& b) {
    for (std::size_t f = 0; f < shape.n_key; ++f) {
      if (int c = CompareField(shape.compare[f], a[f].null, a[f].span(), b[f].null, b[f].span())) return c < 0;
    }
    return false;
  });
  for (std::size_t r = 0; r < records.size(); ++r) {
    if (r > 0 && shape.n_unique > 0) {
      bool same = true;
      for (std::size_t f = 0; f < shape.n_unique && same; ++f) {
        same = !records[r][f].null && CompareField(shape.compare[f], false, records[r][f].span(),
                                                   records[r - 1][f].null, records[r - 1][f].span()) == 0;
      }
      if (same) {
        // The new index's root stays allocated but unused; the table is as it was.
        const std::string message = DuplicateMessage(i, records[r]);
        meta_ = before;
        BuildShapes();
        return Status::AlreadyExists(message).Because(Status::Reason::kDuplicateKey);
      }
    }
  }
  for (const auto& r : records) STRATA_RETURN_IF_ERROR(trees_[i]->Insert(r));
  return WriteSdi();
}

TableStats TableImpl::stats() const {
  std::shared_lock lock(mu_);
  TableStats s = stats_;
  for (const auto& t : trees_) {
    s.page_splits += t->stats().splits;
    s.page_merges += t->stats().merges;
  }
  return s;
}

}  // namespace strata::engine
