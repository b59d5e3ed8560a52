#include "inspect/rows.h"

#include <fmt/format.h>

#include "inspect/lob_reader.h"
#include "inspect/mariadb_instant.h"
#include "inspect/page_window.h"
#include "ondisk/checksum.h"
#include "ondisk/fil_header.h"
#include "ondisk/index_page.h"
#include "ondisk/page_type.h"

namespace strata::inspect {

using namespace strata::ondisk;

bool IsIndexPage(PageType type, Flavor flavor) {
  return type == PageType::kIndex || (type == PageType::kSdiBlobOrInstant && flavor == Flavor::kMariaDb);
}

bool IsIndexPage(const SpaceFile& file, std::uint32_t n) { return IsIndexPage(FilHeader(file.page(n)).type(), file.flavor()); }

bool RootedIn(const TableDef& table, const SpaceFile& file) {
  const IndexDef* index = table.Clustered();
  if (!index || (table.space_id && *table.space_id != file.space_id().value())) return false;
  return RootedIn(*index, file);
}

bool RootedIn(const IndexDef& index, const SpaceFile& file) {
  if (index.root_page >= file.n_pages() || !IsIndexPage(file, index.root_page)) return false;
  auto root = IndexPage::Open(file.page(index.root_page));
  return root.ok() && root->index_id() == index.id;
}

std::vector<RowColumn> RowColumns(const TableDef& table, const IndexDef& index) {
  std::vector<RowColumn> out;
  if (index.clustered) {
    // Table order, as SELECT * lists the columns; virtual columns are computed on read,
    // DB_* are InnoDB's own, and dropped ones are gone.
    for (std::size_t c = 0; c < table.columns.size(); ++c) {
      const ColumnDef& col = table.columns[c];
      if (!col.hidden && !col.is_virtual && !col.dropped) out.push_back({col.name, c, &col.format});
    }
  } else {
    // Every key and primary key column, FTS_DOC_ID included; not DB_ROW_ID and the like.
    for (std::size_t c : index.columns) {
      const ColumnDef& col = table.columns[c];
      if (col.format.type != ondisk::ColumnType::kSystem) out.push_back({col.name, c, &col.format});
    }
  }
  return out;
}

namespace {

class Scanner {
 public:
  Scanner(const SpaceFile& file, const TableDef& table, const IndexDef& index)
      : file_(file), table_(table), index_(index), columns_(RowColumns(table, index)),
        name_(file.path().string()) {
    field_of_.push_back(FieldsOf(index.columns));
    for (const auto& v : index.row_versions) field_of_.push_back(FieldsOf(v.columns));
  }

  RowScan Run(bool with_deleted, const std::function<void(const Row&)>& each) {
    std::uint32_t p = index_.root_page;
    const RecordLayout node_layout = index_.NodePointerLayout();
    std::optional<IndexPage> root;
    for (int depth = 0;; ++depth) {
      auto ip = OpenIndexPage(p, "descending from the root");
      if (!ip) return std::move(scan_);
      if (depth == 0) root = ip;
      if (ip->is_leaf()) break;
      if (depth > 64) {
        Fail(p, std::nullopt, "the tree is deeper than 64 levels");
        return std::move(scan_);
      }
      RecordWalker w(*ip);
      if (!w.Next()) {
        Fail(p, std::nullopt, w.status().ok() ? "a node page without records" : w.status().message());
        return std::move(scan_);
      }
      auto fields = ip->is_compact() ? DecodeCompactFields(file_.page(p), w.origin(), node_layout)
                                     : DecodeRedundantFields(file_.page(p), w.origin());
      if (!fields.ok() || fields->empty() || fields->back().length != 4) {
        Fail(p, w.origin(), fields.ok() ? "a node pointer without a child page" : fields.status().message());
        return std::move(scan_);
      }
      p = Load32(file_.page(p), fields->back().offset);
    }
    if (index_.clustered && IsMariaDbInstantRoot(file_, *root)) NoteMariaDbInstant(*root, p);
    std::vector<bool> seen(file_.n_pages(), false);
    for (; p != kFilNull; p = FilHeader(leaves_.Page(p)).next().value()) {
      if (p < seen.size() && seen[p]) {
        Fail(p, std::nullopt, "the leaf chain comes back to this page");
        break;
      }
      auto ip = OpenIndexPage(p, "along the leaf chain", &leaves_);
      if (!ip) break;
      seen[p] = true;
      if (!ip->is_leaf()) {
        Fail(p, std::nullopt, "the leaf chain reaches a page of level " + std::to_string(ip->level()));
        break;
      }
      ++scan_.leaf_pages;
      LeafRecords(*ip, p, with_deleted, each);
    }
    return std::move(scan_);
  }

