#include "inspect/frm.h"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <map>

#include "inspect/create_table.h"
#include "inspect/table_layout.h"
#include "inspect/sys_columns.h"
#include "ondisk/charsets.h"
#include "ondisk/column_format.h"
#include "ondisk/frm.h"
#include "ondisk/mysql_type.h"

namespace strata::inspect {

using namespace strata::ondisk;
using namespace strata::ondisk::mysql_type;  // the .frm column types

namespace {

constexpr std::uint32_t kNotFixed = 31;  // NOT_FIXED_DEC: FLOAT without (M,D)

// One .frm column as the definition rows decode with, by the family of its type. A type this
// reader does not decode keeps its width, so the columns after it still decode.
class ColumnReader {
 public:
  ColumnReader(const FrmColumn& fc, const FrmFile& frm) : fc_(fc), frm_(frm), f_(c_.format) {
    c_.name = fc.name;
    c_.nullable = fc.nullable();
    c_.is_virtual = fc.is_virtual;
    c_.generated = fc.generated;
    c_.hidden = fc.invisible;  // left out of SELECT *, stored all the same
    c_.is_unsigned = f_.is_unsigned = fc.is_unsigned();
    f_.collation = fc.collation ? fc.collation : 63;
  }

  Result<ColumnDef> Read() {
    Status st = !fc_.type_name.empty() ? Named() : IsEnumOrSet() ? EnumOrSet() : ByType();
    if (!st.ok()) return st;
    if (fc_.compressed)
      Unknown(0, "MariaDB COMPRESSED " + std::string(f_.type == ColumnType::kVarchar ? "text" : "column") +
                     " (decompression is not done yet)");
    if (f_.name.empty()) f_.name = "frm type " + std::to_string(fc_.type);
    return std::move(c_);
  }

 private:
  void Fixed(std::uint32_t bytes) { c_.field = FieldDef::Fixed(c_.name, bytes, c_.nullable); }
  void Variable(std::uint32_t max_bytes, bool blob = false) {
    c_.field = FieldDef::Variable(c_.name, max_bytes, c_.nullable, blob);
  }
  void Unknown(std::uint32_t bytes, const std::string& what) {
    f_.type = ColumnType::kUnknown;
    f_.name = what;
    if (bytes) Fixed(bytes);
  }
  Status Refuse(const std::string& what) const { return Status::InvalidArgument("column " + c_.name + ": " + what); }

  // MariaDB's data type plugins, named in extra2: stored as fixed binary.
  Status Named() {
    f_.collation = 63;
    if (fc_.type_name == "uuid")
      f_.type = ColumnType::kUuid;
    else if (fc_.type_name == "inet6")
      f_.type = ColumnType::kInet6;
    else if (fc_.type_name == "inet4")
      f_.type = ColumnType::kInet4;
    else
      return Refuse("MariaDB type " + fc_.type_name + " is not one this reader knows");
    f_.name = fc_.type_name;
    Fixed(*f_.FixedBytes());
    return Status::Ok();
  }

  bool IsEnumOrSet() const {
    return fc_.type == kEnum || fc_.type == kSet ||
           (fc_.type == kString && (fc_.pack & (FrmPack::kInterval | FrmPack::kBitfield)));
  }
  Status EnumOrSet() {
    const bool is_enum = fc_.type == kEnum || (fc_.type == kString && (fc_.pack & FrmPack::kInterval));
    f_.type = is_enum ? ColumnType::kEnum : ColumnType::kSet;
    if (fc_.interval == 0 || fc_.interval > frm_.intervals.size()) {
      return Status::Corruption(
          fmt::format("column {}: ENUM/SET list {} of {}", c_.name, fc_.interval, frm_.intervals.size()));
    }
    f_.elements = frm_.intervals[fc_.interval - 1];
    Fixed(*f_.FixedBytes());
    // The labels are kept in the column's character set (hex when it is wider than a byte).
    const Charset cs = CharsetOfCollation(f_.collation);
    if (cs != Charset::kUtf8 && cs != Charset::kBinary && cs != Charset::kLatin1)
      Unknown(0, "ENUM or SET with labels in collation " + std::to_string(f_.collation) + " (not converted yet)");
    return Status::Ok();
  }

