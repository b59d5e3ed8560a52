#include "inspect/mariadb_instant.h"

#include <fmt/format.h>

#include "inspect/lob_reader.h"
#include "ondisk/fil_header.h"
#include "ondisk/instant.h"
#include "ondisk/page_type.h"

namespace strata::inspect {

using namespace strata::ondisk;

namespace {

// The column map's entries, read from the BLOB the metadata record at `origin` refers to.
Result<std::vector<MariaDbColumnMapEntry>> ReadColumnMap(const SpaceFile& file, const IndexDef& index, ConstBytes page,
                                                         std::uint32_t page_no, std::size_t origin, bool compact) {
  const std::size_t key_fields = index.n_unique_in_tree;
  std::size_t ref_at = 0;
  if (compact) {
    // The key fields of the metadata record are dummies: fixed ones at full width, variable
    // ones empty. DB_TRX_ID and DB_ROLL_PTR follow, then the reference.
    ref_at = origin + kDbTrxIdSize + kDbRollPtrSize;
    for (std::size_t f = 0; f < key_fields; ++f) ref_at += index.leaf.fields[f].fixed_length;
  } else {
    auto fields = DecodeRedundantFields(page, origin);
    if (!fields.ok()) return fields.status();
    if (fields->size() <= key_fields + 2 || !(*fields)[key_fields + 2].external ||
        (*fields)[key_fields + 2].length != kExternRefSize) {
      return Status::CorruptionAt(origin, "the metadata record has no column map reference after DB_ROLL_PTR");
    }
    ref_at = (*fields)[key_fields + 2].offset;
  }
  if (ref_at + kExternRefSize > page.size())
    return Status::CorruptionAt(origin, "the column map reference runs off the page");
  const ExternRef ref = ExternRef::Decode(page, ref_at);
  if (ref.length < 4 || ref.length > kMariaDbColumnMapMaxBytes) {
    return Status::CorruptionAt(ref_at, fmt::format("page {}: the column map is {} bytes long", page_no, ref.length));
  }
  auto blob = ReadExternal(file, ref);
  if (!blob.ok()) return blob.status().WithContext(fmt::format("the column map of page {}", page_no));
  auto entries = DecodeMariaDbColumnMap({reinterpret_cast<const std::byte*>(blob->data()), blob->size()});
  if (!entries.ok()) return entries.status().WithContext(fmt::format("page {} (map on page {})", page_no, ref.page_no));
  return entries;
}

}  // namespace

bool IsMariaDbInstantRoot(const SpaceFile& file, const IndexPage& root) {
  return file.flavor() == Flavor::kMariaDb && FilHeader(root.page()).type() == PageType::kSdiBlobOrInstant;
}

Result<MariaDbInstant> ReadMariaDbInstant(const SpaceFile& file, const TableDef& table, const IndexDef& index,
                                          const IndexPage& root, std::uint32_t first_leaf) {
  MariaDbInstant out;
  out.core_fields = root.page_instant();
  out.leaf = index.leaf;
  out.column_of.assign(index.columns.begin(), index.columns.end());
  // A plain ADD COLUMN leaves the infimum as it was; a DROP or reorder zeroes it.
  const bool has_map = MariaDbRootHasColumnMap(root.page(), root.infimum());
  const std::size_t first_user = index.n_unique_in_tree + 2;  // after the key, DB_TRX_ID, DB_ROLL_PTR
  if (has_map) {
    if (first_leaf >= file.n_pages())
      return Status::Corruption(fmt::format("leftmost leaf {} is past the file's end", first_leaf));
    auto leaf = IndexPage::Open(file.page(first_leaf));
    if (!leaf.ok()) return leaf.status().WithContext(fmt::format("page {}", first_leaf));
    RecordWalker w(*leaf);
    if (!w.Next() || !w.header().min_rec() || !w.header().deleted()) {
      return Status::Corruption(
          fmt::format("page {}: the leftmost leaf does not open with MariaDB's metadata record, "
                      "which a table altered by an instant DROP or reorder must have",
                      first_leaf));
    }
    auto entries = ReadColumnMap(file, index, leaf->page(), first_leaf, w.origin(), leaf->is_compact());
    if (!entries.ok()) return entries.status();

    std::vector<std::size_t> stored;  // the table's stored columns in SELECT * order: what entries name
    for (std::size_t c = 0; c < table.columns.size(); ++c) {
      const ColumnDef& col = table.columns[c];
      if (!col.is_virtual && col.format.type != ColumnType::kSystem) stored.push_back(c);  // FTS_DOC_ID counts
    }
    out.leaf.fields.resize(first_user);
    out.column_of.resize(first_user);
    std::vector<bool> named(table.columns.size(), false);
    for (std::size_t f = 0; f < first_user; ++f) named[index.columns[f]] = true;
    std::size_t live = 0;
    for (const MariaDbColumnMapEntry& e : *entries) {
      if (e.dropped()) {
        out.leaf.fields.push_back(e.DroppedField());
        out.column_of.push_back(-1);
        continue;
      }
      const std::size_t k = e.column();
      if (k >= stored.size() || named[stored[k]]) {
        return Status::Corruption(
            fmt::format("page {}: the column map names column {} of {}, which the definition "
                        "does not have or already placed",
                        first_leaf, k, stored.size()));
      }
      named[stored[k]] = true;
      out.leaf.fields.push_back(table.columns[stored[k]].field);
      out.column_of.push_back(static_cast<int>(stored[k]));
      ++live;
    }
    if (live + first_user != index.leaf.fields.size()) {
      return Status::Corruption(
          fmt::format("page {}: the column map places {} columns, the definition has {}: the "
                      "definition is not this table's as it is now",
                      first_leaf, live, index.leaf.fields.size() - first_user));
    }
    out.has_column_map = true;
    out.metadata_ref_field = first_user;
  }
  out.leaf.core_fields = out.core_fields;
  if (out.core_fields == 0 || out.core_fields > out.leaf.fields.size()) {
    return Status::Corruption(fmt::format("page {}: MariaDB's instant core field count is {}, the row has {} fields",
                                          index.root_page, out.core_fields, out.leaf.fields.size()));
  }
  out.metadata = out.leaf;
  if (has_map) {
    // Not nullable and fixed: the reference has neither a NULL bit nor a length byte.
    out.metadata.fields.insert(out.metadata.fields.begin() + static_cast<std::ptrdiff_t>(first_user),
                               FieldDef::Fixed("(column map)", kExternRefSize));
  }
  return out;
}

std::optional<Result<MariaDbInstant>> ReadMariaDbInstant(const SpaceFile& file, const TableDef& table,
                                                         const IndexDef& index) {
  if (!index.clustered || index.root_page >= file.n_pages()) return std::nullopt;
  auto root = IndexPage::Open(file.page(index.root_page));
  if (!root.ok() || !IsMariaDbInstantRoot(file, *root)) return std::nullopt;
  // Down the leftmost node pointers to the leaf that opens with the metadata record.
  const RecordLayout node = index.NodePointerLayout();
  std::uint32_t p = index.root_page;
  for (int depth = 0; depth < 64; ++depth) {
    auto ip = IndexPage::Open(file.page(p));
    if (!ip.ok()) return ip.status().WithContext(fmt::format("page {}", p));
    if (ip->is_leaf()) return ReadMariaDbInstant(file, table, index, *root, p);
    RecordWalker w(*ip);
    if (!w.Next()) return Status::Corruption(fmt::format("page {}: a node page without records", p));
    auto fields = ip->is_compact() ? DecodeCompactFields(ip->page(), w.origin(), node)
                                   : DecodeRedundantFields(ip->page(), w.origin());
    if (!fields.ok() || fields->empty() || fields->back().length != 4) {
      return Status::Corruption(fmt::format("page {}: its first node pointer cannot be read", p));
    }
    p = Load32(ip->page(), fields->back().offset);
    if (p >= file.n_pages())
      return Status::Corruption(fmt::format("a node pointer leads to page {}, past the file's end", p));
  }
  return Status::Corruption("the tree is deeper than 64 levels");
}

}  // namespace strata::inspect
