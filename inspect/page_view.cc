#include "inspect/page_view.h"

#include <fmt/format.h>

#include <ctime>

#include "inspect/definition_resolver.h"
#include "inspect/mariadb_instant.h"
#include "inspect/pages.h"
#include "inspect/page_info.h"
#include "inspect/schema.h"
#include "ondisk/fil_header.h"
#include "ondisk/fsp_header.h"
#include "ondisk/index_page.h"
#include "ondisk/inode.h"
#include "ondisk/lob.h"
#include "ondisk/page_compressed.h"
#include "ondisk/record.h"
#include "ondisk/sdi.h"
#include "ondisk/undo.h"
#include "ondisk/value.h"
#include "ondisk/xdes.h"
#include "ondisk/zip_page.h"

namespace strata::inspect {

using namespace strata::ondisk;

namespace {

std::string Addr(const FileAddr& a) {
  return a.is_null() ? "null" : fmt::format("page {} offset {}", a.page.value(), a.offset);
}
std::string List(const ListBase& l) {
  return l.length == 0 ? "empty" : fmt::format("{} nodes, first {}, last {}", l.length, Addr(l.first), Addr(l.last));
}
std::string Fseg(const FsegHeader& h) {
  return h.is_zero() ? "none" : fmt::format("space {} page {} offset {}", h.space.value(), h.page.value(), h.offset);
}
nlohmann::json PageJson(std::uint32_t p) { return p == kFilNull ? nlohmann::json(nullptr) : nlohmann::json(p); }

// Renders a field by what the schema says it is; without one, text when printable, else hex.
// Numbers, dates, ENUM/SET labels and JSON print as the client shows them; strings as
// quoted text when they are printable UTF-8, else hex.
std::string RenderValue(ConstBytes v, const FieldDef* def, const ColumnFormat* format = nullptr) {
  if (def && def->name == "DB_ROLL_PTR" && v.size() == 7) {
    RollPtr r = RollPtr::Decode(*DecodeUnsigned(v));
    return fmt::format("{}rseg {} page {} offset {}", r.insert ? "insert, " : "", r.rseg_id, r.page_no, r.offset);
  }
  if (def && def->name == "child_page" && DecodeUnsigned(v).ok()) return std::to_string(*DecodeUnsigned(v));
  const bool bytes_as_they_are = !format || format->type == ColumnType::kChar || format->type == ColumnType::kVarchar ||
                                 format->type == ColumnType::kBit || format->type == ColumnType::kGeometry ||
                                 format->type == ColumnType::kVector || format->type == ColumnType::kUnknown;
  if (!bytes_as_they_are) {
    if (auto text = ColumnText(*format, v); text.ok()) return *text;
  }
  if (v.empty()) return "\"\"";  // an empty string, not missing bytes
  // Text only when it is valid UTF-8 without control characters (JSON output must be UTF-8);
  // cut at a character boundary.
  std::size_t i = 0, cut = 0;
  bool text = !v.empty();
  while (text && i < v.size()) {
    const auto c = static_cast<unsigned char>(v[i]);
    const std::size_t len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
    text = len != 0 && (len > 1 || c >= 0x20) && c != 0x7F && i + len <= v.size();
    for (std::size_t k = 1; text && k < len; ++k) text = (static_cast<unsigned char>(v[i + k]) & 0xC0) == 0x80;
    i += len;
    if (i <= 200) cut = i;
  }
  if (text && (!def || def->is_variable() || def->fixed_length > 8)) {
    std::string s(reinterpret_cast<const char*>(v.data()), cut);
    return "\"" + s + (cut < v.size() ? "...\"" : "\"");
  }
  std::string hex = "0x";
  for (std::size_t i = 0; i < std::min<std::size_t>(v.size(), 64); ++i)
    hex += fmt::format("{:02x}", static_cast<unsigned>(v[i]));
  return hex + (v.size() > 64 ? "..." : "");
}

ViewSection FilSection(const SpaceFile& f, ConstBytes page) {
  FilHeader h(page);
  PageCheck c = f.CheckPage(page);
  const bool page0 = h.page_no().value() == 0;
  ViewSection s{"FIL header", {}};
  s.fields = {
      {"checksum", 0, 4, h.checksum(), f.shape().full_crc32 ? "key version (full_crc32)" : ""},
      {"page_no", 4, 4, h.page_no().value(), ""},
      {page0 && f.shape().server_version ? "server_version" : "prev", 8, 4, PageJson(h.prev().value()), ""},
      {page0 && f.shape().server_version ? "space_version" : "next", 12, 4, PageJson(h.next().value()), ""},
      {"lsn", 16, 8, h.lsn().value(), ""},
      {"type", 24, 2, h.type_code(), PageTypeName(h.type_code(), f.flavor())},
      {"flush_lsn", 26, 8, h.flush_lsn(), ""},
      {"space_id", 34, 4, h.space_id().value(), ""},
  };
  if (c.unverifiable) {
    const std::uint16_t was = Load16(page, FilHeader::kEncryptedOriginalType);
    s.fields.push_back({"original_type", FilHeader::kEncryptedOriginalType, 2, was,
                        PageTypeName(was, f.flavor()) + " before encryption"});
  }
  if (!f.shape().compressed()) {  // compressed pages end in their dense directory, not a trailer
    s.fields.push_back({"trailer_checksum_or_lsn", page.size() - 8, 4, h.trailer_old_checksum(), ""});
    s.fields.push_back({"trailer_lsn_or_crc", page.size() - 4, 4, h.trailer_lsn_low(), ""});
  }
  std::string verdict = c.all_zero       ? "never written"
                        : c.unverifiable ? "encrypted (not verifiable without the key)"
                        : c.lsn_mismatch ? "torn (LSN copies differ)"
                        : c.valid        ? "valid"
                                         : "BAD";
  if (c.encrypted && !c.unverifiable) verdict += " (MariaDB-encrypted: the body needs the key)";
  s.fields.push_back({"checksum_check", 0, 0, verdict, c.algorithm ? ToString(*c.algorithm) : ""});
  return s;
}

void FspSections(ConstBytes page, PageView& v) {
  auto h = FspHeader::Open(page);
  if (!h.ok()) {
    v.problems.push_back(h.status().ToString());
    return;
  }
  ViewSection s{"FSP header", {}};
  s.fields = {{"space_id", 38, 4, h->space_id().value(), ""},
              {"size", 46, 4, h->size(), "pages"},
              {"free_limit", 50, 4, h->free_limit(), ""},
              {"flags", 54, 4, h->flags().raw, h->flags().ToString()},
              {"frag_n_used", 58, 4, h->frag_n_used(), ""},
              {"free", 62, 16, h->free().length, List(h->free())},
              {"free_frag", 78, 16, h->free_frag().length, List(h->free_frag())},
              {"full_frag", 94, 16, h->full_frag().length, List(h->full_frag())},
              {"next_segment_id", 110, 8, h->next_segment_id(), ""},
              {"seg_inodes_full", 118, 16, h->seg_inodes_full().length, List(h->seg_inodes_full())},
              {"seg_inodes_free", 134, 16, h->seg_inodes_free().length, List(h->seg_inodes_free())}};
  if (h->flags().sdi) {
    std::size_t at = FspHeader::SdiHeaderOffset(h->geometry());
    s.fields.push_back({"sdi_version", at, 4, h->sdi_version(), ""});
    s.fields.push_back({"sdi_root", at + 4, 4, h->sdi_root().value(), ""});
  }
  v.sections.push_back(s);
}

void XdesSection(ConstBytes page, PageSize ps, PageView& v) {
  ViewSection s{"extent descriptors", {}};
  for (std::uint32_t i = 0; i < ps.xdes_entries_per_page(); ++i) {
    XdesEntry e(page, i, ps);
    if (e.state() == XdesState::kNotInited) continue;
    std::string note =
        ToString(e.state()) + fmt::format(", {} of {} pages used", e.used_pages(), ps.pages_per_extent());
    if (e.segment_id()) note += fmt::format(", segment {}", e.segment_id());
    s.fields.push_back({fmt::format("extent {}", i), e.offset(), ps.xdes_entry_size(), e.state_code(), note});
    if (Status st = e.Check(); !st.ok()) v.problems.push_back(st.ToString());
  }
  v.sections.push_back(s);
}

void InodeSection(ConstBytes page, PageSize ps, PageView& v) {
  ViewSection s{"segment inodes", {}};
  ListNode node = ListNode::Decode(page, kInodePageListNode);
  s.fields.push_back(
      {"list_node", kInodePageListNode, 12, nullptr, "prev " + Addr(node.prev) + ", next " + Addr(node.next)});
  for (std::uint32_t i = 0; i < ps.inodes_per_page(); ++i) {
    InodeEntry e(page, i, ps);
    if (!e.in_use()) continue;
    SegmentUsage u = e.Usage();
    std::string frags;
    for (std::uint32_t k = 0; k < e.frag_slots(); ++k) {
      if (e.frag_page(k) != kNullPage) frags += (frags.empty() ? "" : " ") + std::to_string(e.frag_page(k).value());
    }
    s.fields.push_back({fmt::format("inode {}", i), e.offset(), ps.inode_entry_size(), e.segment_id(),
                        fmt::format("segment {}: {} used / {} reserved pages; fragments [{}]; extents free {}, "
                                    "not full {}, full {}",
                                    e.segment_id(), u.used_pages, u.reserved_pages, frags, e.free().length,
                                    e.not_full().length, e.full().length)});
    if (Status st = e.Check(); !st.ok()) v.problems.push_back(st.ToString());
  }
  v.sections.push_back(s);
}

const char* DirectionName(std::uint16_t d) {
  static const char* names[] = {"?", "LEFT", "RIGHT", "SAME_REC", "SAME_PAGE", "NO_DIRECTION"};
  return d <= 5 ? names[d] : "?";
}

// A ROW_FORMAT=COMPRESSED B-tree page: where its parts lie on the stored page (the regions
// PageRegions cuts), with what each holds. Its records are those of the logical page it
// unpacks to, at their offsets there.
ViewSection CompressedSection(const SpaceFile& f, ConstBytes page, const std::vector<PageRegion>& regions,
                              const ZipPageParts& z) {
  struct Part {
    const char* region;
    const char* field;
    std::uint64_t count;
    std::string note;
  };
  const std::vector<Part> parts = {
      {"zlib stream", "zlib_stream", 0, "bytes: the index's fields, then the records"},
      {"modification log", "modification_log", 0,
       fmt::format("bytes: {} record(s) written since the page was compressed", z.log_records)},
      {"free space", "free", 0, "bytes for the log to grow"},
      {"off-page references", "blob_refs", z.n_blobs, "20-byte off-page references"},
      {"stored columns", "stored_columns", 0, "bytes: DB_TRX_ID + DB_ROLL_PTR or child page numbers, per record"},
      {"dense directory", "dense_directory", z.n_dense, "entries: records in key order, then the free list"}};
  ViewSection s{
      "compressed page",
      {{"page_size", 0, 0, page.size(),
        fmt::format("bytes stored; unpacks to {} (record offsets below are there)", f.shape().logical_page_size())}}};
  for (const PageRegion& r : regions) {
    for (const Part& p : parts) {
      if (r.name == p.region)
        s.fields.push_back({p.field, r.from, r.to - r.from, p.count ? p.count : r.to - r.from, p.note});
    }
  }
  return s;
}

// The INDEX page header's fields, where they are.
ViewSection IndexHeaderSection(const SpaceFile& f, const IndexPage& ip) {
  using P = IndexPage;
  ViewSection s{"INDEX header", {}};
  s.fields = {{"n_dir_slots", P::kNDirSlots, 2, ip.n_dir_slots(), ""},
              {"heap_top", P::kHeapTop, 2, ip.heap_top(), ""},
              {"n_heap", P::kNHeap, 2, ip.n_heap(), ip.is_compact() ? "COMPACT" : "REDUNDANT"},
              {"free", P::kFree, 2, ip.free_list(), ""},
              {"garbage", P::kGarbage, 2, ip.garbage(), "bytes"},
              {"last_insert", P::kLastInsert, 2, ip.last_insert(), ""},
              {"direction", P::kDirection, 2, static_cast<int>(ip.direction()),
               DirectionName(static_cast<std::uint16_t>(ip.direction()))},
              {"n_direction", P::kNDirection, 2, ip.n_direction(), ""},
              {"n_recs", P::kNRecs, 2, ip.n_recs(), ""},
              {"max_trx_id", P::kMaxTrxId, 8, ip.max_trx_id(), ""},
              {"level", P::kLevel, 2, ip.level(), ip.is_leaf() ? "leaf" : ""},
              {"index_id", P::kIndexId, 8, ip.index_id(), ""},
              {"seg_leaf", P::kSegLeaf, 10, nullptr, Fseg(ip.seg_leaf())},
              {"seg_top", P::kSegTop, 10, nullptr, Fseg(ip.seg_top())}};
  if (f.flavor() == Flavor::kMariaDb && ip.page_instant()) {
    s.fields.push_back({"page_instant", P::kDirection, 2, ip.page_instant(), "core fields (MariaDB instant ALTER)"});
  }
  return s;
}

// Which layout decodes a page's records, and where it came from.
struct PageLayout {
  Dictionary dict;
  const IndexDef* def = nullptr;  // the page's index, when the dictionary has its layout
  const RecordLayout* layout = nullptr;
  RecordLayout node_pointers;
  std::optional<MariaDbInstant> instant;  // a table MariaDB altered instantly: its column map
  const TableDef* instant_table = nullptr;
  const TableDef* versioned = nullptr;  // MySQL 8.0.29+ row versions: each record by its own
};

void ChooseLayout(const SpaceFile& f, ConstBytes page, const IndexPage& ip, const Dictionary* server, PageView& v,
                  PageLayout& pl) {
  auto resolved = ResolveDefinition(f, {std::nullopt, "", server});
  pl.dict = resolved.ok() ? std::move(resolved->dict) : DictionaryFor(f, server);
  const Dictionary& dict = pl.dict;
  const IndexDef* def = dict.FindIndex(ip.index_id());
  if (def) v.sections[v.sections.size() - 2].fields.push_back({"index", IndexPage::kIndexId, 8, def->name, def->table});
  if (def && def->leaf.fields.empty()) def = nullptr;  // names only (SYS_* tables): no layout
  pl.def = def;
  static const RecordLayout sdi_layout = SdiLayout();
  if (FilHeader(page).type() == PageType::kSdi && ip.is_leaf()) {
    pl.layout = &sdi_layout;
    v.layout_source = "SDI record layout";
  } else if (def) {
    pl.node_pointers = def->NodePointerLayout();
    pl.layout = ip.is_leaf() ? &def->leaf : &pl.node_pointers;
    v.layout_source = dict.source + " index " + def->name + " of " + def->table;  // where the layout came from
    // Node pointers after an instant ALTER keep the NULL bitmap of before it, which the
    // definition of today does not give.
    const TableDef* owner = dict.TableOf(def);
    const bool by_mariadb = f.flavor() == Flavor::kMariaDb && def->root_page < f.n_pages() &&
                            FilHeader(f.page(def->root_page)).type() == PageType::kSdiBlobOrInstant;
    if (!ip.is_leaf() && (by_mariadb || (owner && owner->AlteredInstantlyByMySql()))) {
      pl.layout = nullptr;
      v.layout_source =
          "none: node pointers of a table altered instantly keep a NULL bitmap the definition does not give";
    }
    // A table MariaDB altered instantly: its rows' fields are the metadata record's column map's.
    if (ip.is_leaf() && owner && owner->Clustered() == def) {
      if (auto got = ReadMariaDbInstant(f, *owner, *def)) {
        if (!got->ok()) {
          pl.layout = nullptr;
          v.problems.push_back("MariaDB instant ALTER: " + got->status().message());
        } else {
          pl.instant = std::move(**got);
          pl.instant_table = owner;
          pl.layout = &pl.instant->leaf;
          v.layout_source += " (MariaDB instant ALTER: fields as its metadata record maps them)";
        }
      }
    }
  } else if (!ip.is_compact()) {
    v.layout_source = "REDUNDANT (self-describing)";
  }
  // MySQL 8.0.29+ instant ADD/DROP: each leaf record says the row version it was written in.
  if (def && pl.layout == &def->leaf && !def->row_versions.empty()) pl.versioned = dict.TableOf(def);
  if (pl.versioned) v.layout_source += " (row versions: each record by the columns of its own)";
}

// One record: its header and, where the layout allows, each field and how its value reads.
RecordView ViewRecord(ConstBytes page, const IndexPage& ip, const RecordWalker& w, const PageLayout& pl) {
  const RecordHeader& h = w.header();
  RecordView r;
  r.offset = w.origin();
  r.heap_no = h.heap_no;
  r.status = ip.is_compact() ? ToString(h.status) : (ip.is_leaf() ? "ordinary" : "node_pointer");
  r.deleted = h.deleted();
  r.min_rec = h.min_rec();
  r.n_owned = h.n_owned;
  r.next = h.NextOrigin(w.origin(), ip.is_compact(), page.size());
  Result<std::vector<FieldSlice>> fields = Status::NotSupported("no layout");
  const RecordLayout* record_layout = pl.instant && h.min_rec() ? &pl.instant->metadata : pl.layout;
  const IndexDef::RowVersion* version = nullptr;
  if (pl.versioned) {
    auto n = RecordRowVersion(page, w.origin());
    if (n.ok()) r.row_version = *n;
    if (n.ok() && *n < pl.def->row_versions.size()) version = &pl.def->row_versions[*n];
    if (version) record_layout = &version->leaf;
  }
  RecordExtent extent;
  if (!ip.is_compact()) {
    fields = DecodeRedundantFields(page, w.origin());
  } else if (record_layout) {
    fields = DecodeCompactFields(page, w.origin(), *record_layout, &extent);
    for (std::size_t at = w.origin() - kCompactExtraBytes; fields.ok() && at > extent.start;)
      r.extra_hex += fmt::format("{:02x}", Load8(page, --at));
  }
  if (!fields.ok()) {
    if (pl.layout || !ip.is_compact()) r.error = fields.status().ToString();
    return r;
  }
  const IndexDef* def = pl.def;
  for (std::size_t i = 0; i < fields->size(); ++i) {
    const FieldSlice& fs = (*fields)[i];
    const FieldDef* fd = record_layout && i < record_layout->fields.size() ? &record_layout->fields[i] : nullptr;
    // How the field's value reads: its column's format, by the instant map when there is one.
    const ColumnFormat* format = nullptr;
    if (pl.instant && !h.min_rec() && i < pl.instant->column_of.size() && pl.instant->column_of[i] >= 0) {
      format = &pl.instant_table->columns[static_cast<std::size_t>(pl.instant->column_of[i])].format;
    } else if (version && i < version->columns.size()) {
      format = &pl.versioned->columns[version->columns[i]].format;
    } else if (!pl.instant && def && fd && i < def->formats.size() && fd->name == def->fields[i]) {
      format = &def->formats[i];
    }
    RecordField rf{fd ? fd->name : fmt::format("field {}", i), fs.offset, fs.length, fs.is_null, fs.external, ""};
    if (fs.missing)
      rf.value = "(instant default)";
    else if (fs.is_null)
      rf.value = "NULL";
    else if (fs.external)
      rf.value = "external: " + RenderValue(page.subspan(fs.offset, fs.length), nullptr);
    else
      rf.value = RenderValue(page.subspan(fs.offset, fs.length), fd, format);
    r.fields.push_back(rf);
  }
  return r;
}

void IndexSections(const SpaceFile& f, ConstBytes page, PageView& v, bool with_records, const Dictionary* server) {
  ZipPageParts zip;
  auto ip = f.OpenIndexPage(page, &zip);
  const bool compressed = f.shape().compressed();
  if (!ip.ok()) {
    if (compressed) v.with_records = false;  // none can be read; a count of 0 would be false
    v.problems.push_back((compressed ? "the compressed page does not unpack: " : "") + ip.status().ToString());
    return;
  }
  if (compressed) {
    v.sections.push_back(CompressedSection(f, page, v.regions, zip));
    page = ip->page();  // the unpacked page, which the IndexPage holds
  }
  const PageSpace sp = ip->Space();
  v.sections.push_back(IndexHeaderSection(f, *ip));
  v.sections.push_back({"space",
                        {{"data_size", 0, 0, sp.data_size, "InnoDB DATA_SIZE: heap top - supremum end - garbage"},
                         {"used_bytes", 0, 0, sp.used_bytes, "innodb_ruby: page size - free"},
                         {"free_bytes", 0, 0, sp.free_bytes, "innodb_ruby: garbage + heap-to-directory gap"},
                         {"max_insert_after_reorganize", 0, 0, sp.max_insert_after_reorganize, ""}}});
  if (Status st = ip->CheckStructure(); !st.ok()) v.problems.push_back(st.ToString());
  if (!with_records) return;
  PageLayout pl;
  ChooseLayout(f, page, *ip, server, v, pl);
  RecordWalker w(*ip);
  while (w.Next()) v.records.push_back(ViewRecord(page, *ip, w, pl));
  if (!w.status().ok()) v.problems.push_back(w.status().ToString());
}

void UndoSections(ConstBytes page, PageView& v, bool with_records) {
  auto ph = UndoPageHeader::Decode(page);
  if (!ph.ok()) {
    v.problems.push_back(ph.status().ToString());
    return;
  }
  v.sections.push_back({"undo page header",
                        {{"type", 38, 2, ph->type, ToString(static_cast<UndoPageType>(ph->type))},
                         {"start", 40, 2, ph->start, ""},
                         {"free", 42, 2, ph->free, ""},
                         {"node", 44, 12, nullptr, "prev " + Addr(ph->node.prev) + ", next " + Addr(ph->node.next)}}});
  // The first page of a segment also has a segment header and log headers.
  auto sh = UndoSegmentHeader::Decode(page);
  if (sh.ok()) {
    v.sections.push_back({"undo segment header",
                          {{"state", 56, 2, sh->state, ToString(static_cast<UndoState>(sh->state))},
                           {"last_log", 58, 2, sh->last_log, ""},
                           {"fseg", 60, 10, nullptr, Fseg(sh->fseg)},
                           {"page_list", 70, 16, sh->page_list.length, List(sh->page_list)}}});
    for (std::size_t at = UndoSegmentHeader::kFirstLog, n = 0; at != 0 && n < 64; ++n) {
      auto lh = UndoLogHeader::Decode(page, at);
      if (!lh.ok()) {
        v.problems.push_back(lh.status().ToString());
        break;
      }
      v.sections.push_back({fmt::format("undo log header at {}", at),
                            {{"trx_id", at, 8, lh->trx_id, ""},
                             {"trx_no", at + 8, 8, lh->trx_no, ""},
                             {"del_marks", at + 16, 2, lh->del_marks, ""},
                             {"log_start", at + 18, 2, lh->log_start, ""},
                             {"xid_exists_or_flags", at + 20, 1, lh->xid_exists_or_flags, ""},
                             {"next_log", at + 30, 2, lh->next_log, ""},
                             {"prev_log", at + 32, 2, lh->prev_log, ""},
                             {"history_node", at + 34, 12, nullptr,
                              "prev " + Addr(lh->history_node.prev) + ", next " + Addr(lh->history_node.next)}}});
      at = lh->next_log > at ? lh->next_log : 0;
    }
  }
  if (!with_records) return;
  ViewSection recs{"undo records", {}};
  for (std::size_t at = ph->start, n = 0; at >= kFilHeaderSize && at < ph->free && n < page.size(); ++n) {
    auto r = UndoRecordHeader::Decode(page, at);
    if (!r.ok()) {
      v.problems.push_back(r.status().ToString());
      break;
    }
    std::string note = fmt::format("{} undo_no {} table {}", ToString(r->type()), r->undo_no, r->table_id);
    if (r->old_trx_id) note += fmt::format(", previous version by trx {}", *r->old_trx_id);
    recs.fields.push_back({fmt::format("record at {}", at), at, r->next - at, r->next, note});
    at = r->next;
  }
  v.sections.push_back(recs);
}

void SystemSections(const SpaceFile& f, ConstBytes page, PageView& v) {
  if (!PageSize::IsValid(page.size())) return;  // system and undo tablespaces are never compressed
  const auto type = FilHeader(page).type();
  if (type == PageType::kTrxSys) {
    TrxSysPage t(page);
    ViewSection s{"TRX_SYS",
                  {{"trx_id_store", 38, 8, t.trx_id_store(), ""}, {"fseg", 46, 10, nullptr, Fseg(t.fseg())}}};
    for (std::uint32_t i = 0; i < kTrxSysRsegSlots; ++i) {
      RsegSlot slot = t.rseg_slot(i);
      if (slot.used()) {
        s.fields.push_back({fmt::format("rseg slot {}", i), TrxSysPage::kRsegs + 8 * i, 8, slot.page.value(),
                            fmt::format("space {} page {}", slot.space.value(), slot.page.value())});
      }
    }
    DoublewriteInfo d = t.doublewrite();
    if (d.present) {
      s.fields.push_back({"doublewrite", TrxSysPage::DoublewriteOffset(page.size()), 34, nullptr,
                          fmt::format("blocks at pages {} and {}", d.block1.value(), d.block2.value())});
    }
    if (auto b = t.binlog()) {
      s.fields.push_back({"binlog", TrxSysPage::BinlogOffset(page.size()), 524, b->first, b->second});
    }
    v.sections.push_back(s);
  } else if (type == PageType::kRsegArray) {
    auto a = RsegArrayPage::Open(page);
    if (!a.ok()) {
      v.problems.push_back(a.status().ToString());
      return;
    }
    ViewSection s{"RSEG_ARRAY", {{"count", 42, 4, a->count(), ""}}};
    for (PageNo p : a->rseg_pages()) s.fields.push_back({"rseg header", 0, 4, p.value(), ""});
    v.sections.push_back(s);
  } else if (type == PageType::kSys && (f.kind() == SpaceKind::kSystem || f.kind() == SpaceKind::kUndo)) {
    // A SYS page may be a rollback segment header (or the ibuf/dictionary header).
    RsegHeader r(page);
    if (r.Check().ok()) {
      std::uint32_t used = 0;
      for (std::uint32_t i = 0; i < RsegHeader::NumUndoSlots(page.size()); ++i) used += r.undo_slot(i) != kNullPage;
      v.sections.push_back({"rollback segment header (if this page is one)",
                            {{"max_size_or_format", 38, 4, r.max_size_or_format(), ""},
                             {"history_size", 42, 4, r.history_size(), "pages"},
                             {"history_length", 46, 4, r.history_length(), List(r.history())},
                             {"fseg", 62, 10, nullptr, Fseg(r.fseg())},
                             {"undo_slots_used", 72, 4 * RsegHeader::NumUndoSlots(page.size()), used, ""}}});
    }
  }
}

void LobSections(ConstBytes page, PageView& v) {
  switch (FilHeader(page).type()) {
    case PageType::kBlob:
    case PageType::kSdiBlobOrInstant: {
      auto b = BlobPage::Decode(page);
      if (b.ok()) {
        v.sections.push_back(
            {"BLOB page",
             {{"part_len", 38, 4, b->part_len, ""}, {"next_page", 42, 4, PageJson(b->next_page.value()), ""}}});
      } else {
        v.problems.push_back(b.status().ToString());
      }
      break;
    }
    case PageType::kLobFirst: {
      auto l = LobFirstPage::Decode(page);
      if (!l.ok()) {
        v.problems.push_back(l.status().ToString());
        break;
      }
      v.sections.push_back({"LOB first page",
                            {{"version", 38, 1, l->version, ""},
                             {"lob_version", 40, 4, l->lob_version, ""},
                             {"last_trx", 44, 6, l->last_trx, ""},
                             {"data_len", 54, 4, l->data_len, ""},
                             {"creator_trx", 58, 6, l->creator_trx, ""},
                             {"index_list", 64, 16, l->index_list.length, List(l->index_list)},
                             {"free_list", 80, 16, l->free_list.length, List(l->free_list)}}});
      break;
    }
    case PageType::kLobData: {
      auto d = LobDataPage::Decode(page);
      if (d.ok()) {
        v.sections.push_back(
            {"LOB data page",
             {{"version", 38, 1, d->version, ""}, {"data_len", 39, 4, d->data_len, ""}, {"trx", 43, 6, d->trx, ""}}});
      } else {
        v.problems.push_back(d.status().ToString());
      }
      break;
    }
    default:
      break;
  }
}

}  // namespace

// MariaDB PAGE_COMPRESSED: how the page is stored (what the other sections show is the page
// it decompresses to).
void PageCompressionSection(const SpaceFile& f, std::uint32_t n, PageView& v) {
  ConstBytes stored = f.stored_page(n);
  ViewSection s{"page compression", {}};
  if (!IsPageCompressed(stored, f.shape().full_crc32)) {
    s.fields.push_back({"stored", 0, 0, "as is", "this page did not compress (or is never compressed): stored whole"});
  } else if (auto c = ReadCompressedPage(stored, f.shape().full_crc32,
                                         static_cast<PageCompression>(f.shape().flags->compression_algorithm));
             c.ok()) {
    s.fields.push_back({"algorithm", f.shape().full_crc32 ? 0u : 32u, f.shape().full_crc32 ? 0u : 2u,
                        ToString(c->algorithm),
                        f.shape().full_crc32 ? "the tablespace's (FSP flags)" : "this page's own"});
    s.fields.push_back({"payload", c->payload, c->payload_end - c->payload, c->payload_end - c->payload,
                        fmt::format("bytes, decompressing to {}{}", f.page_size(), c->encrypted ? "; encrypted" : "")});
    if (c->stored)
      s.fields.push_back({"stored_size", 24, 2, c->stored,
                          "bytes written, CRC-32C at the end included; the rest of the slot is a hole"});
  } else {
    v.problems.push_back(c.status().ToString());
  }
  v.sections.push_back(s);
}

PageView ViewPage(const SpaceFile& f, std::uint32_t n, bool with_records, const Dictionary* server) {
  ConstBytes page = f.page(n);
  PageView v;
  v.file = f.path().string();
  v.page_no = n;
  v.type = PageTypeName(AnalyzePage(f, n), f.flavor());  // as pages and summary name it: FREE, DOUBLEWRITE, ...
  v.with_records = with_records;
  v.regions = PageRegions(f, page);  // before the sections: the compressed one reads them
  v.sections.push_back(FilSection(f, page));
  if (f.shape().page_compressed()) PageCompressionSection(f, n, v);
  const PageType type = FilHeader(page).type();
  if (n == 0 || type == PageType::kFspHdr) FspSections(page, v);
  if (type == PageType::kFspHdr || type == PageType::kXdes) XdesSection(page, f.shape().geometry(), v);
  if (type == PageType::kInode) InodeSection(page, f.shape().geometry(), v);
  if (IsBtreePage(type, f.flavor())) IndexSections(f, page, v, with_records, server);
  if (type == PageType::kUndoLog) UndoSections(page, v, with_records);
  SystemSections(f, page, v);
  LobSections(page, v);
  return v;
}

nlohmann::json ToJson(const PageView& v) {
  nlohmann::json sections = nlohmann::json::object();
  for (const auto& s : v.sections) {
    nlohmann::json fields = nlohmann::json::array();
    for (const auto& f : s.fields) {
      fields.push_back(
          {{"name", f.name}, {"offset", f.offset}, {"size", f.size}, {"value", f.value}, {"note", f.note}});
    }
    sections[s.name] = fields;
  }
  nlohmann::json regions = nlohmann::json::array();
  for (const auto& r : v.regions) {
    regions.push_back({{"name", r.name}, {"from", r.from}, {"to", r.to}, {"bytes", r.to - r.from}});
  }
  nlohmann::json j = {{"file", v.file},       {"page_no", v.page_no}, {"type", v.type},
                      {"sections", sections}, {"regions", regions},   {"problems", v.problems}};
  if (v.with_records) {
    nlohmann::json recs = nlohmann::json::array();
    for (const auto& r : v.records) {
      nlohmann::json fields = nlohmann::json::array();
      for (const auto& f : r.fields) {
        fields.push_back({{"name", f.name},
                          {"offset", f.offset},
                          {"length", f.length},
                          {"null", f.is_null},
                          {"external", f.external},
                          {"value", f.value}});
      }
      recs.push_back({{"offset", r.offset},
                      {"heap_no", r.heap_no},
                      {"status", r.status},
                      {"deleted", r.deleted},
                      {"min_rec", r.min_rec},
                      {"n_owned", r.n_owned},
                      {"next", r.next},
                      {"row_version", r.row_version ? nlohmann::json(*r.row_version) : nlohmann::json(nullptr)},
                      {"extra", r.extra_hex},
                      {"fields", fields},
                      {"error", r.error.empty() ? nlohmann::json(nullptr) : nlohmann::json(r.error)}});
    }
    j["layout"] = v.layout_source.empty() ? nlohmann::json(nullptr) : nlohmann::json(v.layout_source);
    j["records"] = recs;
  }
  return j;
}

std::string ToText(const PageView& v) {
  std::string out = fmt::format("{} page {}: {}\n", v.file, v.page_no, v.type);
  for (const auto& s : v.sections) {
    out += fmt::format("\n  {}\n", s.name);
    for (const auto& f : s.fields) {
      std::string value = f.value.is_null() ? (f.size ? "-" : "")
                          : f.value.is_string()
                              ? f.value.get<std::string>()
                              : f.value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
      std::string where = f.size ? fmt::format("@{:<5}", f.offset) : "      ";
      out += fmt::format("    {} {:<26} {:<12} {}\n", where, f.name, value, f.note);
    }
  }
  out += "\n  regions (bytes from..to)\n";
  for (const auto& r : v.regions)
    out += fmt::format("    {:>5}..{:<5} {:>6}  {}\n", r.from, r.to, r.to - r.from, r.name);
  if (v.with_records) {
    out += fmt::format("\n  records ({}; layout: {})\n", v.records.size(),
                       v.layout_source.empty() ? "unknown, header bits only" : v.layout_source);
    for (const auto& r : v.records) {
      out += fmt::format("    @{:<5} heap {:<4} {:<12}{}{} owned {} next {}{}\n", r.offset, r.heap_no, r.status,
                         r.deleted ? " DELETED" : "", r.min_rec ? " MIN_REC" : "", r.n_owned, r.next,
                         r.row_version ? fmt::format(" row version {}", *r.row_version) : "");
      for (const auto& f : r.fields) out += fmt::format("           {:<20} {}\n", f.name, f.value);
      if (!r.error.empty()) out += "           " + r.error + "\n";
    }
  }
  for (const auto& p : v.problems) out += "  ! " + p + "\n";
  return out;
}

}  // namespace strata::inspect
