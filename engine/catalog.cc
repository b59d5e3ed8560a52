#include "engine/catalog.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>
#include <regex>

#include "engine/elements.h"
#include "engine/row_codec.h"
#include "ondisk/base64.h"
#include "ondisk/charsets.h"
#include "ondisk/sdi.h"

namespace strata::engine {

using nlohmann::json;

namespace {

constexpr int kMysqlVersion = 80036;

// The data dictionary's column type code of a column (ondisk/sdi.h).
ondisk::DdColumnType DdType(const Column& c) {
  using T = ondisk::DdColumnType;
  switch (c.type) {
    case ColumnType::kTinyInt:
      return T::kTiny;
    case ColumnType::kSmallInt:
      return T::kShort;
    case ColumnType::kMediumInt:
      return T::kInt24;
    case ColumnType::kInt:
      return T::kLong;
    case ColumnType::kBigInt:
      return T::kLongLong;
    case ColumnType::kDecimal:
      return T::kNewDecimal;
    case ColumnType::kFloat:
      return T::kFloat;
    case ColumnType::kDouble:
      return T::kDouble;
    case ColumnType::kChar:
    case ColumnType::kBinary:
    case ColumnType::kUuid:  // MySQL has no such types: a BINARY(16) or (4) named after it
    case ColumnType::kInet4:
    case ColumnType::kInet6:
      return T::kString;
    case ColumnType::kVarchar:
    case ColumnType::kVarbinary:
      return T::kVarchar;
    case ColumnType::kDate:
      return T::kNewDate;
    case ColumnType::kYear:
      return T::kYear;
    case ColumnType::kEnum:
      return T::kEnum;
    case ColumnType::kSet:
      return T::kSet;
    case ColumnType::kBit:
      return T::kBit;
    case ColumnType::kGeometry:
      return T::kGeometry;
    case ColumnType::kJson:
      return T::kJson;
    case ColumnType::kTime:
      return T::kTime2;
    case ColumnType::kDatetime:
      return T::kDatetime2;
    case ColumnType::kTimestamp:
      return T::kTimestamp2;
    case ColumnType::kTinyText:
    case ColumnType::kTinyBlob:
      return T::kTinyBlob;
    case ColumnType::kMediumText:
    case ColumnType::kMediumBlob:
      return T::kMediumBlob;
    case ColumnType::kLongText:
    case ColumnType::kLongBlob:
      return T::kLongBlob;
    case ColumnType::kText:
    case ColumnType::kBlob:
      return T::kBlob;
  }
  return T::kNull;
}

std::string ClusteredName(const TableSpec& spec) { return spec.primary_key.empty() ? "GEN_CLUST_INDEX" : "PRIMARY"; }

// An ENUM's or SET's labels as the dictionary keeps them: base64 of each in the column's
// character set, numbered from 1.
json ElementsJson(const Column& c) {
  json out = json::array();
  for (std::size_t i = 0; i < c.elements.size(); ++i) {
    const std::string& label = c.elements[i];
    auto latin1 = c.charset == Charset::kLatin1 ? ondisk::Utf8ToLatin1(label) : Result<std::string>(label);
    out.push_back({{"name", ondisk::Base64Encode(latin1.ok() ? *latin1 : label)}, {"index", i + 1}});
  }
  return out;
}

std::vector<std::string> ElementsFromJson(const json& elements, Charset charset) {
  std::vector<std::string> out;
  for (const json& e : elements) {
    std::string bytes = ondisk::Base64Decode(e.at("name").get<std::string>());
    if (charset == Charset::kLatin1) {
      std::string utf8;
      ondisk::AppendLatin1AsUtf8(utf8, ondisk::AsBytes(bytes.data(), bytes.size()));
      bytes = std::move(utf8);
    }
    out.push_back(std::move(bytes));
  }
  return out;
}

// The default as the dictionary writes it: an ENUM's or SET's by its label.
std::string DefaultText(const Column& c) {
  if (!c.default_value || c.default_value->is_null()) return "";
  if (c.has_elements() && c.default_value->is_uint()) return ElementsText(c, c.default_value->as_uint());
  return c.default_value->ToString();
}

json ColumnJson(const Column& c, std::size_t position) {
  const ondisk::FieldDef f = StorageOf(c);
  const bool fixed_scale = c.type == ColumnType::kDecimal ||
                           ((c.type == ColumnType::kFloat || c.type == ColumnType::kDouble) && c.length > 0);
  json j = {{"name", c.name},
            {"type", static_cast<int>(DdType(c))},
            {"is_nullable", c.nullable},
            {"is_zerofill", c.zerofill},
            {"is_unsigned", c.is_unsigned},
            {"is_auto_increment", c.auto_increment},
            {"is_virtual", false},
            {"hidden", 1},
            {"ordinal_position", position},
            {"char_length", c.type == ColumnType::kBit ? c.length : f.max_length},  // a BIT's in bits
            {"numeric_precision", fixed_scale || c.type == ColumnType::kBit ? c.length : 0},
            {"numeric_scale", fixed_scale ? c.scale : 0},
            {"numeric_scale_null", !fixed_scale},  // as MySQL marks a DECIMAL, FLOAT(M,D) or DOUBLE(M,D)
            {"datetime_precision", c.scale},
            {"has_no_default", !c.default_value.has_value() && !c.nullable},
            {"default_value_null", !c.default_value.has_value() || c.default_value->is_null()},
            {"default_value_utf8", DefaultText(c)},
            {"column_type_utf8", c.SqlType()},
            {"collation_id", CollationOf(c)},
            {"elements", ElementsJson(c)},
            {"comment", ""},
            {"se_private_data", ""},
            // What the engine needs back that MySQL keeps elsewhere.
            {"strata_length", c.length},
            {"strata_charset", static_cast<int>(c.charset)},
            {"strata_binary_collation", c.binary_collation},
            {"strata_type", static_cast<int>(c.type)}};
  if (c.default_value && !c.default_value->is_null()) {
    const Value& v = *c.default_value;
    j["strata_default"] = v.is_int()      ? json(v.as_int())
                          : v.is_uint()   ? json(v.as_uint())
                          : v.is_double() ? json(v.as_double())
                                          : json(v.as_string());
  }
  return j;
}

json HiddenColumnJson(const char* name, int type, int bytes, std::size_t position) {
  return {{"name", name},
          {"type", type},
          {"is_nullable", false},
          {"is_unsigned", false},
          {"is_auto_increment", false},
          {"hidden", 2},
          {"ordinal_position", position},
          {"char_length", bytes},
          {"column_type_utf8", ""},
          {"collation_id", 63},
          {"elements", json::array()},
          {"se_private_data", ""}};
}

// The foreign keys as MySQL's dictionary keeps them (its rule and match numbers; column_opx
// the referencing column's position).
json ForeignKeysJson(const TableSpec& s) {
  json out = json::array();
  for (const ForeignKeySpec& fk : s.foreign_keys) {
    json elements = json::array();
    for (std::size_t i = 0; i < fk.columns.size(); ++i) {
      elements.push_back({{"column_opx", s.ColumnIndex(fk.columns[i]).value_or(0)},
                          {"ordinal_position", i + 1},
                          {"referenced_column_name", fk.ref_columns[i]}});
    }
    out.push_back({{"name", fk.name},
                   {"match_option", 1},
                   {"update_rule", static_cast<int>(fk.on_update)},
                   {"delete_rule", static_cast<int>(fk.on_delete)},
                   {"unique_constraint_name", ""},
                   {"referenced_table_catalog_name", "def"},
                   {"referenced_table_schema_name", fk.ref_database},
                   {"referenced_table_name", fk.ref_table},
                   {"elements", elements}});
  }
  return out;
}

ForeignKeySpec ForeignKeyFromJson(const json& j, const TableSpec& s) {
  ForeignKeySpec fk;
  fk.name = j.at("name").get<std::string>();
  fk.on_update = static_cast<ForeignKeyAction>(j.at("update_rule").get<int>());
  fk.on_delete = static_cast<ForeignKeyAction>(j.at("delete_rule").get<int>());
  fk.ref_database = j.at("referenced_table_schema_name").get<std::string>();
  fk.ref_table = j.at("referenced_table_name").get<std::string>();
  for (const json& e : j.at("elements")) {
    fk.columns.push_back(s.columns.at(e.at("column_opx").get<std::size_t>()).name);
    fk.ref_columns.push_back(e.at("referenced_column_name").get<std::string>());
  }
  return fk;
}

// A table with row versions: each column's se_private_data as MySQL 8.0.29+ writes it (keys
// in order): where its field sits in the clustered record, the versions that added or
// dropped it, the stored default rows written before it read as, and the table's id.
template <typename Opx>
void AddRowVersionData(const TableMeta& m, json& columns, const Opx& opx) {
  const auto fields = IndexFields(m.spec, 0);
  for (std::size_t p = 0; p < fields.size(); ++p) {
    const int c = fields[p].column;
    const bool dropped = IsDroppedColumn(c);
    const Column* col = c >= 0    ? &m.spec.columns[static_cast<std::size_t>(c)]
                        : dropped ? &m.spec.dropped_columns[DroppedColumnOf(c)]
                                  : nullptr;
    std::string data;
    if (col && col->version_added && !dropped) {
      data += col->instant_default ? "default=" + ondisk::InstantDefaultHex(*col->instant_default) + ";"
                                   : "default_null=1;";
    }
    data += fmt::format("physical_pos={};", p);
    if (!dropped) data += fmt::format("table_id={};", m.table_id);
    if (col && col->version_added) data += fmt::format("version_added={};", col->version_added);
    if (dropped) data += fmt::format("version_dropped={};", col->version_dropped);
    columns[opx(c)]["se_private_data"] = data;
  }
}

// What AddRowVersionData wrote, back into the column (which is dropped when it says so).
void ReadRowVersionData(const std::string& data, Column& c, std::uint8_t& row_version) {
  auto number = [&](const char* key) {
    auto v = ondisk::SePrivateValue(data, key);
    return v ? static_cast<std::uint32_t>(std::stoul(*v)) : 0u;
  };
  c.physical_pos = number("physical_pos");
  c.version_added = static_cast<std::uint8_t>(number("version_added"));
  c.version_dropped = static_cast<std::uint8_t>(number("version_dropped"));
  if (auto d = ondisk::SePrivateValue(data, "default")) c.instant_default = ondisk::InstantDefaultBytes(*d);
  row_version = std::max({row_version, c.version_added, c.version_dropped});
}

}  // namespace

std::vector<IndexField> IndexFields(const TableSpec& spec, std::size_t index) {
  std::vector<IndexField> out;
  std::vector<int> pk;
  for (const auto& k : spec.primary_key) pk.push_back(static_cast<int>(*spec.ColumnIndex(k)));
  if (index == 0) {
    if (pk.empty()) out.push_back({kRowIdColumn, true});
    for (int c : pk) out.push_back({c, true});
    out.push_back({kTrxIdColumn, false});
    out.push_back({kRollPtrColumn, false});
    std::vector<std::pair<std::uint32_t, int>> rest;  // physical position, column
    for (std::size_t c = 0; c < spec.columns.size(); ++c) {
      if (std::find(pk.begin(), pk.end(), static_cast<int>(c)) == pk.end())
        rest.emplace_back(spec.row_version ? spec.columns[c].physical_pos : 0, static_cast<int>(c));
    }
    for (std::size_t j = 0; j < spec.dropped_columns.size(); ++j)
      rest.emplace_back(spec.dropped_columns[j].physical_pos, DroppedColumnField(j));
    std::stable_sort(rest.begin(), rest.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    for (const auto& [pos, c] : rest) out.push_back({c, false});
    return out;
  }
  for (const auto& name : spec.indexes[index - 1].columns)
    out.push_back({static_cast<int>(*spec.ColumnIndex(name)), true});
  if (pk.empty()) out.push_back({kRowIdColumn, false});
  for (int c : pk) {
    bool have = false;
    for (const auto& f : out) have = have || f.column == c;
    if (!have) out.push_back({c, false});
  }
  return out;
}

std::string TableSdi(const TableMeta& m) {
  const TableSpec& s = m.spec;
  json columns = json::array();
  for (std::size_t i = 0; i < s.columns.size(); ++i) columns.push_back(ColumnJson(s.columns[i], i + 1));
  const std::size_t n = s.columns.size();
  std::size_t hidden = 0;
  const std::size_t n_system = s.primary_key.empty() ? 3 : 2;
  auto opx = [&](int column) -> std::size_t {  // position of a field's column in the list above
    if (column >= 0) return static_cast<std::size_t>(column);
    const std::size_t base = n;
    if (IsDroppedColumn(column)) return base + n_system + DroppedColumnOf(column);
    if (column == kRowIdColumn) return base;
    return base + (s.primary_key.empty() ? 1 : 0) + (column == kTrxIdColumn ? 0 : 1);
  };
  if (s.primary_key.empty()) columns.push_back(HiddenColumnJson("DB_ROW_ID", 10, 6, n + 1 + hidden++));
  columns.push_back(HiddenColumnJson("DB_TRX_ID", 10, 6, n + 1 + hidden++));
  columns.push_back(HiddenColumnJson("DB_ROLL_PTR", 9, 7, n + 1 + hidden++));
  for (std::size_t j = 0; j < s.dropped_columns.size(); ++j) {
    json c = ColumnJson(s.dropped_columns[j], n + 1 + hidden++);
    c["hidden"] = 2;
    columns.push_back(std::move(c));
  }
  if (s.row_version > 0) AddRowVersionData(m, columns, opx);
  json indexes = json::array();
  for (std::size_t i = 0; i < m.indexes.size(); ++i) {
    json elements = json::array();
    std::size_t pos = 1;
    for (const auto& f : IndexFields(s, i)) {
      if (IsDroppedColumn(f.column)) continue;  // InnoDB's alone: no longer part of the index
      elements.push_back({{"ordinal_position", pos++},
                          {"length", 4294967295u},
                          {"order", 2},
                          {"hidden", !f.key || f.column == kRowIdColumn},
                          {"column_opx", opx(f.column)}});
    }
    const bool clustered = i == 0;
    const int type = clustered ? 1 : s.indexes[i - 1].unique ? 2 : 3;
    indexes.push_back(
        {{"name", clustered ? ClusteredName(s) : s.indexes[i - 1].name},
         {"hidden", clustered && s.primary_key.empty()},
         {"is_generated", false},
         {"ordinal_position", i + 1},
         {"comment", ""},
         {"options", "flags=0;"},
         {"se_private_data", fmt::format("id={};root={};space_id={};table_id={};trx_id=0;", m.indexes[i].id,
                                         m.indexes[i].root.value(), m.space_id, m.table_id)},
         {"type", type},
         {"algorithm", 2},
         {"is_algorithm_explicit", false},
         {"is_visible", true},
         {"engine", "InnoDB"},
         {"elements", elements},
         {"tablespace_ref", s.database + "/" + s.name}});
  }
  json doc = {{"mysqld_version_id", kMysqlVersion},
              {"dd_version", 80023},
              {"sdi_version", 80019},
              {"dd_object_type", "Table"},
              {"dd_object",
               {{"name", s.name},
                {"mysql_version_id", kMysqlVersion},
                {"hidden", 1},
                {"options", "avg_row_length=0;"},
                {"columns", columns},
                {"schema_ref", s.database},
                {"se_private_id", m.table_id},
                {"engine", "InnoDB"},
                {"comment", ""},
                {"se_private_data", ""},
                {"row_format", 2},
                {"partition_type", 0},
                {"collation_id", 45},
                {"indexes", indexes},
                {"foreign_keys", ForeignKeysJson(s)},
                {"partitions", json::array()}}}};
  return doc.dump();
}

std::string TablespaceSdi(const TableMeta& m) {
  const std::string name = m.spec.database + "/" + m.spec.name;
  json doc = {{"mysqld_version_id", kMysqlVersion},
              {"dd_version", 80023},
              {"sdi_version", 80019},
              {"dd_object_type", "Tablespace"},
              {"dd_object",
               {{"name", name},
                {"comment", ""},
                {"options", "autoextend_size=0;encryption=N;"},
                {"se_private_data", fmt::format("flags={};id={};server_version={};space_version=1;state=normal;",
                                                m.space_flags, m.space_id, kMysqlVersion)},
                {"engine", "InnoDB"},
                {"files", json::array({{{"ordinal_position", 1},
                                        {"filename", "./" + name + ".ibd"},
                                        {"se_private_data", fmt::format("id={};", m.space_id)}}})}}}};
  return doc.dump();
}

Result<TableMeta> TableMetaFromSdi(const std::string& text) {
  try {
    const json doc = json::parse(text);
    const json& o = doc.at("dd_object");
    TableMeta m;
    m.spec.name = o.at("name").get<std::string>();
    m.spec.database = o.at("schema_ref").get<std::string>();
    m.table_id = o.at("se_private_id").get<std::uint64_t>();
    for (const auto& c : o.at("columns")) {
      const std::string data = c.value("se_private_data", "");
      const bool dropped = data.find("version_dropped=") != std::string::npos;
      if (c.at("hidden").get<int>() == 2 && !dropped) continue;
      Column col;
      col.name = c.at("name").get<std::string>();
      col.type = static_cast<ColumnType>(c.at("strata_type").get<int>());
      col.length = c.at("strata_length").get<std::uint32_t>();
      col.charset = static_cast<Charset>(c.at("strata_charset").get<int>());
      col.binary_collation = c.value("strata_binary_collation", false);  // absent before it was kept
      col.nullable = c.at("is_nullable").get<bool>();
      col.is_unsigned = c.at("is_unsigned").get<bool>();
      col.zerofill = c.value("is_zerofill", false);
      // The text's collation (45, 8, 46, 47 were the only ones before collation_id was read).
      if (col.has_collation() && col.charset != Charset::kBinary)
        col.collation_id = static_cast<std::uint16_t>(c.value("collation_id", 0));
      col.auto_increment = c.at("is_auto_increment").get<bool>();
      if (col.has_elements()) col.elements = ElementsFromJson(c.at("elements"), col.charset);
      col.scale = col.type == ColumnType::kDecimal ||
                          ((col.type == ColumnType::kFloat || col.type == ColumnType::kDouble) && col.length)
                      ? c.at("numeric_scale").get<std::uint32_t>()
                      : c.at("datetime_precision").get<std::uint32_t>();
      if (c.contains("strata_default")) {
        const json& d = c["strata_default"];
        col.default_value = d.is_number_unsigned()  ? Value::UInt(d.get<std::uint64_t>())
                            : d.is_number_integer() ? Value::Int(d.get<std::int64_t>())
                            : d.is_number_float()   ? Value::Double(d.get<double>())
                                                    : Value::String(d.get<std::string>());
      }
      if (!data.empty()) ReadRowVersionData(data, col, m.spec.row_version);
      (dropped ? m.spec.dropped_columns : m.spec.columns).push_back(std::move(col));
    }
    static const std::regex id_re("id=([0-9]+);"), root_re("root=([0-9]+);"), space_re("space_id=([0-9]+);");
    for (const auto& ix : o.at("indexes")) {
      const std::string priv = ix.at("se_private_data").get<std::string>();
      std::smatch id, root, space;
      if (!std::regex_search(priv, id, id_re) || !std::regex_search(priv, root, root_re)) {
        return Status::Corruption("SDI index without id= and root=: " + priv);
      }
      if (std::regex_search(priv, space, space_re)) m.space_id = static_cast<std::uint32_t>(std::stoul(space[1]));
      m.indexes.push_back({std::stoull(id[1]), ondisk::PageNo(static_cast<std::uint32_t>(std::stoul(root[1])))});
      const std::string name = ix.at("name").get<std::string>();
      std::vector<std::string> cols;
      for (const auto& e : ix.at("elements")) {
        const auto opx = e.at("column_opx").get<std::size_t>();
        if (!e.at("hidden").get<bool>() && opx < m.spec.columns.size()) cols.push_back(m.spec.columns[opx].name);
      }
      if (ix.at("type").get<int>() == 1) {
        m.spec.primary_key = name == "GEN_CLUST_INDEX" ? std::vector<std::string>{} : cols;
      } else {
        m.spec.indexes.push_back({name, cols, ix.at("type").get<int>() == 2});
      }
    }
    if (m.indexes.empty()) return Status::Corruption("SDI table without indexes");
    for (const json& fk : o.value("foreign_keys", json::array()))
      m.spec.foreign_keys.push_back(ForeignKeyFromJson(fk, m.spec));
    return m;
  } catch (const std::exception& e) {
    return Status::Corruption(std::string("SDI document is not one Strata wrote: ") + e.what());
  }
}

}  // namespace strata::engine
