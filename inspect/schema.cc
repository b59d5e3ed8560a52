#include "inspect/schema.h"

#include <fmt/format.h>

#include <regex>
#include <set>

#include "ondisk/fil_header.h"
#include "ondisk/index_page.h"
#include "ondisk/lob.h"
#include "ondisk/sdi.h"

namespace strata::inspect {

using namespace strata::ondisk;

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

// Bytes of a DECIMAL(precision, scale) in MySQL's binary format: 4 bytes per 9 digits.
std::uint32_t DecimalBytes(int precision, int scale) {
  static constexpr int kLeftover[] = {0, 1, 1, 2, 2, 3, 3, 4, 4, 4};
  auto part = [](int digits) { return digits / 9 * 4 + kLeftover[digits % 9]; };
  return static_cast<std::uint32_t>(part(precision - scale) + part(scale));
}

// Declared length in characters from "char(10)" / "varchar(45)".
int DeclaredChars(const std::string& sql_type) {
  static const std::regex re(R"(\w+\((\d+)\).*)");
  std::smatch m;
  return std::regex_match(sql_type, m, re) ? std::stoi(m[1]) : 0;
}

// How a column is stored in a COMPACT/DYNAMIC record (innodb-format.md §9.1, §9.3, §12.1).
FieldDef StorageOf(const nlohmann::json& c) {
  const std::string name = c.value("name", "");
  const int type = c.value("type", 0);
  const bool nullable = c.value("is_nullable", false);
  const auto char_length = c.value("char_length", 0u);
  const int precision = c.value("datetime_precision", 0);
  const int frac = (precision + 1) / 2;
  if (c.value("hidden", 1) == 2) return FieldDef::Fixed(name, char_length, nullable);  // DB_* columns
  switch (type) {
    case 2: return FieldDef::Fixed(name, 1, nullable);   // TINY
    case 3: return FieldDef::Fixed(name, 2, nullable);   // SHORT
    case 4: return FieldDef::Fixed(name, 4, nullable);   // LONG
    case 5: return FieldDef::Fixed(name, 4, nullable);   // FLOAT
    case 6: return FieldDef::Fixed(name, 8, nullable);   // DOUBLE
    case 8: return FieldDef::Fixed(name, 4, nullable);   // TIMESTAMP (old)
    case 9: return FieldDef::Fixed(name, 8, nullable);   // LONGLONG
    case 10: return FieldDef::Fixed(name, 3, nullable);  // INT24
    case 11: return FieldDef::Fixed(name, 3, nullable);  // DATE (old)
    case 12: return FieldDef::Fixed(name, 3, nullable);  // TIME (old)
    case 13: return FieldDef::Fixed(name, 8, nullable);  // DATETIME (old)
    case 14: return FieldDef::Fixed(name, 1, nullable);  // YEAR
    case 15: return FieldDef::Fixed(name, 3, nullable);  // NEWDATE
    case 17: return FieldDef::Fixed(name, (char_length + 7) / 8, nullable);  // BIT(n)
    case 18: return FieldDef::Fixed(name, 4 + frac, nullable);  // TIMESTAMP2
    case 19: return FieldDef::Fixed(name, 5 + frac, nullable);  // DATETIME2
    case 20: return FieldDef::Fixed(name, 3 + frac, nullable);  // TIME2
    case 21:                                                    // NEWDECIMAL
      return FieldDef::Fixed(name, DecimalBytes(c.value("numeric_precision", 10), c.value("numeric_scale", 0)),
                             nullable);
    case 22: {  // ENUM
      auto n = c.contains("elements") ? c["elements"].size() : 0;
      return FieldDef::Fixed(name, n > 255 ? 2 : 1, nullable);
    }
    case 23: {  // SET
      auto n = c.contains("elements") ? c["elements"].size() : 0;
      std::uint32_t bytes = static_cast<std::uint32_t>((n + 7) / 8);
      return FieldDef::Fixed(name, bytes > 4 ? 8 : bytes == 3 ? 4 : std::max(bytes, 1u), nullable);
    }
    case 29: {  // STRING (CHAR/BINARY): variable when the character set is multi-byte
      int chars = DeclaredChars(c.value("column_type_utf8", ""));
      if (chars > 0 && char_length > static_cast<std::uint32_t>(chars)) {
        return FieldDef::Variable(name, char_length, nullable);
      }
      return FieldDef::Fixed(name, char_length, nullable);
    }
    case 24: case 25: case 26: case 27: case 30: case 31:  // BLOB family, GEOMETRY, JSON
      return FieldDef::Variable(name, char_length ? char_length : 0xFFFFFFFF, nullable, true);
    default:  // VARCHAR (16), VAR_STRING (28) and anything unknown: variable
      return FieldDef::Variable(name, char_length, nullable);
  }
}

std::uint64_t PrivateNumber(const std::string& se_private_data, const std::string& key) {
  static const std::regex re("([a-z_]+)=([0-9]+);");
  for (auto it = std::sregex_iterator(se_private_data.begin(), se_private_data.end(), re);
       it != std::sregex_iterator(); ++it) {
    if ((*it)[1] == key) return std::stoull((*it)[2]);
  }
  return 0;
}

}  // namespace

