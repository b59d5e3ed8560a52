// Btree::Check: the structural checker the model tests run after every batch, and that
// `Database::Check` offers users. It walks the tree level by level along the sibling links
// and verifies:
//   - each page: type, index id, level, a sound record chain and directory (IndexPage::
//     CheckStructure), PAGE_N_RECS, and free-space accounting (data size = live records);
//   - keys strictly increasing within a page and across each level;
//   - node pointers: children in the same order as the level below, each child's keys at or
//     above its pointer's key and below the next pointer's, MIN_REC only on the first record
//     of each non-leaf level;
//   - sibling links both ways, only the root without a parent, no empty page but the root;
//   - segment ownership: leaf pages in the leaf segment, the rest in the non-leaf segment.
#include <fmt/format.h>

#include <map>

#include "engine/btree.h"
#include "ondisk/fil_header.h"
#include "ondisk/inode.h"
#include "ondisk/xdes.h"

namespace strata::engine {

using namespace strata::ondisk;

namespace {

int CompareTuples(const std::vector<CompareKind>& kinds, const Tuple& a, const Tuple& b, std::size_t n) {
  for (std::size_t i = 0; i < n && i < a.size() && i < b.size(); ++i) {
    if (int c = CompareField(kinds[i], a[i].null, a[i].span(), b[i].null, b[i].span())) return c;
  }
  return 0;
}

}  // namespace

Status Btree::Check() {
  const std::string where = fmt::format("{}: index {}", space_.path().string(), shape_.id);
  auto fail = [&](PageNo page, const std::string& what) {
    return Status::Corruption(fmt::format("{}, page {}: {}", where, page.value(), what));
  };
  const PageSize ps = space_.page_size();
  FsegHeader segs[2];
  std::uint64_t seg_ids[2];
  {
    auto root = pool_.Read({space_.id(), root_});
    if (!root.ok()) return root.status();
    segs[0] = FsegHeader::Decode(root->page(), IndexPage::kSegLeaf);
    segs[1] = FsegHeader::Decode(root->page(), IndexPage::kSegTop);
    for (int i = 0; i < 2; ++i) {
      STRATA_RETURN_IF_ERROR(segs[i].Check(ps, IndexPage::kSegLeaf));
      auto inode = pool_.Read({space_.id(), segs[i].page});
      if (!inode.ok()) return inode.status();
      seg_ids[i] = InodeEntry(inode->page(), segs[i].slot(ps)).segment_id();
    }
  }
  // Whether `page` belongs to segment i: its extent is the segment's, or it is one of the
  // segment's fragment pages; and it is marked used.
  auto owned_by = [&](PageNo page, int i) -> Result<bool> {
    const XdesLocation loc = LocateXdes(page, ps);
    auto d = pool_.Read({space_.id(), loc.descriptor_page});
    if (!d.ok()) return d.status();
    XdesEntry x(d->page(), loc.entry);
    if (x.is_free(loc.bit)) return false;
    if (x.state() == XdesState::kFseg) return x.segment_id() == seg_ids[i];
    auto inode = pool_.Read({space_.id(), segs[i].page});
    if (!inode.ok()) return inode.status();
    InodeEntry e(inode->page(), segs[i].slot(ps));
    for (std::uint32_t s = 0; s < e.frag_slots(); ++s) {
      if (e.frag_page(s) == page) return true;
    }
    return false;
  };

  struct Bounds {
    std::optional<Tuple> low, high;  // the pointer's key, the next pointer's key
  };
  std::map<std::uint32_t, Bounds> bounds;  // child page -> its key range, from the level above
  std::vector<PageNo> expected{root_};
  std::optional<std::uint16_t> level;
  for (;;) {
    std::vector<PageNo> children;
    std::optional<Tuple> last_key;
    PageNo prev = kNullPage;
    std::size_t i = 0;
    for (PageNo n = expected.front(); n != kNullPage; ++i) {
      if (i >= expected.size() || expected[i] != n)
        return fail(n, "level's sibling chain differs from its parent's pointers");
      auto g = pool_.Read({space_.id(), n});
      if (!g.ok()) return g.status();
      ConstBytes bytes = g->page();
      auto ip = IndexPage::Open(bytes);
      if (!ip.ok()) return fail(n, ip.status().message());
      if (Load16(bytes, FilHeader::kType) != static_cast<std::uint16_t>(shape_.page_type) ||
          ip->index_id() != shape_.id) {
        return fail(n, "wrong page type or index id");
      }
      if (!level) level = ip->level();
      if (ip->level() != *level) return fail(n, fmt::format("level {} where {} was expected", ip->level(), *level));
      STRATA_RETURN_IF_ERROR(ip->CheckStructure().WithContext(fmt::format("{}, page {}", where, n.value())));
      FilHeader fil(bytes);
      if (fil.prev() != prev) return fail(n, "previous-page link does not match the level's order");
      if (n == root_ ? fil.next() != kNullPage : ip->n_recs() == 0)
        return fail(n, n == root_ ? "root has a sibling" : "empty page");
      const bool is_leaf = ip->level() == 0;
      auto owned = owned_by(n, is_leaf && n != root_ ? 0 : 1);
      if (!owned.ok()) return owned.status();
      if (!*owned)
        return fail(n, fmt::format("not a used page of the index's {} segment", is_leaf ? "leaf" : "non-leaf"));

      BtrPage page = BtrPage(MutableBytes(const_cast<std::byte*>(bytes.data()), bytes.size()), LayoutAt(ip->level()));
      std::size_t live = 0;
      bool first = true;
      const Bounds range = n == root_ ? Bounds{} : bounds[n.value()];
      for (std::size_t r = page.First(); r != BtrPage::kSupremum; r = page.Next(r), first = false) {
        live += page.Size(r);
        Tuple key = DecodeRecord(page, r);
        const bool min_rec = page.info_bits(r) & kInfoMinRec;
        if (min_rec != (!is_leaf && first && prev == kNullPage))
          return fail(n, fmt::format("MIN_REC flag wrong at offset {}", r));
        if (last_key && CompareTuples(shape_.compare, *last_key, key, shape_.n_key) >= 0) {
          return fail(n, fmt::format("keys out of order at offset {}", r));
        }
        if (range.low && !min_rec && CompareTuples(shape_.compare, key, *range.low, shape_.n_key) < 0) {
          return fail(n, fmt::format("record at offset {} is below its node pointer's key", r));
        }
        if (range.high && CompareTuples(shape_.compare, key, *range.high, shape_.n_key) >= 0) {
          return fail(n, fmt::format("record at offset {} is not below the next node pointer's key", r));
        }
        if (!is_leaf) {
          const PageNo child = ChildOf(page, r);
          key.resize(shape_.n_key);
          if (!children.empty()) bounds[children.back().value()].high = key;
          children.push_back(child);
          bounds[child.value()] = {min_rec ? std::nullopt : std::optional<Tuple>(key), range.high};
        }
        // A MIN_REC pointer's key is whatever the leftmost child began with once; it
        // compares below everything, so it does not bound the next key.
        if (!min_rec) last_key = std::move(key);
      }
      if (live != page.DataSize()) {
        return fail(n, fmt::format("data size {} but live records take {} bytes", page.DataSize(), live));
      }
      prev = n;
      n = fil.next();
    }
    if (i != expected.size()) return fail(expected[i], "parent points to a page outside the level's sibling chain");
    if (*level == 0) return Status::Ok();
    expected = std::move(children);
    if (expected.empty()) return fail(root_, "non-leaf level without children");
    level = *level - 1;
  }
}

}  // namespace strata::engine
