#include "sqltext/column_layout.h"

#include <algorithm>

#include "ondisk/charsets.h"

namespace strata::sqltext {

using namespace strata::ondisk;

namespace {

struct TextCharset {
  CharsetInfo info;
  int collation = 0;  // an id of the set: enough to know how its bytes print
};

// The character set a text column's bytes are in: its own, else the table's, else utf8mb4.
Result<TextCharset> CharsetOf(const ColumnText& col, const TableOptions& table) {
  const TypeText& t = col.type;
  TextCharset cs;
  const bool own = !t.charset.empty() || !t.collation.empty();
  const std::string& charset = own ? t.charset : table.charset;
  const std::string& collation = own ? t.collation : table.collation;
  if (!collation.empty())
    cs.info = CharsetOfCollationNamed(collation, &cs.collation);
  else
    cs.info = CharsetNamed(charset.empty() ? "utf8mb4" : charset, &cs.collation);
  if (!cs.info.name) {
    return Status::InvalidArgument("column " + col.name + ": character set or collation " +
                                   (collation.empty() ? charset : collation) + " is not one this reader knows");
  }
  return cs;
}

// The width ZEROFILL pads to when the type gives none: the widest value's digits.
std::uint32_t DefaultDisplayWidth(const ColumnFormat& f) {
  if (f.type != ColumnType::kInt) return 0;
  switch (f.length) {
    case 1:
      return 3;
    case 2:
      return 5;
    case 3:
      return 8;
    case 4:
      return 10;
    default:
      return 20;
  }
}

bool IsLob(const std::string& t) {
  static constexpr const char* kLobs[] = {"TINYTEXT", "TEXT", "MEDIUMTEXT", "LONGTEXT",
                                          "TINYBLOB", "BLOB", "MEDIUMBLOB", "LONGBLOB"};
  return std::find(std::begin(kLobs), std::end(kLobs), t) != std::end(kLobs);
}

// The lower-case name the server prints, with the arguments as written ("decimal(10,2)").
std::string SqlTypeName(const TypeText& t) {
  std::string name = Lower(t.name);
  if (t.name == "ENUM" || t.name == "SET" || t.args.empty()) return name;
  name += "(";
  for (std::size_t i = 0; i < t.args.size(); ++i) name += (i ? "," : "") + t.args[i];
  return name + ")";
}

class Layout {
 public:
  Layout(const ColumnText& col, const TextCharset& cs, Flavor flavor)
      : col_(col), t_(col.type), cs_(cs), flavor_(flavor), n_(col.nullable) {
    f_.is_unsigned = t_.is_unsigned;
  }

  Result<ColumnLayout> Run() {
    if (!Number() && !Temporal() && !Text() && !Other()) {
      return Status::InvalidArgument("column '" + col_.name + "': type " + Lower(t_.name) +
                                     " is not one this reader knows");
    }
    f_.name = f_.type == ColumnType::kEnum || f_.type == ColumnType::kSet ? Lower(t_.name) : SqlTypeName(t_);
    if (t_.zerofill) {
      f_.zerofill_width = f_.type == ColumnType::kDecimal ? f_.precision + (f_.scale ? 1 : 0)
                          : !t_.args.empty()              ? t_.Arg(0, 0)
                                                          : DefaultDisplayWidth(f_);
    }
    ColumnLayout out{field_, f_, f_.name + (t_.is_unsigned ? " unsigned" : "")};
    if (t_.compressed) {
      out.format.type = ColumnType::kUnknown;  // says so for every value instead of printing zlib bytes
      out.format.name = "MariaDB COMPRESSED " + out.format.name + " (decompression is not done yet)";
    }
    return out;
  }

 private:
  void Fixed(std::uint32_t bytes) { field_ = FieldDef::Fixed(col_.name, bytes, n_); }
  void Integer(std::uint32_t bytes) {
    f_.type = ColumnType::kInt;
    f_.length = bytes;
    Fixed(bytes);
  }

  bool Number() {
    const std::string& t = t_.name;
    if (t == "TINYINT" || t == "SMALLINT" || t == "MEDIUMINT" || t == "INT" || t == "BIGINT") {
      Integer(t == "TINYINT" ? 1 : t == "SMALLINT" ? 2 : t == "MEDIUMINT" ? 3 : t == "INT" ? 4 : 8);
    } else if (t == "DECIMAL") {
      f_.type = ColumnType::kDecimal;
      f_.precision = std::clamp<std::uint32_t>(t_.Arg(0, 10), 1, 65);
      f_.scale = std::min<std::uint32_t>(t_.Arg(1, 0), std::min<std::uint32_t>(30, f_.precision));
      Fixed(DecimalBytes(f_.precision, f_.scale));
    } else if (t == "FLOAT" || t == "DOUBLE") {
      f_.type = t == "FLOAT" ? ColumnType::kFloat : ColumnType::kDouble;
      Fixed(t == "FLOAT" ? 4 : 8);
      if (t_.args.size() == 2) {  // FLOAT(M,D): printed with D decimals
        f_.fixed_decimals = true;
        f_.scale = std::min<std::uint32_t>(t_.Arg(1, 0), 30);
      }
    } else if (t == "BIT") {
      f_.type = ColumnType::kBit;
      f_.length = std::clamp<std::uint32_t>(t_.Arg(0, 1), 1, 64);
      Fixed((f_.length + 7) / 8);
    } else {
      return false;
    }
    return true;
  }