ValueKind KindOf(const nlohmann::json& c) {
  const int type = c.value("type", 0);
  if (c.value("hidden", 1) == 2) return ValueKind::kUnsignedInt;  // DB_ROW_ID, DB_TRX_ID, DB_ROLL_PTR
  switch (type) {
    case 2: case 3: case 4: case 9: case 10:
      return c.value("is_unsigned", false) ? ValueKind::kUnsignedInt : ValueKind::kSignedInt;
    case 14: return ValueKind::kUnsignedInt;  // YEAR: years since 1900
    case 18: return ValueKind::kTimestamp;
    case 16: case 28: case 29: return c.value("collation_id", 63) == 63 ? ValueKind::kBytes : ValueKind::kText;
    case 24: case 25: case 26: case 27: return c.value("collation_id", 63) == 63 ? ValueKind::kBytes : ValueKind::kText;
    default: return ValueKind::kBytes;
  }
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
    col.field = StorageOf(c);
    col.kind = KindOf(c);
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
    ix.clustered = type == 1;
    ix.unique = type == 1 || type == 2;
    std::size_t visible = 0;
    for (const auto& e : i.at("elements")) {
      auto opx = e.value("column_opx", 0u);
      if (opx >= t.columns.size()) continue;
      FieldDef f = t.columns[opx].field;
      const auto len = e.value("length", 0xFFFFFFFFu);
      // A column prefix is stored as a variable-length field of at most `len` bytes.
      if (len != 0xFFFFFFFFu && !t.columns[opx].hidden && f.is_variable()) f.max_length = len;
      if (len != 0xFFFFFFFFu && !f.is_variable() && len < f.fixed_length) f = FieldDef::Variable(f.name, len, f.nullable);
      ix.fields.push_back(f.name);
      ix.leaf.fields.push_back(f);
      ix.kinds.push_back(t.columns[opx].kind);
      if (!e.value("hidden", false)) ++visible;
    }
    // InnoDB appends the primary key to secondary indexes, and the whole record is the key of
    // a secondary node pointer; clustered node pointers carry only the primary key.
    ix.n_unique_in_tree = ix.clustered ? visible : ix.leaf.fields.size();
    if (ix.clustered && visible == 0 && !ix.leaf.fields.empty()) ix.n_unique_in_tree = 1;  // DB_ROW_ID
    t.indexes.push_back(ix);
  }
  return t;
}

