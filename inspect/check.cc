#include "inspect/check.h"

#include <fmt/format.h>

#include <unordered_set>

#include "inspect/page_info.h"
#include "inspect/schema.h"
#include "ondisk/fil_header.h"
#include "ondisk/fsp_header.h"
#include "ondisk/index_page.h"
#include "ondisk/inode.h"
#include "ondisk/xdes.h"

namespace strata::inspect {

using namespace strata::ondisk;

namespace {

// What the link check needs of each page, kept for the whole file.
struct Links {
  std::uint32_t prev = kFilNull, next = kFilNull;
  std::uint64_t index_id = 0;
  std::uint16_t level = 0;
  bool btree = false;
};

class Checker {
 public:
  explicit Checker(const SpaceFile& f) : f_(f), name_(f.path().filename().string()) {}

  CheckReport Run() {
    CheckReport r;
    r.file = f_.path().string();
    for (const auto& finding : f_.findings()) report_.push_back(finding);
    links_.resize(f_.n_pages());
    ScanPages(
        f_,
        [&](std::span<const PageInfo> batch) {
          for (const PageInfo& p : batch) PerPage(p);
        },
        /*deep=*/true);
    r.pages_checked = f_.n_pages();
    CheckSiblings();
    CheckRoots();
    CheckSystemPagesWritten();
    CheckUsedPagesWritten();
    if (f_.shape().flags) {
      CheckFspLists();
      CheckSegments();
    }
    if (encrypted_pages_) {
      report_.push_back(
          {Severity::kInfo, name_, std::nullopt, std::nullopt, "encrypted pages",
           mariadb_encrypted_
               ? fmt::format("{} pages are encrypted (MariaDB, key id {}): their stored checksums are "
                             "checked, but without the key their contents cannot be, and the lists "
                             "through them are not followed",
                             encrypted_pages_, f_.unpacked().mariadb_crypt ? f_.unpacked().mariadb_crypt->key_id : 0)
               : fmt::format("{} pages are encrypted (ENCRYPTION='Y'): without the key their checksums "
                             "and contents cannot be checked, and the lists through them are not followed",
                             encrypted_pages_)});
    }
    r.btree_pages = btree_pages_;
    r.lists_checked = lists_checked_;
    r.findings = std::move(report_);
    return r;
  }

 private:
  void Add(std::optional<std::uint32_t> page, std::optional<std::size_t> offset, std::string what, std::string detail) {
    report_.push_back({Severity::kError, name_, page, offset, std::move(what), std::move(detail)});
  }

  void PerPage(const PageInfo& p) {
    if (p.encrypted) ++encrypted_pages_;
    if (p.encrypted) mariadb_encrypted_ |= !p.unverifiable;
    if (p.unverifiable) {
      // MySQL-encrypted: nothing to check without the key (said once, for the whole file).
    } else if (p.torn) {
      Add(p.page_no, f_.page_size() - 4, "torn page",
          fmt::format("header LSN {} does not end with the trailer's copy", p.lsn));
    } else if (!p.checksum_ok) {
      PageCheck c = f_.CheckPage(f_.page(p.page_no));
      Add(p.page_no, f_.shape().full_crc32 ? f_.page_size() - 4 : 0, "checksum mismatch",
          fmt::format("stored {:#010x}, {} gives {:#010x}; no other algorithm matches", c.stored,
                      f_.shape().full_crc32 ? "full_crc32" : "crc32", c.computed));
    }
    if (p.misplaced) {
      FilHeader h(f_.page(p.page_no));
      if (h.page_no().value() != p.page_no) {
        Add(p.page_no, FilHeader::kPageNo, "misplaced page",
            fmt::format("page says it is page {}", h.page_no().value()));
      } else {
        Add(p.page_no, FilHeader::kSpaceId, "misplaced page",
            fmt::format("page says space {}, the file is space {}", h.space_id().value(), f_.space_id().value()));
      }
    }
    CheckFlushLsnField(p);
    if (!p.header_error.empty()) Add(p.page_no, std::nullopt, "B-tree page header", p.header_error);
    if (!p.structure_error.empty()) Add(p.page_no, std::nullopt, "B-tree page structure", p.structure_error);
    if (p.all_zero && f_.allocation().IsUsed(p.page_no)) used_but_zero_.push_back(p.page_no);
    if (p.is_btree) {
      ++btree_pages_;
      links_[p.page_no] = {p.prev, p.next, p.index_id, p.level, true};
    }
  }

