#include "ondisk/mariadb_redo.h"

namespace strata::ondisk {

namespace {

constexpr const char* kTypes[] = {"FREE_PAGE", "INIT_PAGE", "EXTENDED", "WRITE", "MEMSET", "MEMMOVE", "RESERVED", "OPTION"};
constexpr const char* kExtended[] = {
    "EXTENDED/INIT_ROW_FORMAT_REDUNDANT", "EXTENDED/INIT_ROW_FORMAT_DYNAMIC", "EXTENDED/UNDO_INIT",
    "EXTENDED/UNDO_APPEND",               "EXTENDED/INSERT_HEAP_REDUNDANT",   "EXTENDED/INSERT_REUSE_REDUNDANT",
    "EXTENDED/INSERT_HEAP_DYNAMIC",       "EXTENDED/INSERT_REUSE_DYNAMIC",    "EXTENDED/DELETE_ROW_FORMAT_REDUNDANT",
    "EXTENDED/DELETE_ROW_FORMAT_DYNAMIC", "EXTENDED/TRIM_PAGES"};
constexpr std::size_t kFilPageType = 24;  // where INIT_PAGE and EXTENDED leave the offset

const char* FileOpName(unsigned b) {
  switch (b & 0xF0) {
    case 0x80: return "FILE_CREATE";
    case 0x90: return "FILE_DELETE";
    case 0xA0: return "FILE_RENAME";
    case 0xB0: return "FILE_MODIFY";
    case 0xF0: return "FILE_CHECKPOINT";
    default: return nullptr;
  }
}

}  // namespace

Result<std::uint32_t> DecodeMariaVarint(ConstBytes b, std::size_t* at) {
  if (*at >= b.size()) return Status::CorruptionAt(*at, "a number is cut off by the end of its record");
  const unsigned first = Load8(b, *at);
  std::size_t extra;
  std::uint64_t base;
  if (first < 0x80) extra = 0, base = 0;
  else if (first < 0xC0) extra = 1, base = 0x80;
  else if (first < 0xE0) extra = 2, base = 0x4080;
  else if (first < 0xF0) extra = 3, base = 0x204080;
  else if (first == 0xF0) extra = 4, base = 0x10204080;
  else return Status::CorruptionAt(*at, "byte " + std::to_string(first) + " starts no number");
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
        if (sub >= std::size(kExtended)) return Status::CorruptionAt(p, "unknown EXTENDED subtype " + std::to_string(sub));
        r.type = kExtended[sub];
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
          if (p >= end) return Status::CorruptionAt(at, std::string(kTypes[type]) + " without its " + (type == 4 ? "pattern" : "source"));
        }
        last_offset = r.offset + r.length;
        break;
      }
      case 6: return Status::CorruptionAt(at, "a RESERVED record (no server writes one)");
      default: break;  // OPTION: ignored by recovery
    }
    out->push_back(r);
    at = end;
  }
  return Status::Ok();
}

}  // namespace strata::ondisk
