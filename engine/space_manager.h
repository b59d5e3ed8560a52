// Space management (architecture layer 5): extents, fragment pages and file segments, kept
// in InnoDB's on-disk structures (FSP header, XDES entries, INODE pages) so that inspectors
// and MariaDB's tools read our files as theirs.
//
// Allocation follows InnoDB:
//   - extent 0 (and every extent holding an XDES page) is a fragment extent from the start;
//   - fragment pages come from the first FREE_FRAG extent (a FREE extent becomes one when
//     none is left); an extent whose 64 pages are all used moves to FULL_FRAG;
//   - a segment takes its first 32 pages as fragment pages, then whole extents: the first
//     page free in its first NOT_FULL extent, else a FREE extent it owns, else a new one;
//   - freeing reverses each step; an extent left empty goes back to the FSP FREE list.
// The file grows page by page within its first extent (small tables stay small), then by one
// extent at a time up to 32 MiB, then four extents at a time. (InnoDB's exact growth steps
// differ slightly and are not part of the format.)
#pragma once

#include <cstdint>

#include "engine/page_store.h"
#include "ondisk/fsp_header.h"
#include "ondisk/inode.h"

namespace strata::engine {

class SpaceManager {
 public:
  explicit SpaceManager(PageStore& store) : store_(store) {}

  // Lays out a new tablespace in a store of at least 3 pages: page 0 (FSP header, first
  // extent descriptor), page 1 (change-buffer bitmap), page 2 (first INODE page).
  Status Init(std::uint32_t flags);

  // A new segment in a free inode slot (a new INODE page when none is left).
  Result<ondisk::FsegHeader> CreateSegment();
  // A page for the segment; the file grows as needed.
  Result<ondisk::PageNo> AllocatePage(const ondisk::FsegHeader& segment);
  // Gives a page of the segment back. Corruption if the segment does not own it.
  Status FreePage(const ondisk::FsegHeader& segment, ondisk::PageNo page);
  // Releases the inode of a segment whose pages have all been freed. Corruption if it still
  // owns a page.
  Status DropSegment(const ondisk::FsegHeader& segment);

 private:
  Result<ondisk::MutableBytes> Page0();
  // The INODE page a segment header points at, once the header is checked.
  Result<ondisk::MutableBytes> InodePage(const ondisk::FsegHeader& seg);
  Result<ondisk::PageNo> AllocateFragmentPage();
  Status FreeFragmentPage(ondisk::PageNo page);
  Result<std::uint32_t> AllocateFreeExtent();  // first page of the extent, off every list
  Status FillFreeList();
  Status EnsureSize(std::uint32_t pages);  // grows the file (and FSP_SIZE) to at least `pages`
  Status GrowForExtent();
  Result<ondisk::MutableBytes> DescriptorPage(std::uint32_t page);
  ondisk::FileAddr NodeOf(std::uint32_t extent_first) const;
  std::uint32_t ExtentOf(ondisk::FileAddr node) const;
  Status SetFree(std::uint32_t page, bool free);
  Result<std::uint32_t> UsedInExtent(std::uint32_t extent_first);
  // Marks the first free page of the extent used (growing the file to hold it) and returns it.
  Result<std::uint32_t> TakeFirstFreePage(std::uint32_t extent_first, const char* list);

  PageStore& store_;
};

}  // namespace strata::engine
