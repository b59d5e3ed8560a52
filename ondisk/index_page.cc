#include "ondisk/index_page.h"

#include <algorithm>
#include <bitset>
#include <cassert>
#include <cstring>
#include <vector>

namespace strata::ondisk {

namespace {

constexpr char kInfimumText[] = "infimum";    // 8 bytes with its NUL
constexpr char kSupremumText[] = "supremum";  // COMPACT stores 8 bytes, REDUNDANT 9 (with NUL)

bool BytesEqual(ConstBytes page, std::size_t at, const char* text, std::size_t n) {
  return Fits(page.size(), at, n) && std::memcmp(page.data() + at, text, n) == 0;
}

std::string Range(std::size_t a, std::size_t b) { return "[" + std::to_string(a) + ", " + std::to_string(b) + ")"; }

}  // namespace

std::string ToString(PageDirection d) {
  switch (d) {
    case PageDirection::kLeft:
      return "LEFT";
    case PageDirection::kRight:
      return "RIGHT";
    case PageDirection::kSameRec:
      return "SAME_REC";
    case PageDirection::kSamePage:
      return "SAME_PAGE";
    case PageDirection::kNoDirection:
      return "NO_DIRECTION";
  }
  return "DIRECTION(" + std::to_string(static_cast<int>(d)) + ")";
}

Result<IndexPage> IndexPage::Open(std::shared_ptr<const std::vector<std::byte>> bytes) {
  auto ip = Open(ConstBytes(*bytes));
  if (ip.ok()) ip->owned_ = std::move(bytes);
  return ip;
}

Result<IndexPage> IndexPage::Open(ConstBytes page) {
  STRATA_RETURN_IF_ERROR(CheckPageSpan(page));
  IndexPage ip(page);
  const std::size_t size = page.size();
  const std::size_t slots = ip.n_dir_slots();
  if (slots < 2 || kPageData + 2 * slots > size) {
    return Status::CorruptionAt(kNDirSlots, "directory has " + std::to_string(slots) + " slots");
  }
  const std::size_t dir_bottom = size - 8 - 2 * slots;
  if (ip.heap_top() < ip.supremum_end() || ip.heap_top() > dir_bottom) {
    return Status::CorruptionAt(kHeapTop, "heap top " + std::to_string(ip.heap_top()) + " is outside " +
                                              Range(ip.supremum_end(), dir_bottom + 1));
  }
  // MariaDB's root of a table whose columns an instant ALTER dropped or reordered (page type
  // 18) zeroes the two texts and keeps the core NULL bitmap size in the supremum's last byte.
  const bool mariadb_instant = Load16(page, FilHeader::kType) == 18 &&
                               BytesEqual(page, ip.infimum(), "\0\0\0\0\0\0\0\0", 8) &&
                               BytesEqual(page, ip.supremum(), "\0\0\0\0\0\0\0", 7);
  if (!mariadb_instant && !BytesEqual(page, ip.infimum(), kInfimumText, 8)) {
    return Status::CorruptionAt(ip.infimum(), "infimum record is damaged");
  }
  if (!mariadb_instant && !BytesEqual(page, ip.supremum(), kSupremumText, ip.is_compact() ? 8 : 9)) {
    return Status::CorruptionAt(ip.supremum(), "supremum record is damaged");
  }
  return ip;
}

bool IndexPage::is_root() const {
  FilHeader fil(p_);
  return fil.prev() == kNullPage && fil.next() == kNullPage && !seg_leaf().is_zero() && !seg_top().is_zero();
}

PageSpace IndexPage::Space() const {
  PageSpace s;
  const std::size_t size = p_.size();
  const std::size_t heap_used = heap_top() - supremum_end();  // Open() guarantees >= 0
  s.garbage_bytes = garbage();
  s.data_size = heap_used >= s.garbage_bytes ? heap_used - s.garbage_bytes : 0;
  s.free_bytes = s.garbage_bytes + (size - 8 - 2 * n_dir_slots() - heap_top());
  s.used_bytes = size > s.free_bytes ? size - s.free_bytes : 0;
  const std::size_t free_of_empty = size - supremum_end() - 8 - 2 * kDirSlotSize;
  const std::size_t reserved_dir = (kDirSlotSize * (1 + n_recs()) + kDirSlotMinOwned - 1) / kDirSlotMinOwned;
  const std::size_t occupied = s.data_size + reserved_dir;
  s.max_insert_after_reorganize = occupied < free_of_empty ? free_of_empty - occupied : 0;
  return s;
}

Status IndexPage::CheckStructure() const {
  // The chain, in order, with the infimum first and the supremum last, and each record's
  // n_owned. Buffers are per thread: this runs once per page on every core during a check.
  thread_local std::vector<std::size_t> chain;
  thread_local std::vector<std::uint8_t> owned;
  std::bitset<8192> heap_seen;  // heap numbers have 13 bits
  chain.assign(1, infimum());
  owned.assign(1, 1);
  RecordWalker w(*this);
  while (w.Next()) {
    const RecordHeader& h = w.header();
    if (h.heap_no < 2 || h.heap_no >= n_heap()) {
      return Status::CorruptionAt(w.origin() - extra_bytes() + 1, "record at " + std::to_string(w.origin()) +
                                                                      " has heap number " + std::to_string(h.heap_no) +
                                                                      ", heap holds " + std::to_string(n_heap()));
    }
    if (heap_seen[h.heap_no]) {
      return Status::CorruptionAt(w.origin(), "heap number " + std::to_string(h.heap_no) + " appears twice");
    }
    heap_seen[h.heap_no] = true;
    if (is_compact()) {
      RecordStatus want = is_leaf() ? RecordStatus::kOrdinary : RecordStatus::kNodePointer;
      if (h.status != want && !(is_leaf() && h.status == RecordStatus::kInstant)) {
        return Status::CorruptionAt(w.origin() - 3, "record at " + std::to_string(w.origin()) + " has status " +
                                                        ToString(h.status) + " on a level-" + std::to_string(level()) +
                                                        " page");
      }
    }
    chain.push_back(w.origin());
    owned.push_back(h.n_owned);
  }
  STRATA_RETURN_IF_ERROR(w.status());
  if (chain.size() - 1 != n_recs()) {
    return Status::CorruptionAt(
        kNRecs, "header says " + std::to_string(n_recs()) + " records, chain has " + std::to_string(chain.size() - 1));
  }
  chain.push_back(supremum());
  {
    auto sup = HeaderAt(supremum());
    STRATA_RETURN_IF_ERROR(sup.status());
    owned.push_back(sup->n_owned);
  }

  // Directory: slots point at chain members in order; each owner's n_owned counts its group.
  const std::size_t slots = n_dir_slots();
  if (dir_slot(0) != infimum()) {
    return Status::CorruptionAt(DirSlotOffset(p_.size(), 0), "first directory slot does not point at the infimum");
  }
  if (dir_slot(slots - 1) != supremum()) {
    return Status::CorruptionAt(DirSlotOffset(p_.size(), slots - 1),
                                "last directory slot does not point at the supremum");
  }
  std::size_t pos = 0;  // chain index of the previous slot's owner
  for (std::size_t i = 0; i < slots; ++i) {
    const std::size_t target = dir_slot(i);
    const std::size_t slot_at = DirSlotOffset(p_.size(), i);
    std::size_t j = i == 0 ? 0 : pos + 1;
    while (j < chain.size() && chain[j] != target) {
      if (owned[j] != 0) {
        return Status::CorruptionAt(chain[j] - extra_bytes(),
                                    "record at " + std::to_string(chain[j]) + " owns records but no slot points at it");
      }
      ++j;
    }
    if (j == chain.size()) {
      return Status::CorruptionAt(slot_at, "directory slot " + std::to_string(i) + " points at " +
                                               std::to_string(target) + ", not a record in chain order");
    }
    const std::size_t group = i == 0 ? 1 : j - pos;
    if (owned[j] != group) {
      return Status::CorruptionAt(target - extra_bytes(), "slot " + std::to_string(i) + " owner at " +
                                                              std::to_string(target) + " says it owns " +
                                                              std::to_string(owned[j]) + ", group has " +
                                                              std::to_string(group));
    }
    if (i > 0 && i + 1 < slots && group < kDirSlotMinOwned) {
      return Status::CorruptionAt(
          slot_at, "slot " + std::to_string(i) + " owns " + std::to_string(group) + " records, fewer than 4");
    }
    if (group > kDirSlotMaxOwned) {
      return Status::CorruptionAt(
          slot_at, "slot " + std::to_string(i) + " owns " + std::to_string(group) + " records, more than 8");
    }
    pos = j;
  }
  return Status::Ok();
}

RecordWalker::RecordWalker(const IndexPage& page, bool from_free_list)
    : page_(page), free_list_(from_free_list), origin_(page.infimum()) {
  if (free_list_) return;
  auto h = page_.HeaderAt(origin_);
  if (!h.ok()) {
    status_ = h.status();
    done_ = true;
  } else {
    header_ = *h;
  }
}

bool RecordWalker::Fail(std::size_t offset, const std::string& what) {
  status_ = Status::CorruptionAt(offset, what);
  done_ = true;
  return false;
}

bool RecordWalker::Next() {
  if (done_) return false;
  const std::size_t size = page_.page().size();
  const bool compact = page_.is_compact();
  std::size_t next;
  std::size_t pointer_at;  // where the pointer we follow is stored
  if (free_list_ && steps_ == 0) {
    next = page_.free_list();
    pointer_at = IndexPage::kFree;
    if (next == 0) return done_ = true, false;
  } else {
    next = header_.NextOrigin(origin_, compact, size);
    pointer_at = origin_ - 2;
    if (next == 0) {
      if (free_list_) return done_ = true, false;
      return Fail(pointer_at, "record chain ends at " + std::to_string(origin_) + " before the supremum");
    }
  }
  if (!free_list_ && next == page_.supremum()) return done_ = true, false;
  const std::size_t lo = page_.supremum_end() + page_.extra_bytes();
  if (next < lo || next > page_.heap_top()) {
    return Fail(pointer_at, "record pointer at " + std::to_string(pointer_at) + " leads to " + std::to_string(next) +
                                ", outside the heap " + Range(lo, page_.heap_top() + 1));
  }
  // More steps than heap records means the chain loops.
  if (++steps_ > page_.n_heap()) {
    return Fail(pointer_at,
                "record chain has more records than the heap's " + std::to_string(page_.n_heap()) + " (a loop?)");
  }
  if (!RecordHeader::TryDecode(page_.page(), next, compact, &header_)) {
    status_ = page_.HeaderAt(next).status();
    done_ = true;
    return false;
  }
  origin_ = next;
  return true;
}

IndexPageWriter::IndexPageWriter(MutableBytes page) : p_(page) { assert(PageSize::IsValid(page.size())); }

void IndexPageWriter::InitEmpty(bool compact, std::uint64_t index_id, std::uint16_t level, PageType type) {
  const std::size_t size = p_.size();
  std::fill(p_.begin() + kFilHeaderSize, p_.end() - kFilTrailerSize, std::byte{0});
  Store16(p_, FilHeader::kType, static_cast<std::uint16_t>(type));
  Store16(p_, IndexPage::kNDirSlots, 2);
  Store16(p_, IndexPage::kHeapTop, compact ? kCompactSupremumEnd : kRedundantSupremumEnd);
  Store16(p_, IndexPage::kNHeap, compact ? 0x8002 : 2);
  Store16(p_, IndexPage::kDirection, static_cast<std::uint16_t>(PageDirection::kNoDirection));
  Store16(p_, IndexPage::kLevel, level);
  Store64(p_, IndexPage::kIndexId, index_id);

  const std::size_t inf = compact ? kCompactInfimum : kRedundantInfimum;
  const std::size_t sup = compact ? kCompactSupremum : kRedundantSupremum;
  RecordHeader infimum{.n_owned = 1,
                       .heap_no = 0,
                       .status = RecordStatus::kInfimum,
                       .n_fields = 1,
                       .short_offsets = true,
                       .next = RecordHeader::NextField(inf, sup, compact)};
  RecordHeader supremum{
      .n_owned = 1, .heap_no = 1, .status = RecordStatus::kSupremum, .n_fields = 1, .short_offsets = true, .next = 0};
  infimum.EncodeTo(p_, inf, compact);
  supremum.EncodeTo(p_, sup, compact);
  std::memcpy(p_.data() + inf, kInfimumText, 8);
  std::memcpy(p_.data() + sup, kSupremumText, compact ? 8 : 9);
  if (!compact) {
    Store8(p_, inf - kRedundantExtraBytes - 1, 8);  // field end offsets of the one field
    Store8(p_, sup - kRedundantExtraBytes - 1, 9);
  }
  Store16(p_, IndexPage::DirSlotOffset(size, 0), static_cast<std::uint16_t>(inf));
  Store16(p_, IndexPage::DirSlotOffset(size, 1), static_cast<std::uint16_t>(sup));
  last_ = inf;
}

std::size_t IndexPageWriter::FreeSpace() const {
  const std::size_t heap_top = Load16(p_, IndexPage::kHeapTop);
  const std::size_t n_recs = Load16(p_, IndexPage::kNRecs);
  const std::size_t dir = 2 * (2 + (n_recs + 1 + kDirSlotMinOwned - 1) / kDirSlotMinOwned);
  const std::size_t end = p_.size() - 8 - dir;
  return end > heap_top ? end - heap_top : 0;
}

std::size_t IndexPageWriter::Append(ConstBytes record, std::size_t extra_size, std::uint8_t info_bits,
                                    std::uint16_t n_fields_redundant, bool short_offsets) {
  const bool compact = Load16(p_, IndexPage::kNHeap) & 0x8000;
  assert(extra_size >= (compact ? kCompactExtraBytes : kRedundantExtraBytes) && extra_size < record.size());
  if (last_ == 0) {  // writer opened on an existing page: find the last record
    auto page = IndexPage::Open(p_);
    assert(page.ok());
    RecordWalker w(*page);
    last_ = page->infimum();
    while (w.Next()) last_ = w.origin();
  }
  if (record.size() > FreeSpace()) return 0;
  const std::size_t heap_top = Load16(p_, IndexPage::kHeapTop);
  const std::uint16_t n_heap = Load16(p_, IndexPage::kNHeap) & 0x7FFF;
  const std::size_t origin = heap_top + extra_size;
  const std::size_t sup = compact ? kCompactSupremum : kRedundantSupremum;
  std::memcpy(p_.data() + heap_top, record.data(), record.size());

  RecordHeader h{.info_bits = info_bits,
                 .n_owned = 0,
                 .heap_no = n_heap,
                 .status = Load16(p_, IndexPage::kLevel) ? RecordStatus::kNodePointer : RecordStatus::kOrdinary,
                 .n_fields = n_fields_redundant,
                 .short_offsets = short_offsets,
                 .next = RecordHeader::NextField(origin, sup, compact)};
  h.EncodeTo(p_, origin, compact);
  // Link the previous last record to this one.
  Store16(p_, last_ - 2, RecordHeader::NextField(last_, origin, compact));
  last_ = origin;

  Store16(p_, IndexPage::kHeapTop, static_cast<std::uint16_t>(heap_top + record.size()));
  Store16(p_, IndexPage::kNHeap, static_cast<std::uint16_t>((compact ? 0x8000 : 0) | (n_heap + 1)));
  Store16(p_, IndexPage::kNRecs, static_cast<std::uint16_t>(Load16(p_, IndexPage::kNRecs) + 1));
  Store16(p_, IndexPage::kLastInsert, static_cast<std::uint16_t>(origin));
  Store16(p_, IndexPage::kDirection, static_cast<std::uint16_t>(PageDirection::kRight));
  Store16(p_, IndexPage::kNDirection, static_cast<std::uint16_t>(Load16(p_, IndexPage::kNDirection) + 1));
  return origin;
}

void IndexPageWriter::FinishDirectory() {
  auto page = IndexPage::Open(p_);
  assert(page.ok());
  const std::size_t extra = page->extra_bytes();
  std::vector<std::size_t> records;
  RecordWalker w(*page);
  while (w.Next()) records.push_back(w.origin());
  assert(w.status().ok());

  auto set_owned = [&](std::size_t origin, unsigned n) {
    std::size_t at = origin - extra;
    Store8(p_, at, static_cast<std::uint8_t>((Load8(p_, at) & 0xF0) | n));
  };
  std::vector<std::size_t> owners{page->infimum()};
  set_owned(page->infimum(), 1);
  std::size_t in_group = 0;
  for (std::size_t i = 0; i < records.size(); ++i) {
    set_owned(records[i], 0);
    // Close a group of 4, unless the records left would leave the supremum's group over 8.
    if (++in_group == kDirSlotMinOwned && records.size() - (i + 1) >= 1) {
      set_owned(records[i], kDirSlotMinOwned);
      owners.push_back(records[i]);
      in_group = 0;
    }
  }
  set_owned(page->supremum(), static_cast<unsigned>(in_group + 1));
  owners.push_back(page->supremum());
  for (std::size_t i = 0; i < owners.size(); ++i) {
    Store16(p_, IndexPage::DirSlotOffset(p_.size(), i), static_cast<std::uint16_t>(owners[i]));
  }
  Store16(p_, IndexPage::kNDirSlots, static_cast<std::uint16_t>(owners.size()));
}

}  // namespace strata::ondisk
