#include "engine/btr_page.h"

#include <algorithm>
#include <cassert>
#include <cstring>

namespace strata::engine {

using namespace strata::ondisk;

namespace {
constexpr std::size_t kExtra = kCompactExtraBytes;
std::size_t ReservedDir(std::size_t n_recs) {
  return (kDirSlotSize * n_recs + kDirSlotMinOwned - 1) / kDirSlotMinOwned;
}
}  // namespace

void BtrPage::Init(MutableBytes page, std::uint64_t index_id, std::uint16_t level, PageType type) {
  IndexPageWriter(page).InitEmpty(true, index_id, level, type);
}

std::size_t BtrPage::Next(std::size_t origin) const {
  if (origin == kSupremum) return 0;
  const auto rel = static_cast<std::int16_t>(Load16(p_, origin - kCompactNextBefore));
  return (origin + static_cast<std::size_t>(static_cast<std::ptrdiff_t>(rel))) & (p_.size() - 1);
}

void BtrPage::set_next(std::size_t origin, std::size_t next) {
  Store16(p_, origin - kCompactNextBefore, RecordHeader::NextField(origin, next, true));
}

void BtrPage::set_n_owned(std::size_t origin, unsigned n) {
  assert(n < 16);
  auto b = std::to_integer<std::uint8_t>(p_[origin - 5]);
  p_[origin - 5] = std::byte(static_cast<std::uint8_t>((b & 0xF0) | n));
}

void BtrPage::set_info_bits(std::size_t origin, std::uint8_t bits) {
  auto b = std::to_integer<std::uint8_t>(p_[origin - 5]);
  p_[origin - 5] = std::byte(static_cast<std::uint8_t>((b & 0x0F) | (bits & 0xF0)));
}

std::size_t BtrPage::OwnerOf(std::size_t origin) const {
  while (n_owned(origin) == 0) origin = Next(origin);
  return origin;
}

std::size_t BtrPage::SlotOf(std::size_t owner) const {
  for (std::size_t i = n_slots(); i-- > 0;) {
    if (slot(i) == owner) return i;
  }
  assert(false && "record owns no directory slot");
  return 0;
}

std::size_t BtrPage::Prev(std::size_t origin) const {
  if (origin == kInfimum) return 0;
  const std::size_t s = SlotOf(OwnerOf(origin));
  assert(s > 0);
  std::size_t r = slot(s - 1);
  while (Next(r) != origin) r = Next(r);
  return r;
}

std::size_t BtrPage::Nth(std::size_t n) const {
  std::size_t r = kInfimum;
  for (std::size_t i = 0; i < n && r != kSupremum; ++i) r = Next(r);
  return r;
}

BtrPage::BtrPage(MutableBytes page, const RecordLayout& layout) : p_(page), layout_(&layout) {
  std::size_t nullable = 0;
  for (const auto& f : layout.fields) nullable += f.nullable;
  null_bytes_ = (layout.null_bitmap_bits.value_or(nullable) + 7) / 8;
}

BtrPage::RecordShape BtrPage::ShapeOf(std::size_t origin) const {
  if (!layout_->versions) return {layout_, origin - kExtra, null_bytes_};
  const auto& versions = *layout_->versions;
  std::size_t top = origin - kExtra;
  std::uint8_t v = 0;
  if (info_bits(origin) & kInfoVersion) v = std::to_integer<std::uint8_t>(p_[--top]);
  const RecordLayout* l = &versions[v < versions.size() ? v : 0];  // btree_check reports a bad version
  return {l, top, (*l->null_bitmap_bits + 7) / 8};
}

std::uint8_t BtrPage::RowVersion(std::size_t origin) const {
  return info_bits(origin) & kInfoVersion ? std::to_integer<std::uint8_t>(p_[origin - kExtra - 1]) : 0;
}

void BtrPage::DecodePrefix(std::size_t origin, std::size_t n, FieldSlice* out) const {
  const auto* p = reinterpret_cast<const std::uint8_t*>(p_.data());
  const RecordShape shape = ShapeOf(origin);
  const std::size_t nulls_top = shape.nulls_top;  // bitmap byte k is at nulls_top - 1 - k
  std::size_t at = nulls_top - shape.null_bytes;  // lengths grow down from here
  std::size_t data = origin;
  std::size_t nullable = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const FieldDef& f = shape.layout->fields[i];
    FieldSlice& s = out[i];
    s = FieldSlice{};
    s.offset = data;
    if (f.absent) {
      s.missing = true;
      continue;
    }
    if (f.nullable) {
      const std::size_t k = nullable++;
      if ((p[nulls_top - 1 - k / 8] >> (k % 8)) & 1) {
        s.is_null = true;
        continue;
      }
    }
    if (!f.is_variable()) {
      s.length = f.fixed_length;
    } else {
      const std::uint8_t b0 = p[--at];
      if (f.big() && (b0 & 0x80)) {
        s.length = (std::size_t{b0 & 0x3Fu} << 8) | p[--at];
        s.external = b0 & 0x40;
      } else {
        s.length = b0;
      }
    }
    data += s.length;
  }
}