 private:
  void Fail(std::uint32_t page, std::optional<std::size_t> offset, const std::string& detail) {
    scan_.findings.push_back({Severity::kError, name_, page, offset, "rows of " + index_.table + " " + index_.name, detail});
  }

  // Page p as an index page of this index; read through `window` when given, else the mapping.
  std::optional<IndexPage> OpenIndexPage(std::uint32_t p, const std::string& where, PageWindow* window = nullptr) {
    if (p >= file_.n_pages()) {
      Fail(p, std::nullopt, where + ": page " + std::to_string(p) + " is past the end of the file");
      return std::nullopt;
    }
    const ConstBytes bytes = window ? window->Page(p) : file_.page(p);
    if (!IsIndexPage(FilHeader(bytes).type(), file_.flavor())) {
      Fail(p, std::nullopt, where + ": not an INDEX page");
      return std::nullopt;
    }
    auto ip = IndexPage::Open(bytes);
    if (!ip.ok()) {
      Fail(p, std::nullopt, ip.status().message());
      return std::nullopt;
    }
    if (ip->index_id() != index_.id) {
      Fail(p, std::nullopt, fmt::format("{}: the page belongs to index {}, not {}", where, ip->index_id(), index_.id));
      return std::nullopt;
    }
    // A page that fails its checksum is still read (its rows may be all there is), but said so.
    if (!ValidatePage(bytes, file_.full_crc32()).valid) {
      Fail(p, std::nullopt, "the page fails its checksum: values read from it may be damaged");
    }
    return *ip;
  }

  void LeafRecords(const IndexPage& ip, std::uint32_t p, bool with_deleted, const std::function<void(const Row&)>& each) {
    ConstBytes page = ip.page();
    RecordWalker w(ip);
    while (w.Next()) {
      const RecordHeader& h = w.header();
      if (h.min_rec()) continue;  // MariaDB's instant-ALTER metadata record: not a row
      if (h.deleted() && !with_deleted) {
        ++scan_.deleted_skipped;
        continue;
      }
      Row& row = row_;  // one Row for the scan: its strings keep their capacity
      row.cells.resize(columns_.size());
      row.deleted = h.deleted();
      row.page = p;
      row.offset = w.origin();
      // Which layout: the row's version when the table has them, else the index's own.
      const RecordLayout* layout = mariadb_ ? &mariadb_->leaf : &index_.leaf;
      const std::vector<int>* field_of = &field_of_[0];
      Status version_error;
      if (!index_.row_versions.empty() && ip.is_compact()) {
        auto v = RecordRowVersion(page, w.origin());
        if (v.ok() && *v < index_.row_versions.size()) {
          layout = &index_.row_versions[*v].leaf;
          field_of = &field_of_[1 + *v];
        } else {
          version_error = v.ok() ? Status::Corruption("row version " + std::to_string(*v) + " is newer than the dictionary's")
                                 : v.status();
        }
      }
      Result<std::vector<FieldSlice>> fields =
          !version_error.ok() ? Result<std::vector<FieldSlice>>(version_error)
          : ip.is_compact()   ? DecodeCompactFields(page, w.origin(), *layout)
                              : DecodeRedundantFields(page, w.origin());
      if (!mariadb_error_.ok()) fields = mariadb_error_;
      for (std::size_t i = 0; i < columns_.size(); ++i) {
        const RowColumn& c = columns_[i];
        RowCell& cell = row.cells[i];
        const int f = (*field_of)[c.column];
        if (!fields.ok()) {
          cell = {std::nullopt, fields.status().message()};
        } else if (f < 0 || static_cast<std::size_t>(f) >= fields->size() || (*fields)[f].missing) {
          cell = Default(table_.columns[c.column], f);
        } else {
          FillCell(cell, page, (*fields)[f], *c.format);
        }
        if (!cell.unknown.empty()) ++scan_.unknown_cells;
      }
      ++scan_.rows;
      each(row);
    }
    if (!w.status().ok()) Fail(p, std::nullopt, w.status().message());
  }

