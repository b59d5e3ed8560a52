// Writes a large, valid tablespace for benchmarks: MySQL 8.0-style crc32 pages (or MariaDB
// full_crc32), one index whose leaf pages are copies of a real leaf page (renumbered, chained
// in order, LSNs rising), consistent extent descriptors and segment lists, so that every
// inspector command and MariaDB's innochecksum accept it.
//
//   bench_make_tablespace OUT.ibd SIZE_MIB TEMPLATE.ibd TEMPLATE_PAGE [--full-crc32]
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "ondisk/checksum.h"
#include "ondisk/fil_header.h"
#include "ondisk/fsp_header.h"
#include "ondisk/index_page.h"
#include "ondisk/inode.h"
#include "ondisk/xdes.h"

using namespace strata::ondisk;

int main(int argc, char** argv) {
  if (argc < 5) {
    std::fprintf(stderr, "usage: %s OUT.ibd SIZE_MIB TEMPLATE.ibd TEMPLATE_PAGE [--full-crc32]\n", argv[0]);
    return 2;
  }
  const bool full = argc > 5 && std::string(argv[5]) == "--full-crc32";
  constexpr std::size_t kPage = 16384;
  const PageSize ps(kPage);
  const std::uint32_t n_pages = static_cast<std::uint32_t>(std::stoull(argv[2]) * (1 << 20) / kPage);
  const std::uint32_t extent = ps.pages_per_extent();
  if (n_pages < 2 * extent) {
    std::fprintf(stderr, "size must be at least 2 MiB\n");
    return 2;
  }
  std::ifstream tin(argv[3], std::ios::binary);
  std::vector<char> tfile((std::istreambuf_iterator<char>(tin)), std::istreambuf_iterator<char>());
  const std::size_t tpage = std::stoul(argv[4]);
  if ((tpage + 1) * kPage > tfile.size()) {
    std::fprintf(stderr, "template page %zu is not in %s\n", tpage, argv[3]);
    return 2;
  }
  std::vector<std::byte> leaf(kPage);
  std::memcpy(leaf.data(), tfile.data() + tpage * kPage, kPage);
  if (!IndexPage::Open(leaf).ok() || Load16(leaf, IndexPage::kLevel) != 0) {
    std::fprintf(stderr, "template page is not a leaf INDEX page\n");
    return 2;
  }
  const SpaceId space(4242);
  const std::uint64_t index_id = 1000, segment = 1;
  const ChecksumAlgorithm algo = full ? ChecksumAlgorithm::kFullCrc32 : ChecksumAlgorithm::kCrc32;
  // Pages that are not index leaves: 0-2, and each later descriptor page and its ibuf bitmap.
  auto is_system = [&](std::uint32_t n) { return n % ps.xdes_period() < 2 || n == 2; };
  auto next_leaf = [&](std::uint32_t n) {
    for (++n; n < n_pages && is_system(n);) ++n;
    return n < n_pages ? n : kFilNull;
  };
  // Extents holding system pages are full fragment extents; the others belong to the segment.
  auto extent_is_frag = [&](std::uint32_t x) { return (x * extent) % ps.xdes_period() == 0; };
  const std::uint32_t n_extents = n_pages / extent;
  auto node_addr = [&](std::uint32_t x) {
    const std::uint32_t first = x * extent;
    XdesLocation loc = LocateXdes(PageNo(first), ps);
    return FileAddr{loc.descriptor_page, static_cast<std::uint16_t>(loc.offset + kXdesNodeOffset)};
  };
  std::vector<std::uint32_t> frag, fseg;
  for (std::uint32_t x = 0; x < n_extents; ++x) (extent_is_frag(x) ? frag : fseg).push_back(x);
  auto list_of = [&](const std::vector<std::uint32_t>& xs) {
    return xs.empty() ? ListBase{}
                      : ListBase{static_cast<std::uint32_t>(xs.size()), node_addr(xs.front()), node_addr(xs.back())};
  };

  std::ofstream out(argv[1], std::ios::binary | std::ios::trunc);
  std::vector<std::byte> page(kPage);
  std::uint64_t lsn = 100000;
  for (std::uint32_t n = 0; n < n_pages; ++n, lsn += 7) {
    const bool descriptor = n % ps.xdes_period() == 0;
    if (is_system(n)) {
      std::fill(page.begin(), page.end(), std::byte{0});
    } else {
      page = leaf;
    }
    FilHeaderWriter fil(page);
    fil.set_page_no(PageNo(n));
    fil.set_space_id(space);
    fil.set_lsn(Lsn(lsn));
    fil.set_flush_lsn(0);
    if (descriptor) {
      fil.set_type(n == 0 ? PageType::kFspHdr : PageType::kXdes);
      fil.set_prev(PageNo(0));
      fil.set_next(PageNo(0));
      if (n == 0) {
        FspHeaderWriter fsp(page);
        fsp.set_space_id(space);
        fsp.set_size(n_pages);
        fsp.set_free_limit(n_extents * extent);
        fsp.set_flags(full ? FspFlags::EncodeFullCrc32(ps) : FspFlags::EncodeMySql(ps, true, true, false));
        fsp.set_frag_n_used(0);
        fsp.set_free(ListBase{});
        fsp.set_free_frag(ListBase{});
        fsp.set_full_frag(list_of(frag));
        fsp.set_next_segment_id(segment + 1);
        fsp.set_seg_inodes_full(ListBase{});
        fsp.set_seg_inodes_free({1, {PageNo(2), kInodePageListNode}, {PageNo(2), kInodePageListNode}});
      }
      for (std::uint32_t e = 0; e < ps.xdes_entries_per_page(); ++e) {
        const std::uint32_t x = n / extent + e;
        if (x >= n_extents) break;
        XdesEntryWriter w(page, e);
        const bool is_frag = extent_is_frag(x);
        w.Init(is_frag ? XdesState::kFullFrag : XdesState::kFseg);
        if (!is_frag) w.set_segment_id(segment);
        for (std::uint32_t j = 0; j < extent; ++j) w.set_free(j, false);
        const auto& list = is_frag ? frag : fseg;
        auto it = std::lower_bound(list.begin(), list.end(), x);
        const std::size_t i = static_cast<std::size_t>(it - list.begin());
        w.set_node(
            {i ? node_addr(list[i - 1]) : FileAddr{}, i + 1 < list.size() ? node_addr(list[i + 1]) : FileAddr{}});
      }
    } else if (n % ps.xdes_period() == 1) {
      fil.set_type(PageType::kIbufBitmap);
    } else if (n == 2) {
      fil.set_type(PageType::kInode);
      ListNode{}.EncodeTo(page, kInodePageListNode);
      InodeEntryWriter inode(page, 0);
      inode.Init(segment);
      inode.set_full(list_of(fseg));
    } else {
      // A leaf of one long chain, in page order.
      std::uint32_t prev = n - 1;
      while (prev > 0 && is_system(prev)) --prev;
      fil.set_prev(PageNo(prev < 3 ? kFilNull : prev));
      fil.set_next(PageNo(next_leaf(n)));
      Store64(page, IndexPage::kIndexId, index_id);
      std::memset(page.data() + IndexPage::kSegLeaf, 0, 2 * kFsegHeaderSize);
    }
    StampChecksum(page, algo);
    out.write(reinterpret_cast<const char*>(page.data()), kPage);
  }
  if (!out) {
    std::perror(argv[1]);
    return 1;
  }
  return 0;
}