std::vector<FieldSlice> BtrPage::Fields(std::size_t origin) const {
  std::vector<FieldSlice> out(layout_->fields.size());
  DecodePrefix(origin, out.size(), out.data());
  return out;
}

std::pair<std::size_t, std::size_t> BtrPage::Bounds(std::size_t origin) const {
  const auto fields = Fields(origin);
  const RecordShape shape = ShapeOf(origin);
  std::size_t start = shape.nulls_top - shape.null_bytes;
  std::size_t end = origin;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    const FieldDef& def = shape.layout->fields[i];
    if (fields[i].is_null || fields[i].missing) continue;
    end = std::max(end, fields[i].offset + fields[i].length);
    if (def.is_variable()) start -= def.big() && (fields[i].length >= 128 || fields[i].external) ? 2 : 1;
  }
  return {start, end};
}

RawRecord BtrPage::Raw(std::size_t origin) const {
  auto [s, e] = Bounds(origin);
  RawRecord r;
  r.bytes.assign(p_.begin() + static_cast<std::ptrdiff_t>(s), p_.begin() + static_cast<std::ptrdiff_t>(e));
  r.extra_size = origin - s;
  r.info_bits = info_bits(origin);
  return r;
}

std::vector<RawRecord> BtrPage::Records() const {
  std::vector<RawRecord> out;
  out.reserve(n_recs());
  for (std::size_t r = First(); r != kSupremum; r = Next(r)) out.push_back(Raw(r));
  return out;
}

int BtrPage::Compare(std::size_t origin, const Tuple& key, std::size_t n_fields,
                     const std::vector<CompareKind>& kinds) const {
  if (info_bits(origin) & kInfoMinRec) return -1;
  const std::size_t n = std::min({n_fields, key.size(), layout_->fields.size()});
  thread_local std::vector<FieldSlice> fields;
  if (fields.size() < n) fields.resize(n);
  DecodePrefix(origin, n, fields.data());
  for (std::size_t i = 0; i < n; ++i) {
    const FieldSlice& f = fields[i];
    int c = CompareField(kinds[i], f.is_null, FieldBytes(f), key[i].null, key[i].span());
    if (c != 0) return c;
  }
  return 0;
}

// Binary search over the directory's owners, then a walk within the group (at most 8 steps).
std::size_t BtrPage::Search(const Tuple& key, std::size_t n_fields, const std::vector<CompareKind>& kinds,
                            bool strict) const {
  auto before = [&](std::size_t r) {
    if (r == kInfimum) return true;
    if (r == kSupremum) return false;
    const int c = Compare(r, key, n_fields, kinds);
    return strict ? c < 0 : c <= 0;
  };
  std::size_t lo = 0, hi = n_slots() - 1;  // slot lo satisfies, slot hi does not
  while (hi - lo > 1) {
    const std::size_t mid = (lo + hi) / 2;
    (before(slot(mid)) ? lo : hi) = mid;
  }
  std::size_t r = slot(lo);
  while (before(Next(r))) r = Next(r);
  return r;
}

std::size_t BtrPage::MaxInsertSize(std::size_t n_new) const {
  const std::size_t occupied = heap_top() - kCompactSupremumEnd + ReservedDir(n_new + n_heap() - 2);
  const std::size_t free = FreeSpaceOfEmpty(p_.size());
  return occupied < free ? free - occupied : 0;
}

