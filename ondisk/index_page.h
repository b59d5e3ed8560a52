// INDEX pages (types 17855 INDEX, 17854 RTREE, 17853 SDI; MariaDB 18 INSTANT): the B-tree
// node format (innodb-format.md §8).
//
//   +-----------+-------------+------------------+---------------------+-----+-----------+---------+
//   | FIL hdr   | page header | infimum/supremum | user records (heap) | free| directory | trailer |
//   | 0..37     | 38..93      | 94..119 (COMPACT)| grows up to HEAP_TOP|     | grows down| size-8  |
//   +-----------+-------------+------------------+---------------------+-----+-----------+---------+
//
//   OFFSET SIZE FIELD
//   38     2    PAGE_N_DIR_SLOTS  directory slots (>= 2)
//   40     2    PAGE_HEAP_TOP     first byte above the record heap
//   42     2    PAGE_N_HEAP       bit 15: COMPACT; bits 0-14: heap records incl. infimum,
//                                 supremum and deleted ones
//   44     2    PAGE_FREE         first record of the free (deleted) list, or 0
//   46     2    PAGE_GARBAGE      bytes in deleted records
//   48     2    PAGE_LAST_INSERT  last inserted record, or 0
//   50     2    PAGE_DIRECTION    1 LEFT 2 RIGHT 3 SAME_REC 4 SAME_PAGE 5 NO_DIRECTION
//                                 (MariaDB: bits 0-2; value >> 3 = PAGE_INSTANT on the root)
//   52     2    PAGE_N_DIRECTION  consecutive inserts in that direction
//   54     2    PAGE_N_RECS       user records (not infimum/supremum/deleted)
//   56     8    PAGE_MAX_TRX_ID   secondary leaves; MariaDB clustered root: AUTO_INCREMENT
//   64     2    PAGE_LEVEL        0 = leaf
//   66     8    PAGE_INDEX_ID
//   74     10   PAGE_BTR_SEG_LEAF FSEG header of the leaf segment (root only)
//   84     10   PAGE_BTR_SEG_TOP  FSEG header of the non-leaf segment (root only)
//   94          PAGE_DATA: infimum and supremum records
//
// The directory holds 2-byte record offsets from size-10 downward; slot 0 is the infimum,
// the last slot the supremum; each slot names the last record of its group, whose n_owned
// is the group size (infimum 1, others 4..8, supremum 1..8).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "ondisk/endian.h"
#include "ondisk/fil_header.h"
#include "ondisk/inode.h"
#include "ondisk/record_header.h"
#include "ondisk/status.h"
#include "ondisk/types.h"

namespace strata::ondisk {

// Frozen on disk.
enum class PageDirection : std::uint16_t {
  kLeft = 1,
  kRight = 2,
  kSameRec = 3,
  kSamePage = 4,
  kNoDirection = 5,
};
std::string ToString(PageDirection d);

inline constexpr std::size_t kPageHeader = 38;
inline constexpr std::size_t kPageData = 94;
inline constexpr std::size_t kCompactInfimum = 99;
inline constexpr std::size_t kCompactSupremum = 112;
inline constexpr std::size_t kCompactSupremumEnd = 120;
inline constexpr std::size_t kRedundantInfimum = 101;
inline constexpr std::size_t kRedundantSupremum = 116;
inline constexpr std::size_t kRedundantSupremumEnd = 125;
inline constexpr std::size_t kDirSlotSize = 2;
inline constexpr unsigned kDirSlotMinOwned = 4;
inline constexpr unsigned kDirSlotMaxOwned = 8;
inline constexpr std::uint64_t kSdiIndexId = 0xFFFFFFFFFFFFFFFF;

// Byte accounting of one page (innodb-format.md §8.5).
struct PageSpace {
  // InnoDB's page_get_data_size(), what INNODB_BUFFER_PAGE.DATA_SIZE reports:
  // HEAP_TOP - supremum_end - GARBAGE.
  std::size_t data_size = 0;
  // innodb_ruby's figures: free = GARBAGE + (size - 8 - 2*slots - HEAP_TOP), used = size - free.
  std::size_t free_bytes = 0;
  std::size_t used_bytes = 0;
  std::size_t garbage_bytes = 0;
  // InnoDB's page_get_max_insert_size_after_reorganize(page, 1).
  std::size_t max_insert_after_reorganize = 0;
};

class IndexPage {
 public:
  static constexpr std::size_t kNDirSlots = 38;
  static constexpr std::size_t kHeapTop = 40;
  static constexpr std::size_t kNHeap = 42;
  static constexpr std::size_t kFree = 44;
  static constexpr std::size_t kGarbage = 46;
  static constexpr std::size_t kLastInsert = 48;
  static constexpr std::size_t kDirection = 50;
  static constexpr std::size_t kNDirection = 52;
  static constexpr std::size_t kNRecs = 54;
  static constexpr std::size_t kMaxTrxId = 56;
  static constexpr std::size_t kLevel = 64;
  static constexpr std::size_t kIndexId = 66;
  static constexpr std::size_t kSegLeaf = 74;
  static constexpr std::size_t kSegTop = 84;

  // Checks what every other accessor relies on: a whole page, a directory that fits, a heap
  // top inside the page, and intact infimum/supremum records. Corruption names the offset.
  static Result<IndexPage> Open(ConstBytes page);
  // The same over bytes the page keeps alive itself: a compressed page's unpacked image.
  static Result<IndexPage> Open(std::shared_ptr<const std::vector<std::byte>> bytes);

