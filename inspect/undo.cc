#include "inspect/undo.h"

#include <fmt/format.h>

#include <map>
#include <unordered_set>

#include "ondisk/fil_header.h"
#include "ondisk/undo.h"

namespace strata::inspect {

using namespace strata::ondisk;

namespace {

class UndoReader {
 public:
  UndoReader(const std::vector<const SpaceFile*>& files, bool logs) : logs_(logs) {
    for (const SpaceFile* f : files) {
      // ibdata2.. share space id 0 with ibdata1; TRX_SYS is in the file that starts the space.
      if (f->space_id().value() == kSystemSpaceId && FilHeader(f->page(0)).type() != PageType::kFspHdr) {
        if (f->path().filename() == "ibdata1") damaged_system_ = f;
        continue;
      }
      by_space_[f->space_id().value()] = f;
    }
    report_.logs = logs;
  }

  UndoReport Run() {
    if (auto it = by_space_.find(kSystemSpaceId); it != by_space_.end()) {
      ReadTrxSys(*it->second);
    } else if (damaged_system_) {
      Add(damaged_system_->path().string(), 0, "no system tablespace",
          "page 0 is not an FSP header (damaged?), so TRX_SYS and its rollback segments were not read");
      report_.incomplete = "no system tablespace: TRX_SYS and its rollback segments were not read";
    } else {
      Add("", std::nullopt, "no system tablespace",
          "TRX_SYS lives in ibdata1 (space 0): name it or its data directory to see every rollback segment");
      report_.incomplete = "no system tablespace: TRX_SYS and its rollback segments were not read";
    }
    for (const auto& [space, f] : by_space_) {
      if (f->kind() == SpaceKind::kUndo && f->n_pages() > 3 && FilHeader(f->page(3)).type() == PageType::kRsegArray) {
        ReadRsegArray(*f);
      }
    }
    for (const RsegInfo& r : report_.rsegs) {
      report_.history_list_length += r.history_length;
      report_.history_pages += r.history_size;
    }
    return std::move(report_);
  }

 private:
  void Add(const std::string& file, std::optional<std::uint32_t> page, std::string what, std::string detail,
           Severity sev = Severity::kError) {
    report_.findings.push_back({sev, file, page, std::nullopt, std::move(what), std::move(detail)});
  }

  void ReadTrxSys(const SpaceFile& sys) {
    const std::string name = sys.path().filename().string();
    if (sys.n_pages() <= 5 || !PageSize::IsValid(sys.page_size()) ||
        FilHeader(sys.page(5)).type() != PageType::kTrxSys) {
      Add(name, 5, "no TRX_SYS page", "page 5 of the system tablespace is not TRX_SYS");
      return;
    }
    TrxSysPage trx(sys.page(5));
    for (std::uint32_t i = 0; i < kTrxSysRsegSlots; ++i) {
      RsegSlot slot = trx.rseg_slot(i);
      if (!slot.used()) continue;
      auto it = by_space_.find(slot.space.value());
      if (it == by_space_.end()) {
        // MySQL 5.7 keeps slots 1-32 for the temporary tablespace, recreated at startup.
        Add(name, 5, "rollback segment not read",
            fmt::format("TRX_SYS slot {} names space {} page {}, which was not given", i, slot.space.value(),
                        slot.page.value()),
            Severity::kWarning);
        continue;
      }
      ReadRseg(*it->second, slot.page.value(), fmt::format("TRX_SYS slot {}", i));
    }
  }

  void ReadRsegArray(const SpaceFile& undo) {
    auto a = RsegArrayPage::Open(undo.page(3));
    if (!a.ok()) {
      Add(undo.path().filename().string(), 3, "RSEG_ARRAY", a.status().message());
      return;
    }
    auto pages = a->rseg_pages();
    for (std::size_t i = 0; i < pages.size(); ++i)
      ReadRseg(undo, pages[i].value(), fmt::format("RSEG_ARRAY entry {}", i));
  }

