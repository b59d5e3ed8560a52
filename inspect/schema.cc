#include "inspect/schema.h"

#include <fmt/format.h>

#include <algorithm>
#include <regex>
#include <set>

#include "ondisk/base64.h"
#include "ondisk/charsets.h"
#include "ondisk/column_format.h"
#include "ondisk/fil_header.h"
#include "ondisk/fsp_header.h"
#include "ondisk/index_page.h"
#include "ondisk/lob.h"
#include "ondisk/sdi.h"
#include "inspect/sys_columns.h"

namespace strata::inspect {

using namespace strata::ondisk;

std::string Dictionary::IndexName(std::uint64_t id) const {
  if (id == ondisk::kSdiIndexId) return "SDI";
  if (const IndexDef* d = FindIndex(id)) return d->name;
  return fmt::format("index {}", id);
}

const IndexDef* Dictionary::FindIndex(std::uint64_t id) const {
  for (const auto& t : tables) {
    for (const auto& ix : t.indexes) {
      if (ix.id == id) return &ix;
    }
  }
  return nullptr;
}

void Dictionary::Append(const Dictionary& other) {
  if (other.tables.empty()) return;
  source = source.empty() ? other.source : source + " + " + other.source;
  tables.insert(tables.end(), other.tables.begin(), other.tables.end());
}

Dictionary DictionaryFor(const SpaceFile& file, const Dictionary* server) {
  Dictionary d = ReadDictionary(file);
  if (server) d.Append(*server);
  return d;
}

namespace {

// ucs2, utf16 and utf32 collations: every character has the same width, so InnoDB stores
// CHAR in them as a fixed-length field (MySQL's collation id ranges).
// Declared length in characters from "char(10)" / "varchar(45)".
int DeclaredChars(const std::string& sql_type) {
  static const std::regex re(R"(\w+\((\d+)\).*)");
  std::smatch m;
  return std::regex_match(sql_type, m, re) ? std::stoi(m[1]) : 0;
}

// DB_ROW_ID, DB_TRX_ID, DB_ROLL_PTR: InnoDB's own columns. (A column dropped by an instant
// DROP COLUMN is hidden the same way but keeps its type: "!hidden!_dropped_v3_p4_name".)
bool SystemColumn(const nlohmann::json& c) {
  const std::string name = c.value("name", "");
  return c.value("hidden", 1) == 2 && (name == "DB_ROW_ID" || name == "DB_TRX_ID" || name == "DB_ROLL_PTR");
}

ColumnFormat FormatOf(const nlohmann::json& c);

// How a column is stored in a COMPACT/DYNAMIC record (innodb-format.md §9.1, §9.3, §12.1).
FieldDef StorageOf(const nlohmann::json& c) {
  const std::string name = c.value("name", "");
  const int type = c.value("type", 0);
  const bool nullable = c.value("is_nullable", false);
  const auto char_length = c.value("char_length", 0u);
  const int precision = c.value("datetime_precision", 0);
  const int frac = (precision + 1) / 2;
  if (SystemColumn(c)) return FieldDef::Fixed(name, char_length, nullable);
  using T = DdColumnType;
  switch (static_cast<T>(type)) {
    case T::kTiny:
      return FieldDef::Fixed(name, 1, nullable);  // TINY
    case T::kShort:
      return FieldDef::Fixed(name, 2, nullable);  // SHORT
    case T::kLong:
      return FieldDef::Fixed(name, 4, nullable);  // LONG
    case T::kFloat:
      return FieldDef::Fixed(name, 4, nullable);  // FLOAT
    case T::kDouble:
      return FieldDef::Fixed(name, 8, nullable);  // DOUBLE
    case T::kTimestamp:
      return FieldDef::Fixed(name, 4, nullable);  // TIMESTAMP (old)
    case T::kLongLong:
      return FieldDef::Fixed(name, 8, nullable);  // LONGLONG
    case T::kInt24:
      return FieldDef::Fixed(name, 3, nullable);  // INT24
    case T::kDate:
      return FieldDef::Fixed(name, 3, nullable);  // DATE (old)
    case T::kTime:
      return FieldDef::Fixed(name, 3, nullable);  // TIME (old)
    case T::kDatetime:
      return FieldDef::Fixed(name, 8, nullable);  // DATETIME (old)
    case T::kYear:
      return FieldDef::Fixed(name, 1, nullable);  // YEAR
    case T::kNewDate:
      return FieldDef::Fixed(name, 3, nullable);  // NEWDATE
    case T::kBit:
      return FieldDef::Fixed(name, (char_length + 7) / 8, nullable);  // BIT(n)
    case T::kTimestamp2:
      return FieldDef::Fixed(name, 4 + frac, nullable);  // TIMESTAMP2
    case T::kDatetime2:
      return FieldDef::Fixed(name, 5 + frac, nullable);  // DATETIME2
    case T::kTime2:
      return FieldDef::Fixed(name, 3 + frac, nullable);  // TIME2
    case T::kNewDecimal:                                 // NEWDECIMAL
      return FieldDef::Fixed(name, *FormatOf(c).FixedBytes(), nullable);
    case T::kEnum: {  // ENUM
      auto n = c.contains("elements") ? c["elements"].size() : 0;
      return FieldDef::Fixed(name, n > 255 ? 2 : 1, nullable);
    }
    case T::kSet: {  // SET
      auto n = c.contains("elements") ? c["elements"].size() : 0;
      std::uint32_t bytes = static_cast<std::uint32_t>((n + 7) / 8);
      return FieldDef::Fixed(name, bytes > 4 ? 8 : std::max(bytes, 1u), nullable);
    }
    case T::kString: {  // STRING (CHAR/BINARY): variable when characters vary in width (utf8mb3/4, utf16, ...)
      // (A dropped column has no column_type_utf8: its collation alone says.)
      const ondisk::CharsetInfo width = ondisk::CharsetOfCollationId(c.value("collation_id", 0));
      const int chars = DeclaredChars(c.value("column_type_utf8", ""));
      const bool varies = width.mbmaxlen ? width.mbmaxlen > 1 && !width.fixed
                                         : chars > 0 && char_length > static_cast<std::uint32_t>(chars);
      return varies ? FieldDef::Variable(name, char_length, nullable) : FieldDef::Fixed(name, char_length, nullable);
    }
    case T::kTinyBlob:
    case T::kMediumBlob:
    case T::kLongBlob:
    case T::kBlob:
    case T::kGeometry:
    case T::kJson:  // BLOB family, GEOMETRY, JSON
      return FieldDef::Variable(name, char_length ? char_length : 0xFFFFFFFF, nullable, true);
    default:  // VARCHAR, VAR_STRING and anything unknown: variable
      return FieldDef::Variable(name, char_length, nullable);
  }
}

std::uint64_t PrivateNumber(const std::string& se_private_data, const std::string& key) {
  static const std::regex re("([a-z_]+)=([0-9]+);");
  for (auto it = std::sregex_iterator(se_private_data.begin(), se_private_data.end(), re); it != std::sregex_iterator();
       ++it) {
    if ((*it)[1] == key) return std::stoull((*it)[2]);
  }
  return 0;
}

// How a column's values read, from its SDI entry (the dictionary's type codes, §12.1).
ColumnFormat FormatOf(const nlohmann::json& c) {
  ColumnFormat f;
  f.name = c.value("column_type_utf8", "");
  f.is_unsigned = c.value("is_unsigned", false);
  f.collation = c.value("collation_id", 63);
  const auto char_length = c.value("char_length", 0u);
  f.fsp = static_cast<std::uint32_t>(std::clamp(c.value("datetime_precision", 0), 0, 6));
  if (SystemColumn(c)) {
    f.type = ColumnType::kSystem;
    f.length = char_length;
    return f;
  }
  using T = DdColumnType;
  switch (static_cast<T>(c.value("type", 0))) {
    case T::kTiny:
      f.type = ColumnType::kInt;
      f.length = 1;
      break;
    case T::kShort:
      f.type = ColumnType::kInt;
      f.length = 2;
      break;
    case T::kInt24:
      f.type = ColumnType::kInt;
      f.length = 3;
      break;
    case T::kLong:
      f.type = ColumnType::kInt;
      f.length = 4;
      break;
    case T::kLongLong:
      f.type = ColumnType::kInt;
      f.length = 8;
      break;
    case T::kFloat:
      f.type = ColumnType::kFloat;
      break;
    case T::kDouble:
      f.type = ColumnType::kDouble;
      break;
    case T::kNewDecimal:
      f.type = ColumnType::kDecimal;
      f.precision = static_cast<std::uint32_t>(std::clamp(c.value("numeric_precision", 10), 1, 65));
      f.scale = static_cast<std::uint32_t>(std::clamp(c.value("numeric_scale", 0), 0, std::min<int>(30, f.precision)));
      break;
    case T::kBit:
      f.type = ColumnType::kBit;
      f.length = char_length;
      break;
    case T::kYear:
      f.type = ColumnType::kYear;
      break;
    case T::kNewDate:
      f.type = ColumnType::kDate;
      break;
    case T::kTime2:
      f.type = ColumnType::kTime;
      break;
    case T::kDatetime2:
      f.type = ColumnType::kDatetime;
      break;
    case T::kTimestamp2:
      f.type = ColumnType::kTimestamp;
      break;
    case T::kString:  // MySQL has no UUID or INET: Strata writes MariaDB's as fixed binary strings named so
      f.type = f.name == "uuid"    ? ColumnType::kUuid
               : f.name == "inet4" ? ColumnType::kInet4
               : f.name == "inet6" ? ColumnType::kInet6
                                   : ColumnType::kChar;
      f.length = static_cast<std::uint32_t>(DeclaredChars(f.name));
      break;
    case T::kVarchar:
    case T::kVarString:
    case T::kTinyBlob:
    case T::kMediumBlob:
    case T::kLongBlob:
    case T::kBlob:
      f.type = ColumnType::kVarchar;
      break;
    case T::kEnum:
    case T::kSet:
      f.type = c.value("type", 0) == static_cast<int>(T::kEnum) ? ColumnType::kEnum : ColumnType::kSet;
      if (c.contains("elements") && c["elements"].is_array()) {
        for (const auto& e : c["elements"]) f.elements.push_back(ondisk::Base64Decode(e.value("name", "")));
      }
      break;
    case T::kGeometry:
      f.type = ColumnType::kGeometry;
      break;
    case T::kJson:
      f.type = ColumnType::kJson;
      break;
    case T::kVector:
      f.type = ColumnType::kVector;
      break;
    default:
      f.type = ColumnType::kUnknown;
      break;  // pre-5.6 DATE, TIME, DATETIME, TIMESTAMP, DECIMAL
  }
  if ((f.type == ColumnType::kFloat || f.type == ColumnType::kDouble) && !c.value("numeric_scale_null", true)) {
    f.fixed_decimals = true;  // FLOAT(M,D)
    f.scale = static_cast<std::uint32_t>(std::clamp(c.value("numeric_scale", 0), 0, 30));
  }
  if (c.value("is_zerofill", false)) {
    // The display width is in the type's name, "int(5) unsigned zerofill", "decimal(8,2) ...".
    const int declared = DeclaredChars(f.name);
    if (f.type == ColumnType::kDecimal)
      f.zerofill_width = f.precision + (f.scale ? 1 : 0);
    else if (declared > 0)
      f.zerofill_width = static_cast<std::uint32_t>(declared);
  }
  return f;
}

}  // namespace

namespace {

// A row of version v holds, in physical order, every column added at or before v and not yet
// dropped by v (innodb-format.md §9.5). Rows without the version flag are version 0.
void AddRowVersions(TableDef& t) {
  std::uint32_t newest = 0;
  for (const auto& c : t.columns) newest = std::max({newest, c.version_added, c.version_dropped});
  IndexDef* clustered = nullptr;
  for (auto& ix : t.indexes) {
    if (ix.clustered) clustered = &ix;
  }
  if (newest == 0 || !clustered || newest > 255) return;
  for (std::uint32_t v = 0; v <= newest; ++v) {
    std::vector<std::pair<std::uint32_t, std::size_t>> present;
    for (std::size_t i = 0; i < t.columns.size(); ++i) {
      const ColumnDef& c = t.columns[i];
      if (!c.physical_pos || c.is_virtual || c.version_added > v || (c.version_dropped && c.version_dropped <= v))
        continue;
      present.emplace_back(*c.physical_pos, i);
    }
    std::sort(present.begin(), present.end());
    IndexDef::RowVersion rv;
    rv.leaf.row_version = static_cast<std::uint8_t>(v);
    for (const auto& [pos, i] : present) {
      // A key column keeps the form the index gives it; the others their full column.
      FieldDef f = t.columns[i].field;
      for (std::size_t k = 0; k < clustered->columns.size(); ++k) {
        if (clustered->columns[k] == i) f = clustered->leaf.fields[k];
      }
      rv.leaf.fields.push_back(f);
      rv.columns.push_back(i);
    }
    clustered->row_versions.push_back(std::move(rv));
  }
}

}  // namespace

const TableDef* Dictionary::TableOf(const IndexDef* index) const {
  for (const auto& t : tables) {
    for (const auto& ix : t.indexes) {
      if (&ix == index) return &t;
    }
  }
  return nullptr;
}

void TableDef::UseExactFloats() {
  for (auto& c : columns) c.format.exact_float = true;
  for (auto& ix : indexes) {
    for (auto& f : ix.formats) f.exact_float = true;
  }
}

bool TableDef::AlteredInstantlyByMySql() const {
  for (const auto& c : columns) {
    if (c.instant_default || c.instant_default_null || c.version_added || c.version_dropped) return true;
  }
  return false;
}

const IndexDef* TableDef::Clustered() const {
  for (const auto& ix : indexes) {
    if (ix.clustered) return &ix;
  }
  return nullptr;
}

TableDef TableFromSdi(const nlohmann::json& doc) {
  const auto& o = doc.at("dd_object");
  TableDef t;
  t.name = o.value("name", "");
  t.schema = o.value("schema_ref", "");
  for (const auto& c : o.at("columns")) {
    ColumnDef col;
    col.name = c.value("name", "");
    col.sql_type = c.value("column_type_utf8", "");
    col.dd_type = c.value("type", 0);
    col.nullable = c.value("is_nullable", false);
    col.is_unsigned = c.value("is_unsigned", false);
    col.hidden = c.value("hidden", 1) == 2;
    col.is_virtual = c.value("is_virtual", false);
    col.generated = !c.value("generation_expression", std::string()).empty();
    const std::string priv = c.value("se_private_data", "");
    auto number = [&](const char* key) -> std::uint32_t {
      auto v = ondisk::SePrivateValue(priv, key);
      return v ? static_cast<std::uint32_t>(std::strtoul(v->c_str(), nullptr, 10)) : 0;
    };
    if (auto pos = ondisk::SePrivateValue(priv, "physical_pos"))
      col.physical_pos = static_cast<std::uint32_t>(std::strtoul(pos->c_str(), nullptr, 10));
    col.version_added = number("version_added");
    col.version_dropped = number("version_dropped");
    col.dropped = col.hidden && col.version_dropped > 0;
    if (col.dropped) col.hidden = false;  // a real column of the rows written before the DROP
    col.instant_default_null = ondisk::SePrivateValue(priv, "default_null").has_value();
    if (auto hex = ondisk::SePrivateValue(priv, "default")) col.instant_default = ondisk::InstantDefaultBytes(*hex);
    col.field = StorageOf(c);
    col.format = FormatOf(c);
    t.columns.push_back(col);
  }
  for (const auto& i : o.at("indexes")) {
    IndexDef ix;
    ix.name = i.value("name", "");
    ix.table = t.schema.empty() ? t.name : t.schema + "." + t.name;
    const std::string priv = i.value("se_private_data", "");
    ix.id = PrivateNumber(priv, "id");
    if (priv.find("root=") != std::string::npos) ix.root_page = static_cast<std::uint32_t>(PrivateNumber(priv, "root"));
    const int type = i.value("type", 0);
    const bool spatial = type == 5;
    ix.unique = type == 1 || type == 2;
    std::size_t visible = 0;
    for (const auto& e : i.at("elements")) {
      auto opx = e.value("column_opx", 0u);
      if (opx >= t.columns.size()) continue;
      FieldDef f = t.columns[opx].field;
      const auto len = e.value("length", 0xFFFFFFFFu);
      // The clustered index is the one that carries DB_TRX_ID (a PRIMARY KEY, or the first
      // UNIQUE NOT NULL key when there is none).
      if (f.name == "DB_TRX_ID" && t.columns[opx].hidden) ix.clustered = true;
      if (spatial && !e.value("hidden", false)) {
        f = FieldDef::Fixed(f.name, 32, false);  // an R-tree key is the MBR: four doubles
      } else if (len != 0xFFFFFFFFu && !t.columns[opx].hidden) {
        // A column prefix: a fixed column stays fixed at the prefix length; a variable one holds
        // at most `len` bytes but keeps the full column's 1-or-2-byte length rule.
        if (!f.is_variable()) {
          if (len < f.fixed_length) f = FieldDef::Fixed(f.name, len, f.nullable);
        } else {
          f.blob = f.big();
          f.max_length = std::min<std::uint32_t>(f.max_length, len);
        }
      }
      ix.fields.push_back(f.name);
      ix.leaf.fields.push_back(f);
      ix.columns.push_back(opx);
      ix.formats.push_back(t.columns[opx].format);
      if (!e.value("hidden", false)) ++visible;
    }
    // InnoDB's clustered index holds every stored column: those the dictionary leaves out of
    // its elements (FTS_DOC_ID of a FULLTEXT table) follow in table order.
    if (ix.clustered) {
      for (std::size_t c = 0; c < t.columns.size(); ++c) {
        const ColumnDef& col = t.columns[c];
        if (col.is_virtual || col.dropped || std::find(ix.columns.begin(), ix.columns.end(), c) != ix.columns.end())
          continue;
        ix.fields.push_back(col.name);
        ix.leaf.fields.push_back(col.field);
        ix.columns.push_back(c);
        ix.formats.push_back(col.format);
      }
    }
    // InnoDB appends the primary key to secondary indexes, and the whole record is the key of
    // a secondary node pointer; clustered node pointers carry only the primary key, R-tree
    // node pointers only the MBR.
    ix.n_unique_in_tree = ix.clustered ? visible : spatial ? 1 : ix.leaf.fields.size();
    if (ix.clustered && visible == 0 && !ix.leaf.fields.empty()) ix.n_unique_in_tree = 1;  // DB_ROW_ID
    t.indexes.push_back(ix);
  }
  AddRowVersions(t);
  return t;
}

namespace {

// An SDI record's compressed stream when it continues on SDI BLOB pages: the local part, then
// each page's part, no further than the reference's length and never round a loop.
Result<std::vector<std::byte>> ReadSdiBlob(const SpaceFile& file, const SdiRecord& rec) {
  std::vector<std::byte> bytes(rec.compressed.begin(), rec.compressed.end());
  BlobChain chain(rec.external->page_no, rec.external->length, /*sdi=*/true);
  while (auto p = chain.next())
    STRATA_RETURN_IF_ERROR(chain.Take(*p, *p < file.n_pages() ? file.page(*p) : ConstBytes(), bytes));
  STRATA_RETURN_IF_ERROR(chain.Finish().WithContext("SDI"));
  return bytes;
}

}  // namespace

// Walks the SDI B-tree from its root (page 0 names it): down the leftmost node pointers, then
// along the leaf level. Only the tree's own pages are read.
Dictionary ReadDictionary(const SpaceFile& file) {
  Dictionary d;
  if (!file.shape().flags || !file.shape().flags->sdi) return d;
  const std::string name = file.path().filename().string();
  auto fail = [&](std::uint32_t page, std::optional<std::size_t> offset, const std::string& what,
                  const std::string& why) {
    d.findings.push_back({Severity::kError, name, page, offset, what, why});
  };
  auto fsp = FspHeader::Open(file.page(0));
  if (!fsp.ok()) return d;
  // The SDI of an encrypted tablespace is there, but encrypted with the rest: said, not read
  // as damage.
  if (const PageNo root = fsp->sdi_root();
      root.value() < file.n_pages() && file.IsEncryptedPage(file.page(root.value()))) {
    d.findings.push_back({Severity::kInfo, name, fsp->sdi_root().value(), std::nullopt, "SDI not read",
                          "the dictionary's pages are encrypted, and the key is not at hand (--keyring)"});
    return d;
  }
  static const RecordLayout node_layout = SdiLayout().NodePointer(2);
  std::uint32_t n = fsp->sdi_root().value();
  for (int depth = 0;; ++depth) {
    if (n >= file.n_pages() || depth > 32 || FilHeader(file.page(n)).type() != PageType::kSdi) {
      fail(n, std::nullopt, "SDI page", "the SDI tree leads to a page that is not an SDI page");
      return d;
    }
    auto ip = file.OpenIndexPage(file.page(n));
    if (!ip.ok()) {
      fail(n, std::nullopt, "SDI page", ip.status().message());
      return d;
    }
    if (ip->is_leaf()) break;
    RecordWalker w(*ip);
    auto f = w.Next() ? DecodeCompactFields(ip->page(), w.origin(), node_layout)
                      : Result<std::vector<FieldSlice>>(Status::Corruption("node page without records"));
    if (!f.ok()) {
      fail(n, std::nullopt, "SDI page", f.status().message());
      return d;
    }
    n = Load32(ip->page(), f->back().offset);
  }
  std::vector<bool> seen(file.n_pages(), false);
  for (; n != kFilNull; n = FilHeader(file.page(n)).next().value()) {
    if (n >= file.n_pages() || seen[n]) {
      fail(n, std::nullopt, "SDI page", "the SDI leaf chain leaves the file or loops");
      break;
    }
    seen[n] = true;
    auto ip = file.OpenIndexPage(file.page(n));
    if (!ip.ok()) {
      fail(n, std::nullopt, "SDI page", ip.status().message());
      break;
    }
    ConstBytes page = ip->page();
    RecordWalker w(*ip);
    while (w.Next()) {
      if (w.header().deleted()) continue;
      auto rec = DecodeSdiRecord(page, w.origin());
      if (!rec.ok()) {
        fail(n, w.origin(), "SDI record", rec.status().message());
        continue;
      }
      Result<std::string> json = Status::Corruption("unread");
      if (rec->external) {
        auto bytes = ReadSdiBlob(file, *rec);
        json = bytes.ok() ? InflateSdi(*bytes, rec->uncompressed_len) : Result<std::string>(bytes.status());
      } else {
        json = SdiJson(*rec);
      }
      if (!json.ok()) {
        fail(n, w.origin(), "SDI record", json.status().message());
        continue;
      }
      try {
        auto doc = nlohmann::json::parse(*json);
        if (doc.value("dd_object_type", "") == "Table") {
          d.tables.push_back(TableFromSdi(doc));
          d.source = "SDI";
        }
      } catch (const std::exception& e) {
        fail(n, w.origin(), "SDI JSON", e.what());
      }
    }
    if (!w.status().ok()) fail(n, std::nullopt, "SDI page", w.status().message());
  }
  return d;
}

nlohmann::json ToJson(const Dictionary& d) {
  nlohmann::json tables = nlohmann::json::array();
  for (const auto& t : d.tables) {
    nlohmann::json cols = nlohmann::json::array();
    for (const auto& c : t.columns) {
      cols.push_back(
          {{"name", c.name},
           {"type", c.sql_type},
           {"dd_type", c.dd_type},
           {"nullable", c.nullable},
           {"hidden", c.hidden},
           {"stored_bytes", c.field.is_variable() ? nlohmann::json(nullptr) : nlohmann::json(c.field.fixed_length)},
           {"max_bytes", c.field.max_length}});
    }
    nlohmann::json ixs = nlohmann::json::array();
    for (const auto& ix : t.indexes) {
      ixs.push_back({{"name", ix.name},
                     {"index_id", ix.id},
                     {"root_page", ix.root_page == kFilNull ? nlohmann::json(nullptr) : nlohmann::json(ix.root_page)},
                     {"clustered", ix.clustered},
                     {"unique", ix.unique},
                     {"fields", ix.fields},
                     {"node_pointer_key_fields", ix.n_unique_in_tree}});
    }
    tables.push_back({{"schema", t.schema}, {"name", t.name}, {"columns", cols}, {"indexes", ixs}});
  }
  nlohmann::json findings = nlohmann::json::array();
  for (const auto& f : d.findings) findings.push_back(ToJson(f));
  return {{"source", d.source.empty() ? nlohmann::json(nullptr) : nlohmann::json(d.source)},
          {"tables", tables},
          {"findings", findings}};
}

std::string ToText(const Dictionary& d) {
  if (d.tables.empty()) {
    for (const auto& f : d.findings) {
      if (f.what == "SDI not read") return "  the file's dictionary (SDI) cannot be read: " + f.detail + "\n";
    }
    return "  no dictionary in this file (MySQL 8.0 files carry one; 5.7 and MariaDB keep it in ibdata1)\n";
  }
  std::string out;
  for (const auto& t : d.tables) {
    out += fmt::format("  table {}{} (from {})\n", t.schema.empty() ? "" : t.schema + ".", t.name, d.source);
    for (const auto& c : t.columns) {
      out += fmt::format("    {:<20} {:<24} {}{}\n", c.name, c.hidden ? "(hidden)" : c.sql_type,
                         c.field.is_variable() ? fmt::format("variable, up to {} bytes", c.field.max_length)
                                               : fmt::format("{} bytes", c.field.fixed_length),
                         c.nullable ? ", nullable" : "");
    }
    for (const auto& ix : t.indexes) {
      std::string fields;
      for (const auto& f : ix.fields) fields += (fields.empty() ? "" : ", ") + f;
      out += fmt::format("    index {} (id {}, root page {}){}{}\n", ix.name, ix.id,
                         ix.root_page == kFilNull ? std::string("?") : std::to_string(ix.root_page),
                         ix.clustered ? " clustered"
                         : ix.unique  ? " unique"
                                      : "",
                         fields.empty() ? "" : ": " + fields);
    }
  }
  for (const auto& f : d.findings) out += "  - " + f.ToString() + "\n";
  return out;
}

}  // namespace strata::inspect
