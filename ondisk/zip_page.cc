#include "ondisk/zip_page.h"

#include <libdeflate.h>
#include <zlib.h>

#include <algorithm>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "ondisk/fil_header.h"
#include "ondisk/index_page.h"
#include "ondisk/record_header.h"

namespace strata::ondisk {

namespace {

constexpr std::size_t kHeapStart = kCompactSupremumEnd;             // where the compressed heap begins (120)
constexpr std::size_t kSysColumns = kDbTrxIdSize + kDbRollPtrSize;  // 13
constexpr std::size_t kChildPageSize = 4;
constexpr std::uint16_t kDirOwned = 0x4000;
constexpr std::uint16_t kDirDeleted = 0x8000;
constexpr std::uint16_t kDirOffsetMask = 0x3FFF;

Status Bad(std::size_t offset, const std::string& what) {
  return Status::CorruptionAt(offset, "compressed page: " + what);
}

// The index as the stream's first block describes it: enough to split records, nothing more.
// Runs of NOT NULL fixed-length fields are described as one field of their summed length.
struct ZipIndex {
  RecordLayout layout;                      // leaf fields, or node-pointer fields + child page
  std::optional<std::size_t> trx_id_field;  // clustered leaves: the field DB_TRX_ID begins
};

// Decodes the field descriptions (`fields`, the first block's output). Each is one byte, or
// two when the high bit is set: bit 0 = NOT NULL; otherwise (value >> 1) is a fixed length,
// except 0/1 (variable, at most 255 bytes) and 126/127 (variable, longer). The last value is
// DB_TRX_ID's field number on leaves (0: a secondary index) and the index's nullable field
// count on node pages.
Result<ZipIndex> DecodeFields(const std::vector<std::uint8_t>& fields, bool leaf) {
  std::vector<unsigned> values;
  for (std::size_t i = 0; i < fields.size();) {
    unsigned v = fields[i++];
    if (v & 0x80) {
      if (i == fields.size()) return Bad(kPageData, "the index description ends inside a two-byte value");
      v = ((v & 0x7F) << 8) | fields[i++];
    }
    values.push_back(v);
  }
  if (values.size() < 2) return Bad(kPageData, "the index description names no field");
  const unsigned last = values.back();
  values.pop_back();
  ZipIndex zi;
  for (std::size_t i = 0; i < values.size(); ++i) {
    const unsigned v = values[i];
    const bool nullable = !(v & 1);
    std::string name = "field " + std::to_string(i);
    if (v <= 1) {
      zi.layout.fields.push_back(FieldDef::Variable(std::move(name), 255, nullable));
    } else if (v == 126 || v == 127) {
      zi.layout.fields.push_back(FieldDef::Variable(std::move(name), 65535, nullable, true));
    } else {
      zi.layout.fields.push_back(FieldDef::Fixed(std::move(name), v >> 1, nullable));
    }
  }
  if (leaf) {
    if (last != 0) {
      if (last >= zi.layout.fields.size() || zi.layout.fields[last].is_variable() ||
          zi.layout.fields[last].fixed_length < kSysColumns) {
        return Bad(kPageData, "DB_TRX_ID is said to be field " + std::to_string(last) + ", which cannot hold it");
      }
      zi.trx_id_field = last;
    }
  } else {
    if (last < zi.layout.n_nullable()) {
      return Bad(kPageData, "the index description gives fewer nullable fields than it lists");
    }
    zi.layout.null_bitmap_bits = last;
    zi.layout.fields.push_back(FieldDef::Fixed("child page", kChildPageSize));
  }
  return zi;
}

// How many header bytes below the fixed five a record of `layout` has, reading them in the
// order they go down the page through `byte_at(k)` (k = 0 is the byte just below the five).
// nullopt when byte_at runs out.
template <typename ByteAt>
std::optional<std::size_t> HeaderBytes(const RecordLayout& layout, ByteAt byte_at) {
  const std::size_t bits = layout.null_bitmap_bits.value_or(layout.n_nullable());
  std::size_t k = (bits + 7) / 8;
  std::size_t nullable_index = 0;
  for (const FieldDef& f : layout.fields) {
    if (f.nullable) {
      const std::size_t n = nullable_index++;
      const auto b = byte_at(n / 8);
      if (!b) return std::nullopt;
      if ((*b >> (n % 8)) & 1) continue;  // NULL: no length
    }
    if (!f.is_variable()) continue;
    const auto l0 = byte_at(k++);
    if (!l0) return std::nullopt;
    if (f.big() && (*l0 & 0x80)) ++k;
  }
  return k;
}

class Unpacker {
 public:
  Unpacker(ConstBytes zip, MutableBytes out) : zip_(zip), out_(out) {}

