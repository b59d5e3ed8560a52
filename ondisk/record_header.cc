#include "ondisk/record_header.h"

#include <cassert>

namespace strata::ondisk {

std::string ToString(RecordStatus s) {
  switch (s) {
    case RecordStatus::kOrdinary:
      return "ordinary";
    case RecordStatus::kNodePointer:
      return "node_pointer";
    case RecordStatus::kInfimum:
      return "infimum";
    case RecordStatus::kSupremum:
      return "supremum";
    case RecordStatus::kInstant:
      return "instant";
  }
  return "status(" + std::to_string(static_cast<int>(s)) + ")";
}

void RecordHeader::EncodeTo(MutableBytes page, std::size_t origin, bool compact) const {
  const std::size_t extra = compact ? kCompactExtraBytes : kRedundantExtraBytes;
  assert(origin >= extra && origin <= page.size());
  assert((info_bits & 0x0F) == 0 && n_owned <= 15 && heap_no < (1u << 13));
  const std::size_t at = origin - extra;
  Store8(page, at, static_cast<std::uint8_t>(info_bits | n_owned));
  if (compact) {
    Store16(page, at + 1, static_cast<std::uint16_t>((heap_no << 3) | static_cast<unsigned>(status)));
    Store16(page, at + 3, next);
  } else {
    assert(n_fields < (1u << 10));
    Store24(page, at + 1, (std::uint32_t{heap_no} << 11) | (std::uint32_t{n_fields} << 1) | (short_offsets ? 1 : 0));
    Store16(page, at + 4, next);
  }
}

std::uint16_t RecordHeader::NextField(std::size_t origin, std::size_t next_origin, bool compact) {
  if (next_origin == 0) return 0;
  if (!compact) return static_cast<std::uint16_t>(next_origin);
  return static_cast<std::uint16_t>((next_origin - origin) & 0xFFFF);
}

}  // namespace strata::ondisk
