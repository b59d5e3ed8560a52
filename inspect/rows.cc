#include "inspect/rows.h"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

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

bool IsIndexPage(const SpaceFile& file, std::uint32_t n) {
  return IsIndexPage(FilHeader(file.page(n)).type(), file.flavor());
}

bool RootedIn(const TableDef& table, const SpaceFile& file) {
  const IndexDef* index = table.Clustered();
  if (!index || (table.space_id && *table.space_id != file.space_id().value())) return false;
  return RootedIn(*index, file);
}

bool RootedIn(const IndexDef& index, const SpaceFile& file) {
  if (index.root_page >= file.n_pages() || !IsIndexPage(file, index.root_page)) return false;
  auto root = file.OpenIndexPage(file.page(index.root_page));
  return root.ok() && root->index_id() == index.id;
}

std::vector<RowColumn> RowColumns(const TableDef& table, const IndexDef& index) {
  std::vector<RowColumn> out;
  if (index.clustered) {
    // Table order, as SELECT * lists the columns; virtual columns are computed on read,
    // DB_* are InnoDB's own, and dropped ones are gone.
    for (std::size_t c = 0; c < table.columns.size(); ++c) {
      const ColumnDef& col = table.columns[c];
      if (!col.hidden && !col.is_virtual && !col.dropped) out.push_back({col.name, c, &col.format, col.generated});
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

void FillCell(RowCell& cell, const SpaceFile& file, ConstBytes local, bool is_null, bool external,
              const ColumnFormat& format, std::vector<std::uint32_t>* failing) {
  cell.unknown.clear();
  if (is_null) {
    cell.text.reset();
    return;
  }
  if (!cell.text) cell.text.emplace();
  Status st;
  if (external) {
    const ExternRef ref = ExternRef::Decode(local, local.size() - kExternRefSize);
    auto rest = ReadExternal(file, ref, failing);
    if (!rest.ok()) {
      cell = {std::nullopt, "off-page part: " + rest.status().message()};
      return;
    }
    std::string whole(reinterpret_cast<const char*>(local.data()), local.size() - kExternRefSize);
    whole += *rest;
    st = ColumnTextTo(format, {reinterpret_cast<const std::byte*>(whole.data()), whole.size()}, *cell.text);
  } else {
    st = ColumnTextTo(format, local, *cell.text);
  }
  if (!st.ok()) cell = {std::nullopt, st.message()};
}

namespace {

// The leaves of an index in key order as its node pages name them: the way on when the leaf
// chain breaks. kGap stands for the leaves under a node page that could not be read.
struct LeafOrder {
  static constexpr std::uint32_t kGap = kFilNull - 1;
  std::vector<std::uint32_t> pages;
  std::unordered_map<std::uint32_t, std::size_t> position;

  // The leaf after `page`: kFilNull after the last, nullopt when the node pages cannot say.
  std::optional<std::uint32_t> After(std::uint32_t page) const {
    const auto it = position.find(page);
    if (it == position.end()) return std::nullopt;
    if (it->second + 1 == pages.size()) return kFilNull;
    const std::uint32_t next = pages[it->second + 1];
    if (next == kGap) return std::nullopt;
    return next;
  }
};

class Scanner {
 public:
  Scanner(const SpaceFile& file, const TableDef& table, const IndexDef& index)
      : file_(file), table_(table), index_(index), columns_(RowColumns(table, index)), name_(file.path().string()) {
    field_of_.push_back(FieldsOf(index.columns));
    for (const auto& v : index.row_versions) field_of_.push_back(FieldsOf(v.columns));
  }

  RowScan Run(bool with_deleted, const std::function<void(const Row&)>& each) {
    const RecordLayout node_layout = index_.NodePointerLayout();
    std::optional<IndexPage> root;
    std::optional<std::uint32_t> first = LeftmostLeaf(node_layout, root);
    if (!first) {
      // The way down is damaged: the leaves are still there, chained, with this index's id.
      first = LeafWithoutLeftNeighbour();
      if (!first) return std::move(scan_);
      Fail(*first, std::nullopt,
           "the scan starts here instead: the leaf of this index that has no left neighbour, "
           "found by reading every page; it goes on along the leaf chain");
      root.reset();
    }
    std::uint32_t p = *first;
    if (root && index_.clustered && IsMariaDbInstantRoot(file_, *root)) NoteMariaDbInstant(*root, p);
    // The leaf chain gives the order; the node pages' pointers are the second opinion that
    // lets the scan go on past a leaf it cannot read, or a next-page pointer that is wrong.
    const LeafOrder order = !root || root->is_leaf() ? LeafOrder{} : LeavesInKeyOrder(node_layout);
    std::vector<bool> seen(file_.n_pages(), false);
    while (p != kFilNull) {
      if (p < seen.size() && seen[p]) {
        Fail(p, std::nullopt, "the leaf chain comes back to this page");
        break;
      }
      auto ip = OpenIndexPage(p, "along the leaf chain", &leaves_);
      if (ip && !ip->is_leaf()) {
        Fail(p, std::nullopt, "the leaf chain reaches a page of level " + std::to_string(ip->level()));
        ip.reset();
      }
      std::optional<std::uint32_t> chain_next;
      if (ip) {
        if (p < seen.size()) seen[p] = true;
        ++scan_.leaf_pages;
        LeafRecords(*ip, p, with_deleted, each);
        chain_next = FilHeader(ip->page()).next().value();
      }
      const std::optional<std::uint32_t> parent_next = order.After(p);
      if (chain_next && (!parent_next || *parent_next == *chain_next)) {
        p = *chain_next;
      } else if (parent_next) {
        Fail(p, std::nullopt,
             chain_next
                 ? fmt::format("its next-page pointer leads to page {} but its parent's next node pointer to {}: "
                               "following the parent",
                               *chain_next, Named(*parent_next))
                 : fmt::format("the rows of this page are lost; the scan goes on at {}, the leaf its parent "
                               "names next",
                               Named(*parent_next)));
        p = *parent_next;
      } else {
        if (!chain_next)
          Fail(p, std::nullopt, "the rows after this page cannot be reached: no node page names the next leaf");
        break;
      }
    }
    return std::move(scan_);
  }

 private:
  static std::string Named(std::uint32_t page) { return page == kFilNull ? "the end" : "page " + std::to_string(page); }

  // From the root down the leftmost node pointers to the first leaf; nullopt, said, when a
  // page on the way cannot be read. `root` is the root page when it could be.
  std::optional<std::uint32_t> LeftmostLeaf(const RecordLayout& node_layout, std::optional<IndexPage>& root) {
    std::uint32_t p = index_.root_page;
    for (int depth = 0;; ++depth) {
      auto ip = OpenIndexPage(p, "descending from the root");
      if (!ip) return std::nullopt;
      descent_.push_back(p);
      if (depth == 0) root = ip;
      if (ip->is_leaf()) return p;
      if (depth > 64) {
        Fail(p, std::nullopt, "the tree is deeper than 64 levels");
        return std::nullopt;
      }
      if (const Status fit = FitsNodePage(*ip, p, node_layout); !fit.ok() && !IsMariaDbInstantRoot(file_, *root)) {
        Fail(p, std::nullopt, fit.message());  // its node pointers would lead anywhere
        return std::nullopt;
      }
      auto child = FirstChild(*ip, node_layout);
      if (!child.ok()) {
        Fail(p, std::nullopt, child.status().message());
        return std::nullopt;
      }
      p = *child;
    }
  }

  // The child page the first node pointer of node page `ip` leads to.
  static Result<std::uint32_t> FirstChild(const IndexPage& ip, const RecordLayout& node_layout) {
    RecordWalker w(ip);
    if (!w.Next()) return w.status().ok() ? Status::Corruption("a node page without records") : w.status();
    auto fields = ip.is_compact() ? DecodeCompactFields(ip.page(), w.origin(), node_layout)
                                  : DecodeRedundantFields(ip.page(), w.origin());
    if (!fields.ok()) return fields.status();
    if (fields->empty() || fields->back().length != 4)
      return Status::CorruptionAt(w.origin(), "a node pointer without a child page");
    return Load32(ip.page(), fields->back().offset);
  }

  // The first leaf of this index found by reading every page: level 0, this index's id, no
  // previous page. For a tree whose root or leftmost node pages are damaged.
  std::optional<std::uint32_t> LeafWithoutLeftNeighbour() {
    PageWindow window(file_);
    for (std::uint32_t p = 0; p < file_.n_pages(); ++p) {
      auto ip = ReadIndexPage(p, "", &window);
      if (ip.ok() && ip->is_leaf() && FilHeader(ip->page()).prev().value() == kFilNull) return p;
    }
    return std::nullopt;
  }

  // Every leaf under the root in key order, read depth first through the node pages. A node
  // page that cannot be read leaves a gap (the leaf chain is followed there) and is said: the
  // rows may not need it, but the file is damaged.
  LeafOrder LeavesInKeyOrder(const RecordLayout& node_layout) {
    LeafOrder order;
    std::unordered_set<std::uint32_t> visited;
    const std::string why = "a node page of the index (the rows are read along the leaf chain)";
    std::function<void(std::uint32_t, int)> visit = [&](std::uint32_t p, int depth) {
      if (depth > 64 || !visited.insert(p).second) {
        Fail(p, std::nullopt, "the node pointers come back to this page");
        order.pages.push_back(LeafOrder::kGap);
        return;
      }
      const bool said = std::find(descent_.begin(), descent_.end(), p) != descent_.end();  // checked on the way down
      auto ip = ReadIndexPage(p, why, nullptr);
      Status fit = ip.ok() && p != index_.root_page ? FitsNodePage(*ip, p, node_layout) : Status::Ok();
      if (ip.ok() && ip->is_leaf()) fit = Status::Corruption(why + " is a leaf");
      if (!ip.ok() || !fit.ok()) {
        Fail(p, std::nullopt, !ip.ok() ? ip.status().message() : fit.message());
        order.pages.push_back(LeafOrder::kGap);
        return;
      }
      if (!said && !file_.CheckPage(file_.page(p)).valid) {
        Fail(p, std::nullopt, "the page fails its checksum: " + why);
      }
      RecordWalker w(*ip);
      while (w.Next()) {
        auto fields = ip->is_compact() ? DecodeCompactFields(ip->page(), w.origin(), node_layout)
                                       : DecodeRedundantFields(ip->page(), w.origin());
        if (!fields.ok() || fields->empty() || fields->back().length != 4) {
          Fail(p, w.origin(), fields.ok() ? "a node pointer without a child page" : fields.status().message());
          order.pages.push_back(LeafOrder::kGap);
          continue;
        }
        const std::uint32_t child = Load32(ip->page(), fields->back().offset);
        if (ip->level() == 1) {
          order.position.emplace(child, order.pages.size());
          order.pages.push_back(child);
        } else {
          visit(child, depth + 1);
        }
      }
      if (!w.status().ok()) {
        Fail(p, std::nullopt, w.status().message());
        order.pages.push_back(LeafOrder::kGap);
      }
    };
    visit(index_.root_page, 0);
    return order;
  }

  void Fail(std::uint32_t page, std::optional<std::size_t> offset, const std::string& detail) {
    scan_.findings.push_back(
        {Severity::kError, name_, page, offset, "rows of " + index_.table + " " + index_.name, detail});
  }

  // Page p as an index page of this index; read through `window` when given, else the mapping.
  Result<IndexPage> ReadIndexPage(std::uint32_t p, const std::string& where, PageWindow* window) const {
    if (p >= file_.n_pages())
      return Status::Corruption(where + ": page " + std::to_string(p) + " is past the end of the file");
    const ConstBytes bytes = window ? window->Page(p) : file_.page(p);
    if (!IsIndexPage(FilHeader(bytes).type(), file_.flavor())) return Status::Corruption(where + ": not an INDEX page");
    auto ip = file_.OpenIndexPage(bytes);
    if (!ip.ok()) return ip.status();
    if (ip->index_id() != index_.id) {
      return Status::Corruption(
          fmt::format("{}: the page belongs to index {}, not {}", where, ip->index_id(), index_.id));
    }
    return ip;
  }

  // ReadIndexPage, with what is wrong said in the scan's findings.
  std::optional<IndexPage> OpenIndexPage(std::uint32_t p, const std::string& where, PageWindow* window = nullptr) {
    auto ip = ReadIndexPage(p, where, window);
    if (!ip.ok()) {
      Fail(p, std::nullopt, ip.status().message());
      return std::nullopt;
    }
    // A page that fails its checksum is still read (its rows may be all there is), but said so.
    page_damaged_ = !file_.CheckPage(window ? window->Page(p) : file_.page(p)).valid;
    if (page_damaged_) Fail(p, std::nullopt, "the page fails its checksum: values read from it may be damaged");
    return *ip;
  }

  // The layout a record of this clustered or secondary index is read with, and each table
  // column's field in it; `error` when no layout can be chosen.
  const RecordLayout* LayoutOf(const IndexPage& ip, std::size_t origin, bool min_rec, const std::vector<int>*& field_of,
                               Status& error) const {
    field_of = &field_of_[0];
    if (mariadb_) return min_rec ? &mariadb_->metadata : &mariadb_->leaf;
    if (!index_.row_versions.empty() && ip.is_compact()) {
      auto v = RecordRowVersion(ip.page(), origin);
      if (v.ok() && *v < index_.row_versions.size()) {
        field_of = &field_of_[1 + *v];
        return &index_.row_versions[*v].leaf;
      }
      error = v.ok() ? Status::Corruption("row version " + std::to_string(*v) + " is newer than the dictionary's")
                     : v.status();
    }
    return &index_.leaf;
  }

  // Whether the definition fits node page p: its node pointers, as `node` reads them, and the
  // page's garbage must fill the heap exactly (InnoDB's own page check; leaves are checked as
  // they are read). A definition that is not the table's (a wrong --create-table, another
  // table's .frm) reads other sizes, and its node pointers would lead anywhere. REDUNDANT
  // records carry their own field ends: nothing to check.
  Status FitsNodePage(const IndexPage& ip, std::uint32_t p, const RecordLayout& node) const {
    // (Not checked: node pointers after a MariaDB or MySQL instant ALTER, whose NULL bitmaps
    // keep the width of before it.)
    if (!ip.is_compact() || mariadb_ || table_.AlteredInstantlyByMySql()) return Status::Ok();
    std::size_t used = 0;
    RecordWalker w(ip);
    while (w.Next()) {
      RecordExtent extent;
      if (!DecodeCompactFields(ip.page(), w.origin(), node, &extent).ok())
        return Status::Ok();  // reported when followed
      used += extent.size();
    }
    if (!w.status().ok()) return Status::Ok();  // a broken chain: said when the page is read
    const std::size_t heap = ip.heap_top() - ip.supremum_end();
    if (used + ip.garbage() == heap) return Status::Ok();
    return Status::Corruption(
        fmt::format("page {}: read with this definition its node pointers take {} bytes and its garbage "
                    "{}, but they fill {}: the definition is not this table's, or the page is damaged",
                    p, used, ip.garbage(), heap));
  }

  void LeafRecords(const IndexPage& ip, std::uint32_t p, bool with_deleted,
                   const std::function<void(const Row&)>& each) {
    ConstBytes page = ip.page();
    // Every record of the page first, metadata and delete-marked ones too: what they take
    // tells whether the definition fits the page (FitsPage) before any value is given.
    decoded_.clear();
    std::size_t used = 0;
    bool sized = ip.is_compact();
    RecordWalker w(ip);
    while (w.Next()) {
      const RecordHeader& h = w.header();
      Decoded& d =
          decoded_.emplace_back(Decoded{w.origin(), h.deleted(), h.min_rec(), nullptr, std::vector<FieldSlice>{}});
      Status version_error;
      const RecordLayout* layout = LayoutOf(ip, w.origin(), h.min_rec(), d.field_of, version_error);
      RecordExtent extent;
      d.fields = !version_error.ok() ? Result<std::vector<FieldSlice>>(version_error)
                 : ip.is_compact()   ? DecodeCompactFields(page, w.origin(), *layout, &extent)
                                     : DecodeRedundantFields(page, w.origin());
      if (d.fields.ok())
        used += extent.size();
      else
        sized = false;  // that record says what is wrong with it
    }
    if (!w.status().ok()) {
      Fail(p, std::nullopt, w.status().message());
      sized = false;  // the records past the break are not counted
    }
    Status fit = mariadb_error_;
    const std::size_t heap = std::size_t{ip.heap_top()} - ip.supremum_end();
    if (fit.ok() && sized && used + ip.garbage() != heap) {
      // A table that once had a FULLTEXT index keeps InnoDB's FTS_DOC_ID after the index is
      // dropped: 8 bytes a record that a CREATE TABLE of today does not show.
      const bool doc_id = index_.clustered && used + ip.garbage() + 8 * decoded_.size() == heap;
      fit = Status::Corruption(
          fmt::format("page {}: read with this definition its records take {} bytes and its garbage {}, "
                      "but they fill {}: the definition is not this table's, or the page is damaged{}",
                      p, used, ip.garbage(), heap,
                      doc_id ? " (each record holds 8 bytes more: if the table ever had a FULLTEXT index, "
                               "InnoDB's hidden FTS_DOC_ID is still there; add `FTS_DOC_ID BIGINT "
                               "UNSIGNED NOT NULL` as the last column to read the rows, with it)"
                             : ""));
      Fail(p, std::nullopt, fit.message());
    }
    for (const Decoded& d : decoded_) {
      if (d.min_rec) continue;  // MariaDB's instant-ALTER metadata record: not a row
      if (d.deleted && !with_deleted) {
        ++scan_.deleted_skipped;
        continue;
      }
      Row& row = row_;  // one Row for the scan: its strings keep their capacity
      row.cells.resize(columns_.size());
      row.deleted = d.deleted;
      row.page_damaged = page_damaged_;
      row.page = p;
      row.offset = d.origin;
      row.fields = d.fields.ok() && fit.ok() && d.field_of == &field_of_[0] && !mariadb_ ? &*d.fields : nullptr;
      row.record_page = page;
      failing_lob_pages_.clear();
      for (std::size_t i = 0; i < columns_.size(); ++i) {
        const RowColumn& c = columns_[i];
        RowCell& cell = row.cells[i];
        const int f = (*d.field_of)[c.column];
        if (!fit.ok()) {
          cell = {std::nullopt, fit.message()};
        } else if (!d.fields.ok()) {
          cell = {std::nullopt, d.fields.status().message()};
        } else if (f < 0 || static_cast<std::size_t>(f) >= d.fields->size() || (*d.fields)[f].missing) {
          cell = Default(table_.columns[c.column], f);
        } else {
          FillCell(cell, page, (*d.fields)[f], *c.format);
        }
        if (!cell.unknown.empty()) ++scan_.unknown_cells;
      }
      for (std::uint32_t lob : failing_lob_pages_) {
        row.page_damaged = true;
        Fail(lob, std::nullopt,
             fmt::format("an off-page value of the record at page {} offset {} is read from this page, "
                         "which fails its checksum: it may be damaged",
                         p, d.origin));
      }
      ++scan_.rows;
      each(row);
    }
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
    mariadb_defaults_.assign(
        n, RowCell{std::nullopt,
                   "added by MariaDB's instant ADD COLUMN after this row; no metadata record gives its default"});
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
      return {std::nullopt,
              "added by MariaDB's instant ADD COLUMN after this row; no metadata record gives its default"};
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
    inspect::FillCell(cell, file_, page.subspan(fs.offset, fs.length), fs.is_null, fs.external, format,
                      &failing_lob_pages_);
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
  struct Decoded {
    std::size_t origin;
    bool deleted, min_rec;
    const std::vector<int>* field_of;
    Result<std::vector<FieldSlice>> fields;
  };
  std::vector<Decoded> decoded_;                  // the records of the leaf page being read
  bool page_damaged_ = false;                     // it fails its checksum
  std::vector<std::uint32_t> descent_;            // the pages from the root to the first leaf
  std::vector<std::uint32_t> failing_lob_pages_;  // off-page parts of the row being read that fail theirs
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