std::size_t BtrPage::MaxInsertSizeAfterReorganize(std::size_t n_new) const {
  const std::size_t occupied = DataSize() + ReservedDir(n_new + n_recs());
  const std::size_t free = FreeSpaceOfEmpty(p_.size());
  return occupied < free ? free - occupied : 0;
}

// Directory slot i owns 9 records: a new slot before it takes the first 4.
void BtrPage::SplitSlot(std::size_t i) {
  const std::size_t n = n_slots();
  const std::size_t owner = slot(i);
  const unsigned owned = n_owned(owner);
  std::size_t r = slot(i - 1);
  for (unsigned k = 0; k < owned / 2; ++k) r = Next(r);
  // Slots i..n-1 move one place down the page to make room for the new slot i.
  std::memmove(p_.data() + SlotOffset(n), p_.data() + SlotOffset(n - 1), 2 * (n - i));
  Store16(p_, IndexPage::kNDirSlots, static_cast<std::uint16_t>(n + 1));
  set_slot(i, r);
  set_n_owned(r, owned / 2);
  set_n_owned(owner, owned - owned / 2);
}

// Slot i owns fewer than 4 records: take one from the next slot, or merge into it.
void BtrPage::BalanceSlot(std::size_t i) {
  const std::size_t n = n_slots();
  if (i == 0 || i + 1 >= n) return;  // the infimum's slot owns 1; the supremum's may own fewer than 4
  const std::size_t owner = slot(i);
  const unsigned owned = n_owned(owner);
  if (owned >= kDirSlotMinOwned) return;
  const std::size_t up_owner = slot(i + 1);
  const unsigned up_owned = n_owned(up_owner);
  if (up_owned > kDirSlotMinOwned) {
    const std::size_t moved = Next(owner);
    set_n_owned(owner, 0);
    set_n_owned(moved, owned + 1);
    set_slot(i, moved);
    set_n_owned(up_owner, up_owned - 1);
  } else {
    set_n_owned(owner, 0);
    set_n_owned(up_owner, up_owned + owned);
    // Slots i+1..n-1 move one place up the page over slot i.
    std::memmove(p_.data() + SlotOffset(n - 2), p_.data() + SlotOffset(n - 1), 2 * (n - 1 - i));
    Store16(p_, IndexPage::kNDirSlots, static_cast<std::uint16_t>(n - 1));
  }
}

std::size_t BtrPage::Place(std::size_t after, ConstBytes record, std::size_t extra_size, std::uint8_t info_bits) {
  const std::size_t size = record.size();
  std::size_t start = 0;
  std::uint16_t heap_no = 0;
  if (const std::size_t free = Load16(p_, IndexPage::kFree); free != 0 && Size(free) >= size) {
    // Reuse the first deleted record (only the first, as InnoDB does).
    start = Bounds(free).first;
    RecordHeader fh;
    RecordHeader::TryDecode(p_, free, true, &fh);
    heap_no = fh.heap_no;
    const std::size_t next_free = fh.NextOrigin(free, true, p_.size());
    Store16(p_, IndexPage::kFree, static_cast<std::uint16_t>(next_free));
    Store16(p_, IndexPage::kGarbage, static_cast<std::uint16_t>(garbage() - size));
  } else {
    if (MaxInsertSize() < size || n_heap() >= 8191) return 0;
    start = heap_top();
    heap_no = n_heap();
    Store16(p_, IndexPage::kHeapTop, static_cast<std::uint16_t>(start + size));
    Store16(p_, IndexPage::kNHeap, static_cast<std::uint16_t>(0x8000 | (heap_no + 1)));
  }
  std::memcpy(p_.data() + start, record.data(), size);
  const std::size_t origin = start + extra_size;
  RecordHeader h{.info_bits = static_cast<std::uint8_t>(info_bits & 0xF0),
                 .n_owned = 0,
                 .heap_no = heap_no,
                 .status = leaf() ? RecordStatus::kOrdinary : RecordStatus::kNodePointer};
  h.next = RecordHeader::NextField(origin, Next(after), true);
  h.EncodeTo(p_, origin, true);
  set_next(after, origin);
  Store16(p_, IndexPage::kNRecs, static_cast<std::uint16_t>(n_recs() + 1));
  const std::size_t owner = OwnerOf(origin);
  set_n_owned(owner, n_owned(owner) + 1u);
  if (n_owned(owner) > kDirSlotMaxOwned) SplitSlot(SlotOf(owner));
  return origin;
}