  void ReadRseg(const SpaceFile& f, std::uint32_t page_no, std::string source) {
    const std::string name = f.path().filename().string();
    if (!seen_.insert((std::uint64_t{f.space_id().value()} << 32) | page_no).second) return;
    if (page_no >= f.n_pages()) {
      Add(name, page_no, "rollback segment header missing", fmt::format("{} points past the end of the file", source));
      return;
    }
    if (!PageSize::IsValid(f.page_size())) {
      Add(name, page_no, "rollback segment header unreadable",
          fmt::format("{} points into a file of {}-byte pages", source, f.page_size()));
      return;
    }
    ConstBytes page = f.page(page_no);
    RsegHeader h(page);
    if (Status s = h.Check(); !s.ok()) {
      Add(name, page_no, "rollback segment header", s.message());
      return;
    }
    RsegInfo r;
    r.source = std::move(source);
    r.space_id = f.space_id().value();
    r.page = page_no;
    r.file = f.path().string();
    r.history_length = h.history_length();
    r.history_size = h.history_size();
    for (std::uint32_t i = 0; i < RsegHeader::NumUndoSlots(page.size()); ++i) {
      if (h.undo_slot(i) == kNullPage) continue;
      ++r.undo_slots_used;
      if (logs_)
        WalkUndoPages(f, h.undo_slot(i).value(),
                      fmt::format("undo slot {} of the rollback segment on page {}", i, page_no));
    }
    if (logs_) ReadHistory(f, h.history(), r);
    report_.rsegs.push_back(std::move(r));
  }

  // An undo segment's pages, from its first page's page-list base: every node an undo page,
  // each pointing back to the one before (rollback walks backwards), as many as the base says.
  void WalkUndoPages(const SpaceFile& f, std::uint32_t seg_page, const std::string& whose) {
    if (!walked_.insert((std::uint64_t{f.space_id().value()} << 32) | seg_page).second) return;
    const std::string name = f.path().filename().string();
    if (seg_page >= f.n_pages()) {
      Add(name, std::nullopt, "undo page list",
          fmt::format("{} names page {}, past the end of the file", whose, seg_page));
      return;
    }
    auto seg = UndoSegmentHeader::Decode(f.page(seg_page));
    if (!seg.ok()) {
      Add(name, seg_page, "undo segment header", whose + ": " + seg.status().message());
      return;
    }
    const ListBase& base = seg->page_list;
    FileAddr prev;
    std::uint32_t count = 0;
    std::unordered_set<std::uint32_t> seen;
    for (FileAddr a = base.first; !a.is_null(); ++count) {
      const std::uint32_t p = a.page.value();
      if (count >= base.length || p >= f.n_pages() || a.offset != UndoPageHeader::kNode || !seen.insert(p).second ||
          FilHeader(f.page(p)).type() != PageType::kUndoLog) {
        Add(name, seg_page, "undo page list",
            fmt::format("{}: node {} (page {} offset {}) is not the next undo page of a list of {}", whose, count, p,
                        a.offset, base.length));
        return;
      }
      const ListNode node = ListNode::Decode(f.page(p), UndoPageHeader::kNode);
      if (!(node.prev == prev)) {
        Add(name, p, "undo page list",
            fmt::format("{}: page {} points back to {} instead of {} (a rollback could not step back past it)", whose,
                        p, node.prev.is_null() ? std::string("null") : std::to_string(node.prev.page.value()),
                        prev.is_null() ? std::string("null") : std::to_string(prev.page.value())));
      }
      prev = a;
      a = node.next;
    }
    if (count != base.length) {
      Add(name, seg_page, "undo page list",
          fmt::format("{}: the base says {} pages, the chain has {}", whose, base.length, count));
    }
  }

  // Walks the history list: each node is the history node inside an undo log header.
  void ReadHistory(const SpaceFile& f, const ListBase& base, RsegInfo& r) {
    const std::string name = f.path().filename().string();
    std::unordered_set<std::uint64_t> seen;
    std::uint32_t count = 0;
    for (FileAddr a = base.first; !a.is_null(); ++count) {
      if (count >= base.length || a.page.value() >= f.n_pages() || a.offset < UndoLogHeader::kHistoryNode ||
          !seen.insert((std::uint64_t{a.page.value()} << 16) | a.offset).second) {
        Add(name, r.page, "history list",
            fmt::format("node {} (page {} offset {}) breaks the list of {}", count, a.page.value(), a.offset,
                        base.length));
        return;
      }
      ConstBytes page = f.page(a.page.value());
      const std::size_t at = a.offset - UndoLogHeader::kHistoryNode;
      auto lh = UndoLogHeader::Decode(page, at);
      if (!lh.ok()) {
        Add(name, a.page.value(), "undo log header", lh.status().message());
        return;
      }
      UndoLogInfo log{a.page.value(),    static_cast<std::uint16_t>(at), lh->trx_id, lh->trx_no, "", 0, 0,
                      lh->del_marks != 0};
      WalkUndoPages(f, a.page.value(), fmt::format("the undo log of transaction {} in the history", lh->trx_id));
      if (auto seg = UndoSegmentHeader::Decode(page); seg.ok()) log.segment_pages = seg->page_list.length;
      if (auto ph = UndoPageHeader::Decode(page); ph.ok()) {
        log.type = ph->type ? ToString(static_cast<UndoPageType>(ph->type)) : "";
        // This log's records run from its start to the next log's header, or the page's free end.
        const std::size_t end = lh->next_log > at ? lh->next_log : ph->free;
        for (std::size_t rec = lh->log_start; rec < end && log.records < page.size();) {
          auto u = UndoRecordHeader::Decode(page, rec);
          if (!u.ok() || u->next <= rec) break;
          ++log.records;
          rec = u->next;
        }
      }
      r.logs.push_back(log);
      a = lh->history_node.next;
    }
  }