  Status ByType() {
    switch (fc_.type) {
      case kTiny:
        return Integer(1);
      case kShort:
        return Integer(2);
      case kInt24:
        return Integer(3);
      case kLong:
        return Integer(4);
      case kLongLong:
        return Integer(8);
      case kFloat:
      case kDouble:
        return Floating();
      case kNewDecimal:
        return Decimal();
      case kBit:
        f_.type = ColumnType::kBit;
        f_.length = std::clamp<std::uint32_t>(fc_.length, 1, 64);
        Fixed((f_.length + 7) / 8);
        return Status::Ok();
      case kYear:
        f_.type = ColumnType::kYear, Fixed(1);
        return Status::Ok();
      case kNewDate:
        f_.type = ColumnType::kDate, Fixed(3);
        return Status::Ok();
      case kTime2:
      case kDatetime2:
      case kTimestamp2:
        return Temporal();
      case kDate:
        Unknown(4, "DATE in the pre-5.0 format (not decoded)");
        return Status::Ok();
      case kTime:
      case kDatetime:
      case kTimestamp:
        Unknown(fc_.type == kTime       ? 3
                : fc_.type == kDatetime ? 8
                                        : 4,
                "DATETIME, TIMESTAMP or TIME in the MySQL 5.5 format (not decoded)");
        return Status::Ok();
      case kString:
      case kVarchar:
        return String();
      case kTinyBlob:
      case kBlob:
      case kMediumBlob:
      case kLongBlob:
        f_.type = ColumnType::kVarchar;
        Variable(fc_.type == kTinyBlob ? 255 : 0xFFFFFFFF, true);
        if (!ondisk::CharsetOfCollationId(f_.collation).mbmaxlen)
          Unknown(0, "TEXT in collation " + std::to_string(f_.collation) + " (not converted yet)");
        return Status::Ok();
      case kJson:
        if (frm_.mariadb()) return Refuse("type 245 in a MariaDB .frm");
        f_.type = ColumnType::kJson;
        Variable(0xFFFFFFFF, true);
        return Status::Ok();
      case kGeometry:
        f_.type = ColumnType::kGeometry;
        f_.collation = 63;
        Variable(0xFFFFFFFF, true);
        return Status::Ok();
      default:
        return Refuse(fmt::format("type {} is not one this reader knows", fc_.type));
    }
  }

  Status Integer(std::uint32_t bytes) {
    f_.type = ColumnType::kInt;
    f_.length = bytes;
    if (fc_.zerofill()) f_.zerofill_width = fc_.length;
    Fixed(bytes);
    return Status::Ok();
  }

  Status Floating() {
    f_.type = fc_.type == kFloat ? ColumnType::kFloat : ColumnType::kDouble;
    if (fc_.decimals < kNotFixed) {
      f_.fixed_decimals = true;
      f_.scale = fc_.decimals;
      if (fc_.zerofill()) f_.zerofill_width = fc_.length;
    }
    Fixed(fc_.type == kFloat ? 4 : 8);
    return Status::Ok();
  }

  Status Decimal() {
    f_.type = ColumnType::kDecimal;
    f_.scale = fc_.decimals;
    // The display length counts the point and the sign.
    f_.precision = fc_.length - (fc_.decimals ? 1 : 0) - (f_.is_unsigned ? 0 : 1);
    if (f_.precision < 1 || f_.precision > 65 || f_.scale > 38 || f_.scale > f_.precision)
      return Status::Corruption(fmt::format("column {}: DECIMAL({},{})", c_.name, f_.precision, f_.scale));
    if (fc_.zerofill()) f_.zerofill_width = f_.precision + (f_.scale ? 1 : 0);
    Fixed(DecimalBytes(f_.precision, f_.scale));
    return Status::Ok();
  }

  Status Temporal() {
    const std::uint32_t whole = fc_.type == kTime2 ? 10 : 19;  // characters without a fraction
    f_.type = fc_.type == kTime2       ? ColumnType::kTime
              : fc_.type == kDatetime2 ? ColumnType::kDatetime
                                       : ColumnType::kTimestamp;
    f_.fsp = fc_.length > whole ? std::min<std::uint32_t>(fc_.length - whole - 1, 6) : 0;
    Fixed(*f_.FixedBytes());
    return Status::Ok();
  }

  Status String() {
    const ondisk::CharsetInfo width = ondisk::CharsetOfCollationId(f_.collation);
    if (!width.mbmaxlen) return Refuse(fmt::format("collation {} is not one this reader knows", f_.collation));
    f_.type = fc_.type == kString ? ColumnType::kChar : ColumnType::kVarchar;
    f_.length = fc_.length / width.mbmaxlen;
    if (fc_.type == kString && width.fixed)
      Fixed(fc_.length);
    else
      Variable(fc_.length);
    return Status::Ok();
  }

  const FrmColumn& fc_;
  const FrmFile& frm_;
  ColumnDef c_;
  ColumnFormat& f_;
};

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
    auto c = ColumnReader(fc, *frm).Read();
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
