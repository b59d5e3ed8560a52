#include "inspect/space_map.h"

#include "ondisk/index_page.h"
#include "ondisk/inode.h"

namespace strata::inspect {

using namespace strata::ondisk;

double SpaceMap::Fill(const PageCell& c) const { return c.data_size / static_cast<double>(page_size - 120 - 8 - 4); }

SpaceMap BuildSpaceMap(const SpaceFile& file) {
  SpaceMap m;
  m.page_size = file.shape().logical_page_size();  // what a page's records fill (compressed pages: once decompressed)
  m.pages.resize(file.n_pages());
  ScanPages(file, [&](std::span<const PageInfo> batch) {
    for (const PageInfo& p : batch) {
      PageCell& c = m.pages[p.page_no];
      c.lsn = p.lsn;
      c.type = p.type;
      c.prev = p.prev;
      c.next = p.next;
      c.flags = (p.all_zero ? PageCell::kNeverWritten : 0) | (p.free ? PageCell::kFree : 0) |
                (p.is_btree ? PageCell::kBtree : 0) | (p.checksum_failed() ? PageCell::kBadChecksum : 0) |
                (p.is_root ? PageCell::kRoot : 0) | (p.doublewrite ? PageCell::kDoublewrite : 0);
      if (p.is_btree) {
        c.index_id = p.index_id;
        c.level = p.level;
        c.n_recs = p.n_recs;
        c.data_size = static_cast<std::uint16_t>(std::min<std::uint32_t>(p.data_size, 0xFFFF));
      }
    }
  });
  // Root pages name their two segments; the segments' inodes give their ids.
  PageSize ps = file.shape().geometry();
  for (std::uint32_t n = 0; n < m.pages.size(); ++n) {
    if (!m.pages[n].root()) continue;
    auto ip = file.OpenIndexPage(file.page(n));
    if (!ip.ok()) continue;
    m.roots[ip->index_id()] = n;
    for (auto [h, leaf] : {std::pair{ip->seg_leaf(), true}, std::pair{ip->seg_top(), false}}) {
      if (!h.Check(ps, 0).ok() || h.page.value() >= file.n_pages()) continue;
      InodeEntry e(file.page(h.page.value()), h.slot(ps), ps);
      if (e.in_use()) m.segments[e.segment_id()] = {ip->index_id(), leaf};
    }
  }
  return m;
}

}  // namespace strata::inspect
