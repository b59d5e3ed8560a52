// Record headers: the bytes just before a record's origin (innodb-format.md §9.1, §9.4).
//
// COMPACT ("new-style", also DYNAMIC/COMPRESSED), 5 bytes before the origin:
//   rec-5  bits 7-4 info bits (0x10 MIN_REC, 0x20 DELETED, 0x40 VERSION, 0x80 INSTANT)
//          bits 3-0 n_owned
//   rec-4  13 bits heap_no, 3 bits status (0 ordinary, 1 node pointer, 2 infimum,
//          3 supremum, 4 MariaDB instant)
//   rec-2  int16 next record, relative to this origin (0 = none)
//   below rec-5: NULL bitmap, then variable-length field lengths, both growing downward.
//
// REDUNDANT ("old-style"), 6 bytes before the origin:
//   rec-6  bits 7-4 info bits, bits 3-0 n_owned
//   rec-5  24 bits: heap_no (13) | n_fields (10) | 1-byte-offsets flag (1)
//   rec-2  uint16 next record, absolute page offset (0 = none)
//   below rec-6: one end offset per field (1 or 2 bytes each), field 0 nearest the header.
#pragma once

#include <cstdint>
#include <string>

#include "ondisk/endian.h"
#include "ondisk/status.h"

namespace strata::ondisk {

inline constexpr std::size_t kCompactExtraBytes = 5;    // REC_N_NEW_EXTRA_BYTES
inline constexpr std::size_t kRedundantExtraBytes = 6;  // REC_N_OLD_EXTRA_BYTES
// COMPACT: the next record's offset, relative to this origin, in the 2 bytes just before it.
inline constexpr std::size_t kCompactNextBefore = 2;

// Info bits (high nibble of the first header byte). Frozen on disk.
inline constexpr std::uint8_t kInfoMinRec = 0x10;
inline constexpr std::uint8_t kInfoDeleted = 0x20;
inline constexpr std::uint8_t kInfoVersion = 0x40;  // MySQL 8.0.29+ row version byte present
inline constexpr std::uint8_t kInfoInstant = 0x80;  // MySQL 8.0.12+ field count present

// COMPACT record status. Frozen on disk.
enum class RecordStatus : std::uint8_t {
  kOrdinary = 0,
  kNodePointer = 1,
  kInfimum = 2,
  kSupremum = 3,
  kInstant = 4,  // MariaDB 10.3+
};
std::string ToString(RecordStatus s);

struct RecordHeader {
  std::uint8_t info_bits = 0;  // already shifted: one of the kInfo* masks combined
  std::uint8_t n_owned = 0;
  std::uint16_t heap_no = 0;
  RecordStatus status = RecordStatus::kOrdinary;  // COMPACT only
  std::uint16_t n_fields = 0;                     // REDUNDANT only
  bool short_offsets = false;                     // REDUNDANT only: 1-byte field end offsets
  std::uint16_t next = 0;                         // the raw next field: relative (COMPACT) or absolute (REDUNDANT)

  bool deleted() const { return info_bits & kInfoDeleted; }
  bool min_rec() const { return info_bits & kInfoMinRec; }

  // Corruption when the header does not fit before `origin` in the page.
  static Result<RecordHeader> Decode(ConstBytes page, std::size_t origin, bool compact);
  // The same without building a Status: false where Decode would fail. For hot loops, which
  // call Decode only to explain a failure.
  static bool TryDecode(ConstBytes page, std::size_t origin, bool compact, RecordHeader* out);
  // Asserts the header fits and every field is in range.
  void EncodeTo(MutableBytes page, std::size_t origin, bool compact) const;

  // The origin of the next record, or 0 when there is none.
  std::size_t NextOrigin(std::size_t origin, bool compact, std::size_t page_size) const;
  // The `next` field value that links `origin` to `next_origin` (0 to end the chain).
  static std::uint16_t NextField(std::size_t origin, std::size_t next_origin, bool compact);
};

// Inline: the record walk calls these once per record of every page it checks.
inline bool RecordHeader::TryDecode(ConstBytes page, std::size_t origin, bool compact, RecordHeader* h) {
  const std::size_t extra = compact ? kCompactExtraBytes : kRedundantExtraBytes;
  if (origin < extra || origin > page.size()) return false;
  const auto* b = reinterpret_cast<const std::uint8_t*>(page.data()) + origin - extra;
  h->info_bits = b[0] & 0xF0;
  h->n_owned = b[0] & 0x0F;
  if (compact) {
    const unsigned v = (unsigned{b[1]} << 8) | b[2];
    if ((v & 7) > 4) return false;
    h->heap_no = static_cast<std::uint16_t>(v >> 3);
    h->status = static_cast<RecordStatus>(v & 7);
    h->next = static_cast<std::uint16_t>((b[3] << 8) | b[4]);
  } else {
    const std::uint32_t v = (std::uint32_t{b[1]} << 16) | (std::uint32_t{b[2]} << 8) | b[3];
    h->heap_no = static_cast<std::uint16_t>(v >> 11);
    h->n_fields = static_cast<std::uint16_t>((v >> 1) & 0x3FF);
    h->short_offsets = v & 1;
    h->next = static_cast<std::uint16_t>((b[4] << 8) | b[5]);
  }
  return true;
}

inline Result<RecordHeader> RecordHeader::Decode(ConstBytes page, std::size_t origin, bool compact) {
  const std::size_t extra = compact ? kCompactExtraBytes : kRedundantExtraBytes;
  if (origin < extra || origin > page.size()) {
    return Status::CorruptionAt(origin, "record header would start before the page or past its end");
  }
  RecordHeader h;
  const std::size_t at = origin - extra;
  std::uint8_t b0 = Load8(page, at);
  h.info_bits = b0 & 0xF0;
  h.n_owned = b0 & 0x0F;
  if (compact) {
    std::uint16_t v = Load16(page, at + 1);
    h.heap_no = v >> 3;
    h.status = static_cast<RecordStatus>(v & 7);
    if ((v & 7) > 4) return Status::CorruptionAt(at + 2, "record status " + std::to_string(v & 7));
    h.next = Load16(page, at + 3);
  } else {
    std::uint32_t v = Load24(page, at + 1);
    h.heap_no = static_cast<std::uint16_t>(v >> 11);
    h.n_fields = static_cast<std::uint16_t>((v >> 1) & 0x3FF);
    h.short_offsets = v & 1;
    h.next = Load16(page, at + 4);
  }
  return h;
}

inline std::size_t RecordHeader::NextOrigin(std::size_t origin, bool compact, std::size_t page_size) const {
  if (next == 0) return 0;
  if (!compact) return next;
  return ((origin + next) & 0xFFFF) % page_size;
}

}  // namespace strata::ondisk