  // A page never written is all zeros, which real servers leave in allocated extents too; but
  // the pages everything else hangs from (the SDI root, each index's root) are written when
  // they are made, so an all-zero one was wiped or lost its writes: the table cannot be read.
  void CheckRoots() {
    if (!f_.shape().flags || f_.n_pages() == 0) return;
    auto zero = [&](std::uint32_t n) { return n < f_.n_pages() && f_.CheckPage(f_.page(n)).all_zero; };
    if (f_.shape().flags->sdi) {
      auto fsp = FspHeader::Open(f_.page(0));
      // A tablespace whose tables are not made yet (no index page at all) has no SDI to check.
      if (fsp.ok() && btree_pages_ > 0 && fsp->sdi_version() != 0 && zero(fsp->sdi_root().value())) {
        Add(fsp->sdi_root().value(), std::nullopt, "root page is all zeros",
            "the SDI root (the table's definition) was wiped or never written");
        zero_roots_.insert(fsp->sdi_root().value());
        return;  // the dictionary below comes from it
      }
    }
    const Dictionary d = ReadDictionary(f_);
    for (const TableDef& t : d.tables) {
      for (const IndexDef& ix : t.indexes) {
        if (zero(ix.root_page)) {
          Add(ix.root_page, std::nullopt, "root page is all zeros",
              fmt::format("the root of index {} of {} was wiped or never written", ix.name, ix.table));
          zero_roots_.insert(ix.root_page);
        }
      }
    }
  }

  // The system tablespace's first eight pages have fixed roles and are written when the data
  // directory is made: one all zeros was wiped (the server, and Strata, refuse to start on it).
  void CheckSystemPagesWritten() {
    const std::string file = f_.path().filename().string();
    const bool first_system_file = file == "ibdata1" || (f_.space_id().value() == kSystemSpaceId && f_.shape().flags &&
                                                         file.rfind("ibdata", 0) != 0);
    if (!first_system_file) return;
    static constexpr const char* kRoles[] = {
        "FSP header",         "change buffer bitmap", "segment inodes",         "change buffer header",
        "change buffer root", "transaction system",   "first rollback segment", "data dictionary header"};
    for (std::uint32_t n = 0; n < 8 && n < f_.n_pages(); ++n) {
      if (!f_.CheckPage(f_.page(n)).all_zero) continue;
      Add(n, std::nullopt, "system page is all zeros",
          fmt::format("page {} of the system tablespace (the {}) is written when the data directory is made: it "
                      "was wiped or its writes were lost",
                      n, kRoles[n]));
    }
  }

  // A page is written when it is allocated, so one the extent descriptors mark in use cannot be
  // all zeros unless it was wiped or its writes were lost (a crash before it was flushed leaves
  // it to the redo log). This holds without the dictionary, for leaves and roots alike. The
  // system tablespace is left out: the fragment pages of its doublewrite segment are allocated
  // and never written.
  void CheckUsedPagesWritten() {
    if (f_.space_id().value() == kSystemSpaceId) return;
    for (std::uint32_t n : used_but_zero_) {
      if (zero_roots_.count(n)) continue;  // said as a root already
      Add(n, std::nullopt, "page in use is all zeros",
          "its extent descriptor marks it in use, but it was wiped or its writes were lost");
    }
  }

  // Bytes 26..33 are outside the crc32 checksum. Only the system tablespace's page 0 (flush
  // LSN), R-tree pages (split sequence) and compressed or encrypted pages use them; anywhere
  // else they are zero, so a change there is damage the checksum cannot see.
  void CheckFlushLsnField(const PageInfo& p) {
    if (f_.shape().full_crc32 || p.encrypted || (p.page_no == 0 && f_.space_id().value() == kSystemSpaceId)) return;
    const auto type = static_cast<PageType>(p.type);
    if (type == PageType::kRtree || type == PageType::kEncryptedRtree || type == PageType::kCompressed ||
        type == PageType::kEncrypted || type == PageType::kCompressedAndEncrypted ||
        type == PageType::kMariaPageCompressed || type == PageType::kMariaPageCompressedEncrypted) {
      return;
    }
    const std::uint64_t v = p.flush_lsn_field;
    if (v != 0) {
      Add(p.page_no, FilHeader::kFlushLsn, "unexpected bytes",
          fmt::format("FIL_PAGE_FILE_FLUSH_LSN is {:#x} on a page that does not use it", v));
    }
  }

  void CheckSiblings() {
    for (std::uint32_t n = 0; n < links_.size(); ++n) {
      const Links& l = links_[n];
      if (!l.btree) continue;
      for (auto [dir, other] : {std::pair{"next", l.next}, std::pair{"prev", l.prev}}) {
        if (other == kFilNull) continue;
        const std::size_t at = std::string(dir) == "next" ? FilHeader::kNext : FilHeader::kPrev;
        if (other >= links_.size() || !links_[other].btree) {
          Add(n, at, "broken B-tree link", fmt::format("{} page {} is not a B-tree page of this file", dir, other));
          continue;
        }
        const Links& o = links_[other];
        if (o.index_id != l.index_id || o.level != l.level) {
          Add(n, at, "broken B-tree link",
              fmt::format("{} page {} belongs to index {} level {}, this page to index {} level {}", dir, other,
                          o.index_id, o.level, l.index_id, l.level));
        } else if ((std::string(dir) == "next" ? o.prev : o.next) != n) {
          Add(n, at, "broken B-tree link", fmt::format("{} page {} does not link back", dir, other));
        }
      }
    }
  }

