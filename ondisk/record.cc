#include "ondisk/record.h"

#include <algorithm>
#include <cassert>
#include <cstring>

#include "ondisk/fil_header.h"

namespace strata::ondisk {

std::size_t RecordLayout::n_nullable() const {
  std::size_t n = 0;
  for (const auto& f : fields) n += f.nullable && !f.absent;
  return n;
}

RecordLayout RecordLayout::NodePointer(std::size_t n_unique) const {
  assert(n_unique <= fields.size());
  RecordLayout np;
  np.fields.assign(fields.begin(), fields.begin() + static_cast<std::ptrdiff_t>(n_unique));
  np.fields.push_back(FieldDef::Fixed("child_page", 4));
  np.null_bitmap_bits = null_bitmap_bits.value_or(n_nullable());
  return np;
}

RecordLayout ClusteredLeafLayout(std::vector<FieldDef> key, std::vector<FieldDef> others) {
  RecordLayout l;
  if (key.empty()) key.push_back(FieldDef::Fixed("DB_ROW_ID", kDbRowIdSize));
  l.fields = std::move(key);
  l.fields.push_back(FieldDef::Fixed("DB_TRX_ID", kDbTrxIdSize));
  l.fields.push_back(FieldDef::Fixed("DB_ROLL_PTR", kDbRollPtrSize));
  for (auto& f : others) l.fields.push_back(std::move(f));
  return l;
}

namespace {

// Bounds for the bytes of one record: extra bytes never below the FIL header, data never
// into the trailer.
struct Bounds {
  std::size_t lo, hi;
  bool Has(std::size_t at) const { return at >= lo && at < hi; }
};

Bounds PageBounds(ConstBytes page) { return {kFilHeaderSize, page.size() - kFilTrailerSize}; }

}  // namespace

Result<std::vector<FieldSlice>> DecodeCompactFields(ConstBytes page, std::size_t origin, const RecordLayout& layout,
                                                    RecordExtent* extent) {
  const Bounds b = PageBounds(page);
  if (origin < b.lo + kCompactExtraBytes || origin > b.hi) {
    return Status::CorruptionAt(origin, "record origin outside the page body");
  }
  auto header = RecordHeader::Decode(page, origin, true);
  if (!header.ok()) return header.status();
  if (header->status == RecordStatus::kInstant && layout.core_fields == 0) {
    return Status::NotSupported("offset " + std::to_string(origin) +
                                ": MariaDB instant record (status 4) needs the table's core field count");
  }
  if (header->status == RecordStatus::kInfimum || header->status == RecordStatus::kSupremum) {
    return Status::CorruptionAt(origin, "system record has no user fields");
  }
  std::size_t at = origin - kCompactExtraBytes;  // one past the next byte to read, downward
  auto read_down = [&](std::uint8_t& out) -> bool {
    if (at == 0 || !b.Has(at - 1)) return false;
    out = Load8(page, --at);
    return true;
  };
  const auto truncated = [&] {
    return Status::CorruptionAt(at, "record at " + std::to_string(origin) + ": extra bytes run below the page body");
  };

  std::size_t n_present =
      layout.core_fields ? std::min(layout.core_fields, layout.fields.size()) : layout.fields.size();
  if (header->info_bits & kInfoVersion) {
    std::uint8_t version = 0;
    if (!read_down(version)) return truncated();
    if (version != layout.row_version) {
      return Status::NotSupported("offset " + std::to_string(origin) + ": row version " + std::to_string(version) +
                                  " needs the dictionary's column versions");
    }
  } else if (header->status == RecordStatus::kInstant) {
    // MariaDB: the fields added by instant ALTERs that this record stores, minus one, in 7-bit
    // groups (low group first, high bit = one more byte).
    std::uint8_t b0 = 0, b1 = 0;
    if (!read_down(b0)) return truncated();
    std::size_t n_add = b0;
    if (b0 & 0x80) {
      if (!read_down(b1)) return truncated();
      n_add = (b0 & 0x7Fu) | (std::size_t{b1} << 7);
    }
    n_present = layout.core_fields + n_add + 1;
    if (n_present > layout.fields.size()) {
      return Status::CorruptionAt(
          origin - kCompactExtraBytes - 1,
          "record stores " + std::to_string(n_present) + " fields, layout has " + std::to_string(layout.fields.size()));
    }
  } else if (header->info_bits & kInfoInstant) {
    std::uint8_t b0 = 0, b1 = 0;
    if (!read_down(b0)) return truncated();
    n_present = b0;
    if (b0 & 0x80) {
      if (!read_down(b1)) return truncated();
      n_present = (std::size_t{b0 & 0x7Fu} << 8) | b1;
    }
    if (n_present > layout.fields.size()) {
      return Status::CorruptionAt(
          origin - kCompactExtraBytes - 1,
          "record stores " + std::to_string(n_present) + " fields, layout has " + std::to_string(layout.fields.size()));
    }
  }

  std::size_t n_nullable = 0;
  for (std::size_t i = 0; i < n_present; ++i) n_nullable += layout.fields[i].nullable && !layout.fields[i].absent;
  if (layout.null_bitmap_bits) n_nullable = *layout.null_bitmap_bits;
  const std::size_t null_bytes = (n_nullable + 7) / 8;
  if (at < null_bytes || !b.Has(at - null_bytes)) return truncated();
  const std::size_t nulls_top = at;  // bitmap byte k is at nulls_top - 1 - k
  at -= null_bytes;

  std::vector<FieldSlice> out(layout.fields.size());
  std::size_t data = origin;
  std::size_t nullable_index = 0;
  for (std::size_t i = 0; i < layout.fields.size(); ++i) {
    const FieldDef& f = layout.fields[i];
    FieldSlice& s = out[i];
    s.offset = data;
    if (i >= n_present || f.absent) {
      s.missing = true;
      continue;
    }
    if (f.nullable) {
      std::size_t k = nullable_index++;
      if ((Load8(page, nulls_top - 1 - k / 8) >> (k % 8)) & 1) {
        s.is_null = true;
        continue;
      }
    }
    if (!f.is_variable()) {
      s.length = f.fixed_length;
    } else {
      std::uint8_t l0 = 0;
      if (!read_down(l0)) return truncated();
      if (f.big() && (l0 & 0x80)) {
        std::uint8_t l1 = 0;
        if (!read_down(l1)) return truncated();
        s.length = (std::size_t{l0 & 0x3Fu} << 8) | l1;
        s.external = l0 & 0x40;
      } else {
        s.length = l0;
      }
      if (s.external && s.length < kExternRefSize) {
        return Status::CorruptionAt(at, "external field " + f.name + " is " + std::to_string(s.length) +
                                            " bytes, shorter than its 20-byte reference");
      }
    }
    if (!Fits(b.hi, data, s.length)) {
      return Status::CorruptionAt(data, "field " + f.name + " of record at " + std::to_string(origin) + " (" +
                                            std::to_string(s.length) + " bytes) runs past the page body");
    }
    data += s.length;
  }
  if (extent) *extent = {at, data};
  return out;
}

Result<std::uint8_t> RecordRowVersion(ConstBytes page, std::size_t origin) {
  const Bounds b = PageBounds(page);
  if (origin < b.lo + kCompactExtraBytes + 1 || origin > b.hi) {
    return Status::CorruptionAt(origin, "record origin outside the page body");
  }
  auto header = RecordHeader::Decode(page, origin, true);
  if (!header.ok()) return header.status();
  if (!(header->info_bits & kInfoVersion)) return std::uint8_t{0};
  return Load8(page, origin - kCompactExtraBytes - 1);
}

Result<std::vector<FieldSlice>> DecodeRedundantFields(ConstBytes page, std::size_t origin) {
  const Bounds b = PageBounds(page);
  if (origin < b.lo + kRedundantExtraBytes || origin > b.hi) {
    return Status::CorruptionAt(origin, "record origin outside the page body");
  }
  auto header = RecordHeader::Decode(page, origin, false);
  if (!header.ok()) return header.status();
  const std::size_t n = header->n_fields;
  const std::size_t width = header->short_offsets ? 1 : 2;
  const std::size_t table_bottom = origin - kRedundantExtraBytes;
  if (n == 0 || table_bottom < b.lo + n * width) {
    return Status::CorruptionAt(origin - kRedundantExtraBytes + 1,
                                "record at " + std::to_string(origin) + " claims " + std::to_string(n) +
                                    " fields, whose offsets would run below the page body");
  }
  std::vector<FieldSlice> out(n);
  std::size_t start = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t at = table_bottom - (i + 1) * width;
    std::size_t end;
    FieldSlice& s = out[i];
    if (width == 1) {
      std::uint8_t v = Load8(page, at);
      end = v & 0x7F;
      s.is_null = v & 0x80;
    } else {
      std::uint16_t v = Load16(page, at);
      end = v & 0x3FFF;
      s.is_null = v & 0x8000;
      s.external = v & 0x4000;
    }
    if (end < start || !Fits(b.hi, origin, end)) {
      return Status::CorruptionAt(at, "field " + std::to_string(i) + " of record at " + std::to_string(origin) +
                                          " ends at +" + std::to_string(end) + " (previous end +" +
                                          std::to_string(start) + ")");
    }
    s.offset = origin + start;
    s.length = end - start;
    if (s.external && s.length < kExternRefSize) {
      return Status::CorruptionAt(at, "external field shorter than its 20-byte reference");
    }
    start = end;
  }
  return out;
}

