#include "ondisk/doublewrite.h"

#include <charconv>

#include "ondisk/undo.h"

namespace strata::ondisk {

std::optional<DoublewriteArea> FindDoublewriteArea(ConstBytes page) {
  if (!PageSize::IsValid(page.size())) return std::nullopt;
  const std::size_t at = TrxSysPage::DoublewriteOffset(page.size());
  if (Load32(page, at + 10) != kDoublewriteMagic) return std::nullopt;
  DoublewriteArea a;
  a.block1 = Load32(page, at + 14);
  a.block2 = Load32(page, at + 18);
  a.block_pages = PageSize(page.size()).pages_per_extent();
  a.repeat_matches = Load32(page, at + 22) == kDoublewriteMagic && Load32(page, at + 26) == a.block1 &&
                     Load32(page, at + 30) == a.block2;
  a.space_ids_stored = Load32(page, at + 34) == kDoublewriteSpaceIdsStored;
  return a;
}

std::optional<DoublewriteFileName> ParseDoublewriteFileName(std::string_view name) {
  if (name == "ib_doublewrite") return DoublewriteFileName{DoublewriteFileKind::kStrata, 0};
  if (!name.starts_with("#ib_")) return std::nullopt;
  DoublewriteFileKind kind;
  if (name.ends_with(".bdblwr")) {
    kind = DoublewriteFileKind::kMySqlDetectOnly;
    name.remove_suffix(7);
  } else if (name.ends_with(".dblwr")) {
    kind = DoublewriteFileKind::kMySqlPages;
    name.remove_suffix(6);
  } else {
    return std::nullopt;
  }
  name.remove_prefix(4);  // now "<page size>_<n>"
  const std::size_t underscore = name.find('_');
  if (underscore == std::string_view::npos) return std::nullopt;
  std::uint32_t page_size = 0, n = 0;
  const auto a = std::from_chars(name.data(), name.data() + underscore, page_size);
  const auto b = std::from_chars(name.data() + underscore + 1, name.data() + name.size(), n);
  if (a.ec != std::errc() || a.ptr != name.data() + underscore || b.ec != std::errc() ||
      b.ptr != name.data() + name.size() || !PageSize::IsValid(page_size)) {
    return std::nullopt;
  }
  return DoublewriteFileName{kind, page_size};
}

std::size_t DoublewritePayloadLength(ConstBytes slot) {
  std::size_t n = slot.size();
  while (n > 0 && slot[n - 1] == std::byte{0}) --n;
  return n;
}

}  // namespace strata::ondisk
