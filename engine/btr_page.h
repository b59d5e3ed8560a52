// One B-tree page, changed in place (COMPACT format): the record chain, the heap with its
// free list of deleted records, and the page directory, kept as InnoDB keeps them
// (innodb-format.md §8):
//   - a record goes into the first record of the free list when that is large enough, else
//     on top of the heap; the insert updates PAGE_LAST_INSERT, PAGE_DIRECTION and
//     PAGE_N_DIRECTION as page_cur_insert_rec_low does;
//   - a directory slot owns 4 to 8 records (the supremum's 1 to 8); a slot grown to 9 splits
//     into 4 and 5, a slot shrunk to 3 borrows from or merges with the next one;
//   - a deleted record joins the free list and its bytes count as PAGE_GARBAGE until the
//     page is reorganised.
#pragma once

#include <cstdint>
#include <vector>

#include "engine/key.h"
#include "ondisk/index_page.h"

namespace strata::engine {

// A record lifted off a page: extra bytes, then data.
struct RawRecord {
  std::vector<std::byte> bytes;
  std::size_t extra_size = 0;
  std::uint8_t info_bits = 0;
};

// A record's bytes held elsewhere (a bulk load's buffer), laid out as in RawRecord.
struct RecordView {
  ondisk::ConstBytes bytes;
  std::size_t extra_size = 0;
  std::uint8_t info_bits = 0;
};

class BtrPage {
 public:
  static constexpr std::size_t kInfimum = ondisk::kCompactInfimum;
  static constexpr std::size_t kSupremum = ondisk::kCompactSupremum;

  // `layout` is the leaf layout on level 0 and the node-pointer layout above.
  BtrPage(ondisk::MutableBytes page, const ondisk::RecordLayout& layout);

  // An empty page of the index at `level`; FIL page number, space, siblings are kept.
  static void Init(ondisk::MutableBytes page, std::uint64_t index_id, std::uint16_t level, ondisk::PageType type);

  ondisk::MutableBytes bytes() { return p_; }
  std::uint16_t level() const { return ondisk::Load16(p_, ondisk::IndexPage::kLevel); }
  bool leaf() const { return level() == 0; }
  std::uint16_t n_recs() const { return ondisk::Load16(p_, ondisk::IndexPage::kNRecs); }
  std::uint16_t n_slots() const { return ondisk::Load16(p_, ondisk::IndexPage::kNDirSlots); }
  std::uint16_t garbage() const { return ondisk::Load16(p_, ondisk::IndexPage::kGarbage); }
  std::uint16_t heap_top() const { return ondisk::Load16(p_, ondisk::IndexPage::kHeapTop); }
  std::uint16_t n_heap() const { return ondisk::Load16(p_, ondisk::IndexPage::kNHeap) & 0x7FFF; }
  ondisk::PageNo prev() const { return ondisk::PageNo(ondisk::Load32(p_, ondisk::FilHeader::kPrev)); }
  ondisk::PageNo next() const { return ondisk::PageNo(ondisk::Load32(p_, ondisk::FilHeader::kNext)); }
  ondisk::PageNo page_no() const { return ondisk::PageNo(ondisk::Load32(p_, ondisk::FilHeader::kPageNo)); }

  std::size_t Next(std::size_t origin) const;           // 0 after the supremum
  std::size_t Prev(std::size_t origin) const;           // the infimum's is 0
  std::size_t First() const { return Next(kInfimum); }  // the supremum when empty
  std::size_t Last() const { return Prev(kSupremum); }  // the infimum when empty
  // The n-th user record, counting from 1 (0 is the infimum).
  std::size_t Nth(std::size_t n) const;

  std::uint8_t info_bits(std::size_t origin) const { return std::to_integer<std::uint8_t>(p_[origin - 5]) & 0xF0; }
  void set_info_bits(std::size_t origin, std::uint8_t bits);
  std::uint8_t n_owned(std::size_t origin) const { return std::to_integer<std::uint8_t>(p_[origin - 5]) & 0x0F; }
  // The row version a record was written in (MySQL 8.0.29+ instant ADD/DROP COLUMN), 0 when
  // it carries none.
  std::uint8_t RowVersion(std::size_t origin) const;