std::size_t AppendCompactRecord(const RecordLayout& layout, std::span<const FieldValue> values,
                                std::vector<std::byte>& out) {
  assert(values.size() == layout.fields.size());
  // Sizes first, so the record is written in place: lengths and the NULL bitmap grow down from
  // the header, the data up from the origin.
  std::size_t lengths = 0, data = 0;
  for (std::size_t i = 0; i < values.size(); ++i) {
    const FieldDef& f = layout.fields[i];
    const FieldValue& v = values[i];
    if (f.absent) continue;
    if (!v.bytes) {
      assert(f.nullable && "NULL in a NOT NULL field");
      continue;
    }
    const std::size_t len = v.bytes->size();
    if (!f.is_variable()) {
      assert(len == f.fixed_length && !v.external);
    } else {
      assert(len <= 16383 && len <= f.max_length && (f.big() || len <= 255));
      assert(!v.external || (f.big() && len >= kExternRefSize));
      lengths += f.big() && (len >= 128 || v.external) ? 2 : 1;
    }
    data += len;
  }
  const std::size_t null_bytes = (layout.null_bitmap_bits.value_or(layout.n_nullable()) + 7) / 8;
  const std::size_t version_bytes = layout.row_version ? 1 : 0;  // below the header, above the bitmap
  const std::size_t extra = lengths + null_bytes + version_bytes + kCompactExtraBytes;
  const std::size_t start = out.size();
  out.resize(start + extra + data);
  std::byte* const origin = out.data() + start + extra;
  std::fill(origin - kCompactExtraBytes - null_bytes - version_bytes, origin, std::byte{0});
  if (version_bytes) origin[-1 - static_cast<std::ptrdiff_t>(kCompactExtraBytes)] = std::byte{layout.row_version};
  std::byte* nulls_end = origin - kCompactExtraBytes - version_bytes;  // bitmap byte 0 is the highest
  std::byte* len_pos = nulls_end - null_bytes;                         // field 0's length entry is nearest
  std::byte* d = origin;
  std::size_t nullable_index = 0;
  for (std::size_t i = 0; i < values.size(); ++i) {
    const FieldDef& f = layout.fields[i];
    const FieldValue& v = values[i];
    if (f.absent) continue;
    if (f.nullable) {
      const std::size_t k = nullable_index++;
      if (!v.bytes) {
        nulls_end[-1 - static_cast<std::ptrdiff_t>(k / 8)] |= std::byte(1u << (k % 8));
        continue;
      }
    }
    const std::size_t len = v.bytes->size();
    if (f.is_variable()) {
      if (f.big() && (len >= 128 || v.external)) {
        // Two bytes: the high one (bit 7 set, bit 6 external) sits at the higher address.
        len_pos -= 2;
        len_pos[0] = std::byte(len & 0xFF);
        len_pos[1] = std::byte(0x80 | (v.external ? 0x40 : 0) | (len >> 8));
      } else {
        *--len_pos = std::byte(len);
      }
    }
    if (len) std::memcpy(d, v.bytes->data(), len);
    d += len;
  }
  assert(len_pos == out.data() + start);
  return extra;
}

