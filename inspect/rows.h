// The rows of a table read from its tablespace: one index's leaf records in key order (the
// clustered index gives whole rows), each field decoded by the table's definition into the
// text the `mysql` client prints. What cannot be known is said, never guessed: a value the
// definition does not cover is `unknown` with the reason.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "inspect/finding.h"
#include "inspect/schema.h"
#include "inspect/space_file.h"
#include "ondisk/page_type.h"

namespace strata::inspect {

struct RowCell {
  std::optional<std::string> text;  // the client's text, unescaped; nullopt: NULL or unknown
  std::string unknown;              // why the value cannot be given (empty for a real NULL)
  bool is_null() const { return !text && unknown.empty(); }
};

struct Row {
  std::vector<RowCell> cells;  // one per RowColumns entry
  bool deleted = false;        // delete-marked, not yet purged
  bool page_damaged = false;   // read from a page that fails its checksum: it may be wrong
  std::uint32_t page = 0;
  std::size_t offset = 0;
  // While the callback runs: the record's fields on `record_page` as the index's own layout
  // reads them; null for a record read through an instant ALTER's layout, or undecodable.
  const std::vector<ondisk::FieldSlice>* fields = nullptr;
  ondisk::ConstBytes record_page;
};

// `cell` set to a value as stored: NULL, the client's text, or unknown with the reason. An
// off-page value's `local` bytes end with the reference to the rest, which is read from
// `file`; pages of it that fail their checksum are added to `failing`.
void FillCell(RowCell& cell, const SpaceFile& file, ondisk::ConstBytes local, bool is_null, bool external,
              const ondisk::ColumnFormat& format, std::vector<std::uint32_t>* failing);

// The columns a scan of `index` gives, in the order SELECT * lists them (clustered index:
// the table's stored columns; secondary: its key, then the primary key).
struct RowColumn {
  std::string name;
  std::size_t column = 0;  // in TableDef::columns
  const ondisk::ColumnFormat* format = nullptr;
  bool generated = false;  // computed by the server: left out of INSERTs
};
std::vector<RowColumn> RowColumns(const TableDef& table, const IndexDef& index);

struct RowScan {
  std::uint64_t rows = 0;  // rows given to the callback
  std::uint64_t deleted_skipped = 0;
  std::uint64_t unknown_cells = 0;
  std::uint32_t leaf_pages = 0;
  std::vector<Finding> findings;  // damage met on the way; the scan goes on past what it can
};

// Whether page `n` is a B-tree page of an index (INDEX, or the root of a MariaDB table after
// an instant ALTER, which MariaDB retypes as 18).
bool IsIndexPage(const SpaceFile& file, std::uint32_t n);
bool IsIndexPage(ondisk::PageType type, ondisk::Flavor flavor);

// Whether `index` has its root in `file`: an index page there carrying its id. For a table:
// its clustered index, and the file is its tablespace when the dictionary names one.
bool RootedIn(const IndexDef& index, const SpaceFile& file);
bool RootedIn(const TableDef& table, const SpaceFile& file);

// Walks `index` from its root down the leftmost node pointers and then along the leaf level,
// calling `each` for every live record (and delete-marked ones when `with_deleted`).
RowScan ScanRows(const SpaceFile& file, const TableDef& table, const IndexDef& index, bool with_deleted,
                 const std::function<void(const Row&)>& each);

}  // namespace strata::inspect
