// A compact per-page map of a whole tablespace (32 bytes a page: 20 MiB for 10 GiB), built
// in one parallel pass. The extent, LSN and index analyzers and the renderers all read it.
#pragma once

#include <cstdint>
#include <map>
#include <vector>

#include "inspect/page_info.h"
#include "inspect/space_file.h"

namespace strata::inspect {

struct PageCell {
  std::uint64_t lsn = 0;
  std::uint64_t index_id = 0;  // B-tree pages
  std::uint32_t next = ondisk::kFilNull;
  std::uint32_t prev = ondisk::kFilNull;
  std::uint16_t data_size = 0;
  std::uint16_t type = 0;
  std::uint16_t level = 0;
  std::uint16_t n_recs = 0;
  std::uint8_t flags = 0;

  static constexpr std::uint8_t kNeverWritten = 1, kFree = 2, kBtree = 4, kBadChecksum = 8, kRoot = 16,
                                kDoublewrite = 32;
  bool never_written() const { return flags & kNeverWritten; }
  bool free() const { return flags & kFree; }
  bool btree() const { return flags & kBtree; }
  bool bad_checksum() const { return flags & kBadChecksum; }
  bool root() const { return flags & kRoot; }
  bool doublewrite() const { return flags & kDoublewrite; }
};
static_assert(sizeof(PageCell) <= 40);

// Which index (and which of its two segments) owns a file segment.
struct SegmentOwner {
  std::uint64_t index_id = 0;
  bool leaf = false;  // the leaf segment; otherwise the non-leaf (root and internal pages)
};

struct SpaceMap {
  std::vector<PageCell> pages;
  std::map<std::uint64_t, SegmentOwner> segments;  // segment id -> owner, from root pages' FSEG headers
  std::map<std::uint64_t, std::uint32_t> roots;    // index id -> root page
  std::size_t page_size = 0;

  double Fill(const PageCell& c) const;  // data_size over the record space of an empty page
};

SpaceMap BuildSpaceMap(const SpaceFile& file);

}  // namespace strata::inspect