EncodedRecord EncodeCompactRecord(const RecordLayout& layout, const std::vector<FieldValue>& values) {
  EncodedRecord r;
  r.extra_size = AppendCompactRecord(layout, values, r.bytes);
  r.n_fields = static_cast<std::uint16_t>(values.size());
  return r;
}

EncodedRecord EncodeRedundantRecord(const std::vector<FieldValue>& values) {
  assert(!values.empty() && values.size() < 1024);
  std::vector<std::byte> data;
  std::vector<std::pair<std::size_t, bool>> ends;  // end offset, null
  for (const FieldValue& v : values) {
    if (v.bytes) data.insert(data.end(), v.bytes->begin(), v.bytes->end());
    ends.emplace_back(data.size(), !v.bytes);
  }
  bool any_external = false;
  for (const FieldValue& v : values) any_external |= v.external;
  EncodedRecord r;
  r.short_offsets = data.size() <= 127 && !any_external;
  assert(data.size() <= 0x3FFF);
  // Offsets: field 0 nearest the header, so emit from the last field down.
  for (std::size_t i = values.size(); i-- > 0;) {
    auto [end, null] = ends[i];
    if (r.short_offsets) {
      r.bytes.push_back(std::byte((null ? 0x80 : 0) | end));
    } else {
      std::uint16_t v = static_cast<std::uint16_t>(end | (null ? 0x8000 : 0) | (values[i].external ? 0x4000 : 0));
      r.bytes.push_back(std::byte(v >> 8));
      r.bytes.push_back(std::byte(v & 0xFF));
    }
  }
  r.bytes.resize(r.bytes.size() + kRedundantExtraBytes);
  r.extra_size = r.bytes.size();
  r.bytes.insert(r.bytes.end(), data.begin(), data.end());
  r.n_fields = static_cast<std::uint16_t>(values.size());
  return r;
}

ExternRef ExternRef::Decode(ConstBytes b, std::size_t at) {
  ExternRef r;
  r.space_id = Load32(b, at);
  r.page_no = Load32(b, at + 4);
  r.offset_or_version = Load32(b, at + 8);
  std::uint64_t len = Load64(b, at + 12);
  r.not_owner = len >> 63;
  r.inherited = (len >> 62) & 1;
  r.being_modified = (len >> 61) & 1;
  r.length = len & ((std::uint64_t{1} << 61) - 1);
  return r;
}

void ExternRef::EncodeTo(MutableBytes b, std::size_t at) const {
  assert(length < (std::uint64_t{1} << 61));
  Store32(b, at, space_id);
  Store32(b, at + 4, page_no);
  Store32(b, at + 8, offset_or_version);
  Store64(b, at + 12,
          length | (std::uint64_t{not_owner} << 63) | (std::uint64_t{inherited} << 62) |
              (std::uint64_t{being_modified} << 61));
}

}  // namespace strata::ondisk
