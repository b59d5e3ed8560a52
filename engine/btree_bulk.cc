// Btree::BulkBuilder: an empty index built bottom-up from sorted records.
#include <fmt/format.h>

#include "engine/btree.h"
#include "ondisk/fil_header.h"
#include "ondisk/index_page.h"

namespace strata::engine {

using namespace strata::ondisk;

Btree::BulkBuilder::BulkBuilder(Btree& tree)
    : t_(tree),
      budget_(BtrPage::FreeSpaceOfEmpty(tree.space_.page_size().bytes()) - tree.space_.page_size().bytes() / 16) {}

Status Btree::BulkBuilder::Add(const Tuple& record) {
  auto enc = EncodeTuple(t_.shape_.leaf, record);
  if (enc.bytes.size() > BtrPage::FreeSpaceOfEmpty(t_.space_.page_size().bytes()) / 2) {
    return Status::InvalidArgument(fmt::format("record of {} bytes is too big for a {}-byte page (at most half a page)",
                                               enc.bytes.size(), t_.space_.page_size().bytes()));
  }
  return Append(0, enc.bytes, enc.extra_size, t_.shape_.leaf.info_bits());
}

// A record takes its bytes and, on average, under one byte of page directory (a 2-byte slot
// per 4 to 8 records): counting one keeps every page within its space. Records wait in one
// buffer per level, reused page after page: a load of millions allocates nothing per record.
Status Btree::BulkBuilder::Append(std::size_t level, ConstBytes record, std::size_t extra_size,
                                  std::uint8_t info_bits) {
  if (levels_.size() <= level) levels_.resize(level + 1);
  if (!levels_[level].records.empty() && levels_[level].bytes + record.size() + 1 > budget_) {
    STRATA_RETURN_IF_ERROR(WriteLevelPage(level));
  }
  Level& l = levels_[level];
  // The leftmost node pointer of every level above the leaves carries MIN_REC.
  if (level > 0 && l.pages == 0 && l.records.empty()) info_bits = kInfoMinRec;
  l.records.push_back({l.arena.size(), record.size(), extra_size, info_bits});
  l.arena.insert(l.arena.end(), record.begin(), record.end());
  l.bytes += record.size() + 1;
  return Status::Ok();
}

std::vector<RecordView> Btree::BulkBuilder::Views(const Level& l) const {
  std::vector<RecordView> v;
  v.reserve(l.records.size());
  for (const Pending& r : l.records)
    v.push_back({ConstBytes(l.arena).subspan(r.offset, r.size), r.extra_size, r.info_bits});
  return v;
}

Status Btree::BulkBuilder::WriteLevelPage(std::size_t level) {
  RawRecord pointer;
  {
    Mtr mtr(t_.pool_);
    auto n = t_.NewPage(mtr, static_cast<std::uint16_t>(level));
    if (!n.ok()) return n.status();
    auto page = t_.WritePage(mtr, *n);
    if (!page.ok()) return page.status();
    Level& l = levels_[level];
    page->Rebuild(Views(l));
    FilHeaderWriter f(page->bytes());
    f.set_prev(l.pages > 0 ? l.last : kNullPage);
    f.set_next(kNullPage);
    if (l.pages > 0) {
      auto prev = t_.WritePage(mtr, l.last);
      if (!prev.ok()) return prev.status();
      FilHeaderWriter(prev->bytes()).set_next(*n);
    }
    pointer = t_.NodePointer(*page, page->First(), *n, 0);
    l.records.clear();
    l.arena.clear();
    l.bytes = 0;
    ++l.pages;
    l.last = *n;
    ++pages_;
  }
  return Append(level + 1, pointer.bytes, pointer.extra_size, 0);
}

Status Btree::BulkBuilder::Finish() {
  for (std::size_t level = 0; level < levels_.size(); ++level) {
    if (levels_[level].pages == 0) {
      // All of this level fits one page: it becomes the root, in place.
      Mtr mtr(t_.pool_);
      auto root = t_.Latch(mtr, t_.root_);
      if (!root.ok()) return root.status();
      Store16(*root, IndexPage::kLevel, static_cast<std::uint16_t>(level));
      BtrPage(*root, t_.LayoutAt(static_cast<std::uint16_t>(level))).Rebuild(Views(levels_[level]));
      levels_.clear();
      return Status::Ok();
    }
    if (!levels_[level].records.empty()) STRATA_RETURN_IF_ERROR(WriteLevelPage(level));
  }
  return Status::Ok();
}

}  // namespace strata::engine