  // Walks one extent list: every node must be an XDES entry in `state` (owned by `segment`
  // when nonzero), prev pointers must mirror next pointers, and the count must match.
  void WalkExtentList(const ListBase& base, const std::string& list_name, std::uint32_t base_page,
                      std::size_t base_offset, XdesState state, std::uint64_t segment) {
    ++lists_checked_;
    PageSize ps = f_.shape().geometry();
    std::uint32_t count = 0;
    FileAddr prev{kNullPage, 0};
    std::unordered_set<std::uint64_t> seen;
    for (FileAddr a = base.first; !a.is_null(); ++count) {
      const std::uint32_t page = a.page.value();
      const bool descriptor = page < f_.n_pages() && page % ps.xdes_period() == 0;
      const std::size_t rel = a.offset >= kXdesArrayOffset + kXdesNodeOffset
                                  ? a.offset - kXdesArrayOffset - kXdesNodeOffset
                                  : ps.xdes_entry_size();
      if (!descriptor || rel % ps.xdes_entry_size() != 0 || rel / ps.xdes_entry_size() >= ps.xdes_entries_per_page()) {
        Add(base_page, base_offset, "broken extent list",
            fmt::format("{}: node {} (page {} offset {}) is not an extent descriptor", list_name, count, page,
                        a.offset));
        return;
      }
      if (f_.IsEncryptedPage(f_.page(page))) return;  // said once, for the whole file
      if (!seen.insert((std::uint64_t{page} << 16) | a.offset).second || count > base.length) {
        Add(base_page, base_offset, "broken extent list", fmt::format("{}: loops after {} nodes", list_name, count));
        return;
      }
      XdesEntry e(f_.page(page), static_cast<std::uint32_t>(rel / ps.xdes_entry_size()), ps);
      if (e.state() != state && !(state == XdesState::kFseg && e.state() == XdesState::kFsegFrag)) {
        Add(page, e.offset() + XdesEntry::kState, "extent in the wrong list",
            fmt::format("{} holds an extent in state {}", list_name, ToString(e.state())));
      }
      if (segment && e.segment_id() != segment) {
        Add(page, e.offset() + XdesEntry::kId, "extent in the wrong list",
            fmt::format("{} of segment {} holds an extent owned by segment {}", list_name, segment, e.segment_id()));
      }
      ListNode node = e.node();
      if (node.prev != prev) {
        Add(page, e.offset() + XdesEntry::kNode, "broken extent list",
            fmt::format("{}: node {} points back to {} instead of the previous node", list_name, count,
                        node.prev.is_null() ? std::string("null") : std::to_string(node.prev.page.value())));
      }
      prev = a;
      a = node.next;
    }
    if (count != base.length) {
      Add(base_page, base_offset, "broken extent list",
          fmt::format("{} says {} nodes, the chain has {}", list_name, base.length, count));
    } else if (count && !(base.last == prev)) {
      Add(base_page, base_offset + 10, "broken extent list",
          fmt::format("{}: last node is not the chain's end", list_name));
    }
  }

  void CheckFspLists() {
    auto fsp = FspHeader::Open(f_.page(0));
    if (!fsp.ok()) return;
    if (Status s = fsp->CheckLists(); !s.ok()) {
      Add(0, std::nullopt, "FSP header lists", s.message());
      return;
    }
    WalkExtentList(fsp->free(), "FSP_FREE", 0, FspHeader::kFree, XdesState::kFree, 0);
    WalkExtentList(fsp->free_frag(), "FSP_FREE_FRAG", 0, FspHeader::kFreeFrag, XdesState::kFreeFrag, 0);
    WalkExtentList(fsp->full_frag(), "FSP_FULL_FRAG", 0, FspHeader::kFullFrag, XdesState::kFullFrag, 0);
  }

