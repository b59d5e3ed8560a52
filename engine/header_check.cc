#include "engine/header_check.h"

#include <fmt/format.h>

#include "ondisk/checksum.h"
#include "ondisk/fil_header.h"
#include "ondisk/fsp_header.h"
#include "ondisk/index_page.h"

namespace strata::engine {

using namespace strata::ondisk;

Status CheckHeaderPage(BufferPool& pool, const Tablespace& space, PageNo page_no, PageType type, const char* what,
                       std::uint32_t fsp_flags) {
  const std::string file = space.path().string();
  auto page = pool.Read({space.id(), page_no});
  if (!page.ok()) return page.status().WithContext(fmt::format("{}: page {} ({})", file, page_no.value(), what));
  const ConstBytes p = page->page();
  auto damage = [&](std::size_t offset, const std::string& found) {
    return Status::Corruption(
        fmt::format("{}: page {} offset {}: {}, where {} of space id {} belongs; nothing is "
                    "written to it until the file is restored",
                    file, page_no.value(), offset, found, what, space.id().value()));
  };
  if (AllZero(p)) return damage(0, "all zeros");
  const FilHeader fil(p);
  if (fil.type() != type) return damage(FilHeader::kType, fmt::format("page type {}", fil.type_code()));
  if (fil.space_id() != space.id())
    return damage(FilHeader::kSpaceId, fmt::format("space id {}", fil.space_id().value()));
  if (fil.page_no() != page_no) return damage(FilHeader::kPageNo, fmt::format("page number {}", fil.page_no().value()));
  if (page_no == PageNo(0)) {
    if (Load32(p, FspHeader::kFlags) != fsp_flags)
      return damage(FspHeader::kFlags, fmt::format("FSP flags {:#x}", Load32(p, FspHeader::kFlags)));
    if (Load32(p, FspHeader::kSpaceId) != space.id().value())
      return damage(FspHeader::kSpaceId, fmt::format("FSP space id {}", Load32(p, FspHeader::kSpaceId)));
    if (Load32(p, FspHeader::kSize) > space.size())
      return damage(FspHeader::kSize,
                    fmt::format("a size of {} pages in a file of {}", Load32(p, FspHeader::kSize), space.size()));
  }
  if (type == PageType::kSdi && Load64(p, IndexPage::kIndexId) != kSdiIndexId)
    return damage(IndexPage::kIndexId, fmt::format("index id {}", Load64(p, IndexPage::kIndexId)));
  return Status::Ok();
}

}  // namespace strata::engine
