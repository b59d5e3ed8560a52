#include "inspect/table_layout.h"

#include <algorithm>
#include <optional>

#include "ondisk/charsets.h"
#include "ondisk/index_page.h"
#include "sqltext/lexer.h"

namespace strata::inspect {

using namespace strata::ondisk;

namespace {

// The field a key part stores: the whole column, or its first `prefix` bytes (lengths still
// take two bytes when the whole column's may).
FieldDef KeyPartField(const ColumnDef& c, std::uint32_t prefix) {
  if (prefix == 0) return c.field;
  if (!c.field.is_variable()) return FieldDef::Fixed(c.name, std::min(prefix, c.field.fixed_length), c.nullable);
  return FieldDef::Variable(c.name, std::min(prefix, c.field.max_length), c.nullable, c.field.big());
}

}  // namespace

Result<TableDef> LayOutTable(TableDef t, std::vector<IndexSpec> indexes) {
  auto column = [&](const std::string& name) -> std::optional<std::size_t> {
    for (std::size_t i = 0; i < t.columns.size(); ++i) {
      if (sqltext::EqualsIgnoreCase(t.columns[i].name, name)) return i;
    }
    return std::nullopt;
  };
  // A table with a FULLTEXT index and no FTS_DOC_ID of its own gets one from InnoDB: the last
  // column, BIGINT UNSIGNED NOT NULL, not in SELECT *.
  if (!t.fulltext_first_columns.empty() && !column("FTS_DOC_ID")) {
    ColumnDef doc;
    doc.name = "FTS_DOC_ID";
    doc.hidden = true;
    doc.is_unsigned = doc.format.is_unsigned = true;
    doc.format.type = ColumnType::kInt;
    doc.format.length = 8;
    doc.format.name = doc.sql_type = "bigint unsigned";
    doc.field = FieldDef::Fixed(doc.name, 8);
    t.columns.push_back(std::move(doc));
  }
  const IndexSpec* key = nullptr;
  for (const auto& ix : indexes) {
    if (ix.primary) key = &ix;
  }
  for (const auto& ix : indexes) {
    if (key || !ix.unique) continue;
    bool not_null = true;
    for (const auto& [c, prefix] : ix.parts) not_null &= column(c) && !t.columns[*column(c)].nullable && prefix == 0;
    if (not_null) key = &ix;
  }
  IndexDef clustered;
  clustered.name = key ? (key->primary ? "PRIMARY" : key->name) : "GEN_CLUST_INDEX";
  clustered.table = t.name;
  clustered.clustered = true;
  clustered.unique = true;
  auto add = [&](IndexDef& ix, std::size_t c, FieldDef f) {
    ix.fields.push_back(t.columns[c].name);
    ix.leaf.fields.push_back(std::move(f));
    ix.columns.push_back(c);
    ix.formats.push_back(t.columns[c].format);
  };
  auto add_system = [&](IndexDef& ix, const char* name, std::uint32_t bytes) {
    ColumnDef sys;
    sys.name = name;
    sys.hidden = true;
    sys.field = FieldDef::Fixed(name, bytes);
    sys.format.type = ColumnType::kSystem;
    sys.format.length = bytes;
    t.columns.push_back(sys);
    add(ix, t.columns.size() - 1, sys.field);
  };
  std::vector<bool> whole(t.columns.size(), false);
  const std::size_t user_columns = t.columns.size();
  auto prefix_bytes = [&](const IndexSpec& spec, const ColumnDef& col, std::uint32_t prefix) {
    return spec.prefix_in_chars
               ? prefix * std::max<std::uint32_t>(CharsetOfCollationId(col.format.collation).mbmaxlen, 1)
               : prefix;
  };
  if (key) {
    for (const auto& [name, prefix] : key->parts) {
      auto c = column(name);
      if (!c) return Status::InvalidArgument("key " + key->name + " names no column '" + name + "'");
      add(clustered, *c, KeyPartField(t.columns[*c], prefix_bytes(*key, t.columns[*c], prefix)));
      whole[*c] = prefix == 0;
    }
  } else {
    add_system(clustered, "DB_ROW_ID", kDbRowIdSize);
  }
  clustered.n_unique_in_tree = clustered.fields.size();
  add_system(clustered, "DB_TRX_ID", kDbTrxIdSize);
  add_system(clustered, "DB_ROLL_PTR", kDbRollPtrSize);
  for (std::size_t c = 0; c < user_columns; ++c) {
    if (!whole[c] && !t.columns[c].is_virtual) add(clustered, c, t.columns[c].field);
  }
  // A secondary index ends with the primary key's fields it lacks, prefixes kept as they are.
  const std::size_t key_fields = clustered.n_unique_in_tree;
  const std::vector<std::size_t> clustered_key(clustered.columns.begin(),
                                               clustered.columns.begin() + static_cast<std::ptrdiff_t>(key_fields));
  const std::vector<FieldDef> clustered_key_fields(
      clustered.leaf.fields.begin(), clustered.leaf.fields.begin() + static_cast<std::ptrdiff_t>(key_fields));
  t.indexes.push_back(std::move(clustered));
  for (const auto& spec : indexes) {
    if (&spec == key || spec.skip) continue;
    IndexDef ix;
    ix.name = spec.name;
    ix.table = t.name;
    ix.unique = spec.unique;
    std::vector<bool> held(t.columns.size(), false);
    for (const auto& [name, prefix] : spec.parts) {
      auto c = column(name);
      if (!c) return Status::InvalidArgument("key " + spec.name + " names no column '" + name + "'");
      add(ix, *c, KeyPartField(t.columns[*c], prefix_bytes(spec, t.columns[*c], prefix)));
      held[*c] = held[*c] || prefix == 0;
    }
    for (std::size_t k = 0; k < key_fields; ++k) {
      if (!held[clustered_key[k]]) add(ix, clustered_key[k], clustered_key_fields[k]);
    }
    ix.n_unique_in_tree = ix.fields.size();  // node pointers of a secondary index hold every field
    t.indexes.push_back(std::move(ix));
  }
  return t;
}

}  // namespace strata::inspect
