#include <fmt/format.h>

#include <algorithm>
#include <mutex>

#include "engine/header_check.h"
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

TableImpl::TableImpl(BufferPool& pool, SharedMutex& mu, std::unique_ptr<Tablespace> space, TableMeta meta)
    : pool_(pool), mu_(mu), space_(std::move(space)), meta_(std::move(meta)) {}

// The pool lets go of the space (waiting for a write of its pages in flight) before the
// Tablespace member closes the file. No mini-transaction of this thread may hold its pages.
TableImpl::~TableImpl() {
  if (space_) pool_.Discard(space_->id());
}

void TableImpl::BuildShapes() {
  rec_ = TableRecords(meta_.spec, meta_.indexes);
  trees_.clear();
  // Each Btree keeps its own copy of its shape.
  for (std::size_t i = 0; i < rec_.n_indexes(); ++i) {
    trees_.push_back(std::make_unique<Btree>(pool_, *space_, rec_.shape(i), meta_.indexes[i].root));
  }
  lobs_ = std::make_unique<LobStore>(pool_, *space_, meta_.indexes[0].root);
}

Result<std::unique_ptr<TableImpl>> TableImpl::Create(BufferPool& pool, SharedMutex& mu,
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
      auto root = Btree::Create(mtr, ts, t->rec_.shape(i));
      if (!root.ok()) return root.status();
      t->meta_.indexes[i].root = *root;
    }
    mtr.Commit();
  }
  t->BuildShapes();
  t->sdi_ = std::make_unique<Btree>(pool, ts, SdiShape(), PageNo(3));
  STRATA_RETURN_IF_ERROR(t->WriteSdi());
  if (t->meta_.spec.auto_increment > 1) {
    t->autoinc_ = t->meta_.spec.auto_increment - 1;  // the last value handed out, as the counter keeps it
    STRATA_RETURN_IF_ERROR(t->PersistAutoinc());
  }
  return t;
}

Result<std::unique_ptr<TableImpl>> TableImpl::Open(BufferPool& pool, SharedMutex& mu,
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

Status TableImpl::CheckHeaders(BufferPool& pool, const Tablespace& space) {
  const std::uint32_t flags = FspFlags::EncodeMySql(space.page_size(), true, true, true);
  STRATA_RETURN_IF_ERROR(CheckHeaderPage(pool, space, PageNo(0), PageType::kFspHdr, "the tablespace header", flags));
  STRATA_RETURN_IF_ERROR(CheckHeaderPage(pool, space, PageNo(2), PageType::kInode, "the segment inode page", flags));
  return CheckHeaderPage(pool, space, PageNo(3), PageType::kSdi, "the table definition's root (SDI)", flags);
}

// The SDI records: the table (type 1, keyed by table id) and the tablespace (type 2).
Status TableImpl::Rename(const std::string& database, const std::string& name, bool write) {
  meta_.spec.database = database;
  meta_.spec.name = name;
  return write ? WriteSdi() : Status::Ok();
}

Status TableImpl::WriteSdi() {
  const std::pair<SdiType, std::pair<std::uint64_t, std::string>> docs[] = {
      {SdiType::kTable, {meta_.table_id, TableSdi(meta_)}},
      {SdiType::kTablespace, {meta_.space_id, TablespaceSdi(meta_)}}};
  for (const auto& [type, doc] : docs) {
    const auto z = DeflateSdi(doc.second);
    Tuple t{Datum::Of(BigEndianField(static_cast<std::uint32_t>(type), 4)),
            Datum::Of(BigEndianField(doc.first, 8)),
            Datum::Of(BigEndianField(0, 6)),
            Datum::Of(BigEndianField(kInsertRollPtr, 7)),
            Datum::Of(BigEndianField(doc.second.size(), 4)),
            Datum::Of(BigEndianField(z.size(), 4)),
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
      auto m = trees_[i]->GetMarked(rec_.SecondaryRecord(i, row));
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
    for (const auto& f : fields) s.push_back(t[rec_.FieldOfColumn(0, f.column)]);
    records.push_back(std::move(s));
    return true;
  }));
  const TableMeta before = meta_;
  meta_ = std::move(next);
  meta_.indexes.push_back({index_id, kNullPage});
  BuildShapes();
  {
    Mtr mtr(pool_);
    auto root = Btree::Create(mtr, *space_, rec_.shape(i));
    if (!root.ok()) return root.status();
    meta_.indexes[i].root = *root;
  }
  BuildShapes();
  const auto& shape = rec_.shape(i);
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
        const std::string message = rec_.DuplicateMessage(i, records[r]);
        meta_ = before;
        BuildShapes();
        return Status::AlreadyExists(message).Because(Status::Reason::kDuplicateKey);
      }
    }
  }
  for (const auto& r : records) STRATA_RETURN_IF_ERROR(trees_[i]->Insert(r));
  return WriteSdi();
}

