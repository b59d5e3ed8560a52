// MariaDB's PAGE_COMPRESSED=1 pages: a whole page compressed with the tablespace's (or, in
// the older format, the page's own) algorithm and written in the first bytes of its slot;
// the rest of the slot is a punched hole, zeros or stale bytes, and is never read.
//
// Older format (innodb_checksum_algorithm other than full_crc32; FSP flag bit 16):
//   0 4  0xDEADBEEF (no checksum over the compressed bytes: the page inside has its own)
//   4 20 page number, prev, next, LSN (copies)    24 2 type 34354 (37401: also encrypted)
//   26 8 algorithm id (only the low 2 bytes used)  34 4 space id
//   38 2 payload length                           40 payload
//   (37401: 26 4 key version, 30 4 checksum of the encrypted page, 40 2 algorithm, 42 payload)
//
// full_crc32 format (FSP flags bit 4, algorithm in bits 5-7; one per tablespace):
//   0 4  key version (0: not encrypted)   4 20 page number, prev, next, LSN (copies)
//   24 1 0x80 (compressed)               25 1 stored size / 256, FIL header and CRC included
//   26   payload ... size-5: for lz4, lzo and snappy the low byte of the exact end + 5
//   size-4 4 CRC-32C of bytes [0, size-4)
//
// The payload inflates to the whole original page (its type, space id and trailer too). In
// the full_crc32 format the inner page's own CRC is stale: the outer one is what counts.
#pragma once

#include <cstdint>
#include <string>

#include "ondisk/endian.h"
#include "ondisk/status.h"

namespace strata::ondisk {

// Frozen on disk (PAGE_*_ALGORITHM).
enum class PageCompression : std::uint8_t {
  kNone = 0,
  kZlib = 1,
  kLz4 = 2,
  kLzo = 3,
  kLzma = 4,
  kBzip2 = 5,
  kSnappy = 6
};
std::string ToString(PageCompression a);

inline constexpr std::uint16_t kPageCompressedType = 34354;
inline constexpr std::uint16_t kPageCompressedEncryptedType = 37401;

// Where a compressed page's payload lies, and how it was compressed.
struct CompressedPage {
  PageCompression algorithm = PageCompression::kNone;
  std::size_t payload = 0;      // first payload byte
  std::size_t payload_end = 0;  // one past the last (zlib, lzma, bzip2 in full_crc32: an upper bound)
  std::size_t stored = 0;       // full_crc32: the bytes the CRC covers and ends; 0 otherwise
  bool encrypted = false;       // the payload is encrypted (a key version or type 37401)
};

// Whether the bytes are a page-compressed page (otherwise an ordinary one, as pages that did
// not compress are stored).
bool IsPageCompressed(ConstBytes page, bool full_crc32);
// Its header. `space_algorithm` is the full_crc32 tablespace's (FSP flags); the older format
// names it on every page. Corruption names the field that does not hold.
Result<CompressedPage> ReadCompressedPage(ConstBytes page, bool full_crc32, PageCompression space_algorithm);
// full_crc32: whether the CRC-32C over the stored bytes holds.
bool CompressedPageCrcHolds(ConstBytes page, const CompressedPage& c);
// Decompresses the payload into `out` (the page size). Corruption when it does not inflate to
// exactly the page; NotSupported for an encrypted payload.
Status DecompressPage(ConstBytes page, const CompressedPage& c, MutableBytes out);

}  // namespace strata::ondisk
