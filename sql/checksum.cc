#include "sql/checksum.h"

#include <zlib.h>

#include <algorithm>

#include "engine/stored_bytes.h"

namespace strata::sql {

namespace {

// The server keeps a row's record packed (no "deleted" bit at the head of its NULL bitmap) when
// a column is of variable length, as MariaDB decides it at CREATE TABLE.
bool PackedRecord(const TableSpec& spec) {
  return std::any_of(spec.columns.begin(), spec.columns.end(), [](const engine::Column& c) {
    return c.type == ColumnType::kVarchar || c.type == ColumnType::kVarbinary || c.is_lob() ||
           c.type == ColumnType::kGeometry || c.type == ColumnType::kJson;
  });
}

// InnoDB's integer form (big-endian, the sign bit flipped when signed) as the record's
// little-endian bytes.
std::string LittleEndian(std::string stored, bool is_signed) {
  if (is_signed && !stored.empty()) stored[0] = static_cast<char>(stored[0] ^ 0x80);
  std::reverse(stored.begin(), stored.end());
  return stored;
}

// The record's bytes for a non-NULL value, and whether they are a fixed-size field's.
Result<std::string> RecordBytes(const engine::Column& c, const Value& v) {
  auto stored = engine::StoredBytes(c, v);
  if (!stored.ok()) return stored.status();
  std::string b = std::move(*stored);
  if (c.is_integer() || c.type == ColumnType::kDate) return LittleEndian(std::move(b), !c.is_unsigned);
  if (c.has_elements()) return LittleEndian(std::move(b), false);
  if (c.type == ColumnType::kChar) {  // padded with spaces to its length in bytes
    b.erase(b.find_last_not_of(' ') + 1);
    const std::size_t width = std::size_t{c.length} * (c.charset == Charset::kLatin1 ? 1 : 4);
    if (b.size() < width) b.append(width - b.size(), ' ');
  }
  return b;
}

}  // namespace

std::optional<std::string> ChecksumRefusal(const TableSpec& spec) {
  for (const engine::Column& c : spec.columns) {
    if (c.type == ColumnType::kJson)
      return "CHECKSUM TABLE of a table with a JSON column (`" + c.name +
             "` holds MySQL's binary JSON, which MariaDB's checksum has no record image of)";
  }
  return std::nullopt;
}

Result<std::uint32_t> RowChecksum(const TableSpec& spec, const Row& row) {
  // The NULL bitmap: a bit per nullable column in order, behind a first "deleted" bit set when
  // the record is not packed; bits past the last are set. (An InnoDB table's BIT columns keep
  // all their bits in the record: the engine cannot keep bits among the NULL flags.)
  std::string bitmap;
  std::size_t bit = 0;
  auto set_bits = [&](std::uint64_t value, std::size_t count) {
    for (std::size_t k = 0; k < count; ++k, ++bit) {
      if (bitmap.size() <= bit / 8) bitmap.push_back('\0');
      if ((value >> k) & 1) bitmap[bit / 8] = static_cast<char>(bitmap[bit / 8] | (1 << (bit % 8)));
    }
  };
  if (!PackedRecord(spec)) set_bits(1, 1);
  std::vector<std::string> fields(spec.columns.size());
  for (std::size_t i = 0; i < spec.columns.size(); ++i) {
    const engine::Column& c = spec.columns[i];
    const bool null = row[i].is_null();
    if (c.nullable) set_bits(null ? 1 : 0, 1);
    if (!null) {
      auto bytes = RecordBytes(c, row[i]);
      if (!bytes.ok()) return bytes.status();
      fields[i] = std::move(*bytes);
    }
  }
  if (bit % 8) bitmap.back() = static_cast<char>(bitmap.back() | (0xFF << (bit % 8)));
  uLong crc = crc32(0L, Z_NULL, 0);
  crc = crc32(crc, reinterpret_cast<const Bytef*>(bitmap.data()), static_cast<uInt>(bitmap.size()));
  for (std::size_t i = 0; i < spec.columns.size(); ++i) {
    if (row[i].is_null()) continue;
    crc = crc32(crc, reinterpret_cast<const Bytef*>(fields[i].data()), static_cast<uInt>(fields[i].size()));
  }
  return static_cast<std::uint32_t>(crc);
}

}  // namespace strata::sql
