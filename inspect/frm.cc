#include "inspect/frm.h"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <map>

#include "inspect/create_table.h"
#include "inspect/sys_columns.h"
#include "ondisk/column_format.h"
#include "ondisk/mysql_type.h"

namespace strata::inspect {

using namespace strata::ondisk;
using namespace strata::ondisk::mysql_type;  // the .frm column types

namespace {

// Pack flags (sql/field.h FIELDFLAG_*).
constexpr std::uint16_t kPackSigned = 0x1;  // with kPackNumber; for strings: binary
constexpr std::uint16_t kPackNumber = 0x2;
constexpr std::uint16_t kPackZerofill = 0x4;
constexpr std::uint16_t kPackInterval = 0x100;  // ENUM
constexpr std::uint16_t kPackBitfield = 0x200;  // SET
constexpr std::uint16_t kPackMaybeNull = 0x8000;

constexpr std::uint16_t kKeyNoSame = 1;      // HA_NOSAME, stored inverted: unique
constexpr std::uint16_t kKeyFulltext = 128;  // HA_FULLTEXT
constexpr std::uint16_t kKeySpatial = 1024;  // HA_SPATIAL

class Reader {
 public:
  explicit Reader(ConstBytes b) : b_(b) {}
  bool Has(std::size_t at, std::size_t n) const { return at <= b_.size() && n <= b_.size() - at; }
  std::uint8_t U8(std::size_t at) const { return Has(at, 1) ? static_cast<std::uint8_t>(b_[at]) : 0; }
  std::uint16_t U16(std::size_t at) const { return static_cast<std::uint16_t>(U8(at) | U8(at + 1) << 8); }
  std::uint32_t U24(std::size_t at) const { return U16(at) | std::uint32_t{U8(at + 2)} << 16; }
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
    const std::size_t end = std::min(s.find('\xFF', at), s.size());
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

struct FrmColumn {
  std::uint32_t length = 0;  // display width, or bytes (strings), or bits (BIT)
  std::uint16_t pack = 0;
  std::uint8_t type = 0;
  std::uint8_t interval = 0;  // 1-based ENUM/SET list
  int collation = 0;
  std::string type_name;  // MariaDB's extra2 type name (uuid, inet6, ...), if any
  bool invisible = false;
  bool is_virtual = false;
  bool generated = false;
  bool compressed = false;  // MariaDB's COMPRESSED column: values stored zlib-compressed
};

Result<ColumnDef> Column(const std::string& name, const FrmColumn& fc, bool mariadb,
                         const std::vector<std::vector<std::string>>& intervals) {
  ColumnDef c;
  c.name = name;
  c.nullable = fc.pack & kPackMaybeNull;
  c.is_virtual = fc.is_virtual;
  c.generated = fc.generated;
  c.hidden = fc.invisible;  // left out of SELECT *, stored all the same
  ColumnFormat& f = c.format;
  const bool number = fc.pack & kPackNumber;
  c.is_unsigned = f.is_unsigned = number && !(fc.pack & kPackSigned);
  const std::uint32_t decimals = (fc.pack >> 8) & (mariadb ? 0x3F : 0x1F);
  constexpr std::uint32_t kNotFixed = 31;  // NOT_FIXED_DEC: FLOAT without (M,D)
  const bool n = c.nullable;
  auto fixed = [&](std::uint32_t bytes) { c.field = FieldDef::Fixed(name, bytes, n); };
  auto unknown = [&](std::uint32_t bytes, const std::string& what) {
    f.type = ColumnType::kUnknown;
    f.name = what;
    if (bytes) fixed(bytes);
  };
  auto integer = [&](std::uint32_t bytes) {
    f.type = ColumnType::kInt;
    f.length = bytes;
    if (fc.pack & kPackZerofill) f.zerofill_width = fc.length;
    fixed(bytes);
  };
  f.collation = fc.collation ? fc.collation : 63;
  const CharWidth width = WidthOfCollation(f.collation);
  if (!fc.type_name.empty()) {
    f.collation = 63;
    if (fc.type_name == "uuid")
      f.type = ColumnType::kUuid;
    else if (fc.type_name == "inet6")
      f.type = ColumnType::kInet6;
    else if (fc.type_name == "inet4")
      f.type = ColumnType::kInet4;
    else
      return Status::InvalidArgument("column " + name + ": MariaDB type " + fc.type_name +
                                     " is not one this reader knows");
    f.name = fc.type_name;
    fixed(*f.FixedBytes());
  } else if (fc.type == kEnum || fc.type == kSet || (fc.type == kString && fc.pack & (kPackInterval | kPackBitfield))) {
    f.type = fc.type == kEnum || (fc.type == kString && fc.pack & kPackInterval) ? ColumnType::kEnum : ColumnType::kSet;
    if (fc.interval == 0 || fc.interval > intervals.size()) {
      return Status::Corruption(fmt::format("column {}: ENUM/SET list {} of {}", name, fc.interval, intervals.size()));
    }
    f.elements = intervals[fc.interval - 1];
    fixed(*f.FixedBytes());
    // The labels are kept in the column's character set (hex when it is wider than a byte).
    if (CharsetOfCollation(f.collation) != Charset::kUtf8 && CharsetOfCollation(f.collation) != Charset::kBinary) {
      unknown(0, "ENUM or SET with labels in collation " + std::to_string(f.collation) + " (not converted yet)");
    }
  } else {
    switch (fc.type) {
      case kTiny:
        integer(1);
        break;
      case kShort:
        integer(2);
        break;
      case kInt24:
        integer(3);
        break;
      case kLong:
        integer(4);
        break;
      case kLongLong:
        integer(8);
        break;
      case kFloat:
      case kDouble:
        f.type = fc.type == kFloat ? ColumnType::kFloat : ColumnType::kDouble;
        if (decimals < kNotFixed) {
          f.fixed_decimals = true;
          f.scale = decimals;
          if (fc.pack & kPackZerofill) f.zerofill_width = fc.length;
        }
        fixed(fc.type == kFloat ? 4 : 8);
        break;
      case kNewDecimal:
        f.type = ColumnType::kDecimal;
        f.scale = decimals;
        f.precision = fc.length - (decimals ? 1 : 0) - (f.is_unsigned ? 0 : 1);
        if (f.precision < 1 || f.precision > 65 || f.scale > 38 || f.scale > f.precision) {
          return Status::Corruption(fmt::format("column {}: DECIMAL({},{})", name, f.precision, f.scale));
        }
        if (fc.pack & kPackZerofill) f.zerofill_width = f.precision + (f.scale ? 1 : 0);
        fixed(DecimalBytes(f.precision, f.scale));
        break;
      case kBit:
        f.type = ColumnType::kBit;
        f.length = std::clamp<std::uint32_t>(fc.length, 1, 64);
        fixed((f.length + 7) / 8);
        break;
      case kYear:
        f.type = ColumnType::kYear, fixed(1);
        break;
      case kNewDate:
        f.type = ColumnType::kDate, fixed(3);
        break;
      case kTime2:
      case kDatetime2:
      case kTimestamp2: {
        const std::uint32_t whole = fc.type == kTime2 ? 10 : 19;  // characters without a fraction
        f.type = fc.type == kTime2       ? ColumnType::kTime
                 : fc.type == kDatetime2 ? ColumnType::kDatetime
                                         : ColumnType::kTimestamp;
        f.fsp = fc.length > whole ? std::min<std::uint32_t>(fc.length - whole - 1, 6) : 0;
        fixed(*f.FixedBytes());
        break;
      }
      case kDate:
        unknown(4, "DATE in the pre-5.0 format (not decoded)");
        break;
      case kTime:
      case kDatetime:
      case kTimestamp:
        unknown(fc.type == kTime       ? 3
                : fc.type == kDatetime ? 8
                                       : 4,
                "DATETIME, TIMESTAMP or TIME in the MySQL 5.5 format (not decoded)");
        break;
      case kString:
      case kVarchar: {
        if (!width.mbmaxlen)
          return Status::InvalidArgument(
              fmt::format("column {}: collation {} is not one this reader knows", name, f.collation));
        f.type = fc.type == kString ? ColumnType::kChar : ColumnType::kVarchar;
        f.length = fc.length / width.mbmaxlen;
        if (fc.type == kString && width.fixed)
          fixed(fc.length);
        else
          c.field = FieldDef::Variable(name, fc.length, n);
        break;
      }
      case kTinyBlob:
      case kBlob:
      case kMediumBlob:
      case kLongBlob:
        f.type = ColumnType::kVarchar;
        c.field = FieldDef::Variable(name, fc.type == kTinyBlob ? 255 : 0xFFFFFFFF, n, true);
        if (!width.mbmaxlen) unknown(0, "TEXT in collation " + std::to_string(f.collation) + " (not converted yet)");
        break;
      case kJson:
        if (mariadb) return Status::InvalidArgument("column " + name + ": type 245 in a MariaDB .frm");
        f.type = ColumnType::kJson;
        c.field = FieldDef::Variable(name, 0xFFFFFFFF, n, true);
        break;
      case kGeometry:
        f.type = ColumnType::kGeometry;
        f.collation = 63;
        c.field = FieldDef::Variable(name, 0xFFFFFFFF, n, true);
        break;
      default:
        return Status::InvalidArgument(fmt::format("column {}: type {} is not one this reader knows", name, fc.type));
    }
  }
  if (fc.compressed)
    unknown(0, "MariaDB COMPRESSED " + std::string(f.type == ColumnType::kVarchar ? "text" : "column") +
                   " (decompression is not done yet)");
  if (f.name.empty()) f.name = "frm type " + std::to_string(fc.type);
  return c;
}

}  // namespace

Result<TableDef> TableFromFrm(ConstBytes bytes, const std::string& table_name) {
  const Reader r(bytes);
  auto bad = [](std::size_t at, const std::string& what) { return Status::CorruptionAt(at, ".frm: " + what); };
  if (r.size() < 64 || r.U8(0) != 0xFE || r.U8(1) != 0x01) return bad(0, "no FE 01 signature: not a .frm file");
  const std::uint32_t version = r.U32(51);
  const bool mariadb = version >= 100000;  // MariaDB numbers its versions from 10.0
  const std::size_t extra2_end = 64 + r.U16(4);
  const std::size_t forminfo = r.U32(extra2_end);
  if (!r.Has(forminfo, 288)) return bad(extra2_end, fmt::format("forminfo at {} is past the end", forminfo));
  const std::size_t n_fields = r.U16(forminfo + 258);
  const std::size_t screens = r.U16(forminfo + 260);
  const std::size_t names_len = r.U16(forminfo + 268);
  const std::size_t intervals_len = r.U16(forminfo + 274);
  const std::size_t comments_len = r.U16(forminfo + 284);
  const std::size_t vcol_len = r.U16(forminfo + 286);
  const std::size_t fields_at = forminfo + 288 + screens;
  const std::size_t names_at = fields_at + 17 * n_fields;
  const std::size_t intervals_at = names_at + names_len;
  const std::size_t vcols_at = intervals_at + intervals_len + comments_len;
  if (n_fields == 0 || !r.Has(fields_at, 17 * n_fields + names_len + intervals_len + comments_len + vcol_len)) {
    return bad(forminfo, fmt::format("{} columns and their names do not fit in {} bytes", n_fields, r.size()));
  }
  const std::vector<std::string> names = Names(r.Text(names_at, names_len));
  if (names.size() != n_fields)
    return bad(names_at, fmt::format("{} column names for {} columns", names.size(), n_fields));
  const auto intervals = Intervals(r.Text(intervals_at, intervals_len));

  std::vector<FrmColumn> cols(n_fields);
  for (std::size_t i = 0; i < n_fields; ++i) {
    const std::size_t at = fields_at + 17 * i;
    FrmColumn& c = cols[i];
    c.length = r.U16(at + 3);
    c.pack = r.U16(at + 8);
    c.interval = r.U8(at + 12);
    c.type = r.U8(at + 13);
    c.collation = c.type == kGeometry ? 63 : (r.U8(at + 11) << 8 | r.U8(at + 14));
    c.compressed = (r.U8(at + 10) & 0x7F) == 24;  // TMYSQL_COMPRESSED
  }
  // MariaDB's extra2: per-column flags (129) and data type names (130).
  for (std::size_t at = 64; mariadb && at + 2 <= extra2_end;) {
    const std::uint8_t type = r.U8(at);
    std::size_t len = r.U8(at + 1), data = at + 2;
    if (len == 0) len = r.U16(at + 2), data = at + 4;
    if (data + len > extra2_end) return bad(at, "an extra2 entry runs past its segment");
    if (type == 129) {
      for (std::size_t i = 0; i < n_fields && i < len; ++i) cols[i].invisible = (r.U8(data + i) & 3) != 0;
    } else if (type == 130) {
      for (std::size_t p = data; p < data + len;) {
        const std::size_t field = r.U8(p), name_len = r.U8(p + 1);
        if (p + 2 + name_len > data + len) return bad(p, "a column type name runs past its entry");
        if (field < n_fields) cols[field].type_name = r.Text(p + 2, name_len);
        p += 2 + name_len;
      }
    }
    at = data + len;
  }
  // Generated columns: MariaDB lists each with its kind (0 virtual, 1 stored) in the
  // expression section, after a 16-byte header; MySQL 5.7 marks them in byte 10 (bit 7) and
  // keeps virtual ones out of InnoDB by the expression's stored flag.
  if (mariadb && vcol_len >= 16) {
    for (std::size_t p = vcols_at + 16; p + 6 <= vcols_at + vcol_len;) {
      const std::uint8_t kind = r.U8(p);
      const std::size_t field = r.U16(p + 1), expr_len = r.U16(p + 3), name_len = r.U8(p + 5);
      if (kind <= 1 && field < n_fields) cols[field].generated = true;  // 0 virtual, 1 stored
      if (kind == 0 && field < n_fields) cols[field].is_virtual = true;
      p += 6 + name_len + expr_len;
    }
  } else if (!mariadb) {
    for (std::size_t i = 0; i < n_fields; ++i) {
      if (r.U8(fields_at + 17 * i + 10) & 0x80) {
        return Status::InvalidArgument("column " + names[i] +
                                       ": MySQL 5.7 generated columns are not read from .frm yet");
      }
    }
  }

  TableDef t;
  t.name = table_name;
  for (std::size_t i = 0; i < n_fields; ++i) {
    auto c = Column(names[i], cols[i], mariadb, intervals);
    if (!c.ok()) return c.status().WithContext(".frm");
    t.columns.push_back(std::move(*c));
  }

  // Keys: the clustered one (PRIMARY, else the first unique one of NOT NULL whole columns,
  // which LayOutTable finds), and FULLTEXT ones' first columns.
  const std::size_t keys_at = r.U16(6);
  std::size_t n_keys = r.U8(keys_at), at = keys_at + 6;
  if (n_keys & 0x80) n_keys = (n_keys & 0x7F) | std::size_t{r.U8(keys_at + 1)} << 7;
  std::vector<IndexSpec> specs(n_keys);
  for (std::size_t k = 0; k < n_keys; ++k) {
    if (!r.Has(at, 8)) return bad(at, "the keys run past the end");
    const std::uint16_t flags = r.U16(at) ^ kKeyNoSame;
    const std::size_t parts = r.U8(at + 4);
    at += 8;
    IndexSpec& spec = specs[k];
    spec.unique = flags & kKeyNoSame;
    // MariaDB's long UNIQUE keys are checked through a hidden hash column, not an index on theirs.
    spec.skip = (flags & (kKeyFulltext | kKeySpatial)) || r.U8(at - 8 + 5) == 4;
    for (std::size_t p = 0; p < parts; ++p, at += 9) {
      if (!r.Has(at, 9)) return bad(at, "a key part runs past the end");
      const std::size_t field = (r.U16(at) & 0x3FFF) - 1;
      if (field >= n_fields) return bad(at, fmt::format("a key part names column {} of {}", field + 1, n_fields));
      const std::uint32_t bytes = r.U16(at + 7);
      const ColumnDef& col = t.columns[field];
      const bool prefix =
          col.field.is_variable() ? col.field.blob || bytes < col.field.max_length : bytes < col.field.fixed_length;
      spec.parts.push_back({col.name, prefix ? bytes : 0});
    }
    if ((flags & kKeyFulltext) && !spec.parts.empty()) t.fulltext_first_columns.push_back(spec.parts.front().first);
  }
  const std::vector<std::string> key_names = Names(r.Text(at, r.U16(keys_at + 4)));
  for (std::size_t k = 0; k < specs.size() && k < key_names.size(); ++k) {
    specs[k].name = key_names[k];
    specs[k].primary = key_names[k] == "PRIMARY";
  }
  std::erase_if(specs, [](const IndexSpec& s) { return s.skip; });
  return LayOutTable(std::move(t), specs);
}

Result<TableDef> TableFromFrmBeside(const SpaceFile& file) {
  const auto path = FrmBeside(file.path());
  if (!path) return Status::NotFound("no .frm beside " + file.path().string());
  std::ifstream in(*path, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  auto def = TableFromFrm({reinterpret_cast<const std::byte*>(bytes.data()), bytes.size()}, path->stem().string());
  if (!def.ok()) return def.status().WithContext(path->string());
  if (Status placed = PlaceInFile(*def, file); !placed.ok()) return placed.WithContext(path->string());
  return def;
}

std::optional<std::filesystem::path> FrmBeside(const std::filesystem::path& ibd) {
  std::error_code ec;
  // A partition's file (t#P#p0.ibd, t#p#p0#sp#s0.ibd) has the table's .frm (t.frm).
  std::string stem = ibd.stem().string();
  if (const auto hash = stem.find('#'); hash != std::string::npos) stem.resize(hash);
  const auto frm = ibd.parent_path() / (stem + ".frm");
  if (std::filesystem::is_regular_file(frm, ec)) return frm;
  return std::nullopt;
}

}  // namespace strata::inspect
