// Which definition a tablespace file's rows decode by. A table's definition can come from six
// places, each knowing a different part of it:
//
//   SDI             inside a MySQL 8.0+ file: everything
//   CREATE TABLE    an SQL file the user gives (a schema dump, the script that made the table):
//                   everything but index roots; wins over all others when given
//   .frm            beside a MySQL 5.x or MariaDB file: everything but index roots
//   .cfg            beside an exported file: SYS_COLUMNS' facts, every index's root
//   SYS_* tables    the data directory's ibdata1: SYS_COLUMNS' facts, every index's root, for
//                   every table of that server
//   FTS             a FULLTEXT index's auxiliary tables: fixed by InnoDB, except the word's type,
//                   which is that of the indexed table's column
//
// SYS_COLUMNS (and so .cfg) lacks some types' details (DECIMAL's scale, ENUM labels, ...); such
// a column reads as unknown with the reason. A definition without index roots (.frm, CREATE
// TABLE) takes them from SYS_INDEXES by name when the server's dictionary is at hand.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "inspect/schema.h"
#include "inspect/space_file.h"
#include "ondisk/status.h"

namespace strata::inspect {

enum class DefinitionSource { kSdi, kCreateTable, kFrm, kCfg, kSysTables, kFts };
const char* ToString(DefinitionSource s);

struct DefinitionSources {
  std::optional<std::filesystem::path> create_table;  // an SQL file holding the CREATE TABLE
  std::string table;                                  // which of its tables (default: the file's name, else the first)
  const Dictionary* server = nullptr;                 // the data directory's SYS_* tables, if at hand
};

struct ResolvedDefinition {
  Dictionary dict;                   // every table the sources know, the file's among them
  std::optional<std::size_t> table;  // the file's table in dict.tables, when one has columns
  DefinitionSource provenance = DefinitionSource::kSdi;
  // What the reader should be told: a source that could not be read and was passed over, and
  // what the definition leaves out (virtual columns, ZEROFILL unknown to SYS_COLUMNS).
  std::vector<std::string> notes;

  const TableDef* Table() const { return table ? &dict.tables[*table] : nullptr; }
  TableDef* Table() { return table ? &dict.tables[*table] : nullptr; }
};

// The definition of the table in `file`, from the sources at hand in the order above. An
// error only when a source given explicitly (the CREATE TABLE file) cannot be used; a table
// found nowhere is `table` empty, and NoDefinitionMessage says what would give one.
ondisk::Result<ResolvedDefinition> ResolveDefinition(const SpaceFile& file, const DefinitionSources& sources);
std::string NoDefinitionMessage(const SpaceFile& file);

}  // namespace strata::inspect
