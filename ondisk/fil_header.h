// FIL header and trailer: the 38 bytes that open and the 8 bytes that close every page
// (innodb-format.md §2).
//
//   0        4        8        12       16               24     26               34       38
//   +--------+--------+--------+--------+----------------+------+----------------+--------+
//   |checksum|page no |  prev  |  next  |      LSN       | type | flush LSN/...  |space id| body
//   +--------+--------+--------+--------+----------------+------+----------------+--------+
//                                                           ... | old checksum | LSN low32 |
//                                                               size-8         size-4
//
//   OFFSET SIZE FIELD
//   0      4    FIL_PAGE_SPACE_OR_CHKSUM  checksum (full_crc32: encryption key version)
//   4      4    FIL_PAGE_OFFSET           this page's number
//   8      4    FIL_PAGE_PREV             previous page of the B-tree level (page 0 of 8.0: server version)
//   12     4    FIL_PAGE_NEXT             next page of the level (page 0 of 8.0: space version)
//   16     8    FIL_PAGE_LSN              newest change applied to the page
//   24     2    FIL_PAGE_TYPE             PageType
//   26     8    FIL_PAGE_FILE_FLUSH_LSN   flushed LSN on page 0 of ibdata1, else page-kind specific
//   34     4    FIL_PAGE_SPACE_ID         space id
//   size-8 4    old-style checksum        (full_crc32: LSN low 32 bits)
//   size-4 4    LSN low 32 bits           (full_crc32: CRC-32C of [0, size-4))
//
// Invariant (normal format): bytes 20..23 equal the last 4 bytes; a mismatch is a torn write.
#pragma once

#include <cstdint>

#include "ondisk/endian.h"
#include "ondisk/page_type.h"
#include "ondisk/status.h"
#include "ondisk/types.h"

namespace strata::ondisk {

inline constexpr std::size_t kFilHeaderSize = 38;  // FIL_PAGE_DATA
inline constexpr std::size_t kFilTrailerSize = 8;

// Returns Corruption unless `page` is a whole page of a supported size (4..64 KiB).
Status CheckPageSpan(ConstBytes page);

// Read-only view of the FIL header and trailer of one whole page.
class FilHeader {
 public:
  static constexpr std::size_t kChecksum = 0;
  static constexpr std::size_t kPageNo = 4;
  static constexpr std::size_t kPrev = 8;
  static constexpr std::size_t kNext = 12;
  static constexpr std::size_t kLsn = 16;
  static constexpr std::size_t kType = 24;
  static constexpr std::size_t kFlushLsn = 26;
  static constexpr std::size_t kSpaceId = 34;
  // MySQL-encrypted pages (types 15-17) reuse the flush-LSN field: 26 version, 27 algorithm,
  // 28-29 the page's type before encryption.
  static constexpr std::size_t kEncryptedOriginalType = 28;

  // Checks the span with CheckPageSpan first.
  static Result<FilHeader> Open(ConstBytes page);
  // For callers that already hold a whole page (asserts).
  explicit FilHeader(ConstBytes page);

  std::uint32_t checksum() const { return Load32(p_, kChecksum); }
  PageNo page_no() const { return PageNo(Load32(p_, kPageNo)); }
  PageNo prev() const { return PageNo(Load32(p_, kPrev)); }
  PageNo next() const { return PageNo(Load32(p_, kNext)); }
  Lsn lsn() const { return Lsn(Load64(p_, kLsn)); }
  std::uint16_t type_code() const { return Load16(p_, kType); }
  PageType type() const { return static_cast<PageType>(type_code()); }
  std::uint64_t flush_lsn() const { return Load64(p_, kFlushLsn); }
  SpaceId space_id() const { return SpaceId(Load32(p_, kSpaceId)); }

  std::uint32_t trailer_old_checksum() const { return Load32(p_, p_.size() - 8); }
  std::uint32_t trailer_lsn_low() const { return Load32(p_, p_.size() - 4); }

  ConstBytes page() const { return p_; }

 private:
  ConstBytes p_;
};

// Writes FIL header fields of one whole page. Checksums are stamped separately
// (checksum.h) once the page body is final.
class FilHeaderWriter {
 public:
  explicit FilHeaderWriter(MutableBytes page);

  void set_page_no(PageNo v) { Store32(p_, FilHeader::kPageNo, v.value()); }
  void set_prev(PageNo v) { Store32(p_, FilHeader::kPrev, v.value()); }
  void set_next(PageNo v) { Store32(p_, FilHeader::kNext, v.value()); }
  // Writes the LSN in the header and its low 32 bits in the normal-format trailer.
  void set_lsn(Lsn v);
  void set_type(PageType t) { Store16(p_, FilHeader::kType, static_cast<std::uint16_t>(t)); }
  void set_flush_lsn(std::uint64_t v) { Store64(p_, FilHeader::kFlushLsn, v); }
  void set_space_id(SpaceId v) { Store32(p_, FilHeader::kSpaceId, v.value()); }

 private:
  MutableBytes p_;
};

}  // namespace strata::ondisk
