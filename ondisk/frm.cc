#include "ondisk/frm.h"

#include <algorithm>
#include <string>

namespace strata::ondisk {

namespace {

constexpr std::size_t kHeaderBytes = 64;
constexpr std::size_t kHeaderExtra2Length = 4;
constexpr std::size_t kHeaderKeys = 6;
constexpr std::size_t kHeaderServerVersion = 51;
constexpr std::size_t kExtra2 = kHeaderBytes;  // MariaDB's extra2 segment starts after the header

constexpr std::uint8_t kExtra2ColumnFlags = 129;
constexpr std::uint8_t kExtra2TypeNames = 130;

constexpr std::size_t kForminfoBytes = 288;
constexpr std::size_t kForminfoColumns = 258;
constexpr std::size_t kForminfoScreens = 260;
constexpr std::size_t kForminfoNames = 268;
constexpr std::size_t kForminfoIntervals = 274;
constexpr std::size_t kForminfoComments = 284;
constexpr std::size_t kForminfoExpressions = 286;

constexpr std::size_t kColumnBytes = 17;
constexpr std::size_t kColumnLength = 3;
constexpr std::size_t kColumnPack = 8;
constexpr std::size_t kColumnUnireg = 10;
constexpr std::size_t kColumnCollationHigh = 11;
constexpr std::size_t kColumnInterval = 12;
constexpr std::size_t kColumnType = 13;
constexpr std::size_t kColumnCollation = 14;
constexpr std::uint8_t kUniregMySqlGenerated = 0x80;
constexpr std::uint8_t kUniregCompressed = 24;  // TMYSQL_COMPRESSED, in the low 7 bits

constexpr std::size_t kKeysNameBytes = 4;
constexpr std::size_t kKeysFirst = 6;
constexpr std::size_t kKeyBytes = 8;
constexpr std::size_t kKeyParts = 4;
constexpr std::size_t kKeyAlgorithm = 5;
constexpr std::size_t kKeyPartBytes = 9;
constexpr std::size_t kKeyPartLength = 7;
constexpr std::uint16_t kKeyPartColumnMask = 0x3FFF;

constexpr std::size_t kExpressionHeaderBytes = 16;  // MariaDB's expression section opens with it
constexpr std::size_t kExpressionEntryBytes = 6;    // kind, u16 column, u16 expression bytes, name bytes
constexpr std::uint8_t kExpressionVirtual = 0;
constexpr std::uint8_t kExpressionStored = 1;

constexpr std::uint8_t kNamesSeparator = 0xFF;

// Reads past the end as zeros; callers check Has() where the length matters.
class LeReader {
 public:
  explicit LeReader(ConstBytes b) : b_(b) {}
  bool Has(std::size_t at, std::size_t n) const { return at <= b_.size() && n <= b_.size() - at; }
  std::uint8_t U8(std::size_t at) const { return Has(at, 1) ? static_cast<std::uint8_t>(b_[at]) : 0; }
  std::uint16_t U16(std::size_t at) const { return static_cast<std::uint16_t>(U8(at) | U8(at + 1) << 8); }
  std::uint32_t U32(std::size_t at) const { return U16(at) | std::uint32_t{U16(at + 2)} << 16; }
  std::string Text(std::size_t at, std::size_t n) const {
    return Has(at, n) ? std::string(reinterpret_cast<const char*>(b_.data() + at), n) : std::string();
  }
  std::size_t size() const { return b_.size(); }

