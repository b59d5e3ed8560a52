// File segments: INODE pages, their inode entries, and the FSEG headers that point at them
// (innodb-format.md §7).
//
// INODE page (type 3):             inode entry (192 bytes at 16 KiB; 64 + 4*F in general)
//   OFFSET SIZE FIELD                OFFSET SIZE FIELD
//   38     12   list node            0      8    FSEG_ID (0 = free slot)
//   50     N*S  inode entries        8      4    FSEG_NOT_FULL_N_USED
//                                    12     16   FSEG_FREE      list base of owned free extents
//   N = (page_size - 60) / S         28     16   FSEG_NOT_FULL  owned, partly used extents
//                                    44     16   FSEG_FULL      owned, full extents
//                                    60     4    FSEG_MAGIC_N = 97937874
//                                    64     4*F  fragment page slots (FIL_NULL = unused),
//                                                F = pages per extent / 2
//
// FSEG header (10 bytes, in index root pages and undo/rseg pages):
//   0 4 space id of the inode page   4 4 inode page number   8 2 offset of the inode entry
#pragma once

#include <cstdint>

#include "ondisk/endian.h"
#include "ondisk/file_list.h"
#include "ondisk/status.h"
#include "ondisk/types.h"

namespace strata::ondisk {

inline constexpr std::uint32_t kFsegMagic = 97937874;  // FSEG_MAGIC_N_VALUE, frozen on disk
inline constexpr std::size_t kInodePageListNode = 38;
inline constexpr std::size_t kInodeArrayOffset = 50;
inline constexpr std::size_t kFsegHeaderSize = 10;

struct FsegHeader {
  SpaceId space;
  PageNo page = kNullPage;
  std::uint16_t offset = 0;

  constexpr bool operator==(const FsegHeader&) const = default;
  bool is_zero() const { return space.value() == 0 && page.value() == 0 && offset == 0; }
  static FsegHeader Decode(ConstBytes b, std::size_t at) {
    return {SpaceId(Load32(b, at)), PageNo(Load32(b, at + 4)), Load16(b, at + 8)};
  }
  void EncodeTo(MutableBytes b, std::size_t at) const {
    Store32(b, at, space.value());
    Store32(b, at + 4, page.value());
    Store16(b, at + 8, offset);
  }
  // Corruption unless the offset is the start of an inode slot on a page of this size.
  Status Check(PageSize ps, std::size_t where) const;
  // Which slot of the INODE page the header points at (after Check).
  std::uint32_t slot(PageSize ps) const {
    return static_cast<std::uint32_t>((offset - kInodeArrayOffset) / ps.inode_entry_size());
  }
};

// Segment statistics, computed the way innodb_ruby reports them (innodb-format.md §7.2).
struct SegmentUsage {                // 64-bit: list lengths come from disk and E * length may not fit 32 bits
  std::uint64_t fragment_pages = 0;  // fragment slots in use
  std::uint64_t used_pages = 0;      // frag + NOT_FULL_N_USED + E * len(FULL)
  std::uint64_t reserved_pages = 0;  // frag + E * (len(FREE) + len(NOT_FULL) + len(FULL))
};

class InodeEntry {
 public:
  static constexpr std::size_t kId = 0;
  static constexpr std::size_t kNotFullNUsed = 8;
  static constexpr std::size_t kFree = 12;
  static constexpr std::size_t kNotFull = 28;
  static constexpr std::size_t kFull = 44;
  static constexpr std::size_t kMagic = 60;
  static constexpr std::size_t kFragArray = 64;

  // View of slot `index` of an INODE page (whole page; asserts index in range), laid out by
  // the page's size or, for a compressed tablespace, by its `geometry`.
  InodeEntry(ConstBytes page, std::uint32_t index);
  InodeEntry(ConstBytes page, std::uint32_t index, PageSize geometry);
  static std::size_t OffsetOf(PageSize ps, std::uint32_t index) {
    return kInodeArrayOffset + index * ps.inode_entry_size();
  }

  std::uint64_t segment_id() const { return Load64(p_, at_ + kId); }
  bool in_use() const { return segment_id() != 0; }
  std::uint32_t not_full_n_used() const { return Load32(p_, at_ + kNotFullNUsed); }
  ListBase free() const { return ListBase::Decode(p_, at_ + kFree); }
  ListBase not_full() const { return ListBase::Decode(p_, at_ + kNotFull); }
  ListBase full() const { return ListBase::Decode(p_, at_ + kFull); }
  std::uint32_t magic() const { return Load32(p_, at_ + kMagic); }
  std::uint32_t frag_slots() const { return geometry_.frag_slots(); }
  PageNo frag_page(std::uint32_t slot) const { return PageNo(Load32(p_, at_ + kFragArray + 4 * slot)); }
  SegmentUsage Usage() const;
  std::size_t offset() const { return at_; }
  // Corruption for a used slot with a wrong magic number or inconsistent lists.
  Status Check() const;

 private:
  ConstBytes p_;
  PageSize geometry_;
  std::size_t at_;
};

class InodeEntryWriter {
 public:
  InodeEntryWriter(MutableBytes page, std::uint32_t index);
  // A fresh segment: id, zero counts, empty lists, magic, every fragment slot FIL_NULL.
  void Init(std::uint64_t segment_id);
  // Frees the slot (all zero, as InnoDB leaves a freed inode).
  void Clear();
  void set_not_full_n_used(std::uint32_t n) { Store32(p_, at_ + InodeEntry::kNotFullNUsed, n); }
  void set_free(const ListBase& l) { l.EncodeTo(p_, at_ + InodeEntry::kFree); }
  void set_not_full(const ListBase& l) { l.EncodeTo(p_, at_ + InodeEntry::kNotFull); }
  void set_full(const ListBase& l) { l.EncodeTo(p_, at_ + InodeEntry::kFull); }
  void set_frag_page(std::uint32_t slot, PageNo page);

 private:
  MutableBytes p_;
  std::size_t at_;
};

}  // namespace strata::ondisk