  // Every INODE page on the FSP's two inode-page lists, and every segment on them.
  void CheckSegments() {
    auto fsp = FspHeader::Open(f_.page(0));
    if (!fsp.ok()) return;
    PageSize ps = f_.shape().geometry();
    for (auto [base, name] : {std::pair{fsp->seg_inodes_full(), "FSP_SEG_INODES_FULL"},
                              std::pair{fsp->seg_inodes_free(), "FSP_SEG_INODES_FREE"}}) {
      ++lists_checked_;
      std::uint32_t count = 0;
      std::unordered_set<std::uint32_t> seen;
      for (FileAddr a = base.first; !a.is_null(); ++count) {
        const std::uint32_t page = a.page.value();
        if (page < f_.n_pages() && f_.IsEncryptedPage(f_.page(page))) {
          count = base.length;  // not followed through a page without its key; said once, for the whole file
          break;
        }
        if (count > base.length || page >= f_.n_pages() || a.offset != kInodePageListNode ||
            FilHeader(f_.page(page)).type() != PageType::kInode || !seen.insert(page).second) {
          Add(0, std::nullopt, "broken inode page list", fmt::format("{}: node {} at page {}", name, count, page));
          break;
        }
        ConstBytes ipage = f_.page(page);
        for (std::uint32_t i = 0; i < ps.inodes_per_page(); ++i) {
          InodeEntry e(ipage, i, ps);
          if (!e.in_use()) continue;
          if (Status s = e.Check(); !s.ok()) {
            Add(page, std::nullopt, "segment inode", s.message());
            continue;
          }
          const std::string seg = fmt::format("segment {}", e.segment_id());
          WalkExtentList(e.free(), seg + " FSEG_FREE", page, e.offset() + InodeEntry::kFree, XdesState::kFseg,
                         e.segment_id());
          WalkExtentList(e.not_full(), seg + " FSEG_NOT_FULL", page, e.offset() + InodeEntry::kNotFull,
                         XdesState::kFseg, e.segment_id());
          WalkExtentList(e.full(), seg + " FSEG_FULL", page, e.offset() + InodeEntry::kFull, XdesState::kFseg,
                         e.segment_id());
          for (std::uint32_t s = 0; s < e.frag_slots(); ++s) {
            PageNo fp = e.frag_page(s);
            if (fp != kNullPage && fp.value() >= f_.n_pages()) {
              Add(page, e.offset() + InodeEntry::kFragArray + 4 * s, "segment inode",
                  fmt::format("{} fragment page {} is past the end of the file", seg, fp.value()));
            }
          }
        }
        a = ListNode::Decode(ipage, kInodePageListNode).next;
      }
      if (count != base.length) {
        Add(0, std::nullopt, "broken inode page list",
            fmt::format("{} says {} pages, the chain has {}", name, base.length, count));
      }
    }
  }

  const SpaceFile& f_;
  std::string name_;
  std::vector<Links> links_;
  std::vector<Finding> report_;
  std::vector<std::uint32_t> used_but_zero_;      // all-zero pages the descriptors mark in use
  std::unordered_set<std::uint32_t> zero_roots_;  // all-zero roots, reported by CheckRoots
  std::uint32_t btree_pages_ = 0;
  std::uint32_t encrypted_pages_ = 0;
  bool mariadb_encrypted_ = false;  // some of them are MariaDB's, whose checksums were checked
  std::uint32_t lists_checked_ = 0;
};

}  // namespace

CheckReport CheckSpace(const SpaceFile& file) {
  CheckReport r = Checker(file).Run();
  if (file.kind() == SpaceKind::kTemporary) {
    // The server writes a temporary tablespace's pages only to make room in its buffer pool and
    // makes the file anew at every start: zeroed pages and unfinished lists are how it was
    // left, not damage. Said as notes, under one that says why.
    for (Finding& f : r.findings) {
      if (f.severity == Severity::kError) f.severity = Severity::kInfo;
    }
    r.findings.insert(r.findings.begin(),
                      {Severity::kInfo, r.file, std::nullopt, std::nullopt, "temporary tablespace",
                       "recreated at every server start and never written for durability: nothing below is damage"});
  }
  return r;
}

nlohmann::json ToJson(const CheckReport& r) {
  nlohmann::json findings = nlohmann::json::array();
  for (const auto& f : r.findings) findings.push_back(ToJson(f));
  return {{"file", r.file},
          {"pages_checked", r.pages_checked},
          {"btree_pages", r.btree_pages},
          {"lists_checked", r.lists_checked},
          {"clean", r.clean()},
          {"findings", findings}};
}

std::string ToText(const CheckReport& r) {
  std::string out = fmt::format("{}: {} pages, {} B-tree pages, {} lists checked: ", r.file, r.pages_checked,
                                r.btree_pages, r.lists_checked);
  std::size_t problems = 0;
  for (const auto& f : r.findings) problems += f.severity == Severity::kError;
  out += problems ? fmt::format("{} problem{}\n", problems, problems == 1 ? "" : "s") : "no problems found\n";
  // Warnings and notes are listed too, marked: they are not damage.
  for (const auto& f : r.findings) {
    out += "  - " + (f.severity == Severity::kError ? "" : ToString(f.severity) + ": ") + f.ToString() + "\n";
  }
  return out;
}

}  // namespace strata::inspect
