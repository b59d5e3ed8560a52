#include "inspect/allocation_view.h"

#include "ondisk/checksum.h"
#include "ondisk/doublewrite.h"
#include "ondisk/fil_header.h"
#include "ondisk/xdes.h"

namespace strata::inspect {

using namespace strata::ondisk;

bool AllocationView::IsFree(std::uint32_t n) const {
  if (!shape_.flags || n >= shape_.n_pages) return false;
  if (n >= shape_.free_limit) return true;
  XdesLocation loc = LocateXdes(PageNo(n), shape_.geometry());
  ConstBytes desc = Page(loc.descriptor_page.value());
  if (loc.descriptor_page.value() != 0 && FilHeader(desc).type() != PageType::kXdes) return false;
  XdesEntry e(desc, loc.entry, shape_.geometry());
  // Entries outside the free lists' reach (never initialised) describe free pages too.
  return e.state() == XdesState::kFree || e.state() == XdesState::kNotInited || e.is_free(loc.bit);
}

bool AllocationView::IsUsed(std::uint32_t n) const {
  if (!shape_.flags || n >= shape_.n_pages || n >= shape_.free_limit) return false;
  XdesLocation loc = LocateXdes(PageNo(n), shape_.geometry());
  ConstBytes desc = Page(loc.descriptor_page.value());
  if (AllZero(desc) || (loc.descriptor_page.value() != 0 && FilHeader(desc).type() != PageType::kXdes)) return false;
  XdesEntry e(desc, loc.entry, shape_.geometry());
  switch (e.state()) {
    case XdesState::kFreeFrag:
    case XdesState::kFullFrag:
    case XdesState::kFseg:
    case XdesState::kFsegFrag:
      return !e.is_free(loc.bit);
    default:
      return false;
  }
}

bool AllocationView::InDoublewrite(std::uint32_t n) const {
  // Only a system tablespace has blocks, and its page size is a valid one.
  for (std::uint32_t b : doublewrite_blocks_) {
    if (n >= b && n < b + PageSize(shape_.page_size).pages_per_extent()) return true;  // a block is an extent
  }
  return false;
}

std::vector<std::uint32_t> FindDoublewriteBlocks(const SpaceShape& shape, ConstBytes page5) {
  std::vector<std::uint32_t> blocks;
  if (shape.space_id.value() != kSystemSpaceId || shape.n_pages <= 5 || !PageSize::IsValid(shape.page_size))
    return blocks;
  if (FilHeader(page5).type() != PageType::kTrxSys) return blocks;
  const auto area = FindDoublewriteArea(page5);
  if (!area) return blocks;
  for (std::uint32_t b : {area->block1, area->block2}) {
    if (b < shape.n_pages) blocks.push_back(b);
  }
  return blocks;
}

}  // namespace strata::inspect
