#include "engine/schema.h"

#include <fmt/format.h>

#include <set>

#include "engine/elements.h"
#include "ondisk/geometry.h"
#include "engine/row_codec.h"

namespace strata::engine {

bool Column::is_string() const {
  switch (type) {
    case ColumnType::kChar:
    case ColumnType::kVarchar:
    case ColumnType::kTinyText:
    case ColumnType::kText:
    case ColumnType::kMediumText:
    case ColumnType::kLongText:
      return true;
    default:
      return false;
  }
}

std::int64_t YearOf(std::int64_t n, std::optional<std::string_view> text) {
  if (n < 0 || n >= 100) return n;
  if (n == 0 && (!text || text->size() == 4)) return 0;  // the number 0 and '0000' are 0000
  return n < 70 ? n + 2000 : n + 1900;                   // '0', '00', '000' are 2000
}

std::uint32_t Column::lob_max_bytes() const {
  switch (type) {
    case ColumnType::kTinyText:
    case ColumnType::kTinyBlob:
      return 255;
    case ColumnType::kText:
    case ColumnType::kBlob:
      return 65535;
    case ColumnType::kMediumText:
    case ColumnType::kMediumBlob:
      return 16777215;
    default:
      return 0xFFFFFFFF;
  }
}

std::string Column::SqlType() const {
  const std::string u = std::string(is_unsigned ? " unsigned" : "") + (zerofill ? " zerofill" : "");
  // An integer's display width shows only with ZEROFILL, as MySQL 8.0 prints it.
  const std::string width = zerofill ? fmt::format("({})", DisplayWidth(*this)) : "";
  switch (type) {
    case ColumnType::kTinyInt:
      return "tinyint" + width + u;
    case ColumnType::kSmallInt:
      return "smallint" + width + u;
    case ColumnType::kMediumInt:
      return "mediumint" + width + u;
    case ColumnType::kInt:
      return "int" + width + u;
    case ColumnType::kBigInt:
      return "bigint" + width + u;
    case ColumnType::kDecimal:
      return fmt::format("decimal({},{}){}", length, scale, u);
    case ColumnType::kFloat:
    case ColumnType::kDouble: {
      const char* name = type == ColumnType::kFloat ? "float" : "double";
      return length ? fmt::format("{}({},{}){}", name, length, scale, u) : name + u;
    }
    case ColumnType::kChar:
      return fmt::format("char({})", length);
    case ColumnType::kVarchar:
      return fmt::format("varchar({})", length);
    case ColumnType::kBinary:
      return fmt::format("binary({})", length);
    case ColumnType::kVarbinary:
      return fmt::format("varbinary({})", length);
    case ColumnType::kDate:
      return "date";
    case ColumnType::kYear:
      return "year";
    case ColumnType::kEnum:
    case ColumnType::kSet:
      return ElementsSqlType(*this);
    case ColumnType::kBit:
      return fmt::format("bit({})", length);
    case ColumnType::kTime:
      return scale ? fmt::format("time({})", scale) : "time";
    case ColumnType::kUuid:
      return "uuid";
    case ColumnType::kInet4:
      return "inet4";
    case ColumnType::kInet6:
      return "inet6";
    case ColumnType::kJson:
      return "json";
    case ColumnType::kGeometry: {
      std::string name(ondisk::GeometryTypeName(static_cast<ondisk::GeometryType>(length)));
      for (char& ch : name) ch = static_cast<char>(ch | 0x20);
      return name;
    }
    case ColumnType::kDatetime:
      return scale ? fmt::format("datetime({})", scale) : "datetime";
    case ColumnType::kTimestamp:
      return scale ? fmt::format("timestamp({})", scale) : "timestamp";
    case ColumnType::kTinyText:
      return "tinytext";
    case ColumnType::kText:
      return "text";
    case ColumnType::kMediumText:
      return "mediumtext";
    case ColumnType::kLongText:
      return "longtext";
    case ColumnType::kTinyBlob:
      return "tinyblob";
    case ColumnType::kBlob:
      return "blob";
    case ColumnType::kMediumBlob:
      return "mediumblob";
    case ColumnType::kLongBlob:
      return "longblob";
  }
  return "?";
}

std::optional<std::size_t> TableSpec::ColumnIndex(const std::string& column) const {
  for (std::size_t i = 0; i < columns.size(); ++i) {
    if (columns[i].name == column) return i;
  }
  return std::nullopt;
}

void TableSpec::ClearRowVersions() {
  row_version = 0;
  dropped_columns.clear();
  for (Column& c : columns) {
    c.physical_pos = 0;
    c.version_added = c.version_dropped = 0;
    c.instant_default.reset();
  }
}

std::size_t FirstInvalidUtf8(std::string_view s) {
  const auto* begin = reinterpret_cast<const unsigned char*>(s.data());
  const auto* end = begin + s.size();
  for (const auto* p = begin; p < end;) {
    const unsigned char c = *p;
    std::size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
    bool ok = n != 0 && static_cast<std::size_t>(end - p) >= n;
    for (std::size_t k = 1; ok && k < n; ++k) ok = (p[k] & 0xC0) == 0x80;
    if (ok && n == 2) ok = c >= 0xC2;
    if (ok && n == 3) ok = !(c == 0xE0 && p[1] < 0xA0) && !(c == 0xED && p[1] >= 0xA0);
    if (ok && n == 4) ok = c <= 0xF4 && !(c == 0xF0 && p[1] < 0x90) && !(c == 0xF4 && p[1] >= 0x90);
    if (!ok) return static_cast<std::size_t>(p - begin);
    p += n;
  }
  return std::string_view::npos;
}

Status CheckTableOrDatabaseName(const std::string& name) {
  if (name.empty() || name.size() > 64 || name.find_first_of("/\\.") != std::string::npos || name.back() == ' ')
    return Status::InvalidArgument(fmt::format("name '{}' is not allowed", name));
  return Status::Ok();
}

Status CheckValue(const Column& c, const Value& v) { return EncodeValue(c, v).status(); }

Result<Value> StoredValue(const Column& c, const Value& v) {
  auto d = EncodeValue(c, v);
  if (!d.ok()) return d.status();
  return DecodeValue(c, *d);
}

Status CheckIdentifier(const std::string& name) {
  // Well-formed UTF-8, as MySQL requires of identifiers; the SDI and the catalog are JSON,
  // which holds nothing else.
  const std::size_t bad = FirstInvalidUtf8(name);
  if (bad == std::string_view::npos) return Status::Ok();
  std::string hex;
  for (std::size_t i = bad; i < name.size() && hex.size() < 16; ++i)
    hex += fmt::format("{:02X}", static_cast<unsigned char>(name[i]));
  return Status::InvalidArgument(fmt::format("Invalid utf8mb4 character string: '{}'", hex))
      .Because(Status::Reason::kInvalidCharacterString);
}

namespace {

// What is wrong with a column's length, precision or labels, or nullopt.
std::optional<std::string> SizeProblem(const Column& c) {
  switch (c.type) {
    case ColumnType::kChar:
    case ColumnType::kBinary:
      if (c.length > 255) return fmt::format("length {} is over 255", c.length);
      break;
    case ColumnType::kVarchar:
    case ColumnType::kVarbinary:
      if (c.length == 0 || c.length > 65535) return fmt::format("length {} is out of range", c.length);
      break;
    case ColumnType::kDecimal:
      if (c.length < 1 || c.length > 65 || c.scale > 30 || c.scale > c.length)
        return fmt::format("decimal({},{}) is out of range", c.length, c.scale);
      break;
    case ColumnType::kBit:
      if (c.length < 1 || c.length > 64) return fmt::format("bit({}) is out of range", c.length);
      break;
    case ColumnType::kEnum:
    case ColumnType::kSet:
      if (c.elements.empty() || c.elements.size() > (c.type == ColumnType::kEnum ? 65535u : 64u))
        return fmt::format("{} labels are too many or none", c.elements.size());
      break;
    case ColumnType::kGeometry:
      if (c.length > 7) return fmt::format("no shape numbered {}", c.length);
      break;
    case ColumnType::kTime:
    case ColumnType::kDatetime:
    case ColumnType::kTimestamp:
      if (c.scale > 6) return std::string("at most 6 fractional digits");
      break;
    default:
      break;
  }
  return std::nullopt;
}

}  // namespace

Status TableSpec::Validate() const {
  auto bad = [&](const std::string& what) {
    return Status::InvalidArgument(fmt::format("table {}.{}: {}", database, name, what));
  };
  STRATA_RETURN_IF_ERROR(CheckIdentifier(database));
  STRATA_RETURN_IF_ERROR(CheckIdentifier(name));
  for (const auto& c : columns) STRATA_RETURN_IF_ERROR(CheckIdentifier(c.name));
  for (const auto& ix : indexes) STRATA_RETURN_IF_ERROR(CheckIdentifier(ix.name));
  if (name.empty() || database.empty()) return bad("database and table names must not be empty");
  for (const std::string* n : {&name, &database}) {
    if (Status s = CheckTableOrDatabaseName(*n); !s.ok()) return bad(s.message());
  }
  if (columns.empty()) return bad("a table must have at least one column");
  if (columns.size() > 1000) return bad("too many columns (at most 1000)");
  std::set<std::string> names;
  int autoinc = 0;
  for (const auto& c : columns) {
    if (c.name.empty() || !names.insert(c.name).second)
      return bad(fmt::format("duplicate or empty column name '{}'", c.name));
    if (c.name.rfind("DB_", 0) == 0 && (c.name == "DB_ROW_ID" || c.name == "DB_TRX_ID" || c.name == "DB_ROLL_PTR")) {
      return bad(fmt::format("column name '{}' is reserved for InnoDB's hidden columns", c.name));
    }
    if (auto problem = SizeProblem(c)) return bad(fmt::format("column '{}': {}", c.name, *problem));
    // A default is a value the column must hold: checked here, not at the first INSERT that
    // relies on it (CURRENT_TIMESTAMP, the one function a default may be, is the session's).
    if (c.default_value &&
        !(c.default_value->is_string() && c.default_value->as_string() == "CURRENT_TIMESTAMP" && !c.is_string())) {
      if (!CheckValue(c, *c.default_value).ok()) {
        return Status::InvalidArgument(fmt::format("Invalid default value for '{}'", c.name))
            .Because(Status::Reason::kInvalidDefault);
      }
    }
    if (c.auto_increment) {
      ++autoinc;
      if (!c.is_integer()) return bad(fmt::format("AUTO_INCREMENT column '{}' must be an integer", c.name));
    }
  }
  if (autoinc > 1) return bad("there can be only one AUTO_INCREMENT column");
  std::set<std::string> pk;
  for (const auto& k : primary_key) {
    auto i = ColumnIndex(k);
    if (!i) return bad(fmt::format("primary key column '{}' does not exist", k));
    if (!pk.insert(k).second) return bad(fmt::format("primary key names '{}' twice", k));
    if (columns[*i].nullable) return bad(fmt::format("primary key column '{}' must be NOT NULL", k));
    if (columns[*i].is_lob()) return bad(fmt::format("BLOB/TEXT column '{}' cannot be in a key", k));
  }
  std::set<std::string> index_names{"PRIMARY"};
  for (const auto& ix : indexes) {
    if (!index_names.insert(ix.name).second) return bad(fmt::format("duplicate index name '{}'", ix.name));
    if (ix.columns.empty()) return bad(fmt::format("index '{}' has no columns", ix.name));
    for (const auto& k : ix.columns) {
      auto i = ColumnIndex(k);
      if (!i) return bad(fmt::format("index '{}': column '{}' does not exist", ix.name, k));
      if (columns[*i].is_lob())
        return bad(fmt::format("index '{}': BLOB/TEXT column '{}' cannot be in a key", ix.name, k));
    }
  }
  for (const ForeignKeySpec& fk : foreign_keys) {  // what the catalog must be able to write back
    if (fk.columns.empty() || fk.columns.size() != fk.ref_columns.size())
      return bad(
          fmt::format("foreign key '{}' pairs {} columns with {}", fk.name, fk.columns.size(), fk.ref_columns.size()));
    for (const auto& k : fk.columns) {
      if (!ColumnIndex(k)) return bad(fmt::format("foreign key '{}': column '{}' does not exist", fk.name, k));
    }
  }
  for (std::size_t i = 0; i < columns.size(); ++i) {
    if (!columns[i].auto_increment) continue;
    bool leads = !primary_key.empty() && primary_key[0] == columns[i].name;
    for (const auto& ix : indexes) leads = leads || ix.columns[0] == columns[i].name;
    if (!leads) return bad(fmt::format("AUTO_INCREMENT column '{}' must lead a key", columns[i].name));
  }
  return Status::Ok();
}

}  // namespace strata::engine
