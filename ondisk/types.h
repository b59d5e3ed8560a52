// Constants and strong ids shared by every on-disk structure.
//
// Sizes (see innodb-format.md §1.1):
//
//   page size   extent   pages/extent   XDES page every   inode entries/page
//   4 KiB       1 MiB    256            4096 pages        (4096-60)/576 = 7
//   8 KiB       1 MiB    128            8192 pages        (8192-60)/320 = 25
//   16 KiB      1 MiB    64             16384 pages       (16384-60)/192 = 85
//   32 KiB      2 MiB    64             32768 pages       170
//   64 KiB      4 MiB    64             65536 pages       340
//
// Invariant: an extent is 1 MiB up to 16 KiB pages and 64 pages above; an XDES page
// describes page_size pages, one 40-byte entry per extent.
#pragma once

#include <cassert>
#include <compare>
#include <cstddef>
#include <cstdint>
#include <string>

namespace strata::ondisk {

// A value that must not be mixed with other integers of the same width.
template <typename Tag, typename Rep>
class StrongId {
 public:
  using rep = Rep;
  constexpr StrongId() = default;
  constexpr explicit StrongId(Rep v) : v_(v) {}
  constexpr Rep value() const { return v_; }
  constexpr auto operator<=>(const StrongId&) const = default;

 private:
  Rep v_ = 0;
};

using PageNo = StrongId<struct PageNoTag, std::uint32_t>;
using SpaceId = StrongId<struct SpaceIdTag, std::uint32_t>;
using Lsn = StrongId<struct LsnTag, std::uint64_t>;
using TrxId = StrongId<struct TrxIdTag, std::uint64_t>;  // 48 bits on disk

// "No page" in page-number fields. Frozen on disk.
inline constexpr std::uint32_t kFilNull = 0xFFFFFFFF;
inline constexpr PageNo kNullPage{kFilNull};

inline constexpr std::size_t kDefaultPageSize = 16384;
inline constexpr std::size_t kMinPageSize = 4096;
inline constexpr std::size_t kMaxPageSize = 65536;

// Reserved space ids (innodb-format.md §1.3). Frozen on disk.
inline constexpr std::uint32_t kSystemSpaceId = 0;
inline constexpr std::uint32_t kRedoPseudoSpaceId = 0xFFFFFFF0;
inline constexpr std::uint32_t kMySqlDictionarySpaceId = 0xFFFFFFFE;  // MariaDB: temporary
inline constexpr std::uint32_t kMySqlTemporarySpaceId = 0xFFFFFFFD;

// FIL_PAGE_SRV_VERSION on page 0 of files Strata writes ("STRA"): how inspectors tell our
// files from MySQL 8.0's, which store a server version such as 80040 there. Frozen on disk.
inline constexpr std::uint32_t kStrataServerVersion = 0x53545241;

// Which product wrote a file; decides the few fields whose meaning differs by product.
enum class Flavor : std::uint8_t {
  kUnknown = 0,
  kMySql = 1,    // MySQL 5.7 / 8.0 / 8.4
  kMariaDb = 2,  // MariaDB 10.x / 11.x
  kStrata = 3,   // files written by this project's engine (MySQL 8.0 layout)
};
std::string ToString(Flavor f);

// The logical page size and every quantity derived from it.
class PageSize {
 public:
  // Asserts `bytes` is one of 4, 8, 16, 32, 64 KiB; use FromBytes for untrusted values.
  constexpr explicit PageSize(std::size_t bytes = kDefaultPageSize) : bytes_(bytes), logical_(bytes) {
    assert(IsValid(bytes));
  }
  // A ROW_FORMAT=COMPRESSED tablespace: pages of `physical` bytes on disk (1-16 KiB), an XDES
  // page every `physical` pages, but extents of as many pages as the `logical` size gives (64
  // for 16 KiB), as InnoDB counts them.
  static constexpr PageSize Compressed(std::size_t physical, std::size_t logical) {
    assert(IsValid(logical) && physical >= 1024 && physical <= logical && (physical & (physical - 1)) == 0);
    PageSize p(logical);
    p.bytes_ = physical;
    return p;
  }
  static constexpr bool IsValid(std::size_t bytes) {
    return bytes == 4096 || bytes == 8192 || bytes == 16384 || bytes == 32768 || bytes == 65536;
  }
  // What a page on disk may be: those, or a ROW_FORMAT=COMPRESSED page of 1 or 2 KiB.
  static constexpr bool IsValidPhysical(std::size_t bytes) { return bytes == 1024 || bytes == 2048 || IsValid(bytes); }

  constexpr std::size_t bytes() const { return bytes_; }
  constexpr std::uint32_t pages_per_extent() const {
    return logical_ <= 16384 ? static_cast<std::uint32_t>((1u << 20) / logical_) : 64u;
  }
  constexpr std::size_t extent_bytes() const { return pages_per_extent() * bytes_; }
  // An XDES (or page-0) page every this many pages; each describes that many pages.
  constexpr std::uint32_t xdes_period() const { return static_cast<std::uint32_t>(bytes_); }
  constexpr std::uint32_t xdes_entries_per_page() const { return xdes_period() / pages_per_extent(); }
  // An XDES entry: id, list node, state, then 2 bits per page of the extent.
  constexpr std::size_t xdes_entry_size() const { return 24 + pages_per_extent() * 2 / 8; }
  // Fragment slots in an inode entry: half an extent.
  constexpr std::uint32_t frag_slots() const { return pages_per_extent() / 2; }
  constexpr std::size_t inode_entry_size() const { return 64 + 4 * frag_slots(); }
  constexpr std::uint32_t inodes_per_page() const {
    return static_cast<std::uint32_t>((bytes_ - 50 - 10) / inode_entry_size());
  }
  constexpr bool operator==(const PageSize&) const = default;

 private:
  std::size_t bytes_;    // on disk
  std::size_t logical_;  // what extents are counted in (the same but for compressed tablespaces)
};

}  // namespace strata::ondisk
