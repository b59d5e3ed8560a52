// Page checksums and page health checks (innodb-format.md §3).
//
// Normal format (MySQL 5.7/8.0, MariaDB without full_crc32): a checksum in the FIL header
// at offset 0 and an "old" checksum at size-8, computed by one of
//   crc32   c1 = crc32c(page[4, 26)), c2 = crc32c(page[38, size-8)), both fields = c1 ^ c2
//           (and a legacy variant written by big-endian hosts, accepted when reading)
//   innodb  offset 0 = fold(page[4, 26)) + fold(page[38, size-8)); size-8 = fold(page[0, 26))
//   none    both fields 0xDEADBEEF
// MariaDB full_crc32: bytes size-4..size-1 = crc32c(page[0, size-4)) over the (possibly
// compressed) stored size; size-8..size-5 = LSN low 32 bits; offset 0 = key version.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "ondisk/endian.h"
#include "ondisk/types.h"

namespace strata::ondisk {

// Which algorithm produced (or should produce) a page's checksum. Not stored on disk.
enum class ChecksumAlgorithm : std::uint8_t {
  kNone = 0,         // 0xDEADBEEF in both fields
  kCrc32 = 1,        // MySQL crc32 / strict_crc32
  kCrc32Legacy = 2,  // crc32 as written by big-endian hosts (read only)
  kInnodb = 3,       // fold-based legacy checksum
  kFullCrc32 = 4,    // MariaDB 10.4+ full_crc32
};
std::string ToString(ChecksumAlgorithm a);

inline constexpr std::uint32_t kNoChecksumMagic = 0xDEADBEEF;  // BUF_NO_CHECKSUM_MAGIC

// The algorithms' raw values over a whole page.
std::uint32_t PageCrc32(ConstBytes page);
std::uint32_t PageCrc32Legacy(ConstBytes page);
std::uint32_t InnodbFold(ConstBytes data);  // ut_fold_binary, low 32 bits
std::uint32_t PageInnodbNewChecksum(ConstBytes page);
std::uint32_t PageInnodbOldChecksum(ConstBytes page);
// full_crc32: the stored size of a page (smaller than the page for page_compressed pages).
// nullopt when the type field claims a compressed size that does not fit the page.
std::optional<std::size_t> FullCrc32StoredSize(ConstBytes page);
std::uint32_t PageFullCrc32(ConstBytes page, std::size_t stored_size);

// Writes the checksum fields of a whole page whose header, body and LSN are final.
// kCrc32Legacy is read-only and asserts. For full_crc32, the trailer's LSN copy is written too.
void StampChecksum(MutableBytes page, ChecksumAlgorithm algorithm);

// The result of validating one page.
struct PageCheck {
  bool valid = false;                          // some accepted algorithm matched
  bool all_zero = false;                       // an all-zero (never written) page
  std::optional<ChecksumAlgorithm> algorithm;  // which one matched (unset for zero pages)
  bool lsn_mismatch = false;                   // header LSN vs trailer copy differ: torn write
  bool encrypted = false;                      // the page's contents are encrypted (MySQL or MariaDB)
  bool unverifiable = false;   // MySQL-encrypted: its checksum is of the clear page, not checkable without the key
  std::uint32_t stored = 0;    // checksum field as stored (offset 0 or size-4)
  std::uint32_t computed = 0;  // expected value under the format's main algorithm
};

// Validates a whole page (assert: valid page size). `full_crc32` comes from the tablespace's
// FSP flags: one file is either all full_crc32 pages or none.
PageCheck ValidatePage(ConstBytes page, bool full_crc32);

// Whether every byte is zero (a page never written, or a hole).
bool AllZero(ConstBytes b);

// ROW_FORMAT=COMPRESSED tablespaces (every page of one, compressed or not): a single checksum
// at offset 0 over page[4, 16) ++ page[24, 26) ++ page[34, size) (the LSN and the flush LSN
// left out), no trailer:
//   crc32   crc32c of each part, XORed      innodb  adler32 over the parts in turn
//   none    0xDEADBEEF
std::uint32_t ZipPageCrc32(ConstBytes page);
std::uint32_t ZipPageAdler32(ConstBytes page);
PageCheck ValidateCompressedPage(ConstBytes page);

// A page found where it should not be: FIL_PAGE_OFFSET or FIL_PAGE_SPACE_ID disagree with
// the page's position and the tablespace. All-zero pages are never misplaced.
struct Misplacement {
  bool page_no_differs = false;
  bool space_id_differs = false;
  bool any() const { return page_no_differs || space_id_differs; }
};
Misplacement CheckPlacement(ConstBytes page, PageNo expected_page, SpaceId expected_space);

}  // namespace strata::ondisk