std::uint64_t TableImpl::next_auto_increment() const {
  std::shared_lock lock(mu_);
  for (const Column& c : meta_.spec.columns) {
    if (c.auto_increment) return autoinc_ >= IntegerMax(c) ? autoinc_ : autoinc_ + 1;
  }
  return 0;
}

Result<TableSize> TableImpl::Size() const {
  std::shared_lock lock(mu_);
  const PageSize ps = space_->page_size();
  // The pages an index's leaf and non-leaf segments reserve (InnoDB's btr_get_size).
  auto reserved = [&](PageNo root) -> Result<std::uint64_t> {
    auto page = pool_.Read({space_->id(), root});
    if (!page.ok()) return page.status();
    std::uint64_t pages = 0;
    for (const std::size_t at : {IndexPage::kSegLeaf, IndexPage::kSegTop}) {
      const FsegHeader seg = FsegHeader::Decode(page->page(), at);
      STRATA_RETURN_IF_ERROR(seg.Check(ps, at).WithContext(
          fmt::format("{}: page {}: segment header at {}", space_->path().string(), root.value(), at)));
      auto inode = pool_.Read({space_->id(), seg.page});
      if (!inode.ok()) return inode.status();
      pages += InodeEntry(inode->page(), seg.slot(ps)).Usage().reserved_pages;
    }
    return pages * ps.bytes();
  };
  TableSize size;
  for (std::size_t i = 0; i < meta_.indexes.size(); ++i) {
    auto bytes = reserved(meta_.indexes[i].root);
    if (!bytes.ok()) return bytes.status();
    (i == 0 ? size.data_bytes : size.index_bytes) += *bytes;
  }
  // Whole free extents: on the FREE list and above the free limit (less the extents that
  // would hold descriptor pages), less InnoDB's reserve of 2 extents and 1% of the file.
  auto page0 = pool_.Read({space_->id(), PageNo(0)});
  if (!page0.ok()) return page0.status();
  auto fsp = FspHeader::Open(page0->page());
  if (!fsp.ok()) return fsp.status();
  const std::uint64_t extent = ps.pages_per_extent();
  const std::uint64_t pages = fsp->size();
  if (pages < extent) return size;
  std::uint64_t above_limit = pages > fsp->free_limit() ? (pages - fsp->free_limit()) / extent : 0;
  if (above_limit > 0) {
    --above_limit;
    above_limit -= above_limit / ps.xdes_entries_per_page();
  }
  const std::uint64_t free_extents = fsp->free().length + above_limit;
  const std::uint64_t reserve = 2 + (pages / extent) * 2 / 200;
  if (free_extents > reserve) size.free_bytes = (free_extents - reserve) * extent * ps.bytes();
  return size;
}

TableStats TableImpl::stats() const {
  std::shared_lock lock(mu_);
  TableStats s = stats_;
  for (const auto& t : trees_) {
    s.page_splits += t->stats().splits;
    s.page_merges += t->stats().merges;
  }
  s.clustered_searches = trees_[0]->searches();
  s.lock_requests = lock_requests_.load(std::memory_order_relaxed);
  return s;
}

}  // namespace strata::engine
