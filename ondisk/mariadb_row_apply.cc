#include "ondisk/mariadb_row_apply.h"

#include <algorithm>
#include <cstring>

namespace strata::ondisk {

namespace {

// PAGE_HEADER fields (offsets from 38) and the fixed records of a COMPACT page.
constexpr std::size_t kHdr = 38;
constexpr std::size_t kNDirSlots = kHdr + 0, kHeapTop = kHdr + 2, kNHeap = kHdr + 4, kFree = kHdr + 6,
                      kGarbage = kHdr + 8, kLastInsert = kHdr + 10, kDirection = kHdr + 13, kNDirection = kHdr + 14,
                      kNRecs = kHdr + 16, kLevel = kHdr + 26;
constexpr std::size_t kInfimum = 99, kSupremum = 112, kHeapBottom = 120, kExtra = 5;
constexpr unsigned kMinOwned = 4, kMaxOwned = 8;
constexpr unsigned kLeft = 1, kRight = 2, kNoDirection = 5;

class Page {
 public:
  explicit Page(MutableBytes p) : p_(p), size_(p.size()) {}
  std::size_t size() const { return size_; }
  std::uint16_t Get(std::size_t o) const { return Load16(p_, o); }
  void Set(std::size_t o, std::size_t v) { Store16(p_, o, static_cast<std::uint16_t>(v)); }
  std::byte* At(std::size_t o) { return p_.data() + o; }

  std::size_t Slot(std::size_t i) const { return size_ - 10 - 2 * i; }  // the address of slot i
  std::size_t NSlots() const { return Get(kNDirSlots); }
  std::size_t Next(std::size_t origin) const { return static_cast<std::uint16_t>(origin + Get(origin - 2)); }
  unsigned Owned(std::size_t origin) const { return Load8(p_, origin - kExtra) & 0x0F; }
  void SetOwned(std::size_t origin, unsigned n) {
    Store8(p_, origin - kExtra, static_cast<std::uint8_t>((Load8(p_, origin - kExtra) & 0xF0) | n));
  }
  std::size_t HeapNo(std::size_t origin) const { return Get(origin - 4) >> 3; }
  bool IsIndex() const {
    const std::uint16_t t = Get(24);
    return t == 17855 || t == 17854;  // INDEX, RTREE
  }
  bool InHeap(std::size_t origin) const { return origin >= kHeapBottom + kExtra && origin <= Get(kHeapTop); }
  // A record origin a directory slot may hold: infimum, supremum or one in the heap.
  bool Owner(std::size_t origin) const { return origin == kInfimum || origin == kSupremum || InHeap(origin); }

