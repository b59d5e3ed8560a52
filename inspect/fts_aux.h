// InnoDB's FULLTEXT auxiliary tables: each FULLTEXT index keeps its inverted index in six
// tables of its own, and the table keeps its deleted document ids and settings in five more,
// each a file beside the table's:
//
//   FTS_<table id>_<index id>_INDEX_<1-6>.ibd  word, first_doc_id, last_doc_id, doc_count, ilist
//                                               key (word, first_doc_id); word has the type of the
//                                               FULLTEXT index's first column, up to 84 characters
//   FTS_<table id>_CONFIG.ibd                   key VARCHAR(50), value VARCHAR(200)
//   FTS_<table id>_[BEING_]DELETED[_CACHE].ibd  doc_id BIGINT UNSIGNED
//
// (16 hex digits each id; MySQL 8.0 writes the names in lower case.) An ilist lists, per
// document, its id as the gap from the previous one, then the word's byte positions in it, each
// as the gap from the previous one, then a 0 byte; numbers are 7-bit groups, most significant
// first, the last one with its high bit set.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "inspect/rows.h"
#include "inspect/schema.h"
#include "ondisk/status.h"

namespace strata::inspect {

struct FtsAuxFile {
  enum Kind { kIndex, kConfig, kDocIds } kind = kIndex;
  std::uint64_t table_id = 0;
  std::uint64_t index_id = 0;  // kIndex: the FULLTEXT index
  int part = 0;                // kIndex: 1-6
};

// What an auxiliary table file is, from its name; nullopt for any other file.
std::optional<FtsAuxFile> FtsAuxOf(const std::filesystem::path& path);

// The auxiliary table's definition (not yet placed in its file). An INDEX table's word has the
// type of `word`, the FULLTEXT index's first column; without it, InvalidArgument saying so.
ondisk::Result<TableDef> FtsAuxTable(const FtsAuxFile& aux, const ColumnDef* word);

// The first column of `parent`'s FULLTEXT indexes, when they all have one type; else null.
const ColumnDef* FtsWordColumn(const TableDef& parent);

// INFORMATION_SCHEMA.INNODB_FT_INDEX_TABLE's columns: what an INDEX table's rows expand to.
const std::vector<RowColumn>& FtsIndexColumns();

// The rows one INDEX-table row (its cells in FtsAuxTable's column order) gives in
// INNODB_FT_INDEX_TABLE: one per document and position. POSITION is what the server prints
// there: the gap from the word's previous position in the document, not the position.
// Corruption when the ilist is cut short or its document count is not the one stored.
ondisk::Status ExpandIlist(const Row& node, const std::function<void(const Row&)>& each);

}  // namespace strata::inspect
