#include "engine/btree.h"

#include <fmt/format.h>

#include <cassert>
#include <cstring>

#include "engine/space_manager.h"
#include "ondisk/fil_header.h"

namespace strata::engine {

using namespace strata::ondisk;

PageNo ChildOf(const BtrPage& page, std::size_t origin) {
  const auto fields = page.Fields(origin);
  return PageNo(Load32(page.FieldBytes(fields.back()), 0));
}

void SetChild(BtrPage& page, std::size_t origin, PageNo child) {
  const auto fields = page.Fields(origin);
  Store32(page.bytes(), fields.back().offset, child.value());
}

namespace {

// A read-only page view for readers holding a shared latch (only const methods are used).
BtrPage ViewOf(ConstBytes page, const RecordLayout& layout) {
  return BtrPage(MutableBytes(const_cast<std::byte*>(page.data()), page.size()), layout);
}

void MarkDeleted(BtrPage& page, std::size_t origin, bool deleted) {
  const std::uint8_t bits = page.info_bits(origin);
  page.set_info_bits(origin, deleted ? (bits | kInfoDeleted) : (bits & ~kInfoDeleted));
}

void SetMinRec(std::vector<RawRecord>& records, bool on) {
  if (records.empty()) return;
  auto& bits = records.front().info_bits;
  bits = on ? (bits | kInfoMinRec) : (bits & ~kInfoMinRec);
}

}  // namespace

Result<PageNo> Btree::Create(Mtr& mtr, Tablespace& space, const IndexShape& shape) {
  MtrPageStore store(mtr, space);
  SpaceManager sm(store);
  // As btr_create: the non-leaf segment first, its first page being the root.
  auto top = sm.CreateSegment();
  if (!top.ok()) return top.status();
  auto root = sm.AllocatePage(*top);
  if (!root.ok()) return root.status();
  auto leaf = sm.CreateSegment();
  if (!leaf.ok()) return leaf.status();
  auto page = mtr.Create({space.id(), *root});
  if (!page.ok()) return page.status();
  BtrPage::Init(*page, shape.id, 0, shape.page_type);
  top->EncodeTo(*page, IndexPage::kSegTop);
  leaf->EncodeTo(*page, IndexPage::kSegLeaf);
  return *root;
}

Result<MutableBytes> Btree::Latch(Mtr& mtr, PageNo n) {
  clock_.fetch_add(1, std::memory_order_relaxed);
  return mtr.Write({space_.id(), n});
}

Result<BtrPage> Btree::WritePage(Mtr& mtr, PageNo n) {
  auto page = Latch(mtr, n);
  if (!page.ok()) return page.status();
  if (Load64(*page, IndexPage::kIndexId) != shape_.id ||
      Load16(*page, FilHeader::kType) != static_cast<std::uint16_t>(shape_.page_type)) {
    return Status::Corruption(
        fmt::format("{}: page {} does not belong to index {}", space_.path().string(), n.value(), shape_.id));
  }
  return BtrPage(*page, LayoutAt(Load16(*page, IndexPage::kLevel)));
}

// Upper levels are only read (shared latches, released level by level, or the mtr's own
// copy when it already holds the page); only the target page is latched for writing. With
// one writer per tree the path stays valid until the caller changes it.
Result<Btree::Path> Btree::Descend(Mtr& mtr, const Tuple& key, std::size_t n_fields, std::uint16_t level, bool strict) {
  searches_.fetch_add(1, std::memory_order_relaxed);
  Path path;
  PageNo n = root_;
  const std::size_t ps = space_.page_size().bytes();
  for (int depth = 0;; ++depth) {
    ReadGuard guard;
    const std::byte* bytes = mtr.Held({space_.id(), n});
    if (!bytes) {
      auto g = pool_.Read({space_.id(), n});
      if (!g.ok()) return g.status();
      guard = std::move(*g);
      bytes = guard.page().data();
    }
    ConstBytes page(bytes, ps);
    if (Load64(page, IndexPage::kIndexId) != shape_.id ||
        Load16(page, FilHeader::kType) != static_cast<std::uint16_t>(shape_.page_type)) {
      return Status::Corruption(
          fmt::format("{}: page {} does not belong to index {}", space_.path().string(), n.value(), shape_.id));
    }
    const std::uint16_t page_level = Load16(page, IndexPage::kLevel);
    if (depth > 32 || page_level < level) {
      return Status::Corruption(fmt::format("{}: index {} descends to page {} at level {} looking for level {}",
                                            space_.path().string(), shape_.id, n.value(), page_level, level));
    }
    const BtrPage view = ViewOf(page, LayoutAt(page_level));
    const bool target = page_level == level;
    std::size_t c =
        view.Search(key, target && level == 0 ? n_fields : std::min(n_fields, shape_.n_key), shape_.compare, strict);
    if (target) {
      guard.Release();
      auto w = WritePage(mtr, n);
      if (!w.ok()) return w.status();
      path.push_back({n, c});
      return path;
    }
    if (c == BtrPage::kInfimum) c = view.First();
    if (c == BtrPage::kSupremum) {
      return Status::Corruption(fmt::format("{}: empty non-leaf page {}", space_.path().string(), n.value()));
    }
    path.push_back({n, c});
    n = ChildOf(view, c);
  }
}

Tuple Btree::DecodeRecord(const BtrPage& page, std::size_t origin) const {
  thread_local std::vector<FieldSlice> fields;
  fields.resize(page.level() == 0 ? shape_.leaf.fields.size() : shape_.node.fields.size());
  page.DecodePrefix(origin, fields.size(), fields.data());
  Tuple t;
  t.reserve(fields.size());
  for (std::size_t i = 0; i < fields.size(); ++i) {
    const FieldSlice& f = fields[i];
    if (f.missing) {  // a row version that does not store the field
      t.push_back(shape_.absent_values[i]);
      continue;
    }
    Datum d;
    d.null = f.is_null;
    d.external = f.external;
    auto b = page.FieldBytes(f);
    d.bytes.assign(reinterpret_cast<const char*>(b.data()), b.size());
    t.push_back(std::move(d));
  }
  return t;
}

RawRecord Btree::NodePointer(const BtrPage& child, std::size_t first, PageNo child_no, std::uint8_t info) const {
  Tuple t = DecodeRecord(child, first);
  t.resize(shape_.n_key);
  std::string no(4, '\0');
  Store32(MutableBytes(reinterpret_cast<std::byte*>(no.data()), 4), 0, child_no.value());
  t.push_back(Datum::Of(no));
  auto enc = EncodeTuple(shape_.node, t);
  return {std::move(enc.bytes), enc.extra_size, info};
}

Result<PageNo> Btree::NewPage(Mtr& mtr, std::uint16_t level) {
  auto root = Latch(mtr, root_);
  if (!root.ok()) return root.status();
  const FsegHeader seg = FsegHeader::Decode(*root, level == 0 ? IndexPage::kSegLeaf : IndexPage::kSegTop);
  MtrPageStore store(mtr, space_);
  auto n = SpaceManager(store).AllocatePage(seg);
  if (!n.ok()) return n.status();
  clock_.fetch_add(1, std::memory_order_relaxed);
  auto page = mtr.Create({space_.id(), *n});
  if (!page.ok()) return page.status();
  BtrPage::Init(*page, shape_.id, level, shape_.page_type);
  return *n;
}

Status Btree::FreePage(Mtr& mtr, PageNo page, std::uint16_t level) {
  auto root = Latch(mtr, root_);
  if (!root.ok()) return root.status();
  const FsegHeader seg = FsegHeader::Decode(*root, level == 0 ? IndexPage::kSegLeaf : IndexPage::kSegTop);
  MtrPageStore store(mtr, space_);
  return SpaceManager(store).FreePage(seg, page);
}

// A delete-marked record with the same unique fields is no conflict: its row is gone (or
// going), and the caller has locked it before deciding so.
Result<std::optional<Tuple>> Btree::UniqueConflict(const Tuple& record) {
  Tuple prefix(record.begin(), record.begin() + static_cast<std::ptrdiff_t>(shape_.n_unique));
  std::optional<Tuple> found;
  for (const auto& d : prefix) {
    if (d.null) return found;  // NULLs never conflict in a unique index
  }
  STRATA_RETURN_IF_ERROR(ScanMarked(prefix, true, [&](const Tuple& t, bool deleted) {
    for (std::size_t i = 0; i < prefix.size(); ++i) {
      if (CompareField(shape_.compare[i], t[i].null, t[i].span(), prefix[i].null, prefix[i].span()) != 0) return false;
    }
    if (!deleted) found = t;
    return deleted;
  }));
  return found;
}

Status Btree::Insert(const Tuple& record) {
  assert(record.size() == shape_.leaf.fields.size());
  const std::size_t size = EncodedSize(shape_.leaf, record);
  if (size > BtrPage::FreeSpaceOfEmpty(space_.page_size().bytes()) / 2) {
    return Status::InvalidArgument(fmt::format("record of {} bytes is too big for a {}-byte page (at most half a page)",
                                               size, space_.page_size().bytes()));
  }
  auto enc = EncodeTuple(shape_.leaf, record);
  if (shape_.n_unique > 0 && shape_.n_unique < shape_.n_key) {
    auto conflict = UniqueConflict(record);
    if (!conflict.ok()) return conflict.status();
    if (conflict->has_value()) return Status::AlreadyExists("duplicate entry for a unique key");
  }
  Mtr mtr(pool_);
  return InsertAtLevel(mtr, record, {std::move(enc.bytes), enc.extra_size, shape_.leaf.info_bits()}, 0);
}

Status Btree::InsertAtLevel(Mtr& mtr, const Tuple& key, const RawRecord& record, std::uint16_t level) {
  assert(key.size() >= shape_.n_key && !record.bytes.empty());
  const std::size_t page_size = space_.page_size().bytes();
  const std::size_t size = record.bytes.size();
  for (int iteration = 0; iteration < 8; ++iteration) {
    auto path = Descend(mtr, key, shape_.n_key, level, false);
    if (!path.ok()) return path.status();
    auto page = WritePage(mtr, path->back().page);
    if (!page.ok()) return page.status();
    std::size_t cursor = path->back().cursor;
    if (level == 0 && iteration == 0 && shape_.n_unique == shape_.n_key && cursor != BtrPage::kInfimum &&
        page->Compare(cursor, key, shape_.n_key, shape_.compare) == 0) {
      return Status::AlreadyExists("duplicate entry for the primary key");
    }
    // btr_cur_optimistic_insert's tests.
    const std::size_t max_size = page->MaxInsertSizeAfterReorganize();
    bool fits = max_size >= size && page->n_recs() < 8189;
    if (fits && page->garbage() > 0 && max_size < page_size / 32 && page->n_recs() > 1 &&
        page->MaxInsertSize() < size) {
      fits = false;
    }
    if (fits && iteration == 0 && level == 0 && shape_.clustered && page->n_recs() >= 2 &&
        page_size / 16 + size > max_size) {
      // Keep 1/16 of a clustered leaf free for updates while inserts run in one direction.
      const std::size_t last = Load16(page->bytes(), IndexPage::kLastInsert);
      if (last != 0 && (last == cursor || last == page->Next(cursor))) fits = false;
    }
    if (fits) {
      if (page->Insert(cursor, record) != 0) return Status::Ok();
      page->Reorganize();
      ++stats_.reorganizations;
      cursor = page->Search(key, level == 0 ? shape_.n_key : shape_.n_key, shape_.compare, false);
      if (page->Insert(cursor, record) != 0) return Status::Ok();
    }
    STRATA_RETURN_IF_ERROR(SplitPage(mtr, *path, key, size, iteration > 0));
  }
  return Status::Corruption("B-tree insert: the record did not fit after repeated splits");
}

Result<PageNo> Btree::RaiseRoot(Mtr& mtr) {
  auto root = WritePage(mtr, root_);
  if (!root.ok()) return root.status();
  const std::uint16_t level = root->level();
  auto n = NewPage(mtr, level);
  if (!n.ok()) return n.status();
  auto child = WritePage(mtr, *n);
  if (!child.ok()) return child.status();
  child->Rebuild(root->Records());
  RawRecord pointer = NodePointer(*child, child->First(), *n, kInfoMinRec);
  MutableBytes rb = root->bytes();
  Store16(rb, IndexPage::kLevel, static_cast<std::uint16_t>(level + 1));
  BtrPage new_root(rb, shape_.node);
  new_root.Rebuild({pointer});
  Store16(rb, IndexPage::kDirection, static_cast<std::uint16_t>(PageDirection::kNoDirection));
  Store16(rb, IndexPage::kNDirection, 0);
  ++stats_.root_raises;
  return *n;
}

// btr_page_split_and_insert's choice of split point and direction for a page of `records`
// whose new record (of `record_size` bytes) goes after record `after`, the k-th position.
Btree::Split Btree::ChooseSplit(BtrPage& page, const std::vector<RawRecord>& records, std::size_t k, std::size_t after,
                                const Tuple& key, std::size_t record_size, bool by_size) const {
  const std::size_t n = records.size();
  const std::size_t last_insert = Load16(page.bytes(), IndexPage::kLastInsert);
  if (by_size) {
    // btr_page_get_split_rec: fill the left half to about half of the bytes, the new record
    // counted at its place.
    std::size_t total = record_size;
    for (const auto& r : records) total += r.bytes.size();
    std::size_t incl = 0;
    std::size_t i = 0;  // records of the page included so far
    bool tuple_in = false;
    while (incl < total / 2) {
      if (!tuple_in && i == k) {
        tuple_in = true;
        incl += record_size;
      } else {
        incl += records[i++].bytes.size();
      }
    }
    const std::size_t split = (!tuple_in && i == k) ? 0 : i + 1;
    return {true, std::min(split, n)};  // keep at least one record on the right
  }
  if (last_insert != 0 && last_insert == after) return {true, k + 2 <= n ? k + 2 : 0};  // an ascending run
  if (last_insert != 0 && last_insert == page.Next(after))                              // a descending run
    return {false, (after != BtrPage::kInfimum && page.First() != after) ? k : k + 1};
  if (n > 1) return {true, (n + 2) / 2};  // page_get_middle_rec
  return {true, (n == 1 && page.Compare(page.First(), key, shape_.n_key, shape_.compare) > 0) ? 1u : 0u};
}

// Splits the page at the end of `path` (btr_page_split_and_insert); the record is inserted
// afterwards by a fresh descent, which the new node pointer routes to the right half.
Status Btree::SplitPage(Mtr& mtr, const Path& path, const Tuple& key, std::size_t record_size, bool by_size) {
  PageNo pno = path.back().page;
  auto page = WritePage(mtr, pno);
  if (!page.ok()) return page.status();
  std::size_t after = path.back().cursor;
  // The position of the insertion point: 0 = before the first record.
  std::size_t k = 0;
  for (std::size_t r = BtrPage::kInfimum; r != after; r = page->Next(r)) ++k;
  if (pno == root_) {
    auto moved = RaiseRoot(mtr);
    if (!moved.ok()) return moved.status();
    pno = *moved;
    page = WritePage(mtr, pno);
    if (!page.ok()) return page.status();
    after = page->Nth(k);
  }
  const std::uint16_t level = page->level();
  std::vector<RawRecord> records = page->Records();
  const auto [up, split] = ChooseSplit(*page, records, k, after, key, record_size, by_size);
  // Records [0, cut) stay in the lower half.
  const std::size_t cut = split == 0 ? k : split - 1;

  // The node pointer to the upper half: its first record, or the new record when that starts it.
  RawRecord sep;
  if (split == 0) {
    Tuple t(key.begin(), key.begin() + static_cast<std::ptrdiff_t>(shape_.n_key));
    t.push_back(Datum::Of(std::string(4, '\0')));
    auto enc = EncodeTuple(shape_.node, t);
    sep = {std::move(enc.bytes), enc.extra_size, 0};
  } else {
    sep = NodePointer(*page, page->Nth(split), kNullPage, 0);
  }

  auto n_new = NewPage(mtr, level);
  if (!n_new.ok()) return n_new.status();
  auto fresh = WritePage(mtr, *n_new);
  if (!fresh.ok()) return fresh.status();
  std::vector<RawRecord> lower(records.begin(), records.begin() + static_cast<std::ptrdiff_t>(cut));
  std::vector<RawRecord> upper(records.begin() + static_cast<std::ptrdiff_t>(cut), records.end());
  const bool leftmost = page->prev() == kNullPage;
  if (level > 0) {
    SetMinRec(lower, leftmost);
    SetMinRec(upper, false);
  }
  FilHeaderWriter pf(page->bytes()), nf(fresh->bytes());
  PageNo upper_page;
  if (up) {  // the new page is the right sibling
    const PageNo right = page->next();
    nf.set_prev(pno);
    nf.set_next(right);
    pf.set_next(*n_new);
    if (right != kNullPage) {
      auto r = Latch(mtr, right);
      if (!r.ok()) return r.status();
      FilHeaderWriter(*r).set_prev(*n_new);
    }
    page->Rebuild(lower);
    fresh->Rebuild(upper);
    upper_page = *n_new;
  } else {  // the new page is the left sibling and takes the page's node pointer
    const PageNo left = page->prev();
    nf.set_prev(left);
    nf.set_next(pno);
    pf.set_prev(*n_new);
    if (left != kNullPage) {
      auto l = Latch(mtr, left);
      if (!l.ok()) return l.status();
      FilHeaderWriter(*l).set_next(*n_new);
    }
    fresh->Rebuild(lower);
    page->Rebuild(upper);
    upper_page = pno;
    // The parent's pointer to this page now leads to the lower half.
    const bool raised = path.back().page == root_;
    auto parent = WritePage(mtr, raised ? root_ : path[path.size() - 2].page);
    if (!parent.ok()) return parent.status();
    SetChild(*parent, raised ? parent->First() : path[path.size() - 2].cursor, *n_new);
  }
  ++stats_.splits;
  // Point the separator at the upper half and put it into the parent level.
  Store32(MutableBytes(sep.bytes), sep.bytes.size() - 4, upper_page.value());
  Tuple sep_key;
  if (split == 0) {
    sep_key.assign(key.begin(), key.begin() + static_cast<std::ptrdiff_t>(shape_.n_key));
  } else {
    auto up_page = WritePage(mtr, upper_page);
    if (!up_page.ok()) return up_page.status();
    sep_key = DecodeRecord(*up_page, up_page->First());
    sep_key.resize(shape_.n_key);
  }
  return InsertAtLevel(mtr, sep_key, sep, static_cast<std::uint16_t>(level + 1));
}

Status Btree::Unlink(Mtr& mtr, BtrPage& page) {
  const PageNo prev = page.prev(), next = page.next();
  if (prev != kNullPage) {
    auto p = Latch(mtr, prev);
    if (!p.ok()) return p.status();
    FilHeaderWriter(*p).set_next(next);
  }
  if (next != kNullPage) {
    auto p = Latch(mtr, next);
    if (!p.ok()) return p.status();
    FilHeaderWriter(*p).set_prev(prev);
  }
  return Status::Ok();
}

Result<Btree::Path> Btree::FindRecord(Mtr& mtr, const Tuple& key) {
  auto path = Descend(mtr, key, shape_.n_key, 0, false);
  if (!path.ok()) return path.status();
  auto page = WritePage(mtr, path->back().page);
  if (!page.ok()) return page.status();
  const std::size_t c = path->back().cursor;
  if (c == BtrPage::kInfimum || page->Compare(c, key, shape_.n_key, shape_.compare) != 0) {
    return Status::NotFound("no record with this key");
  }
  return path;
}

Status Btree::Delete(const Tuple& key) {
  Mtr mtr(pool_);
  auto path = FindRecord(mtr, key);
  if (!path.ok()) return path.status();
  return DeleteAt(mtr, *path);
}

Status Btree::DeleteAt(Mtr& mtr, const Path& path) {
  assert(!path.empty() && path.back().cursor != BtrPage::kInfimum && path.back().cursor != BtrPage::kSupremum);
  auto page = WritePage(mtr, path.back().page);
  if (!page.ok()) return page.status();
  page->Delete(path.back().cursor);
  return Compress(mtr, path, path.size() - 1);
}

// btr_cur_compress_if_useful and btr_compress, restricted to siblings under one parent.
Status Btree::Compress(Mtr& mtr, const Path& path, std::size_t depth) {
  const PageNo pno = path[depth].page;
  auto page = WritePage(mtr, pno);
  if (!page.ok()) return page.status();
  if (depth == 0) return page->leaf() || page->n_recs() != 1 ? Status::Ok() : LiftRoot(mtr);
  const std::size_t merge_limit = space_.page_size().bytes() / 2;
  if (page->n_recs() > 0 && page->DataSize() >= merge_limit) return Status::Ok();
  const std::uint16_t level = page->level();
  auto parent = WritePage(mtr, path[depth - 1].page);
  if (!parent.ok()) return parent.status();
  const std::size_t pointer = path[depth - 1].cursor;

  if (page->n_recs() == 0) {
    if (depth - 1 == 0 && parent->n_recs() == 1) {
      // The root's only child, and it is empty: so is the tree, and the root becomes a leaf.
      STRATA_RETURN_IF_ERROR(FreePage(mtr, pno, level));
      MutableBytes rb = parent->bytes();
      Store16(rb, IndexPage::kLevel, 0);
      BtrPage(rb, shape_.leaf).Rebuild(std::vector<RawRecord>{});
      ++stats_.discards;
      return Status::Ok();
    }
    const PageNo right = page->next();
    const bool leftmost = page->prev() == kNullPage;
    STRATA_RETURN_IF_ERROR(Unlink(mtr, *page));
    STRATA_RETURN_IF_ERROR(FreePage(mtr, pno, level));
    ++stats_.discards;
    if (leftmost && level > 0 && right != kNullPage) {
      auto r = WritePage(mtr, right);
      if (!r.ok()) return r.status();
      r->set_info_bits(r->First(), r->info_bits(r->First()) | kInfoMinRec);
    }
    return RemovePointer(mtr, path, depth - 1);
  }

  const std::size_t data = page->DataSize();
  const std::size_t n = page->n_recs();
  if (pointer != parent->First()) {  // merge into the left sibling
    const PageNo left = ChildOf(*parent, parent->Prev(pointer));
    auto l = WritePage(mtr, left);
    if (!l.ok()) return l.status();
    if (l->MaxInsertSizeAfterReorganize(n) >= data) {
      std::vector<RawRecord> all = l->Records();
      for (auto& r : page->Records()) all.push_back(std::move(r));
      l->Rebuild(all);
      STRATA_RETURN_IF_ERROR(Unlink(mtr, *page));
      STRATA_RETURN_IF_ERROR(FreePage(mtr, pno, level));
      ++stats_.merges;
      return RemovePointer(mtr, path, depth - 1);
    }
  }
  if (parent->Next(pointer) != BtrPage::kSupremum) {  // merge into the right sibling
    const std::size_t right_pointer = parent->Next(pointer);
    const PageNo right = ChildOf(*parent, right_pointer);
    auto r = WritePage(mtr, right);
    if (!r.ok()) return r.status();
    if (r->MaxInsertSizeAfterReorganize(n) >= data) {
      std::vector<RawRecord> all = page->Records();
      std::vector<RawRecord> theirs = r->Records();
      if (level > 0) SetMinRec(theirs, false);
      for (auto& rec : theirs) all.push_back(std::move(rec));
      r->Rebuild(all);
      STRATA_RETURN_IF_ERROR(Unlink(mtr, *page));
      STRATA_RETURN_IF_ERROR(FreePage(mtr, pno, level));
      ++stats_.merges;
      // This page's pointer (the lower key) now leads to the right sibling; its own goes.
      SetChild(*parent, pointer, right);
      Path shifted = path;
      shifted[depth - 1].cursor = right_pointer;
      return RemovePointer(mtr, shifted, depth - 1);
    }
  }
  return Status::Ok();
}

// Removes the pointer at path[depth].cursor. Removing a page's first pointer keeps the first
// key (a lower bound the parent level relies on): the first pointer takes the second's child
// and the second goes instead.
Status Btree::RemovePointer(Mtr& mtr, const Path& path, std::size_t depth) {
  auto page = WritePage(mtr, path[depth].page);
  if (!page.ok()) return page.status();
  std::size_t origin = path[depth].cursor;
  if (origin == page->First() && page->n_recs() > 1) {
    const std::size_t second = page->Next(origin);
    SetChild(*page, origin, ChildOf(*page, second));
    origin = second;
  }
  page->Delete(origin);
  return Compress(mtr, path, depth);
}

Status Btree::LiftRoot(Mtr& mtr) {
  for (;;) {
    auto root = WritePage(mtr, root_);
    if (!root.ok()) return root.status();
    if (root->leaf() || root->n_recs() != 1) return Status::Ok();
    const PageNo child_no = ChildOf(*root, root->First());
    auto child = WritePage(mtr, child_no);
    if (!child.ok()) return child.status();
    const std::uint16_t level = child->level();
    std::vector<RawRecord> records = child->Records();
    MutableBytes rb = root->bytes();
    Store16(rb, IndexPage::kLevel, level);
    BtrPage(rb, LayoutAt(level)).Rebuild(records);
    STRATA_RETURN_IF_ERROR(FreePage(mtr, child_no, level));
    ++stats_.lifts;
  }
}

Status Btree::SetDeleteMark(const Tuple& key, bool deleted) {
  Mtr mtr(pool_);
  auto path = FindRecord(mtr, key);
  if (!path.ok()) return path.status();
  auto page = WritePage(mtr, path->back().page);
  if (!page.ok()) return page.status();
  MarkDeleted(*page, path->back().cursor, deleted);
  return Status::Ok();
}

Status Btree::Update(const Tuple& record, bool deleted, const Position* at) {
  assert(record.size() == shape_.leaf.fields.size());
  const std::size_t size = EncodedSize(shape_.leaf, record);
  if (size > BtrPage::FreeSpaceOfEmpty(space_.page_size().bytes()) / 2) {
    return Status::InvalidArgument(
        fmt::format("record of {} bytes is too big for a {}-byte page", size, space_.page_size().bytes()));
  }
  auto enc = EncodeTuple(shape_.leaf, record);
  Mtr mtr(pool_);
  Result<Path> path = Path{};
  if (at && at->clock == modify_clock()) {  // nothing in the tree moved since the record was found there
    auto page = WritePage(mtr, at->page);
    if (!page.ok()) return page.status();
    const bool there = page->Compare(at->cursor, record, shape_.n_key, shape_.compare) == 0;
    assert(there);
    if (there) path->push_back({at->page, at->cursor});
  }
  if (path->empty()) {
    path = FindRecord(mtr, record);
    if (!path.ok()) return path.status();
  }
  auto page = WritePage(mtr, path->back().page);
  if (!page.ok()) return page.status();
  const std::size_t c = path->back().cursor;
  auto [start, end] = page->Bounds(c);
  const auto in_place = InPlaceForm(*page, c, record);
  const EncodedRecord& same = in_place ? *in_place : enc;
  if (same.bytes.size() == end - start && same.extra_size == c - start) {
    // Same size and shape: overwrite all but the 5-byte header (chain, heap number, owner,
    // and the version flag of the row version the record keeps).
    std::byte* p = page->bytes().data();
    std::memcpy(p + start, same.bytes.data(), same.extra_size - kCompactExtraBytes);
    std::memcpy(p + c, same.bytes.data() + same.extra_size, end - c);
    MarkDeleted(*page, c, deleted);
    return Status::Ok();
  }
  page->Delete(c);
  return InsertAtLevel(
      mtr, record,
      {std::move(enc.bytes), enc.extra_size,
       static_cast<std::uint8_t>((deleted ? kInfoDeleted : std::uint8_t{0}) | shape_.leaf.info_bits())},
      0);
}

// As InnoDB updates a record written in an older row version: in that version, in place,
// when every field the version does not store keeps the value the record reads as (its
// instant default) and the size stays; otherwise the record is rebuilt in the newest version.
std::optional<EncodedRecord> Btree::InPlaceForm(const BtrPage& page, std::size_t origin, const Tuple& record) const {
  if (!shape_.leaf.versions) return std::nullopt;
  const std::uint8_t v = page.RowVersion(origin);
  if (v == shape_.leaf.row_version || v >= shape_.leaf.versions->size()) return std::nullopt;
  const RecordLayout& old_layout = (*shape_.leaf.versions)[v];
  const Tuple old = DecodeRecord(page, origin);
  Tuple kept = record;
  for (std::size_t i = 0; i < kept.size(); ++i) {
    if (shape_.leaf.fields[i].absent) {
      kept[i] = old[i];  // dropped since: the record keeps its bytes
    } else if (old_layout.fields[i].absent && !(kept[i] == old[i])) {
      return std::nullopt;  // a value for a column the record does not store
    }
  }
  return EncodeTuple(old_layout, kept);
}

Result<std::optional<Tuple>> Btree::Get(const Tuple& key) {
  auto m = GetMarked(key);
  if (!m.ok()) return m.status();
  if (!m->has_value()) return std::optional<Tuple>();
  return std::optional<Tuple>(std::move((*m)->record));
}

Result<std::optional<Btree::Marked>> Btree::GetMarked(const Tuple& key, Position* at) {
  std::optional<Marked> found;
  const std::uint64_t clock = modify_clock();
  auto s = Visit(key, true, [&](const Tuple& t, bool deleted, PageNo page, std::size_t cursor) {
    const std::size_t n = std::min(key.size(), t.size());
    bool equal = true;
    for (std::size_t i = 0; i < n && equal; ++i) {
      equal = CompareField(shape_.compare[i], t[i].null, t[i].span(), key[i].null, key[i].span()) == 0;
    }
    if (equal) {
      found = Marked{t, deleted};
      if (at) *at = {page, cursor, clock};
    }
    return false;
  });
  if (!s.ok()) return s;
  return found;
}

Status Btree::Scan(const Tuple& from, bool forward, const std::function<bool(const Tuple&)>& fn) {
  return ScanMarked(from, forward, [&](const Tuple& t, bool) { return fn(t); });
}

Status Btree::ScanMarked(const Tuple& from, bool forward, const std::function<bool(const Tuple&, bool)>& fn) {
  return Visit(from, forward, [&](const Tuple& t, bool deleted, PageNo, std::size_t) { return fn(t, deleted); });
}

Status Btree::Visit(const Tuple& from, bool forward,
                    const std::function<bool(const Tuple&, bool, PageNo, std::size_t)>& fn) {
  searches_.fetch_add(1, std::memory_order_relaxed);
  ReadGuard guard;
  PageNo n = root_;
  std::size_t c = 0;
  auto read = [&](PageNo no) -> Result<BtrPage> {
    auto g = pool_.Read({space_.id(), no});
    if (!g.ok()) return g.status();
    guard = std::move(*g);  // the parent's latch goes once the child's is held
    ConstBytes p = guard.page();
    if (Load64(p, IndexPage::kIndexId) != shape_.id) {
      return Status::Corruption(
          fmt::format("{}: page {} does not belong to index {}", space_.path().string(), no.value(), shape_.id));
    }
    return ViewOf(p, LayoutAt(Load16(p, IndexPage::kLevel)));
  };
  auto page = read(n);
  if (!page.ok()) return page.status();
  for (int depth = 0; !page->leaf(); ++depth) {
    c = page->Search(from, std::min(from.size(), shape_.n_key), shape_.compare, forward);
    if (c == BtrPage::kInfimum) c = page->First();
    if (depth > 32 || c == BtrPage::kSupremum) return Status::Corruption("B-tree descent failed");
    page = read(ChildOf(*page, c));
    if (!page.ok()) return page.status();
  }
  c = page->Search(from, from.size(), shape_.compare, forward);
  if (forward) c = page->Next(c);
  for (;;) {
    if (c == BtrPage::kSupremum || c == BtrPage::kInfimum) {
      const PageNo sibling = forward ? page->next() : page->prev();
      if (sibling == kNullPage) return Status::Ok();
      page = read(sibling);
      if (!page.ok()) return page.status();
      c = forward ? page->First() : page->Last();
      continue;
    }
    if (!fn(DecodeRecord(*page, c), (page->info_bits(c) & kInfoDeleted) != 0, guard.id().page, c)) return Status::Ok();
    c = forward ? page->Next(c) : page->Prev(c);
  }
}

}  // namespace strata::engine