  Result<ZipPageParts> Run() {
    if (auto st = ReadHeader(); !st.ok()) return st;
    if (auto st = ReadDirectory(); !st.ok()) return st;
    WriteSystemRecords();
    if (auto st = Inflate(); !st.ok()) return st;
    if (auto st = ApplyLog(); !st.ok()) return st;
    if (auto st = LinkRecords(); !st.ok()) return st;
    if (auto st = RestoreTrailer(); !st.ok()) return st;
    return parts_;
  }

  ~Unpacker() {
    if (inflating_) inflateEnd(&z_);
  }

 private:
  std::uint16_t DirEntry(std::size_t i) const { return Load16(zip_, zip_.size() - 2 * (i + 1)); }
  std::size_t RecordOf(std::size_t heap_index) const { return recs_[heap_index]; }  // heap_no - 2
  RecordStatus status() const { return leaf_ ? RecordStatus::kOrdinary : RecordStatus::kNodePointer; }
  // Bytes kept per record below the dense directory, besides its entry.
  std::size_t SlotExtra() const { return !leaf_ ? kChildPageSize : clustered_ ? kSysColumns : 0; }

  Status ReadHeader() {
    const std::size_t z = zip_.size(), l = out_.size();
    if (z < 1024 || z > l || l < 4096 || l > 16384 || (l & (l - 1)) != 0) {
      return Status::InvalidArgument("compressed page of " + std::to_string(z) + " bytes cannot unpack to " +
                                     std::to_string(l));
    }
    std::memcpy(out_.data(), zip_.data(), kPageData);
    std::fill(out_.begin() + kPageData, out_.end(), std::byte{0});
    const std::uint16_t n_heap_field = Load16(zip_, IndexPage::kNHeap);
    if (!(n_heap_field & 0x8000)) return Bad(IndexPage::kNHeap, "PAGE_N_HEAP lacks the COMPACT flag");
    const std::size_t n_heap = n_heap_field & 0x7FFF;
    if (n_heap < 2) return Bad(IndexPage::kNHeap, "PAGE_N_HEAP " + std::to_string(n_heap) + " is below 2");
    n_dense_ = n_heap - 2;
    n_recs_ = Load16(zip_, IndexPage::kNRecs);
    leaf_ = Load16(zip_, IndexPage::kLevel) == 0;
    if (n_dense_ * 2 >= z - kPageData) {
      return Bad(IndexPage::kNHeap, std::to_string(n_dense_) + " records would not leave room for the stream");
    }
    if (n_recs_ > n_dense_) {
      return Bad(IndexPage::kNRecs, "PAGE_N_RECS " + std::to_string(n_recs_) + " exceeds the " +
                                        std::to_string(n_dense_) + " records of the heap");
    }
    const std::size_t heap_top = Load16(zip_, IndexPage::kHeapTop);
    if (heap_top < kHeapStart || heap_top > l - 10) {
      return Bad(IndexPage::kHeapTop, "PAGE_HEAP_TOP " + std::to_string(heap_top) + " is outside the logical page");
    }
    heap_top_ = heap_top;
    parts_.n_dense = n_dense_;
    return Status::Ok();
  }