 private:
  ConstBytes b_;
};

// "\xFF" a "\xFF" b ... "\xFF\0" -> {a, b, ...}
std::vector<std::string> Names(const std::string& s) {
  std::vector<std::string> out;
  std::size_t at = s.empty() ? 0 : 1;
  while (at < s.size() && s[at] != '\0') {
    const std::size_t end = std::min(s.find(static_cast<char>(kNamesSeparator), at), s.size());
    out.push_back(s.substr(at, end - at));
    at = end + 1;
  }
  return out;
}

// The ENUM/SET label lists: per list, its separator byte, each label followed by it, then NUL.
std::vector<std::vector<std::string>> Intervals(const std::string& s) {
  std::vector<std::vector<std::string>> out;
  for (std::size_t at = 0; at < s.size();) {
    const char sep = s[at++];
    std::vector<std::string> labels;
    while (at < s.size() && s[at] != '\0') {
      const std::size_t end = std::min(s.find(sep, at), s.size());
      labels.push_back(s.substr(at, end - at));
      at = end + 1;
    }
    ++at;  // the NUL
    out.push_back(std::move(labels));
  }
  return out;
}

Status Bad(std::size_t at, const std::string& what) { return Status::CorruptionAt(at, ".frm: " + what); }

// MariaDB's extra2: per-column flags and data type names.
Status ReadExtra2(const LeReader& r, std::size_t end, FrmFile& frm) {
  auto& cols = frm.columns;
  for (std::size_t at = kExtra2; at + 2 <= end;) {
    const std::uint8_t type = r.U8(at);
    std::size_t len = r.U8(at + 1), data = at + 2;
    if (len == 0) len = r.U16(at + 2), data = at + 4;
    if (data + len > end) return Bad(at, "an extra2 entry runs past its segment");
    if (type == kExtra2ColumnFlags) {
      for (std::size_t i = 0; i < cols.size() && i < len; ++i) cols[i].invisible = (r.U8(data + i) & 3) != 0;
    } else if (type == kExtra2TypeNames) {
      for (std::size_t p = data; p < data + len;) {
        const std::size_t column = r.U8(p), name_len = r.U8(p + 1);
        if (p + 2 + name_len > data + len) return Bad(p, "a column type name runs past its entry");
        if (column < cols.size()) cols[column].type_name = r.Text(p + 2, name_len);
        p += 2 + name_len;
      }
    }
    at = data + len;
  }
  return Status::Ok();
}

// MariaDB lists each generated column with its kind in the expression section.
void ReadExpressions(const LeReader& r, std::size_t at, std::size_t len, FrmFile& frm) {
  if (len < kExpressionHeaderBytes) return;
  for (std::size_t p = at + kExpressionHeaderBytes; p + kExpressionEntryBytes <= at + len;) {
    const std::uint8_t kind = r.U8(p);
    const std::size_t column = r.U16(p + 1), expr_len = r.U16(p + 3), name_len = r.U8(p + 5);
    if (column < frm.columns.size() && (kind == kExpressionVirtual || kind == kExpressionStored)) {
      frm.columns[column].generated = true;
      frm.columns[column].is_virtual = kind == kExpressionVirtual;
    }
    p += kExpressionEntryBytes + name_len + expr_len;
  }
}

Status ReadKeys(const LeReader& r, FrmFile& frm) {
  const std::size_t keys_at = r.U16(kHeaderKeys);
  std::size_t n_keys = r.U8(keys_at), at = keys_at + kKeysFirst;
  if (n_keys & 0x80) n_keys = (n_keys & 0x7F) | std::size_t{r.U8(keys_at + 1)} << 7;
  frm.keys.resize(n_keys);
  for (FrmKey& key : frm.keys) {
    if (!r.Has(at, kKeyBytes)) return Bad(at, "the keys run past the end");
    key.flags = r.U16(at) ^ FrmKeyFlag::kUnique;
    key.algorithm = r.U8(at + kKeyAlgorithm);
    const std::size_t parts = r.U8(at + kKeyParts);
    at += kKeyBytes;
    for (std::size_t p = 0; p < parts; ++p, at += kKeyPartBytes) {
      if (!r.Has(at, kKeyPartBytes)) return Bad(at, "a key part runs past the end");
      const std::size_t column = r.U16(at) & kKeyPartColumnMask;
      if (column == 0 || column > frm.columns.size())
        return Bad(at,
                   "a key part names column " + std::to_string(column) + " of " + std::to_string(frm.columns.size()));
      key.parts.push_back({column - 1, r.U16(at + kKeyPartLength)});
    }
  }
  const std::vector<std::string> names = Names(r.Text(at, r.U16(keys_at + kKeysNameBytes)));
  for (std::size_t k = 0; k < frm.keys.size() && k < names.size(); ++k) frm.keys[k].name = names[k];
  return Status::Ok();
}

}  // namespace

Result<FrmFile> DecodeFrm(ConstBytes bytes) {
  const LeReader r(bytes);
  if (r.size() < kHeaderBytes || r.U8(0) != 0xFE || r.U8(1) != 0x01)
    return Bad(0, "no FE 01 signature: not a .frm file");
  FrmFile frm;
  frm.server_version = r.U32(kHeaderServerVersion);
  const std::size_t extra2_end = kExtra2 + r.U16(kHeaderExtra2Length);
  const std::size_t forminfo = r.U32(extra2_end);
  if (!r.Has(forminfo, kForminfoBytes))
    return Bad(extra2_end, "forminfo at " + std::to_string(forminfo) + " is past the end");
  const std::size_t n_columns = r.U16(forminfo + kForminfoColumns);
  const std::size_t names_len = r.U16(forminfo + kForminfoNames);
  const std::size_t intervals_len = r.U16(forminfo + kForminfoIntervals);
  const std::size_t comments_len = r.U16(forminfo + kForminfoComments);
  const std::size_t expressions_len = r.U16(forminfo + kForminfoExpressions);
  const std::size_t columns_at = forminfo + kForminfoBytes + r.U16(forminfo + kForminfoScreens);
  const std::size_t names_at = columns_at + kColumnBytes * n_columns;
  const std::size_t intervals_at = names_at + names_len;
  const std::size_t expressions_at = intervals_at + intervals_len + comments_len;
  if (n_columns == 0 ||
      !r.Has(columns_at, kColumnBytes * n_columns + names_len + intervals_len + comments_len + expressions_len)) {
    return Bad(forminfo, std::to_string(n_columns) + " columns and their names do not fit in " +
                             std::to_string(r.size()) + " bytes");
  }
  const std::vector<std::string> names = Names(r.Text(names_at, names_len));
  if (names.size() != n_columns)
    return Bad(names_at, std::to_string(names.size()) + " column names for " + std::to_string(n_columns) + " columns");
  frm.intervals = Intervals(r.Text(intervals_at, intervals_len));

  const std::uint32_t decimals_mask = frm.mariadb() ? 0x3F : 0x1F;
  frm.columns.resize(n_columns);
  for (std::size_t i = 0; i < n_columns; ++i) {
    const std::size_t at = columns_at + kColumnBytes * i;
    FrmColumn& c = frm.columns[i];
    c.name = names[i];
    c.length = r.U16(at + kColumnLength);
    c.pack = r.U16(at + kColumnPack);
    c.decimals = (c.pack >> FrmPack::kDecimalsShift) & decimals_mask;
    c.interval = r.U8(at + kColumnInterval);
    c.type = r.U8(at + kColumnType);
    c.collation = r.U8(at + kColumnCollationHigh) << 8 | r.U8(at + kColumnCollation);
    const std::uint8_t unireg = r.U8(at + kColumnUnireg);
    c.compressed = (unireg & 0x7F) == kUniregCompressed;
    if (!frm.mariadb() && (unireg & kUniregMySqlGenerated) && !frm.mysql_generated_column)
      frm.mysql_generated_column = i;
  }
  if (frm.mariadb()) {
    if (Status s = ReadExtra2(r, extra2_end, frm); !s.ok()) return s;
    ReadExpressions(r, expressions_at, expressions_len, frm);
  }
  if (Status s = ReadKeys(r, frm); !s.ok()) return s;
  return frm;
}

}  // namespace strata::ondisk
