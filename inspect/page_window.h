// Pages of a tablespace read with pread into a buffer of their own, for one pass over many
// pages. Touching a memory-mapped file page by page costs a page fault per first touch (several
// microseconds each in a virtual machine, more than decoding the page); a read copies the page
// cache at memory speed. The memory used stays that of the window, whatever the file's size.
#pragma once

#include <cstdint>
#include <vector>

#include "inspect/space_file.h"

namespace strata::inspect {

class PageWindow {
 public:
  explicit PageWindow(const SpaceFile& file, std::uint32_t max_pages = 64);

  // Page n's bytes, valid until the next call. When the pass goes in file order (the leaf
  // level of a table filled in key order), one read brings the next `max_pages` pages.
  ondisk::ConstBytes Page(std::uint32_t n);

 private:
  const SpaceFile& file_;
  std::uint32_t max_pages_;
  std::vector<std::byte> buffer_;
  std::uint32_t first_ = 0, count_ = 0;  // the pages the buffer holds
  std::uint32_t last_ = 0;               // the page asked for last
  bool any_ = false;
};

}  // namespace strata::inspect
