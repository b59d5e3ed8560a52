#include "ondisk/mariadb_redo.h"

#include <algorithm>
#include <cstring>
#include <optional>
#include <string_view>

#include "ondisk/mariadb_row_apply.h"

namespace strata::ondisk {

namespace {

constexpr const char* kTypes[] = {"FREE_PAGE", "INIT_PAGE", "EXTENDED", "WRITE",
                                  "MEMSET",    "MEMMOVE",   "RESERVED", "OPTION"};
constexpr const char* kExtended[] = {"EXTENDED/INIT_ROW_FORMAT_REDUNDANT",
                                     "EXTENDED/INIT_ROW_FORMAT_DYNAMIC",
                                     "EXTENDED/UNDO_INIT",
                                     "EXTENDED/UNDO_APPEND",
                                     "EXTENDED/INSERT_HEAP_REDUNDANT",
                                     "EXTENDED/INSERT_REUSE_REDUNDANT",
                                     "EXTENDED/INSERT_HEAP_DYNAMIC",
                                     "EXTENDED/INSERT_REUSE_DYNAMIC",
                                     "EXTENDED/DELETE_ROW_FORMAT_REDUNDANT",
                                     "EXTENDED/DELETE_ROW_FORMAT_DYNAMIC",
                                     "EXTENDED/TRIM_PAGES"};
constexpr std::size_t kFilPageType = 24;  // where INIT_PAGE and EXTENDED leave the offset

const char* FileOpName(unsigned b) {
  switch (b & 0xF0) {
    case 0x80:
      return "FILE_CREATE";
    case 0x90:
      return "FILE_DELETE";
    case 0xA0:
      return "FILE_RENAME";
    case 0xB0:
      return "FILE_MODIFY";
    case 0xF0:
      return "FILE_CHECKPOINT";
    default:
      return nullptr;
  }
}

}  // namespace

Result<std::uint32_t> DecodeMariaVarint(ConstBytes b, std::size_t* at) {
  if (*at >= b.size()) return Status::CorruptionAt(*at, "a number is cut off by the end of its record");
  const unsigned first = Load8(b, *at);
  std::size_t extra;
  std::uint64_t base;
  if (first < 0x80)
    extra = 0, base = 0;
  else if (first < 0xC0)
    extra = 1, base = 0x80;
  else if (first < 0xE0)
    extra = 2, base = 0x4080;
  else if (first < 0xF0)
    extra = 3, base = 0x204080;
  else if (first == 0xF0)
    extra = 4, base = 0x10204080;
  else
    return Status::CorruptionAt(*at, "byte " + std::to_string(first) + " starts no number");
  if (!Fits(b.size(), *at + 1, extra)) return Status::CorruptionAt(*at, "a number is cut off by the end of its record");
  std::uint64_t v = extra == 4 ? 0 : first & (0x7Fu >> extra);
  for (std::size_t i = 1; i <= extra; ++i) v = (v << 8) | Load8(b, *at + i);
  v += base;
  if (v > 0xFFFFFFFFu) return Status::CorruptionAt(*at, "a number larger than 32 bits");
  *at += 1 + extra;
  return static_cast<std::uint32_t>(v);
}

Status ParseMariaMtr(ConstBytes b, std::vector<MariaRedoRecord>* out) {
  out->clear();
  bool have_page = false;  // a page record came before: "same page" means that page
  std::uint32_t space = 0, page = 0, last_offset = 0;
  for (std::size_t at = 0; at < b.size();) {
    MariaRedoRecord r;
    r.at = at;
    const unsigned first = Load8(b, at);
    if (first <= 1) return Status::CorruptionAt(at, "a record cannot start with byte " + std::to_string(first));
    std::size_t p = at + 1;
    std::size_t len = first & 0x0F;
    if (len == 0) {
      auto v = DecodeMariaVarint(b, &p);
      if (!v.ok()) return v.status();
      len = std::size_t{*v} + 15;
    }
    const std::size_t end = at + 1 + len;
    if (end > b.size()) return Status::CorruptionAt(at, "the record's length runs past the mini-transaction");
    const ConstBytes rec = b.first(end);
    const bool same_page = first & 0x80;
    const unsigned type = (first >> 4) & 7;
    if (same_page && !have_page) {
      const char* name = FileOpName(first);
      if (!name) return Status::CorruptionAt(at, "a same-page record with no page record before it");
      r.type = name;
      r.file_op = true;
      auto s = DecodeMariaVarint(rec, &p);
      if (!s.ok()) return s.status();
      auto n = DecodeMariaVarint(rec, &p);
      if (!n.ok()) return n.status();
      r.space = *s;
      r.page = *n;
      r.data = rec.subspan(p);
      out->push_back(r);
      at = end;
      continue;
    }
    if (!same_page) {
      auto s = DecodeMariaVarint(rec, &p);
      if (!s.ok()) return s.status();
      auto n = DecodeMariaVarint(rec, &p);
      if (!n.ok()) return n.status();
      space = *s;
      page = *n;
      have_page = true;
      last_offset = 0;
    }
    r.page_op = true;
    r.space = space;
    r.page = page;
    r.type = kTypes[type];
    switch (type) {
      case 0:  // FREE_PAGE
      case 1:  // INIT_PAGE
        if (same_page) return Status::CorruptionAt(at, std::string(kTypes[type]) + " must name its page");
        if (type == 1) last_offset = kFilPageType;
        r.freed = type == 0;
        break;
      case 2: {  // EXTENDED
        if (p >= end) return Status::CorruptionAt(at, "EXTENDED without its subtype");
        const unsigned sub = Load8(rec, p);
        if (sub >= std::size(kExtended))
          return Status::CorruptionAt(p, "unknown EXTENDED subtype " + std::to_string(sub));
        r.type = kExtended[sub];
        r.data = rec.subspan(p);  // the subtype byte and what follows
        last_offset = kFilPageType;
        break;
      }
      case 3:    // WRITE
      case 4:    // MEMSET
      case 5: {  // MEMMOVE
        auto off = DecodeMariaVarint(rec, &p);
        if (!off.ok()) return off.status();
        r.offset = last_offset + *off;
        if (type == 3) {
          if (p >= end) return Status::CorruptionAt(at, "WRITE of no bytes");
          r.data = rec.subspan(p);
          r.length = static_cast<std::uint32_t>(r.data.size());
        } else {
          auto n = DecodeMariaVarint(rec, &p);
          if (!n.ok()) return n.status();
          r.length = *n;
          if (p >= end)
            return Status::CorruptionAt(
                at, std::string(kTypes[type]) + " without its " + (type == 4 ? "pattern" : "source"));
          r.data = rec.subspan(p);  // MEMSET: the pattern; MEMMOVE: the source, as a varint
        }
        last_offset = r.offset + r.length;
        break;
      }
      case 6:
        return Status::CorruptionAt(at, "a RESERVED record (no server writes one)");
      default:
        break;  // OPTION: ignored by recovery
    }
    out->push_back(r);
    at = end;
  }
  return Status::Ok();
}

std::optional<std::uint64_t> MariaMtrRecordsEnd(ConstBytes b, std::uint64_t i, std::uint64_t limit) {
  std::uint64_t l = i;
  while (l < limit && std::to_integer<unsigned>(b[l]) > 1) {
    std::size_t p = l + 1;
    std::uint64_t n = std::to_integer<unsigned>(b[l]) & 0x0F;  // the record's length after its first byte
    if (n == 0) {
      auto v = DecodeMariaVarint(b, &p);
      if (!v.ok()) return std::nullopt;
      n = std::uint64_t{*v} + 15;
    }
    l += 1 + n;
  }
  if (l >= limit) return std::nullopt;
  return l;
}

namespace {

// An empty B-tree page, as MariaDB's page_create_low makes it: the header zeroed, two
// directory slots, infimum and supremum, the rest of the body zero.
void InitIndexPage(MutableBytes page, bool compact) {
  constexpr std::size_t kHeader = 38, kData = 38 + 56, kPrivEnd = 26;  // PAGE_HEADER, PAGE_DATA, PAGE_HEADER_PRIV_END
  static constexpr std::uint8_t kCompact[] = {0x01, 0x00, 0x02, 0x00, 0x0d, 'i', 'n', 'f', 'i', 'm', 'u', 'm', 0,
                                              0x01, 0x00, 0x0b, 0x00, 0x00, 's', 'u', 'p', 'r', 'e', 'm', 'u', 'm'};
  static constexpr std::uint8_t kRedundant[] = {0x08, 0x01, 0x00, 0x00, 0x03, 0x00, 0x74, 'i',  'n',  'f',  'i',
                                                'm',  'u',  'm',  0,    0x09, 0x01, 0x00, 0x08, 0x03, 0x00, 0x00,
                                                's',  'u',  'p',  'r',  'e',  'm',  'u',  'm',  0};
  const std::size_t size = page.size();
  Store16(page, 24, 17855);  // FIL_PAGE_INDEX
  std::fill(page.begin() + kHeader, page.begin() + kHeader + kPrivEnd, std::byte{0});
  Store8(page, kHeader + 1, 2);   // PAGE_N_DIR_SLOTS
  Store8(page, kHeader + 13, 5);  // PAGE_DIRECTION_B: no direction (PAGE_INSTANT, byte 12, stays 0)
  const std::size_t infimum = compact ? 99 : 101, supremum = compact ? 112 : 116;
  const std::size_t end = compact ? 120 : 125;                  // PAGE_NEW/OLD_SUPREMUM_END
  Store16(page, kHeader + 4, compact ? 0x8002 : 2);             // PAGE_N_HEAP: 2 records, the compact bit
  Store16(page, kHeader + 2, static_cast<std::uint16_t>(end));  // PAGE_HEAP_TOP
  const auto* bytes = compact ? kCompact : kRedundant;
  const std::size_t n = compact ? sizeof kCompact : sizeof kRedundant;
  for (std::size_t i = 0; i < n; ++i) page[kData + i] = std::byte{bytes[i]};
  std::fill(page.begin() + end, page.begin() + (size - 8), std::byte{0});  // up to PAGE_DIR
  Store16(page, size - 8 - 4, static_cast<std::uint16_t>(supremum));
  Store16(page, size - 8 - 2, static_cast<std::uint16_t>(infimum));
}

}  // namespace

MariaApply ApplyMariaRecord(const MariaRedoRecord& r, MutableBytes page) {
  const std::size_t size = page.size();
  const std::string_view type = r.type;
  if (type == "FREE_PAGE" || type == "OPTION") return MariaApply::kApplied;
  if (type == "INIT_PAGE") {
    std::fill(page.begin(), page.end(), std::byte{0});
    Store32(page, 4, r.page);
    Store32(page, 8, 0xFFFFFFFF);   // FIL_PAGE_PREV
    Store32(page, 12, 0xFFFFFFFF);  // FIL_PAGE_NEXT
    Store32(page, 34, r.space);
    return MariaApply::kApplied;
  }
  if (type == "WRITE" || type == "MEMSET" || type == "MEMMOVE") {
    if (r.offset < 8 || std::size_t{r.offset} + r.length > size) return MariaApply::kCorrupt;
    if (type == "WRITE") {
      std::copy(r.data.begin(), r.data.end(), page.begin() + r.offset);
    } else if (type == "MEMSET") {
      if (r.data.empty()) return MariaApply::kCorrupt;
      for (std::size_t i = 0; i < r.length; ++i) page[r.offset + i] = r.data[i % r.data.size()];
    } else {
      std::size_t at = 0;
      auto v = DecodeMariaVarint(r.data, &at);
      if (!v.ok() || at != r.data.size()) return MariaApply::kCorrupt;
      const std::uint64_t half = (*v >> 1) + 1;
      if ((*v & 1) && half > r.offset) return MariaApply::kCorrupt;
      const std::uint64_t source = (*v & 1) ? r.offset - half : r.offset + half;
      if (source < 8 || source + r.length > size) return MariaApply::kCorrupt;
      std::memmove(page.data() + r.offset, page.data() + source, r.length);
    }
    return MariaApply::kApplied;
  }
  if (!type.starts_with("EXTENDED/") || r.data.empty()) return MariaApply::kUnsupported;
  constexpr std::size_t kUndoPageHdr = 38, kUndoSegHdr = 38 + 18, kUndoSegHdrSize = 30;
  switch (Load8(r.data, 0)) {
    case 0:  // INIT_ROW_FORMAT_REDUNDANT
    case 1:  // INIT_ROW_FORMAT_DYNAMIC
      if (r.page < 3 || r.data.size() != 1) return MariaApply::kCorrupt;
      InitIndexPage(page, Load8(r.data, 0) == 1);
      return MariaApply::kApplied;
    case 2:  // UNDO_INIT: an undo page's header, its segment header kept, the rest cleared
      if (r.data.size() != 1) return MariaApply::kCorrupt;
      Store16(page, 24, 2);                          // FIL_PAGE_UNDO_LOG
      Store16(page, kUndoPageHdr, 0);                // TRX_UNDO_PAGE_TYPE
      Store16(page, kUndoPageHdr + 2, kUndoSegHdr);  // TRX_UNDO_PAGE_START
      Store16(page, kUndoPageHdr + 4, kUndoSegHdr);  // TRX_UNDO_PAGE_FREE
      Store32(page, kUndoPageHdr + 6, 0xFFFFFFFF);   // the page list node: no previous
      Store16(page, kUndoPageHdr + 10, 0);
      Store32(page, kUndoPageHdr + 12, 0xFFFFFFFF);  // and no next page
      Store16(page, kUndoPageHdr + 16, 0);
      std::fill(page.begin() + kUndoSegHdr + kUndoSegHdrSize, page.begin() + (size - 8), std::byte{0});
      return MariaApply::kApplied;
    case 3: {  // UNDO_APPEND: a record at TRX_UNDO_PAGE_FREE, framed by the next and previous free offsets
      const ConstBytes rec = r.data.subspan(1);
      const std::size_t free = Load16(page, kUndoPageHdr + 4);
      if (rec.size() < 3 || free < kUndoSegHdr || free + rec.size() + 6 >= size - 8) return MariaApply::kCorrupt;
      const auto next = static_cast<std::uint16_t>(free + 4 + rec.size());
      Store16(page, kUndoPageHdr + 4, next);
      Store16(page, free, next);
      std::copy(rec.begin(), rec.end(), page.begin() + free + 2);
      Store16(page, free + 2 + rec.size(), static_cast<std::uint16_t>(free));
      return MariaApply::kApplied;
    }
    case 6:    // INSERT_HEAP_DYNAMIC
    case 7: {  // INSERT_REUSE_DYNAMIC
      MariaInsert in;
      in.reuse = Load8(r.data, 0) == 7;
      std::size_t at = 1;
      auto next = [&]() -> std::optional<std::size_t> {
        auto v = DecodeMariaVarint(r.data, &at);
        return v.ok() && at <= r.data.size() ? std::optional<std::size_t>(*v) : std::nullopt;
      };
      const auto prev = next();
      const auto shift = in.reuse ? next() : std::optional<std::size_t>(0);
      const auto enc_hdr = next(), hdr_c = next(), data_c = next();
      if (!prev || !shift || !enc_hdr || !hdr_c || !data_c) return MariaApply::kCorrupt;
      in.prev = *prev, in.shift = *shift, in.enc_hdr = *enc_hdr, in.hdr_copied = *hdr_c, in.data_copied = *data_c;
      in.bytes = r.data.subspan(at);
      if (r.page < 3) return MariaApply::kCorrupt;
      return ApplyMariaInsert(page, in) ? MariaApply::kApplied : MariaApply::kCorrupt;
    }
    case 9: {  // DELETE_ROW_FORMAT_DYNAMIC
      std::size_t at = 1;
      auto prev = DecodeMariaVarint(r.data, &at);
      if (!prev.ok()) return MariaApply::kCorrupt;
      auto hdr = DecodeMariaVarint(r.data, &at);
      if (!hdr.ok()) return MariaApply::kCorrupt;
      auto data = DecodeMariaVarint(r.data, &at);
      if (!data.ok() || at != r.data.size() || r.page < 3) return MariaApply::kCorrupt;
      return ApplyMariaDelete(page, *prev, *hdr, *data) ? MariaApply::kApplied : MariaApply::kCorrupt;
    }
    default:
      return MariaApply::kUnsupported;  // ROW_FORMAT=REDUNDANT rows, TRIM_PAGES
  }
}

}  // namespace strata::ondisk
