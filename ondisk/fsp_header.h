// FSP header: the tablespace header on page 0 at offset 38 (innodb-format.md §4), and the
// tablespace flags it carries.
//
//   OFFSET SIZE FIELD                 (absolute page offsets)
//   38     4    FSP_SPACE_ID
//   42     4    FSP_NOT_USED
//   46     4    FSP_SIZE              size of the tablespace in pages
//   50     4    FSP_FREE_LIMIT        first page not yet added to the free lists
//   54     4    FSP_SPACE_FLAGS       FspFlags
//   58     4    FSP_FRAG_N_USED       used pages in FREE_FRAG extents
//   62     16   FSP_FREE              list base: free extents
//   78     16   FSP_FREE_FRAG         list base: fragment extents with free pages
//   94     16   FSP_FULL_FRAG         list base: full fragment extents
//   110    8    FSP_SEG_ID            next segment id to hand out
//   118    16   FSP_SEG_INODES_FULL   list base: INODE pages with no free slot
//   134    16   FSP_SEG_INODES_FREE   list base: INODE pages with a free slot
//   150    ...  XDES array (xdes.h), then on MySQL 8.0 the encryption info and the SDI header:
//   150+E*S+115  4  SDI version, 4  SDI root page   (E entries of S bytes; 10505/10509 at 16 KiB)
//
// Flags (MySQL, and MariaDB without full_crc32):      MariaDB full_crc32 (bit 4 set):
//   bit 0      POST_ANTELOPE (DYNAMIC/COMPRESSED)        bits 0-3  page ssize (5 = 16 KiB)
//   bits 1-4   ZIP_SSIZE (0 = not compressed)            bit 4     FULL_CRC32 marker
//   bit 5      ATOMIC_BLOBS                              bits 5-7  page_compressed algorithm
//   bits 6-9   PAGE_SSIZE (0 = 16 KiB)                   bits 8+   zero
//   bit 10     DATA_DIR     bit 11 SHARED     bit 12 TEMPORARY
//   bit 13     ENCRYPTION   bit 14 SDI (MySQL 8.0)   bit 16 PAGE_COMPRESSION (MariaDB)
// Invariant: the two layouts cannot be confused, since bit 4 set in the MySQL layout would
// mean a ZIP_SSIZE of 8 or more, which is invalid.
#pragma once

#include <cstdint>
#include <string>

#include "ondisk/endian.h"
#include "ondisk/file_list.h"
#include "ondisk/status.h"
#include "ondisk/types.h"

namespace strata::ondisk {

struct FspFlags {
  std::uint32_t raw = 0;
  bool full_crc32 = false;
  // MySQL layout fields (all false/0 for full_crc32 files).
  bool post_antelope = false;
  std::uint32_t zip_ssize = 0;
  bool atomic_blobs = false;
  bool data_dir = false;
  bool shared = false;
  bool temporary = false;
  bool encryption = false;
  bool sdi = false;
  bool page_compression = false;  // MariaDB bit 16
  // full_crc32 layout.
  std::uint32_t compression_algorithm = 0;  // 0 none, 1 zlib, 2 lz4, 3 lzo, 4 lzma, 5 bzip2, 6 snappy
  // Both layouts.
  std::size_t page_size = kDefaultPageSize;           // logical
  std::size_t physical_page_size = kDefaultPageSize;  // ROW_FORMAT=COMPRESSED pages are smaller

  // Corruption (naming the flags) when the bits cannot come from a valid tablespace.
  static Result<FspFlags> Decode(std::uint32_t raw);
  // Encoders for what Strata writes; assert on impossible arguments.
  static std::uint32_t EncodeMySql(PageSize page_size, bool post_antelope, bool atomic_blobs, bool sdi);
  static std::uint32_t EncodeFullCrc32(PageSize page_size, std::uint32_t compression_algorithm = 0);