  // The sparse directory of the logical page from the dense one, and every record's offset
  // in heap order (the heap is allocated upward, so heap order is address order).
  Status ReadDirectory() {
    const std::size_t l = out_.size();
    const std::size_t n_slots = Load16(zip_, IndexPage::kNDirSlots);
    std::size_t slot = 0;
    auto put_slot = [&](std::size_t origin) -> bool {
      if (slot >= n_slots) return false;
      Store16(out_, IndexPage::DirSlotOffset(l, slot++), static_cast<std::uint16_t>(origin));
      return true;
    };
    if (n_slots < 2 || IndexPage::DirSlotOffset(l, n_slots - 1) < heap_top_) {
      return Bad(IndexPage::kNDirSlots,
                 "PAGE_N_DIR_SLOTS " + std::to_string(n_slots) + " does not fit above PAGE_HEAP_TOP");
    }
    put_slot(kCompactInfimum);
    for (std::size_t i = 0; i < n_dense_; ++i) {
      const std::uint16_t e = DirEntry(i);
      const std::size_t at = zip_.size() - 2 * (i + 1);
      const std::size_t origin = e & kDirOffsetMask;
      if (i >= n_recs_ && (e & ~kDirOffsetMask)) return Bad(at, "a free-list entry carries record flags");
      if (origin < kHeapStart + kCompactExtraBytes || origin >= heap_top_) {
        return Bad(at, "directory entry " + std::to_string(i) + " points at " + std::to_string(origin) +
                           ", outside the record heap");
      }
      if (i < n_recs_ && (e & kDirOwned) && !put_slot(origin)) {
        return Bad(at, "more records own a directory slot than PAGE_N_DIR_SLOTS allows");
      }
      recs_.push_back(origin);
    }
    if (!put_slot(kCompactSupremum) || slot != n_slots) {
      return Bad(IndexPage::kNDirSlots,
                 "PAGE_N_DIR_SLOTS " + std::to_string(n_slots) + " does not match the records that own a slot");
    }
    std::sort(recs_.begin(), recs_.end());
    if (std::adjacent_find(recs_.begin(), recs_.end()) != recs_.end()) {
      return Bad(zip_.size() - 2 * n_dense_, "two directory entries name the same record");
    }
    return Status::Ok();
  }

  void WriteSystemRecords() {
    const std::size_t first = n_recs_ ? (DirEntry(0) & kDirOffsetMask) : kCompactSupremum;
    RecordHeader infimum{.n_owned = 1,
                         .heap_no = 0,
                         .status = RecordStatus::kInfimum,
                         .next = RecordHeader::NextField(kCompactInfimum, first, true)};
    RecordHeader supremum{.n_owned = 1, .heap_no = 1, .status = RecordStatus::kSupremum};
    infimum.EncodeTo(out_, kCompactInfimum, true);
    supremum.EncodeTo(out_, kCompactSupremum, true);
    std::memcpy(out_.data() + kCompactInfimum, "infimum", 8);
    std::memcpy(out_.data() + kCompactSupremum, "supremum", 8);
  }

  void SetHeapNo(std::size_t origin, std::size_t heap_no) {
    Store16(out_, origin - 4, static_cast<std::uint16_t>(heap_no << 3 | static_cast<unsigned>(status())));
  }

  // Places stream bytes until `target` (a logical page offset) is reached. kEnded when the
  // stream ran out first, which is how records written after the last compression begin.
  enum class Step { kReached, kEnded };
  Result<Step> PlaceTo(std::size_t target) {
    if (target < at_ || target > out_.size()) {
      return Bad(parts_.stream_end, "a record at " + std::to_string(target) + " overlaps the one before it");
    }
    const std::size_t n = std::min(target - at_, stream_.size() - used_);
    std::memcpy(out_.data() + at_, stream_.data() + used_, n);
    used_ += n, at_ += n;
    ended_ = used_ == stream_.size();
    return at_ == target ? Step::kReached : Step::kEnded;
  }

  // The bytes of field f that the trailer keeps instead of the stream and the log:
  // DB_TRX_ID + DB_ROLL_PTR, an off-page reference, a node pointer's child page number.
  struct Kept {
    std::size_t from, size;
  };
  std::optional<Kept> KeptInTrailer(const std::vector<FieldSlice>& fields, std::size_t f) const {
    if (clustered_ && f == *index_.trx_id_field) return Kept{fields[f].offset, kSysColumns};
    if (fields[f].external) return Kept{fields[f].offset + fields[f].length - kExternRefSize, kExternRefSize};
    if (!leaf_ && f + 1 == fields.size()) return Kept{fields[f].offset, kChildPageSize};
    return std::nullopt;
  }

  // Skips `n` bytes of the logical page that the stream leaves out (they are zero for now).
  void SkipOut(std::size_t n) { at_ += n; }

  Result<RecordExtent> Extent(std::size_t origin, std::vector<FieldSlice>* fields = nullptr) const {
    RecordExtent extent;
    auto f = DecodeCompactFields(out_, origin, index_.layout, &extent);
    if (!f.ok()) return f.status().WithContext("compressed page: record " + std::to_string(origin));
    if (fields) *fields = std::move(*f);
    return extent;
  }