  // Field slices of a user record. The engine decodes only pages it wrote or whose checksum
  // it verified, so this walks the record's extra bytes without bounds checks; the
  // inspector's DecodeCompactFields is the checked reader for untrusted pages.
  std::vector<ondisk::FieldSlice> Fields(std::size_t origin) const;
  // The first n fields into out[0..n) (no allocation: the comparison's hot path).
  void DecodePrefix(std::size_t origin, std::size_t n, ondisk::FieldSlice* out) const;
  ondisk::ConstBytes FieldBytes(const ondisk::FieldSlice& s) const {
    return ondisk::ConstBytes(p_).subspan(s.offset, s.length);
  }
  // [start, end) of a record's bytes, extra bytes included.
  std::pair<std::size_t, std::size_t> Bounds(std::size_t origin) const;
  std::size_t Size(std::size_t origin) const {
    auto [s, e] = Bounds(origin);
    return e - s;
  }
  RawRecord Raw(std::size_t origin) const;
  std::vector<RawRecord> Records() const;  // every user record in key order

  // Compares the record's first fields with `key` (at most key.size() of them, at most
  // `n_fields`). A record carrying the MIN_REC flag is smaller than every key.
  int Compare(std::size_t origin, const Tuple& key, std::size_t n_fields, const std::vector<CompareKind>& kinds) const;
  // The last record that is < key (strict) or <= key; the infimum when there is none.
  std::size_t Search(const Tuple& key, std::size_t n_fields, const std::vector<CompareKind>& kinds, bool strict) const;

  // Bytes of records (InnoDB's page_get_data_size) and what an insert may still use.
  std::size_t DataSize() const { return heap_top() - ondisk::kCompactSupremumEnd - garbage(); }
  std::size_t MaxInsertSize(std::size_t n_new = 1) const;
  std::size_t MaxInsertSizeAfterReorganize(std::size_t n_new = 1) const;
  static std::size_t FreeSpaceOfEmpty(std::size_t page_size) { return page_size - ondisk::kCompactSupremumEnd - 8 - 4; }

  // Inserts a record after `after`; its origin, or 0 when the page has no room (without
  // reorganising). Node-pointer status on non-leaf pages.
  std::size_t Insert(std::size_t after, ondisk::ConstBytes record, std::size_t extra_size, std::uint8_t info_bits);
  std::size_t Insert(std::size_t after, const RawRecord& r) {
    return Insert(after, r.bytes, r.extra_size, r.info_bits);
  }
  void Delete(std::size_t origin);
  // Rewrites the page holding `records` in order, without garbage; header fields that are
  // not about the records (level, index id, segments, max trx id, direction) are kept.
  void Rebuild(const std::vector<RawRecord>& records);
  void Rebuild(const std::vector<RecordView>& records);
  void Reorganize() { Rebuild(Records()); }

 private:
  // The layout a record was written with, where its NULL bitmap ends (one past byte 0) and
  // its size: an index with row versions reads each record's version below its header.
  struct RecordShape {
    const ondisk::RecordLayout* layout;
    std::size_t nulls_top, null_bytes;
  };
  RecordShape ShapeOf(std::size_t origin) const;
  std::size_t SlotOffset(std::size_t i) const { return ondisk::IndexPage::DirSlotOffset(p_.size(), i); }
  std::size_t slot(std::size_t i) const { return ondisk::Load16(p_, SlotOffset(i)); }
  void set_slot(std::size_t i, std::size_t origin) {
    ondisk::Store16(p_, SlotOffset(i), static_cast<std::uint16_t>(origin));
  }
  void set_n_owned(std::size_t origin, unsigned n);
  void set_next(std::size_t origin, std::size_t next);
  std::size_t OwnerOf(std::size_t origin) const;
  std::size_t SlotOf(std::size_t owner) const;
  void SplitSlot(std::size_t i);
  void BalanceSlot(std::size_t i);
  std::size_t Place(std::size_t after, ondisk::ConstBytes record, std::size_t extra_size, std::uint8_t info_bits);
  template <typename List>
  void RebuildFrom(const List& records);

  ondisk::MutableBytes p_;
  const ondisk::RecordLayout* layout_;
  std::size_t null_bytes_;  // the NULL bitmap's size in every record of this layout (unversioned)
};

}  // namespace strata::engine