  bool logs_;
  std::map<std::uint32_t, const SpaceFile*> by_space_;
  const SpaceFile* damaged_system_ = nullptr;  // an ibdata1 whose page 0 is no FSP header
  std::unordered_set<std::uint64_t> seen_;
  std::unordered_set<std::uint64_t> walked_;  // undo segments whose page lists were walked
  UndoReport report_;
};

}  // namespace

UndoReport AnalyzeUndo(const std::vector<const SpaceFile*>& files, bool with_logs) {
  return UndoReader(files, with_logs).Run();
}

nlohmann::json ToJson(const UndoReport& r) {
  nlohmann::json rsegs = nlohmann::json::array();
  for (const auto& s : r.rsegs) {
    nlohmann::json j = {{"source", s.source},
                        {"space_id", s.space_id},
                        {"page", s.page},
                        {"file", s.file},
                        {"history_length", s.history_length},
                        {"history_size_pages", s.history_size},
                        {"undo_slots_used", s.undo_slots_used}};
    if (r.logs) {
      nlohmann::json logs = nlohmann::json::array();
      for (const auto& l : s.logs) {
        logs.push_back({{"trx_id", l.trx_id},
                        {"trx_no", l.trx_no},
                        {"page", l.page},
                        {"offset", l.offset},
                        {"type", l.type.empty() ? nlohmann::json(nullptr) : nlohmann::json(l.type)},
                        {"records_on_first_page", l.records},
                        {"segment_pages", l.segment_pages},
                        {"del_marks", l.del_marks}});
      }
      j["logs"] = logs;
    }
    rsegs.push_back(j);
  }
  nlohmann::json findings = nlohmann::json::array();
  for (const auto& f : r.findings) findings.push_back(ToJson(f));
  const bool known = r.incomplete.empty();
  return {{"history_list_length", known ? nlohmann::json(r.history_list_length) : nlohmann::json(nullptr)},
          {"history_size_pages", known ? nlohmann::json(r.history_pages) : nlohmann::json(nullptr)},
          {"unknown_reason", known ? nlohmann::json(nullptr) : nlohmann::json(r.incomplete)},
          {"history_list_length_of_segments_read", r.history_list_length},
          {"rollback_segments", rsegs},
          {"findings", findings}};
}

std::string ToText(const UndoReport& r) {
  std::string out;
  if (r.incomplete.empty()) {
    out = fmt::format("History list length {}\n", r.history_list_length);
    out += fmt::format("History size {} pages in {} rollback segments\n\n", r.history_pages, r.rsegs.size());
  } else {
    out = fmt::format("History list length unknown ({})\n", r.incomplete);
    out += fmt::format("The {} rollback segments read hold {} transactions in {} pages of history\n\n", r.rsegs.size(),
                       r.history_list_length, r.history_pages);
  }
  out += fmt::format("  {:<22} {:>6} {:>6} {:>8} {:>8} {:>6}  {}\n", "rollback segment", "space", "page", "history",
                     "pages", "slots", "file");
  for (const auto& s : r.rsegs) {
    out += fmt::format("  {:<22} {:>6} {:>6} {:>8} {:>8} {:>6}  {}\n", s.source, s.space_id, s.page, s.history_length,
                       s.history_size, s.undo_slots_used, s.file);
    for (const auto& l : s.logs) {
      out += fmt::format("      trx {:>8} no {:>8}  page {:>5} @{:<5} {:<7} {} records, segment of {} pages{}\n",
                         l.trx_id, l.trx_no, l.page, l.offset, l.type.empty() ? "-" : l.type, l.records,
                         l.segment_pages, l.del_marks ? ", del marks" : "");
    }
  }
  for (const auto& f : r.findings) out += "  - " + f.ToString() + "\n";
  return out;
}

}  // namespace strata::inspect
