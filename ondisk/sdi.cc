#include "ondisk/sdi.h"

#include <zlib.h>

#include <cassert>

namespace strata::ondisk {

std::string ToString(SdiType t) {
  switch (t) {
    case SdiType::kTable:
      return "Table";
    case SdiType::kTablespace:
      return "Tablespace";
  }
  return "SdiType(" + std::to_string(static_cast<std::uint32_t>(t)) + ")";
}

const RecordLayout& SdiLayout() {
  static const RecordLayout layout =
      ClusteredLeafLayout({FieldDef::Fixed("type", 4), FieldDef::Fixed("id", 8)},
                          {FieldDef::Fixed("uncompressed_len", 4), FieldDef::Fixed("compressed_len", 4),
                           FieldDef::Variable("data", 0xFFFFFFFF, false, true)});
  return layout;
}

Result<SdiRecord> DecodeSdiRecord(ConstBytes page, std::size_t origin) {
  auto header = RecordHeader::Decode(page, origin, true);
  if (!header.ok()) return header.status();
  if (header->status != RecordStatus::kOrdinary) {
    return Status::CorruptionAt(origin, "SDI record has status " + ToString(header->status) + ", not a leaf record");
  }
  auto fields = DecodeCompactFields(page, origin, SdiLayout());
  if (!fields.ok()) return fields.status();
  const auto& f = *fields;
  SdiRecord r;
  r.type = Load32(page, f[0].offset);
  r.id = Load64(page, f[1].offset);
  r.uncompressed_len = Load32(page, f[4].offset);
  r.compressed_len = Load32(page, f[5].offset);
  if (f[6].external) {
    r.external = ExternRef::Decode(page, f[6].offset + f[6].length - kExternRefSize);
    if (r.external->length + f[6].length - kExternRefSize != r.compressed_len) {
      return Status::CorruptionAt(f[5].offset, "SDI compressed length " + std::to_string(r.compressed_len) +
                                                   " disagrees with the stored " +
                                                   std::to_string(r.external->length + f[6].length - kExternRefSize));
    }
  } else {
    if (f[6].length != r.compressed_len) {
      return Status::CorruptionAt(f[5].offset, "SDI compressed length " + std::to_string(r.compressed_len) +
                                                   " but the record holds " + std::to_string(f[6].length) + " bytes");
    }
    r.compressed = page.subspan(f[6].offset, f[6].length);
  }
  return r;
}

Result<std::string> InflateSdi(ConstBytes compressed, std::uint32_t uncompressed_len) {
  // zlib cannot expand data more than about 1032:1; a larger claim is corrupt, and checking
  // it first keeps a damaged length from allocating gigabytes.
  if (uncompressed_len > compressed.size() * std::uint64_t{1032} + 64) {
    return Status::Corruption("SDI claims " + std::to_string(uncompressed_len) + " bytes from a " +
                              std::to_string(compressed.size()) + "-byte zlib stream");
  }
  std::string out(uncompressed_len, '\0');
  uLongf out_len = uncompressed_len;
  int rc = uncompress(reinterpret_cast<Bytef*>(out.data()), &out_len, reinterpret_cast<const Bytef*>(compressed.data()),
                      compressed.size());
  if (rc != Z_OK) {
    return Status::Corruption("SDI zlib stream does not inflate (zlib error " + std::to_string(rc) + ")");
  }
  if (out_len != uncompressed_len) {
    return Status::Corruption("SDI inflates to " + std::to_string(out_len) + " bytes, record says " +
                              std::to_string(uncompressed_len));
  }
  return out;
}

Result<std::string> SdiJson(const SdiRecord& record) {
  if (record.external) return Status::NotSupported("SDI stored off-page: read its BLOB pages first");
  return InflateSdi(record.compressed, record.uncompressed_len);
}

std::vector<std::byte> DeflateSdi(const std::string& json) {
  uLongf len = compressBound(json.size());
  std::vector<std::byte> out(len);
  [[maybe_unused]] int rc =
      compress(reinterpret_cast<Bytef*>(out.data()), &len, reinterpret_cast<const Bytef*>(json.data()), json.size());
  assert(rc == Z_OK && "compressBound() leaves room for any input");
  out.resize(len);
  return out;
}

std::optional<std::string> SePrivateValue(const std::string& se_private_data, const std::string& key) {
  for (std::size_t at = 0; at < se_private_data.size();) {
    const auto eq = se_private_data.find('=', at), end = se_private_data.find(';', at);
    if (eq == std::string::npos || end == std::string::npos || eq > end) break;
    if (se_private_data.compare(at, eq - at, key) == 0) return se_private_data.substr(eq + 1, end - eq - 1);
    at = end + 1;
  }
  return std::nullopt;
}

std::string InstantDefaultHex(const std::string& bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  for (unsigned char b : bytes) {
    out += kDigits[b >> 4];
    out += kDigits[b & 0xF];
  }
  return out;
}

std::string InstantDefaultBytes(const std::string& hex) {
  std::string out;
  auto nibble = [](char ch) { return ch <= '9' ? ch - '0' : (ch | 0x20) - 'a' + 10; };
  for (std::size_t i = 0; i + 1 < hex.size(); i += 2)
    out += static_cast<char>(nibble(hex[i]) << 4 | nibble(hex[i + 1]));
  return out;
}

}  // namespace strata::ondisk