  // MariaDB's instant ALTER (root page type 18): the rows' physical fields (which a DROP or
  // reorder makes differ from the definition's) and the defaults of columns added since a row
  // was written, both from the metadata record that opens the leftmost leaf.
  void NoteMariaDbInstant(const IndexPage& root, std::uint32_t first_leaf) {
    auto instant = ReadMariaDbInstant(file_, table_, index_, root, first_leaf);
    if (!instant.ok()) {
      mariadb_error_ = Status::NotSupported("MariaDB instant ALTER: " + instant.status().message());
      Fail(first_leaf, std::nullopt, mariadb_error_.message());
      return;
    }
    mariadb_ = std::move(*instant);
    std::vector<int> field_of(table_.columns.size(), -1);
    for (std::size_t f = 0; f < mariadb_->column_of.size(); ++f) {
      if (mariadb_->column_of[f] >= 0) field_of[static_cast<std::size_t>(mariadb_->column_of[f])] = static_cast<int>(f);
    }
    field_of_[0] = std::move(field_of);

    const std::size_t n = mariadb_->leaf.fields.size();
    mariadb_defaults_.assign(n, RowCell{std::nullopt, "added by MariaDB's instant ADD COLUMN after this row; no metadata record gives its default"});
    ConstBytes page = file_.page(first_leaf);
    auto leaf = IndexPage::Open(page);
    if (!leaf.ok()) return;
    RecordWalker w(*leaf);
    if (!w.Next() || !w.header().min_rec()) return;
    auto fields = leaf->is_compact() ? DecodeCompactFields(page, w.origin(), mariadb_->metadata)
                                     : DecodeRedundantFields(page, w.origin());
    const std::size_t shift = mariadb_->has_column_map ? 1 : 0;  // the map's reference field
    for (std::size_t f = 0; f < n; ++f) {
      const int c = mariadb_->column_of[f];
      const std::size_t m = f < mariadb_->metadata_ref_field || !shift ? f : f + shift;
      RowCell& cell = mariadb_defaults_[f];
      if (c < 0) continue;
      if (!fields.ok()) {
        cell = {std::nullopt, "MariaDB's metadata record: " + fields.status().message()};
      } else if (m >= fields->size() || (*fields)[m].missing) {
        cell = {std::nullopt, "MariaDB's metadata record does not hold this column's default"};
      } else {
        FillCell(cell, page, (*fields)[m], table_.columns[static_cast<std::size_t>(c)].format);
      }
    }
  }

  // Each table column's field in a layout whose fields are `columns`, or -1.
  std::vector<int> FieldsOf(const std::vector<std::size_t>& columns) const {
    std::vector<int> out(table_.columns.size(), -1);
    for (std::size_t f = 0; f < columns.size(); ++f) out[columns[f]] = static_cast<int>(f);
    return out;
  }

  // A column the row does not store: added by an instant ADD COLUMN after the row was
  // written, so it reads as the default the ALTER gave it.
  RowCell Default(const ColumnDef& c, int field) {
    if (mariadb_) {
      if (field >= 0 && static_cast<std::size_t>(field) < mariadb_defaults_.size()) return mariadb_defaults_[field];
      return {std::nullopt, "added by MariaDB's instant ADD COLUMN after this row; no metadata record gives its default"};
    }
    if (c.instant_default_null) return {};
    if (c.instant_default) {
      auto text = ColumnText(c.format, AsBytes(*c.instant_default));
      if (text.ok()) return {std::move(*text), ""};
      return {std::nullopt, "the instant default: " + text.status().message()};
    }
    return {std::nullopt, "the row does not store this column and the dictionary gives no default for it"};
  }

  void FillCell(RowCell& cell, ConstBytes page, const FieldSlice& fs, const ColumnFormat& format) {
    cell.unknown.clear();
    if (fs.is_null) {
      cell.text.reset();
      return;
    }
    ConstBytes local = page.subspan(fs.offset, fs.length);
    if (!cell.text) cell.text.emplace();
    Status st;
    if (fs.external) {
      const ExternRef ref = ExternRef::Decode(page, fs.offset + fs.length - kExternRefSize);
      auto rest = ReadExternal(file_, ref);
      if (!rest.ok()) {
        cell = {std::nullopt, "off-page part: " + rest.status().message()};
        return;
      }
      std::string whole(reinterpret_cast<const char*>(local.data()), local.size() - kExternRefSize);
      whole += *rest;
      st = ColumnTextTo(format, AsBytes(whole), *cell.text);
    } else {
      st = ColumnTextTo(format, local, *cell.text);
    }
    if (!st.ok()) cell = {std::nullopt, st.message()};
  }

  static ConstBytes AsBytes(const std::string& s) { return {reinterpret_cast<const std::byte*>(s.data()), s.size()}; }

  const SpaceFile& file_;
  const TableDef& table_;
  const IndexDef& index_;
  std::vector<RowColumn> columns_;
  std::vector<std::vector<int>> field_of_;  // [0]: the index's layout; [1 + v]: row version v
  std::optional<MariaDbInstant> mariadb_;   // a clustered index MariaDB altered instantly
  std::vector<RowCell> mariadb_defaults_;   // per field of mariadb_->leaf
  Status mariadb_error_;                    // why no row can be decoded, when not ok
  Row row_;
  PageWindow leaves_{file_};
  std::string name_;
  RowScan scan_;
};

}  // namespace

RowScan ScanRows(const SpaceFile& file, const TableDef& table, const IndexDef& index, bool with_deleted,
                 const std::function<void(const Row&)>& each) {
  return Scanner(file, table, index).Run(with_deleted, each);
}

}  // namespace strata::inspect
