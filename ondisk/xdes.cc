#include "ondisk/xdes.h"

#include <cassert>

namespace strata::ondisk {

std::string ToString(XdesState s) {
  switch (s) {
    case XdesState::kNotInited:
      return "NOT_INITED";
    case XdesState::kFree:
      return "FREE";
    case XdesState::kFreeFrag:
      return "FREE_FRAG";
    case XdesState::kFullFrag:
      return "FULL_FRAG";
    case XdesState::kFseg:
      return "FSEG";
    case XdesState::kFsegFrag:
      return "FSEG_FRAG";
  }
  return "STATE(" + std::to_string(static_cast<std::uint32_t>(s)) + ")";
}

XdesLocation LocateXdes(PageNo page, PageSize ps) {
  const std::uint32_t p = page.value();
  const std::uint32_t in_period = p % ps.xdes_period();
  const std::uint32_t entry = in_period / ps.pages_per_extent();
  return {PageNo(p - in_period), entry, kXdesArrayOffset + entry * ps.xdes_entry_size(),
          in_period % ps.pages_per_extent()};
}

namespace {
std::size_t EntryOffset(PageSize ps, std::uint32_t index) {
  assert(index < ps.xdes_entries_per_page());
  return kXdesArrayOffset + index * ps.xdes_entry_size();
}
std::size_t BitByte(std::uint32_t j) { return XdesEntry::kBitmap + j / 4; }
unsigned BitShift(std::uint32_t j) { return 2 * (j % 4); }
}  // namespace

XdesEntry::XdesEntry(ConstBytes page, std::uint32_t index) : XdesEntry(page, index, PageSize(page.size())) {}

XdesEntry::XdesEntry(ConstBytes page, std::uint32_t index, PageSize geometry)
    : p_(page), at_(EntryOffset(geometry, index)), pages_(geometry.pages_per_extent()) {
  assert(geometry.bytes() == page.size());
}

bool XdesEntry::is_free(std::uint32_t j) const {
  assert(j < pages_);
  return (Load8(p_, at_ + BitByte(j)) >> BitShift(j)) & 1;
}

bool XdesEntry::is_clean(std::uint32_t j) const {
  assert(j < pages_);
  return (Load8(p_, at_ + BitByte(j)) >> (BitShift(j) + 1)) & 1;
}

std::uint32_t XdesEntry::used_pages() const {
  std::uint32_t used = 0;
  for (std::uint32_t j = 0; j < pages_; ++j) used += is_free(j) ? 0 : 1;
  return used;
}

Status XdesEntry::Check() const {
  if (state_code() > static_cast<std::uint32_t>(XdesState::kFsegFrag)) {
    return Status::CorruptionAt(at_ + kState, "unknown extent state " + std::to_string(state_code()));
  }
  ListNode n = node();
  STRATA_RETURN_IF_ERROR(n.prev.CheckNode(p_.size(), kListNodeSize, at_ + kNode));
  return n.next.CheckNode(p_.size(), kListNodeSize, at_ + kNode + 6);
}

XdesEntryWriter::XdesEntryWriter(MutableBytes page, std::uint32_t index)
    : p_(page), at_(EntryOffset(PageSize(page.size()), index)), pages_(PageSize(page.size()).pages_per_extent()) {}

void XdesEntryWriter::Init(XdesState state) {
  set_segment_id(0);
  set_node(ListNode{});
  set_state(state);
  // free (bit 0) and clean (bit 1) set for every page: 0b11 per page.
  for (std::uint32_t b = 0; b < pages_ / 4; ++b) Store8(p_, at_ + XdesEntry::kBitmap + b, 0xFF);
}

void XdesEntryWriter::set_free(std::uint32_t j, bool free) {
  assert(j < pages_);
  std::size_t at = at_ + BitByte(j);
  std::uint8_t v = Load8(p_, at);
  std::uint8_t mask = static_cast<std::uint8_t>(1u << BitShift(j));
  Store8(p_, at, free ? (v | mask) : (v & ~mask));
}

}  // namespace strata::ondisk