  // The zlib stream, inflated whole (zlib's fast path needs room to write; record-sized
  // pieces would take its byte-at-a-time one), then placed record by record around the
  // bytes the trailer keeps.
  Status Inflate() {
    z_.next_in = reinterpret_cast<Bytef*>(const_cast<std::byte*>(zip_.data() + kPageData));
    const std::size_t trailer = n_dense_ * 2;  // the stream and the log lie below the dense directory
    z_.avail_in = static_cast<uInt>(zip_.size() - kPageData - trailer);
    z_.next_out = reinterpret_cast<Bytef*>(out_.data() + kHeapStart);
    z_.avail_out = static_cast<uInt>(out_.size() - kHeapStart);
    if (inflateInit2(&z_, 15) != Z_OK) return Status::IoError("zlib cannot start inflating");
    inflating_ = true;
    // The index description is the stream's first deflate block: stop at its end (one call
    // for the zlib header, one for the block).
    for (int i = 0; i < 2; ++i) {
      if (inflate(&z_, Z_BLOCK) != Z_OK) return Bad(kPageData, "the zlib stream's first block does not inflate");
    }
    const auto* first = reinterpret_cast<const std::uint8_t*>(out_.data() + kHeapStart);
    const std::vector<std::uint8_t> description(first, reinterpret_cast<const std::uint8_t*>(z_.next_out));
    auto zi = DecodeFields(description, leaf_);
    if (!zi.ok()) return zi.status();
    index_ = std::move(*zi);
    clustered_ = index_.trx_id_field.has_value();
    parts_.layout = index_.layout;
    std::fill(out_.begin() + kHeapStart, out_.begin() + kHeapStart + description.size(), std::byte{0});
    if (z_.avail_in < n_dense_ * SlotExtra()) return Bad(kPageData, "the trailer leaves no room for the stream");
    z_.avail_in -= static_cast<uInt>(n_dense_ * SlotExtra());

    // The heap's bytes between the supremum and PAGE_HEAP_TOP, less the 5 header bytes of
    // each record and what the trailer keeps: never more than the logical page. libdeflate
    // inflates the whole stream (the description again, then those bytes) at twice zlib's
    // speed; zlib found where the description ends.
    thread_local libdeflate_decompressor* const inflater = libdeflate_alloc_decompressor();
    if (!inflater) return Status::IoError("libdeflate cannot allocate a decompressor");
    stream_.resize(description.size() + out_.size());
    std::size_t in_bytes = 0, out_bytes = 0;
    const libdeflate_result rc = libdeflate_zlib_decompress_ex(
        inflater, zip_.data() + kPageData,
        z_.avail_in + (z_.next_in - reinterpret_cast<const Bytef*>(zip_.data() + kPageData)), stream_.data(),
        stream_.size(), &in_bytes, &out_bytes);
    if (rc != LIBDEFLATE_SUCCESS || out_bytes < description.size()) {
      return Bad(kPageData, rc == LIBDEFLATE_INSUFFICIENT_SPACE ? "the zlib stream holds more than a page"
                                                                : "the zlib stream does not inflate");
    }
    stream_.erase(stream_.begin(), stream_.begin() + static_cast<std::ptrdiff_t>(description.size()));
    stream_.resize(out_bytes - description.size());
    parts_.stream_end = kPageData + in_bytes;
    at_ = kHeapStart;

    for (std::size_t h = 0; h < n_dense_; ++h) {
      const std::size_t origin = RecordOf(h);
      auto step = PlaceTo(origin - kCompactExtraBytes);
      if (!step.ok()) return step.status();
      if (*step == Step::kReached) {
        SkipOut(kCompactExtraBytes);
        SetHeapNo(origin, h + 2);
        next_heap_ = h + 3;
      }
      // Records from here on were written after the page was last compressed: the log
      // holds them (one that begins right where the stream ends counts as rewritten).
      if (ended_) break;
      std::vector<FieldSlice> fields;
      auto extent = Extent(origin, &fields);
      if (!extent.ok()) return extent.status();
      // The data, less what the trailer keeps.
      for (std::size_t f = 0; f < fields.size(); ++f) {
        const auto kept = KeptInTrailer(fields, f);
        if (!kept) continue;
        step = PlaceTo(kept->from);
        if (!step.ok()) return step.status();
        if (*step == Step::kEnded)
          return Bad(parts_.stream_end, "the stream ends inside record " + std::to_string(origin));
        SkipOut(kept->size);
      }
      step = PlaceTo(extent->end);
      if (!step.ok()) return step.status();
      if (*step == Step::kEnded)
        return Bad(parts_.stream_end, "the stream ends inside record " + std::to_string(origin));
    }
    // What is left are the bytes of deleted or moved records up to PAGE_HEAP_TOP.
    if (!ended_ && at_ + (stream_.size() - used_) > heap_top_) {
      return Bad(parts_.stream_end, "the zlib stream holds more than the heap up to PAGE_HEAP_TOP");
    }
    if (!ended_) (void)PlaceTo(at_ + (stream_.size() - used_));
    return Status::Ok();
  }