Dictionary ReadDictionary(const SpaceFile& file) {
  Dictionary d;
  if (!file.flags() || !file.flags()->sdi) return d;
  const std::string name = file.path().filename().string();
  for (std::uint32_t n = 0; n < file.n_pages(); ++n) {
    ConstBytes page = file.page(n);
    if (FilHeader(page).type() != PageType::kSdi) continue;
    auto ip = IndexPage::Open(page);
    if (!ip.ok()) {
      d.findings.push_back({Severity::kError, name, n, std::nullopt, "SDI page", ip.status().message()});
      continue;
    }
    if (!ip->is_leaf()) continue;
    RecordWalker w(*ip);
    while (w.Next()) {
      if (w.header().deleted()) continue;
      auto rec = DecodeSdiRecord(page, w.origin());
      if (!rec.ok()) {
        d.findings.push_back({Severity::kError, name, n, w.origin(), "SDI record", rec.status().message()});
        continue;
      }
      Result<std::string> json = Status::Corruption("unread");
      if (rec->external) {
        std::vector<std::byte> bytes(rec->compressed.begin(), rec->compressed.end());
        std::uint32_t p = rec->external->page_no, steps = 0;
        for (; p != kFilNull && p < file.n_pages() && steps < file.n_pages(); ++steps) {
          auto blob = BlobPage::Decode(file.page(p));
          if (!blob.ok()) break;
          auto part = file.page(p).subspan(BlobPage::kData, blob->part_len);
          bytes.insert(bytes.end(), part.begin(), part.end());
          p = blob->next_page.value();
        }
        json = InflateSdi(bytes, rec->uncompressed_len);
      } else {
        json = SdiJson(*rec);
      }
      if (!json.ok()) {
        d.findings.push_back({Severity::kError, name, n, w.origin(), "SDI record", json.status().message()});
        continue;
      }
      try {
        auto doc = nlohmann::json::parse(*json);
        if (doc.value("dd_object_type", "") == "Table") {
          d.tables.push_back(TableFromSdi(doc));
          d.source = "SDI";
        }
      } catch (const std::exception& e) {
        d.findings.push_back({Severity::kError, name, n, w.origin(), "SDI JSON", e.what()});
      }
    }
    if (!w.status().ok()) {
      d.findings.push_back({Severity::kError, name, n, std::nullopt, "SDI page", w.status().message()});
    }
  }
  return d;
}

nlohmann::json ToJson(const Dictionary& d) {
  nlohmann::json tables = nlohmann::json::array();
  for (const auto& t : d.tables) {
    nlohmann::json cols = nlohmann::json::array();
    for (const auto& c : t.columns) {
      cols.push_back({{"name", c.name}, {"type", c.sql_type}, {"dd_type", c.dd_type}, {"nullable", c.nullable},
                      {"hidden", c.hidden}, {"stored_bytes", c.field.is_variable() ? nlohmann::json(nullptr) : nlohmann::json(c.field.fixed_length)},
                      {"max_bytes", c.field.max_length}});
    }
    nlohmann::json ixs = nlohmann::json::array();
    for (const auto& ix : t.indexes) {
      ixs.push_back({{"name", ix.name}, {"index_id", ix.id},
                     {"root_page", ix.root_page == kFilNull ? nlohmann::json(nullptr) : nlohmann::json(ix.root_page)},
                     {"clustered", ix.clustered}, {"unique", ix.unique}, {"fields", ix.fields},
                     {"node_pointer_key_fields", ix.n_unique_in_tree}});
    }
    tables.push_back({{"schema", t.schema}, {"name", t.name}, {"columns", cols}, {"indexes", ixs}});
  }
  nlohmann::json findings = nlohmann::json::array();
  for (const auto& f : d.findings) findings.push_back(ToJson(f));
  return {{"source", d.source.empty() ? nlohmann::json(nullptr) : nlohmann::json(d.source)},
          {"tables", tables}, {"findings", findings}};
}

std::string ToText(const Dictionary& d) {
  if (d.tables.empty()) return "  no dictionary in this file (MySQL 8.0 files carry one; 5.7 and MariaDB keep it in ibdata1)\n";
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
                         ix.clustered ? " clustered" : ix.unique ? " unique" : "", fields.empty() ? "" : ": " + fields);
    }
  }
  for (const auto& f : d.findings) out += "  - " + f.ToString() + "\n";
  return out;
}

}  // namespace strata::inspect
