#include "inspect/frm.h"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <map>

#include "inspect/create_table.h"
#include "inspect/sys_columns.h"
#include "ondisk/column_format.h"
#include "ondisk/frm.h"
#include "ondisk/mysql_type.h"

namespace strata::inspect {

using namespace strata::ondisk;
using namespace strata::ondisk::mysql_type;  // the .frm column types

namespace {

Result<ColumnDef> Column(const FrmColumn& fc, const FrmFile& frm) {
  const std::string& name = fc.name;
  const bool mariadb = frm.mariadb();
  const auto& intervals = frm.intervals;
  ColumnDef c;
  c.name = name;
  c.nullable = fc.nullable();
  c.is_virtual = fc.is_virtual;
  c.generated = fc.generated;
  c.hidden = fc.invisible;  // left out of SELECT *, stored all the same
  ColumnFormat& f = c.format;
  c.is_unsigned = f.is_unsigned = fc.is_unsigned();
  const std::uint32_t decimals = fc.decimals;
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
    if (fc.zerofill()) f.zerofill_width = fc.length;
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
  } else if (fc.type == kEnum || fc.type == kSet ||
             (fc.type == kString && fc.pack & (FrmPack::kInterval | FrmPack::kBitfield))) {
    f.type =
        fc.type == kEnum || (fc.type == kString && fc.pack & FrmPack::kInterval) ? ColumnType::kEnum : ColumnType::kSet;
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
          if (fc.zerofill()) f.zerofill_width = fc.length;
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
        if (fc.zerofill()) f.zerofill_width = f.precision + (f.scale ? 1 : 0);
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
  auto frm = DecodeFrm(bytes);
  if (!frm.ok()) return frm.status();
  if (frm->mysql_generated_column) {
    return Status::InvalidArgument("column " + frm->columns[*frm->mysql_generated_column].name +
                                   ": MySQL 5.7 generated columns are not read from .frm yet");
  }
  TableDef t;
  t.name = table_name;
  for (const FrmColumn& fc : frm->columns) {
    auto c = Column(fc, *frm);
    if (!c.ok()) return c.status().WithContext(".frm");
    t.columns.push_back(std::move(*c));
  }
  // Keys: the clustered one (PRIMARY, else the first unique one of NOT NULL whole columns,
  // which LayOutTable finds), and FULLTEXT ones' first columns.
  std::vector<IndexSpec> specs;
  for (const FrmKey& key : frm->keys) {
    IndexSpec spec;
    spec.name = key.name;
    spec.primary = key.name == "PRIMARY";
    spec.unique = key.flags & FrmKeyFlag::kUnique;
    spec.skip =
        (key.flags & (FrmKeyFlag::kFulltext | FrmKeyFlag::kSpatial)) || key.algorithm == kFrmKeyAlgorithmLongHash;
    for (const FrmKeyPart& part : key.parts) {
      const ColumnDef& col = t.columns[part.column];
      const bool prefix = col.field.is_variable() ? col.field.blob || part.bytes < col.field.max_length
                                                  : part.bytes < col.field.fixed_length;
      spec.parts.push_back({col.name, prefix ? part.bytes : 0});
    }
    if ((key.flags & FrmKeyFlag::kFulltext) && !spec.parts.empty())
      t.fulltext_first_columns.push_back(spec.parts.front().first);
    if (!spec.skip) specs.push_back(std::move(spec));
  }
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