  // Records inserted or updated since the page was last compressed.
  Status ApplyLog() {
    std::size_t at = parts_.stream_end;
    const std::size_t end = zip_.size() - n_dense_ * (2 + SlotExtra());
    auto byte = [&](std::size_t k) { return std::to_integer<std::uint8_t>(zip_[k]); };
    for (;;) {
      if (at >= end) return Bad(at, "the modification log runs into the trailer");
      const std::size_t entry_at = at;
      unsigned v = byte(at++);
      if (v == 0) break;
      if (v & 0x80) {
        if (at >= end) return Bad(at, "the modification log runs into the trailer");
        v = ((v & 0x7F) << 8) | byte(at++);
      }
      const std::size_t heap_no = (v >> 1) + 1;
      if (heap_no < 2 || heap_no - 2 >= n_dense_)
        return Bad(entry_at, "a log entry names heap number " + std::to_string(heap_no));
      if (heap_no > next_heap_) return Bad(entry_at, "a log entry skips heap numbers");
      if (heap_no == next_heap_) {
        if (v & 1) return Bad(entry_at, "a log entry clears a record that was never written");
        ++next_heap_;
      }
      ++parts_.log_records;
      const std::size_t origin = RecordOf(heap_no - 2);
      SetHeapNo(origin, heap_no);
      if (v & 1) {
        auto extent = Extent(origin);
        if (!extent.ok()) return extent.status();
        std::fill(out_.begin() + static_cast<std::ptrdiff_t>(origin),
                  out_.begin() + static_cast<std::ptrdiff_t>(extent->end), std::byte{0});
        continue;
      }
      // The header bytes, stored in the order they go down the page.
      auto header = HeaderBytes(index_.layout, [&](std::size_t k) -> std::optional<std::uint8_t> {
        if (at + k >= end) return std::nullopt;
        return byte(at + k);
      });
      if (!header || origin < kHeapStart + kCompactExtraBytes + *header)
        return Bad(at, "a log entry's record header does not fit");
      for (std::size_t k = 0; k < *header; ++k) out_[origin - kCompactExtraBytes - 1 - k] = zip_[at + k];
      at += *header;
      std::vector<FieldSlice> fields;
      auto extent = Extent(origin, &fields);
      if (!extent.ok()) return extent.status();
      // The data, less what the trailer keeps (it is restored from there afterwards).
      std::size_t to = origin;
      auto copy_to = [&](std::size_t upto) -> bool {
        const std::size_t n = upto - to;
        if (upto < to || at + n >= end) return false;
        std::memcpy(out_.data() + to, zip_.data() + at, n);
        at += n, to = upto;
        return true;
      };
      for (std::size_t f = 0; f < fields.size(); ++f) {
        const auto kept = KeptInTrailer(fields, f);
        if (!kept) continue;
        if (!copy_to(kept->from)) return Bad(at, "a log entry's record runs past the log");
        to += kept->size;
      }
      if (!copy_to(extent->end)) return Bad(at, "a log entry's record runs past the log");
    }
    parts_.log_end = at - 1;
    if (next_heap_ != n_dense_ + 2) {
      return Bad(parts_.log_end,
                 std::to_string(n_dense_ + 2 - next_heap_) + " records are neither in the stream nor in the log");
    }
    return Status::Ok();
  }