  bool Temporal() {
    const std::string& t = t_.name;
    if (t == "YEAR") {
      f_.type = ColumnType::kYear;
      Fixed(1);
    } else if (t == "DATE") {
      f_.type = ColumnType::kDate;
      Fixed(3);
    } else if (t == "TIME" || t == "DATETIME" || t == "TIMESTAMP") {
      f_.type = t == "TIME" ? ColumnType::kTime : t == "DATETIME" ? ColumnType::kDatetime : ColumnType::kTimestamp;
      f_.fsp = std::min<std::uint32_t>(t_.Arg(0, 0), 6);
      Fixed((t == "TIME" ? 3 : t == "DATETIME" ? 5 : 4) + (f_.fsp + 1) / 2);
    } else {
      return false;
    }
    return true;
  }

  bool Text() {
    const std::string& t = t_.name;
    const bool binary_type = t == "BINARY" || t == "VARBINARY";
    const CharsetInfo used = binary_type ? CharsetOfCollationId(63) : cs_.info;
    f_.collation = binary_type ? 63 : cs_.collation;
    if (t == "CHAR" || t == "BINARY") {
      f_.type = ColumnType::kChar;
      f_.length = t_.Arg(0, 1);
      // CHAR in a character set of varying width is stored with a length, like VARCHAR.
      if (used.fixed || used.mbmaxlen == 1)
        Fixed(f_.length * used.mbmaxlen);
      else
        field_ = FieldDef::Variable(col_.name, f_.length * used.mbmaxlen, n_);
    } else if (t == "VARCHAR" || t == "VARBINARY") {
      f_.type = ColumnType::kVarchar;
      f_.length = t_.Arg(0, 1);
      field_ = FieldDef::Variable(col_.name, f_.length * used.mbmaxlen, n_);
    } else if (IsLob(t) || (t == "JSON" && flavor_ == Flavor::kMariaDb)) {
      f_.type = ColumnType::kVarchar;
      f_.collation = t.find("BLOB") != std::string::npos ? 63 : t == "JSON" ? 45 : cs_.collation;
      field_ = FieldDef::Variable(col_.name, t.rfind("TINY", 0) == 0 ? 255 : 0xFFFFFFFF, n_, true);
    } else if (t == "ENUM" || t == "SET") {
      f_.type = t == "ENUM" ? ColumnType::kEnum : ColumnType::kSet;
      f_.elements = t_.args;
      Fixed(*f_.FixedBytes());
    } else {
      return false;
    }
    return true;
  }

  bool Other() {
    const std::string& t = t_.name;
    static constexpr const char* kGeometry[] = {"GEOMETRY",   "POINT",           "LINESTRING",   "POLYGON",
                                                "MULTIPOINT", "MULTILINESTRING", "MULTIPOLYGON", "GEOMETRYCOLLECTION"};
    if (t == "JSON" || std::find(std::begin(kGeometry), std::end(kGeometry), t) != std::end(kGeometry)) {
      f_.type = t == "JSON" ? ColumnType::kJson : ColumnType::kGeometry;
      field_ = FieldDef::Variable(col_.name, 0xFFFFFFFF, n_, true);
    } else if (t == "UUID" || t == "INET6" || t == "INET4") {
      f_.type = t == "UUID" ? ColumnType::kUuid : t == "INET6" ? ColumnType::kInet6 : ColumnType::kInet4;
      Fixed(*f_.FixedBytes());
    } else {
      return false;
    }
    return true;
  }

  const ColumnText& col_;
  const TypeText& t_;
  const TextCharset& cs_;
  Flavor flavor_;
  bool n_;
  ColumnFormat f_;
  FieldDef field_;
};

}  // namespace

Result<ColumnLayout> LayoutOf(const ColumnText& col, const TableOptions& table, Flavor flavor) {
  auto cs = CharsetOf(col, table);
  if (!cs.ok()) return cs.status();
  return Layout(col, *cs, flavor).Run();
}

}  // namespace strata::sqltext
