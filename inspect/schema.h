// Table and index definitions a file carries about itself: MySQL 8.0's SDI. They give index
// names to index ids and the record layouts that `page N --records` decodes fields with.
// Files without a dictionary (MySQL 5.7, MariaDB .ibd) give an empty Dictionary.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "inspect/finding.h"
#include "inspect/space_file.h"
#include "ondisk/column_format.h"
#include "ondisk/record.h"

namespace strata::inspect {

struct ColumnDef {
  std::string name;
  std::string sql_type;  // as the server prints it ("varchar(45)"), empty for hidden columns
  int dd_type = 0;       // the data dictionary's column type code
  bool nullable = false;
  bool is_unsigned = false;
  bool hidden = false;      // DB_ROW_ID, DB_TRX_ID, DB_ROLL_PTR
  bool is_virtual = false;  // computed by the server on read, not stored in the clustered index
  bool generated = false;   // computed by the server (VIRTUAL or STORED): an INSERT must not give it
  // MySQL instant ADD/DROP COLUMN (se_private_data): where the column sits in a row of the
  // clustered index, the row versions it was added and dropped in (0: never), and the value
  // rows written before it was added read as.
  std::optional<std::uint32_t> physical_pos;
  std::uint32_t version_added = 0;
  std::uint32_t version_dropped = 0;
  bool dropped = false;                        // gone from the table; still in rows of older versions
  std::optional<std::string> instant_default;  // stored bytes
  bool instant_default_null = false;
  ondisk::FieldDef field;       // how the full column is stored
  ondisk::ColumnFormat format;  // how its values read
};

struct IndexDef {
  std::uint64_t id = 0;
  std::string name;
  std::string table;  // "schema.table"
  std::uint32_t root_page = ondisk::kFilNull;
  bool clustered = false;
  bool unique = false;
  bool spatial = false;                       // an R-tree of bounding boxes, not rows (SYS_INDEXES only)
  std::vector<std::string> fields;            // physical field order of leaf records
  ondisk::RecordLayout leaf;                  // leaf record layout
  std::vector<std::size_t> columns;           // per leaf field: its column in TableDef::columns
  std::vector<ondisk::ColumnFormat> formats;  // per leaf field: how its values read
  std::size_t n_unique_in_tree = 0;           // key fields of node pointers
  // Clustered index of a table with MySQL 8.0.29+ row versions: version v's leaf layout
  // (fields in physical order, dropped columns included while they existed) and each field's
  // column. Empty when rows have one layout.
  struct RowVersion {
    ondisk::RecordLayout leaf;
    std::vector<std::size_t> columns;
  };
  std::vector<RowVersion> row_versions;

  // Node pointers keep the NULL bitmap width of the records from before the first instant
  // ADD/DROP COLUMN (InnoDB's nullables[0]), however many nullable columns came since.
  ondisk::RecordLayout NodePointerLayout() const {
    ondisk::RecordLayout np = leaf.NodePointer(n_unique_in_tree);
    if (!row_versions.empty()) np.null_bitmap_bits = row_versions.front().leaf.n_nullable();
    return np;
  }
};

struct TableDef {
  std::string schema;
  std::string name;
  std::vector<ColumnDef> columns;
  std::vector<IndexDef> indexes;
  std::optional<std::uint32_t> space_id;  // its tablespace, when the dictionary says (SYS_TABLES)
  // The first column of each FULLTEXT index: the words of its auxiliary tables have its type.
  std::vector<std::string> fulltext_first_columns;

  const IndexDef* Clustered() const;
  // Whether MySQL's instant ADD/DROP COLUMN changed it (SDI's instant columns).
  bool AlteredInstantlyByMySql() const;
  // FLOAT values printed with the digits that read back as the same FLOAT (INSERT output),
  // not the six the client shows.
  void UseExactFloats();
};

struct Dictionary {
  std::string source;  // "SDI" or empty
  std::vector<TableDef> tables;
  std::vector<Finding> findings;

  const IndexDef* FindIndex(std::uint64_t id) const;
  // How every command and picture names an index: its name when the dictionary gives it,
  // SDI for MySQL 8.0's dictionary index, else "index ID".
  std::string IndexName(std::uint64_t id) const;
  const TableDef* TableOf(const IndexDef* index) const;  // the table `index` belongs to
  bool empty() const { return tables.empty(); }
  // Adds another source's tables (a file's SDI plus its server's SYS_* tables, say).
  void Append(const Dictionary& other);
};

// Reads the SDI records of a MySQL 8.0 tablespace (following SDI BLOB pages when a record
// is stored off-page). Damage is reported in `findings`, never thrown.
Dictionary ReadDictionary(const SpaceFile& file);
// The file's own dictionary, plus `server` (SYS_* tables of its ibdata1) when given.
Dictionary DictionaryFor(const SpaceFile& file, const Dictionary* server);

// Builds a table definition from one SDI JSON document of type "Table".
TableDef TableFromSdi(const nlohmann::json& doc);

nlohmann::json ToJson(const Dictionary& d);
std::string ToText(const Dictionary& d);

}  // namespace strata::inspect