  // Info bits, n_owned and next pointers from the dense directory: the key-order chain of
  // user records, then the free list.
  Status LinkRecords() {
    std::size_t prev = kCompactInfimum;
    unsigned n_owned = 1;
    for (std::size_t i = 0; i < n_recs_; ++i) {
      const std::uint16_t e = DirEntry(i);
      const std::size_t origin = e & kDirOffsetMask;
      std::uint8_t info = 0;
      if (i == 0 && !leaf_ && Load32(zip_, FilHeader::kPrev) == kFilNull) info |= kInfoMinRec;
      if (e & kDirDeleted) info |= kInfoDeleted;
      unsigned owned = 0;
      if (e & kDirOwned) {
        owned = n_owned;
        n_owned = 1;
      } else {
        ++n_owned;
      }
      if (owned > 15) return Bad(zip_.size() - 2 * (i + 1), "a directory slot owns more than 15 records");
      Store8(out_, origin - kCompactExtraBytes, static_cast<std::uint8_t>(info | owned));
      if (prev != kCompactInfimum) Store16(out_, prev - 2, RecordHeader::NextField(prev, origin, true));
      prev = origin;
    }
    if (prev != kCompactInfimum) Store16(out_, prev - 2, RecordHeader::NextField(prev, kCompactSupremum, true));
    if (n_owned > 8) return Bad(zip_.size() - 2 * n_recs_, "the supremum would own more than 8 records");
    Store8(out_, kCompactSupremum - kCompactExtraBytes, static_cast<std::uint8_t>(n_owned));
    // The free list, in directory order from PAGE_FREE.
    for (std::size_t i = n_recs_; i < n_dense_; ++i) {
      const std::size_t origin = DirEntry(i);
      const std::size_t next = i + 1 < n_dense_ ? DirEntry(i + 1) : 0;
      Store8(out_, origin - kCompactExtraBytes, 0);
      Store16(out_, origin - 2, next ? RecordHeader::NextField(origin, next, true) : 0);
    }
    return Status::Ok();
  }

  // DB_TRX_ID + DB_ROLL_PTR or child page numbers, per heap number, and the off-page
  // references of the records that are not on the free list.
  Status RestoreTrailer() {
    std::size_t storage = zip_.size() - 2 * n_dense_;
    std::size_t externs = storage - n_dense_ * SlotExtra();
    std::vector<bool> free(kDirOffsetMask + 1, false);
    for (std::size_t i = n_recs_; i < n_dense_; ++i) free[DirEntry(i)] = true;
    for (std::size_t h = 0; h < n_dense_; ++h) {
      const std::size_t origin = RecordOf(h);
      std::vector<FieldSlice> fields;
      auto extent = Extent(origin, &fields);
      if (!extent.ok()) return extent.status();
      if (!leaf_) {
        storage -= kChildPageSize;
        std::memcpy(out_.data() + extent->end - kChildPageSize, zip_.data() + storage, kChildPageSize);
        continue;
      }
      if (!clustered_) continue;
      storage -= kSysColumns;
      std::memcpy(out_.data() + fields[*index_.trx_id_field].offset, zip_.data() + storage, kSysColumns);
      if (free[origin]) continue;
      for (const FieldSlice& f : fields) {
        if (!f.external) continue;
        if (externs < parts_.log_end + 1 + kExternRefSize)
          return Bad(externs, "the off-page references run into the log");
        externs -= kExternRefSize;
        ++parts_.n_blobs;
        std::memcpy(out_.data() + f.offset + f.length - kExternRefSize, zip_.data() + externs, kExternRefSize);
      }
    }
    parts_.trailer_start = externs;
    return Status::Ok();
  }

  ConstBytes zip_;
  MutableBytes out_;
  z_stream z_{};
  bool inflating_ = false, ended_ = false;
  std::vector<std::byte> stream_;  // the inflated stream after the index description
  std::size_t used_ = 0;           // stream bytes placed so far
  std::size_t at_ = 0;             // where on the logical page the next stream byte goes
  std::size_t n_dense_ = 0, n_recs_ = 0, heap_top_ = 0;
  std::size_t next_heap_ = 2;  // the heap number the next new record takes
  bool leaf_ = false, clustered_ = false;
  std::vector<std::size_t> recs_;  // record origins in heap order
  ZipIndex index_;
  ZipPageParts parts_;
};

}  // namespace

Result<ZipPageParts> DecompressIndexPage(ConstBytes zip, MutableBytes out) { return Unpacker(zip, out).Run(); }

}  // namespace strata::ondisk
