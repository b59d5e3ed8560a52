// Off-page column storage (innodb-format.md §9.7-9.8).
//
// Old-format BLOB page (type 10: MySQL 5.x, MariaDB, older 8.0 rows):
//   38 4 bytes of data on this page   42 4 next BLOB page (FIL_NULL = last)   46 data
//   The chain starts at the ExternRef's page; FIL prev/next stay 0.
//
// MySQL 8.0 LOB first page (type 24):          LOB index entry (60 bytes):
//   38 1 version  39 1 flags  40 4 LOB version    0 12 list node (prev, next)
//   44 6 last trx id  50 4 last undo number       12 16 list base of older versions
//   54 4 data length on this page                 28 6 creator trx id  34 6 modifier trx id
//   58 6 creator trx id                           40 4 undo number  44 4 modifier undo number
//   64 16 list base: index entries in use         48 4 data page number
//   80 16 list base: free index entries           52 4 data length (only the first 2 bytes used)
//   96 10 x 60 index entries                      56 4 LOB version
//   696 data (up to page_size - 704)
// LOB data page (type 23): 38 1 version  39 4 data length  43 6 trx id  49 data
// LOB index page (type 22): index entries from offset 39 after a 1-byte version.
//
// ROW_FORMAT=COMPRESSED BLOB pages (type 11 first, 12 the others; MariaDB and MySQL 5.x):
//   the value is one zlib stream cut across a chain of pages; each page names the next at
//   FIL_PAGE_NEXT (12; FIL_NULL on the last) and holds stream bytes from 38 to its end.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <unordered_set>
#include <string>
#include <vector>

#include "ondisk/endian.h"
#include "ondisk/file_list.h"
#include "ondisk/status.h"
#include "ondisk/types.h"

namespace strata::ondisk {

struct BlobPage {
  static constexpr std::size_t kPartLen = 38;
  static constexpr std::size_t kNextPage = 42;
  static constexpr std::size_t kData = 46;
  std::uint32_t part_len = 0;
  PageNo next_page = kNullPage;

  // Corruption when the part length overruns the page body.
  static Result<BlobPage> Decode(ConstBytes page);
  void EncodeTo(MutableBytes page) const;
  static std::size_t Capacity(std::size_t page_size) { return page_size - kData - 8; }
};

// One walk of an old-format BLOB chain (a part on each page, then the next page's number), the
// pages read by the caller from wherever it keeps them (a mapped file, the buffer pool):
//
//   BlobChain chain(ref.page_no, ref.length);
//   while (auto p = chain.next()) STRATA_RETURN_IF_ERROR(chain.Take(*p, read(*p), out));
//   STRATA_RETURN_IF_ERROR(chain.Finish());
//
// The chain is cut at `length` bytes and refused where it loops, ends early or reaches a page
// that is not a BLOB page (SDI BLOB pages too, type 18, when `sdi`), naming the page.
class BlobChain {
 public:
  BlobChain(std::uint32_t first_page, std::uint64_t length, bool sdi = false)
      : next_(first_page), length_(length), sdi_(sdi) {}
  // The page to read next; nullopt when the value is whole or the chain has ended.
  std::optional<std::uint32_t> next() const {
    return taken_ < length_ && next_ != kFilNull ? std::optional<std::uint32_t>(next_) : std::nullopt;
  }
  // Page `page_no` (what next() asked for; an empty span when it is past the file's end), its
  // part appended to `out`.
  Status Take(std::uint32_t page_no, ConstBytes page, std::string& out);
  Status Take(std::uint32_t page_no, ConstBytes page, std::vector<std::byte>& out);
  // Corruption when the chain ended before `length` bytes.
  Status Finish() const;

 private:
  Result<ConstBytes> Part(std::uint32_t page_no, ConstBytes page);

  std::uint32_t next_;
  std::uint64_t length_;
  std::uint64_t taken_ = 0;
  bool sdi_;
  std::unordered_set<std::uint32_t> seen_;  // a 4 GiB value has 260,000 pages: no linear search
};

struct LobIndexEntry {
  static constexpr std::size_t kSize = 60;
  ListNode node;
  ListBase versions;
  std::uint64_t creator_trx = 0;
  std::uint64_t modifier_trx = 0;
  std::uint32_t undo_no = 0;
  std::uint32_t modifier_undo_no = 0;
  PageNo data_page = kNullPage;
  std::uint16_t data_len = 0;
  std::uint32_t lob_version = 0;

  // `at` usually comes from a list address on disk: Corruption unless the entry fits the body.
  static Result<LobIndexEntry> Decode(ConstBytes page, std::size_t at);
  void EncodeTo(MutableBytes page, std::size_t at) const;
};

struct LobFirstPage {
  static constexpr std::size_t kVersion = 38;
  static constexpr std::size_t kFlags = 39;
  static constexpr std::size_t kLobVersion = 40;
  static constexpr std::size_t kLastTrx = 44;
  static constexpr std::size_t kLastUndo = 50;
  static constexpr std::size_t kDataLen = 54;
  static constexpr std::size_t kCreatorTrx = 58;
  static constexpr std::size_t kIndexList = 64;
  static constexpr std::size_t kFreeList = 80;
  static constexpr std::size_t kEntries = 96;
  static constexpr std::size_t kEntryCount = 10;
  static constexpr std::size_t kData = kEntries + kEntryCount * LobIndexEntry::kSize;  // 696

  std::uint8_t version = 0;
  std::uint8_t flags = 0;
  std::uint32_t lob_version = 0;
  std::uint64_t last_trx = 0;
  std::uint32_t last_undo = 0;
  std::uint32_t data_len = 0;
  std::uint64_t creator_trx = 0;
  ListBase index_list;
  ListBase free_list;

  // Corruption when the data length or the lists are impossible.
  static Result<LobFirstPage> Decode(ConstBytes page);
  void EncodeTo(MutableBytes page) const;
  static std::size_t Capacity(std::size_t page_size) { return page_size - kData - 8; }
};

struct LobDataPage {
  static constexpr std::size_t kVersion = 38;
  static constexpr std::size_t kDataLen = 39;
  static constexpr std::size_t kTrx = 43;
  static constexpr std::size_t kData = 49;
  std::uint8_t version = 0;
  std::uint32_t data_len = 0;
  std::uint64_t trx = 0;

  static Result<LobDataPage> Decode(ConstBytes page);
  void EncodeTo(MutableBytes page) const;
  static std::size_t Capacity(std::size_t page_size) { return page_size - kData - 8; }
};

// Inflates a ROW_FORMAT=COMPRESSED off-page value page by page, as the caller follows the
// chain (and checks each page's type and checksum as it likes).
class ZBlobReader {
 public:
  static constexpr std::size_t kData = 38;
  explicit ZBlobReader(std::size_t length);  // the off-page length the reference gives
  ~ZBlobReader();
  ZBlobReader(const ZBlobReader&) = delete;
  ZBlobReader& operator=(const ZBlobReader&) = delete;

  // Inflates one page of the chain; returns the next page's number, FIL_NULL once the value
  // is whole. Corruption when the stream is damaged or ends before the value does.
  Result<std::uint32_t> Feed(ConstBytes page);
  // The value, once Feed returned FIL_NULL.
  std::string Take() { return std::move(out_); }

 private:
  struct Stream;
  std::unique_ptr<Stream> z_;
  std::string out_;
  std::size_t length_;
};

}  // namespace strata::ondisk