  std::string ToString() const;  // e.g. "0x4021 (POST_ANTELOPE ATOMIC_BLOBS SDI, 16K)"
};

// Read-only view of the FSP header of page 0 (whole page).
class FspHeader {
 public:
  static constexpr std::size_t kOffset = 38;
  static constexpr std::size_t kSpaceId = 38;
  static constexpr std::size_t kNotUsed = 42;
  static constexpr std::size_t kSize = 46;
  static constexpr std::size_t kFreeLimit = 50;
  static constexpr std::size_t kFlags = 54;
  static constexpr std::size_t kFragNUsed = 58;
  static constexpr std::size_t kFree = 62;
  static constexpr std::size_t kFreeFrag = 78;
  static constexpr std::size_t kFullFrag = 94;
  static constexpr std::size_t kSegId = 110;
  static constexpr std::size_t kSegInodesFull = 118;
  static constexpr std::size_t kSegInodesFree = 134;
  static constexpr std::size_t kXdesArray = 150;
  static constexpr std::size_t kEncryptionInfoSize = 115;

  // Decodes and checks the flags; the page size they name must equal the span's size.
  static Result<FspHeader> Open(ConstBytes page0);

  SpaceId space_id() const { return SpaceId(Load32(p_, kSpaceId)); }
  std::uint32_t size() const { return Load32(p_, kSize); }
  std::uint32_t free_limit() const { return Load32(p_, kFreeLimit); }
  const FspFlags& flags() const { return flags_; }
  std::uint32_t frag_n_used() const { return Load32(p_, kFragNUsed); }
  ListBase free() const { return ListBase::Decode(p_, kFree); }
  ListBase free_frag() const { return ListBase::Decode(p_, kFreeFrag); }
  ListBase full_frag() const { return ListBase::Decode(p_, kFullFrag); }
  std::uint64_t next_segment_id() const { return Load64(p_, kSegId); }
  ListBase seg_inodes_full() const { return ListBase::Decode(p_, kSegInodesFull); }
  ListBase seg_inodes_free() const { return ListBase::Decode(p_, kSegInodesFree); }

  // MySQL's encryption info (mysql_encryption.h) right after the XDES array, then on 8.0 the
  // SDI header.
  static std::size_t EncryptionInfoOffset(PageSize ps);
  static std::size_t SdiHeaderOffset(PageSize ps);
  std::uint32_t sdi_version() const { return Load32(p_, SdiHeaderOffset(geometry())); }
  PageNo sdi_root() const { return PageNo(Load32(p_, SdiHeaderOffset(geometry()) + 4)); }
  // Extents and descriptor pages as the flags lay them out (compressed tablespaces: by both sizes).
  PageSize geometry() const;
  // MySQL 8.0 reuses the FIL prev/next fields of page 0.
  std::uint32_t server_version() const { return Load32(p_, 8); }
  std::uint32_t space_version() const { return Load32(p_, 12); }

  // Checks the list bases for consistency (Corruption naming the offset).
  Status CheckLists() const;

 private:
  FspHeader(ConstBytes p, FspFlags f) : p_(p), flags_(f) {}
  ConstBytes p_;
  FspFlags flags_;
};

// Writes the FSP header of page 0.
class FspHeaderWriter {
 public:
  explicit FspHeaderWriter(MutableBytes page0);
  void set_space_id(SpaceId v) { Store32(p_, FspHeader::kSpaceId, v.value()); }
  void set_size(std::uint32_t pages) { Store32(p_, FspHeader::kSize, pages); }
  void set_free_limit(std::uint32_t page) { Store32(p_, FspHeader::kFreeLimit, page); }
  void set_flags(std::uint32_t raw) { Store32(p_, FspHeader::kFlags, raw); }
  void set_frag_n_used(std::uint32_t n) { Store32(p_, FspHeader::kFragNUsed, n); }
  void set_free(const ListBase& l) { l.EncodeTo(p_, FspHeader::kFree); }
  void set_free_frag(const ListBase& l) { l.EncodeTo(p_, FspHeader::kFreeFrag); }
  void set_full_frag(const ListBase& l) { l.EncodeTo(p_, FspHeader::kFullFrag); }
  void set_next_segment_id(std::uint64_t id) { Store64(p_, FspHeader::kSegId, id); }
  void set_seg_inodes_full(const ListBase& l) { l.EncodeTo(p_, FspHeader::kSegInodesFull); }
  void set_seg_inodes_free(const ListBase& l) { l.EncodeTo(p_, FspHeader::kSegInodesFree); }
  void set_sdi(std::uint32_t version, PageNo root);
  void set_server_version(std::uint32_t v) { Store32(p_, 8, v); }
  void set_space_version(std::uint32_t v) { Store32(p_, 12, v); }

 private:
  MutableBytes p_;
};

}  // namespace strata::ondisk