std::size_t BtrPage::Insert(std::size_t after, ConstBytes record, std::size_t extra_size, std::uint8_t info_bits) {
  assert(after != kSupremum && extra_size >= ondisk::kCompactExtraBytes && extra_size <= record.size());
  const std::size_t origin = Place(after, record, extra_size, info_bits);
  if (origin == 0) return 0;
  // PAGE_DIRECTION as page_cur_insert_rec_low keeps it: a run of inserts each right after the
  // previous one goes RIGHT, each right before it goes LEFT.
  const std::size_t last = Load16(p_, IndexPage::kLastInsert);
  const auto dir = static_cast<PageDirection>(Load16(p_, IndexPage::kDirection) & 7);
  const std::uint16_t n_dir = Load16(p_, IndexPage::kNDirection);
  PageDirection new_dir = PageDirection::kNoDirection;
  std::uint16_t new_n = 0;
  if (last != 0 && last == after && dir != PageDirection::kLeft) {
    new_dir = PageDirection::kRight;
    new_n = static_cast<std::uint16_t>(n_dir + 1);
  } else if (last != 0 && Next(origin) == last && dir != PageDirection::kRight) {
    new_dir = PageDirection::kLeft;
    new_n = static_cast<std::uint16_t>(n_dir + 1);
  }
  Store16(p_, IndexPage::kDirection, static_cast<std::uint16_t>(new_dir));
  Store16(p_, IndexPage::kNDirection, new_n);
  Store16(p_, IndexPage::kLastInsert, static_cast<std::uint16_t>(origin));
  return origin;
}

void BtrPage::Delete(std::size_t origin) {
  assert(origin != kInfimum && origin != kSupremum);
  const std::size_t size = Size(origin);
  const std::size_t owner = OwnerOf(origin);
  const std::size_t s = SlotOf(owner);
  std::size_t prev = slot(s - 1);
  while (Next(prev) != origin) prev = Next(prev);
  set_next(prev, Next(origin));
  if (owner == origin) {
    set_slot(s, prev);
    set_n_owned(prev, n_owned(origin) - 1u);
  } else {
    set_n_owned(owner, n_owned(owner) - 1u);
  }
  set_n_owned(origin, 0);
  set_info_bits(origin, info_bits(origin) | kInfoDeleted);
  set_next(origin, Load16(p_, IndexPage::kFree));
  Store16(p_, IndexPage::kFree, static_cast<std::uint16_t>(origin));
  Store16(p_, IndexPage::kGarbage, static_cast<std::uint16_t>(garbage() + size));
  Store16(p_, IndexPage::kNRecs, static_cast<std::uint16_t>(n_recs() - 1));
  Store16(p_, IndexPage::kLastInsert, 0);
  BalanceSlot(s);
}

template <typename List>
void BtrPage::RebuildFrom(const List& records) {
  std::byte keep[IndexPage::kSegTop + kFsegHeaderSize - IndexPage::kNDirSlots];
  std::memcpy(keep, p_.data() + IndexPage::kNDirSlots, sizeof keep);
  const std::uint16_t level = this->level();
  const auto type = static_cast<PageType>(Load16(p_, FilHeader::kType));
  Init(p_, Load64(p_, IndexPage::kIndexId), level, type);
  std::size_t last = kInfimum;
  for (const auto& r : records) {
    last = Place(last, ondisk::ConstBytes(r.bytes), r.extra_size, r.info_bits);
    assert(last != 0 && "records do not fit the page");
  }
  // Kept: direction, its count, max trx id, level, index id, segment headers.
  std::memcpy(p_.data() + IndexPage::kDirection, keep + (IndexPage::kDirection - IndexPage::kNDirSlots),
              IndexPage::kNRecs - IndexPage::kDirection);
  std::memcpy(p_.data() + IndexPage::kMaxTrxId, keep + (IndexPage::kMaxTrxId - IndexPage::kNDirSlots),
              sizeof keep - (IndexPage::kMaxTrxId - IndexPage::kNDirSlots));
  Store16(p_, IndexPage::kLastInsert, 0);
}

void BtrPage::Rebuild(const std::vector<RawRecord>& records) { RebuildFrom(records); }
void BtrPage::Rebuild(const std::vector<RecordView>& records) { RebuildFrom(records); }

}  // namespace strata::engine
