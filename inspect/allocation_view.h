// Which pages of a tablespace are in use, as its extent descriptors say, and which hold the
// doublewrite buffer's copies (system tablespace). Freed pages keep their old bytes, so a
// freed INDEX page still looks like one: analysers ask here before counting it in a tree.
#pragma once

#include <cstdint>
#include <vector>

#include "inspect/space_shape.h"
#include "ondisk/endian.h"

namespace strata::inspect {

class AllocationView {
 public:
  // `pages`: the file's pages as the readers see them, n_pages of shape.page_size bytes.
  AllocationView(const SpaceShape& shape, const std::byte* pages, const std::vector<std::uint32_t>& doublewrite_blocks)
      : shape_(shape), pages_(pages), doublewrite_blocks_(doublewrite_blocks) {}

  // Whether the extent descriptors mark page n free (or it lies at or past the free limit).
  // False when the descriptor page is unreadable.
  bool IsFree(std::uint32_t n) const;
  // Whether a readable extent descriptor marks page n in use (false when none can tell).
  bool IsUsed(std::uint32_t n) const;
  // System tablespace pages that hold the doublewrite buffer: copies of other pages.
  bool InDoublewrite(std::uint32_t n) const;

 private:
  const SpaceShape& shape_;
  ondisk::ConstBytes Page(std::uint32_t n) const {
    return {pages_ + std::size_t{n} * shape_.page_size, shape_.page_size};
  }

  const std::byte* pages_;
  const std::vector<std::uint32_t>& doublewrite_blocks_;
};

// The first pages of the two doublewrite blocks of a system tablespace (TRX_SYS, page 5), or
// none for other files.
std::vector<std::uint32_t> FindDoublewriteBlocks(const SpaceShape& shape, ondisk::ConstBytes page5);

}  // namespace strata::inspect