 private:
  MutableBytes p_;
  std::size_t size_;
};

// Slot at `slot` owns 9 records: a new slot takes the first four of them.
bool SplitSlot(Page& pg, std::size_t slot) {
  std::size_t rec = pg.Get(slot + 2);  // the owner of the slot before: the first record is after it
  for (unsigned i = 0; i < (kMaxOwned + 1) / 2; ++i) {
    if (!pg.Owner(rec)) return false;
    rec = pg.Next(rec);
  }
  if (!pg.InHeap(rec) || !pg.Owner(pg.Get(slot))) return false;
  const std::size_t n = pg.NSlots();
  const std::size_t new_last = pg.Slot(n);
  if (slot < new_last) return false;
  std::memmove(pg.At(new_last), pg.At(new_last + 2), slot - new_last);
  pg.Set(kNDirSlots, n + 1);
  pg.Set(slot, rec);
  pg.SetOwned(rec, (kMaxOwned + 1) / 2);
  pg.SetOwned(pg.Get(slot - 2), kMaxOwned + 1 - (kMaxOwned + 1) / 2);
  return true;
}

// Slot number `s` owns 3 records: merged with the next slot, or given one of its records.
void BalanceSlot(Page& pg, std::size_t s) {
  const std::size_t n = pg.NSlots();
  if (s + 1 >= n) return;  // the supremum's slot may own fewer
  const std::size_t slot = pg.Slot(s);
  const std::size_t up = pg.Get(slot - 2), own = pg.Get(slot);
  if (!pg.Owner(up) || !pg.Owner(own)) return;
  const unsigned up_owned = pg.Owned(up);
  if (up_owned <= kMinOwned) {
    pg.SetOwned(own, 0);
    pg.SetOwned(up, up_owned + kMinOwned - 1);
    const std::size_t last = pg.Slot(n - 1);
    std::memmove(pg.At(last + 2), pg.At(last), slot - last);
    pg.Set(last, 0);
    pg.Set(kNDirSlots, n - 1);
    return;
  }
  const std::size_t moved = pg.Next(own);
  if (!pg.InHeap(moved)) return;
  pg.SetOwned(own, 0);
  pg.SetOwned(moved, kMinOwned);
  pg.SetOwned(up, up_owned - 1);
  pg.Set(slot, moved);
}

// A deleted record's space: the top of the heap given back, or the record put on the free list.
void FreeRecord(Page& pg, std::size_t rec, std::size_t data_size, std::size_t extra_size) {
  const std::size_t free = pg.Get(kFree);
  const std::size_t n_heap = static_cast<std::uint16_t>(pg.Get(kNHeap) - 1);
  const bool top = n_heap == (pg.HeapNo(rec) | 0x8000);
  if (top) {
    const std::size_t savings = pg.Get(kHeapTop) - (rec + data_size);
    pg.Set(kHeapTop, rec - extra_size);
    pg.Set(kNHeap, n_heap);
    if (savings) pg.Set(kGarbage, pg.Get(kGarbage) - savings);
  } else {
    pg.Set(kFree, rec);
    pg.Set(kGarbage, pg.Get(kGarbage) + extra_size + data_size);
  }
  pg.Set(kLastInsert, 0);
  pg.Set(kNRecs, pg.Get(kNRecs) - 1);
  const std::size_t end = rec + data_size;
  std::size_t from = rec;
  if (!top) {
    pg.Set(rec - 2, free ? static_cast<std::uint16_t>(free - rec) : 0);
  } else {
    from = rec - extra_size;
  }
  std::memset(pg.At(from), 0, end - from);
}

}  // namespace

bool ApplyMariaInsert(MutableBytes bytes, const MariaInsert& in) {
  Page pg(bytes);
  const std::size_t size = pg.size();
  const std::size_t n_slots = pg.NSlots();
  std::size_t h = pg.Get(kNHeap);
  const bool leaf = pg.Get(kLevel) == 0;
  const std::size_t logged_hdr = in.enc_hdr >> 3;
  if (n_slots < 2 || h < (0x8000 | 2) || (h & 0x7FFF) >= size / kExtra || (h & 0x7FFF) < n_slots || !pg.IsIndex() ||
      pg.Get(kSupremum - 2) != 0 || ((in.enc_hdr & 4) && !leaf) || logged_hdr > in.bytes.size()) {
    return false;
  }
  const std::size_t last_slot = pg.Slot(n_slots - 1);
  const std::size_t heap_top = pg.Get(kHeapTop);
  if (heap_top < kHeapBottom || heap_top > last_slot || pg.Get(last_slot) != kSupremum ||
      pg.Get(pg.Slot(0)) != kInfimum)
    return false;
  const std::size_t prev_rec = kInfimum + in.prev;
  if (prev_rec >= size) return false;
  if (in.prev && !pg.InHeap(prev_rec)) return false;
  const std::size_t next_rec = pg.Next(prev_rec);
  if (next_rec != kSupremum && !pg.InHeap(next_rec)) return false;
  // The record that owns the slot the new one joins.
  std::size_t owner = next_rec;
  unsigned owned = 0;
  for (unsigned steps = 0; !(owned = pg.Owned(owner)); ++steps) {
    owner = pg.Next(owner);
    if ((owner != kSupremum && !pg.InHeap(owner)) || steps > kMaxOwned) return false;
  }
  if (owned > kMaxOwned) return false;
  std::size_t owner_slot = last_slot;
  while (pg.Get(owner_slot) != owner) {
    owner_slot += 2;
    if (owner_slot >= pg.Slot(0)) return false;
  }
  const std::size_t extra_size = kExtra + in.hdr_copied + logged_hdr;
  const std::size_t data_size = in.data_copied + in.bytes.size() - logged_hdr;
  if (prev_rec < kExtra + in.hdr_copied || prev_rec + in.data_copied > size) return false;

  std::size_t buf;
  if (in.reuse) {
    const std::size_t free_rec = pg.Get(kFree);
    if (!pg.InHeap(free_rec) || free_rec < extra_size) return false;
    buf = free_rec - extra_size;
    if (in.shift & 1) {
      if (buf < (in.shift >> 1)) return false;
      buf -= in.shift >> 1;
    } else {
      buf += in.shift >> 1;
    }
    if (buf < kHeapBottom || buf + extra_size + data_size > heap_top) return false;
    if (pg.Get(kGarbage) < extra_size + data_size) return false;
    std::size_t next_free = pg.Get(free_rec - 2);
    if (next_free) {
      next_free = static_cast<std::uint16_t>(next_free + free_rec);
      if (next_free < kHeapBottom + kExtra || next_free > heap_top) return false;
    }
    pg.Set(kFree, next_free);
    pg.Set(kGarbage, pg.Get(kGarbage) - (extra_size + data_size));
    h = pg.HeapNo(free_rec);
  } else {
    if (heap_top + extra_size + data_size > last_slot) return false;
    pg.Set(kNHeap, h + 1);
    h &= 0x7FFF;
    pg.Set(kHeapTop, heap_top + extra_size + data_size);
    buf = heap_top;
  }
  // The header: logged bytes, bytes shared with the predecessor, then the fixed five.
  std::memcpy(pg.At(buf), in.bytes.data(), logged_hdr);
  buf += logged_hdr;
  std::memmove(pg.At(buf), pg.At(prev_rec - kExtra - in.hdr_copied), in.hdr_copied);
  buf += in.hdr_copied;
  *pg.At(buf++) = std::byte(static_cast<unsigned>((in.enc_hdr & 3) << 4));  // info bits, n_owned 0
  *pg.At(buf++) = std::byte(static_cast<unsigned>(h >> 5));
  const unsigned status = leaf ? (in.enc_hdr & 4) : 1;  // ordinary or instant; node pointer
  *pg.At(buf++) = std::byte(static_cast<unsigned>(((h & 31) << 3) | status));
  buf += 2;
  const std::size_t origin = buf;
  pg.Set(origin - 2, static_cast<std::uint16_t>(next_rec - origin));
  const std::size_t last_insert = pg.Get(kLastInsert);
  pg.Set(kLastInsert, origin);
  pg.Set(prev_rec - 2, static_cast<std::uint16_t>(origin - prev_rec));
  std::memmove(pg.At(origin), pg.At(prev_rec), in.data_copied);
  std::memcpy(pg.At(origin + in.data_copied), in.bytes.data() + logged_hdr, in.bytes.size() - logged_hdr);
  pg.SetOwned(owner, owned + 1);

  if (pg.Get(24) != 17854) {  // R-trees keep no insert direction
    std::byte& dir = *pg.At(kDirection);
    const unsigned d = std::to_integer<unsigned>(dir) & 7;
    auto set_dir = [&](unsigned v) { dir = std::byte((std::to_integer<unsigned>(dir) & ~7u) | v); };
    if (last_insert && last_insert == prev_rec && d != kLeft) {
      set_dir(kRight);
      pg.Set(kNDirection, pg.Get(kNDirection) + 1);
    } else if (last_insert && last_insert == next_rec && d != kRight) {
      set_dir(kLeft);
      pg.Set(kNDirection, pg.Get(kNDirection) + 1);
    } else {
      set_dir(kNoDirection);
      pg.Set(kNDirection, 0);
    }
  }
  pg.Set(kNRecs, pg.Get(kNRecs) + 1);
  return owned == kMaxOwned ? SplitSlot(pg, owner_slot) : true;
}

bool ApplyMariaDelete(MutableBytes bytes, std::size_t prev, std::size_t hdr_size, std::size_t data_size) {
  Page pg(bytes);
  const std::size_t n_slots = pg.NSlots();
  const std::size_t n_recs = pg.Get(kNRecs);
  if (!n_recs || n_slots < 2 || !pg.IsIndex() || pg.Get(kSupremum - 2) != 0 || !(pg.Get(kNHeap) & 0x8000)) return false;
  std::size_t slot = pg.Slot(n_slots - 1);
  const std::size_t prev_rec = kInfimum + prev;
  if (prev_rec > slot) return false;
  const std::size_t rec = pg.Next(prev_rec);
  const std::size_t extra_size = kExtra + hdr_size;
  if (rec < kHeapBottom + extra_size || rec + data_size > slot) return false;
  const std::size_t next = pg.Next(rec);
  if (next != kSupremum && (next < kHeapBottom + kExtra || next > slot)) return false;
  std::size_t owner = rec;
  unsigned owned = 0;
  for (std::size_t steps = 0; !(owned = pg.Owned(owner)); ++steps) {
    const std::uint16_t step = pg.Get(owner - 2);
    if (step < kExtra || step > static_cast<std::uint16_t>(-kExtra) || steps > n_recs) return false;
    owner = pg.Next(owner);
    if (owner != kSupremum && (owner < kHeapBottom + kExtra || owner > slot)) return false;
  }
  --owned;
  const std::size_t first_slot = pg.Slot(0);
  while (pg.Get(slot) != owner) {
    slot += 2;
    if (slot >= first_slot) return false;
  }
  if (rec == owner) {
    owner = prev_rec;
    pg.Set(slot, owner);
  }
  pg.Set(prev_rec - 2, static_cast<std::uint16_t>(next - prev_rec));
  pg.SetOwned(owner, owned);
  FreeRecord(pg, rec, data_size, extra_size);
  if (owned < kMinOwned) BalanceSlot(pg, (first_slot - slot) / 2);
  return true;
}

}  // namespace strata::ondisk