  std::uint16_t n_dir_slots() const { return Load16(p_, kNDirSlots); }
  std::uint16_t heap_top() const { return Load16(p_, kHeapTop); }
  bool is_compact() const { return Load16(p_, kNHeap) & 0x8000; }
  std::uint16_t n_heap() const { return Load16(p_, kNHeap) & 0x7FFF; }
  std::uint16_t free_list() const { return Load16(p_, kFree); }
  std::uint16_t garbage() const { return Load16(p_, kGarbage); }
  std::uint16_t last_insert() const { return Load16(p_, kLastInsert); }
  PageDirection direction() const { return static_cast<PageDirection>(Load16(p_, kDirection) & 7); }
  std::uint16_t page_instant() const { return Load16(p_, kDirection) >> 3; }  // MariaDB
  std::uint16_t n_direction() const { return Load16(p_, kNDirection); }
  std::uint16_t n_recs() const { return Load16(p_, kNRecs); }
  std::uint64_t max_trx_id() const { return Load64(p_, kMaxTrxId); }
  std::uint16_t level() const { return Load16(p_, kLevel); }
  bool is_leaf() const { return level() == 0; }
  std::uint64_t index_id() const { return Load64(p_, kIndexId); }
  FsegHeader seg_leaf() const { return FsegHeader::Decode(p_, kSegLeaf); }
  FsegHeader seg_top() const { return FsegHeader::Decode(p_, kSegTop); }
  // Root pages have both segment headers set and no siblings.
  bool is_root() const;

  std::size_t infimum() const { return is_compact() ? kCompactInfimum : kRedundantInfimum; }
  std::size_t supremum() const { return is_compact() ? kCompactSupremum : kRedundantSupremum; }
  std::size_t supremum_end() const { return is_compact() ? kCompactSupremumEnd : kRedundantSupremumEnd; }
  std::size_t extra_bytes() const { return is_compact() ? kCompactExtraBytes : kRedundantExtraBytes; }

  // Directory slot i (0 = infimum) and where it is stored.
  static std::size_t DirSlotOffset(std::size_t page_size, std::size_t i) { return page_size - 10 - 2 * i; }
  std::uint16_t dir_slot(std::size_t i) const { return Load16(p_, DirSlotOffset(p_.size(), i)); }

  Result<RecordHeader> HeaderAt(std::size_t origin) const { return RecordHeader::Decode(p_, origin, is_compact()); }

  PageSpace Space() const;

  // Walks the whole record chain and the directory and checks them against the header:
  // chain order by heap bounds, no loops, record count = N_RECS, n_owned per slot, slots in
  // chain order. Returns the first problem found.
  Status CheckStructure() const;

  ConstBytes page() const { return p_; }

 private:
  explicit IndexPage(ConstBytes p) : p_(p) {}
  ConstBytes p_;
  std::shared_ptr<const std::vector<std::byte>> owned_;  // what p_ views, when the page owns it
};

// Walks user records in key order, from the record after the infimum to the one before the
// supremum. Every step is bounds-checked; a chain that leaves the heap, loops, or ends early
// stops the walk with a Corruption naming the offset.
//
//   RecordWalker w(page);
//   while (w.Next()) use(w.origin(), w.header());
//   if (!w.status().ok()) ...
class RecordWalker {
 public:
  explicit RecordWalker(const IndexPage& page, bool from_free_list = false);
  bool Next();
  std::size_t origin() const { return origin_; }
  const RecordHeader& header() const { return header_; }
  const Status& status() const { return status_; }
  std::size_t steps() const { return steps_; }

 private:
  bool Fail(std::size_t offset, const std::string& what);
  const IndexPage& page_;
  bool free_list_;
  std::size_t origin_;
  RecordHeader header_;
  std::size_t steps_ = 0;
  Status status_;
  bool done_ = false;
};

// Builds index pages: initialises empty ones, appends records in key order (the bulk-build
// path) and lays out the directory. The engine's B-tree uses it; tests use it to produce
// pages they then decode.
class IndexPageWriter {
 public:
  explicit IndexPageWriter(MutableBytes page);

  // Writes an empty page: header fields for `index_id`/`level`, system records, a two-slot
  // directory. FIL fields other than the type are left to the caller.
  void InitEmpty(bool compact, std::uint64_t index_id, std::uint16_t level, PageType type = PageType::kIndex);

  void set_seg_leaf(const FsegHeader& h) { h.EncodeTo(p_, IndexPage::kSegLeaf); }
  void set_seg_top(const FsegHeader& h) { h.EncodeTo(p_, IndexPage::kSegTop); }
  void set_max_trx_id(std::uint64_t v) { Store64(p_, IndexPage::kMaxTrxId, v); }
  void set_direction(PageDirection d, std::uint16_t n) {
    Store16(p_, IndexPage::kDirection, static_cast<std::uint16_t>(d));
    Store16(p_, IndexPage::kNDirection, n);
  }

  // Bytes still free for records and their directory share (assumes slots of 4 records).
  std::size_t FreeSpace() const;

  // Appends a record after the current last one. `record` holds the extra bytes followed by
  // the data; `extra_size` says where the origin is. Heap number, status and the chain are
  // filled in here. Returns the origin, or 0 if the page has no room.
  std::size_t Append(ConstBytes record, std::size_t extra_size, std::uint8_t info_bits = 0,
                     std::uint16_t n_fields_redundant = 0, bool short_offsets = false);

  // Rebuilds the directory over the record chain: groups of 4 records per slot, with the
  // supremum's group taking the remainder (up to 8), as InnoDB's bulk load does.
  void FinishDirectory();

 private:
  MutableBytes p_;
  std::size_t last_ = 0;  // origin of the last appended record (infimum when none)
};

}  // namespace strata::ondisk
