#include "inspect/redo_apply.h"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <set>
#include <string_view>
#include <unordered_map>

#include "inspect/doublewrite_report.h"
#include "inspect/redo_report.h"
#include "ondisk/checksum.h"
#include "ondisk/fil_header.h"
#include "ondisk/redo_record.h"

namespace strata::inspect {

using namespace strata::ondisk;

bool HasLog(const std::filesystem::path& dir) {
  std::error_code ec;
  return std::filesystem::exists(dir / "ib_logfile0", ec) || std::filesystem::is_directory(dir / "#innodb_redo", ec);
}

std::optional<std::filesystem::path> DataDirOf(const std::filesystem::path& file) {
  const auto own = std::filesystem::absolute(file).parent_path();
  for (const auto& d : {own, own.parent_path()}) {
    if (HasLog(d)) return d;
  }
  return std::nullopt;
}

namespace {

// The page's own checksum and trailer, once its bytes and LSN are final.
void Restamp(const SpaceFile& f, MutableBytes page) {
  if (f.shape().compressed()) {  // ROW_FORMAT=COMPRESSED: one checksum, no trailer
    Store32(page, FilHeader::kChecksum, ZipPageCrc32(page));
  } else if (f.shape().full_crc32) {
    StampChecksum(page, ChecksumAlgorithm::kFullCrc32);
  } else {
    Store32(page, page.size() - 4, static_cast<std::uint32_t>(Load64(page, FilHeader::kLsn)));
    StampChecksum(page, ChecksumAlgorithm::kCrc32);
  }
}

// How far --apply-redo grows a file the log extends (pages: 4 GiB of 16 KiB pages, in memory).
constexpr std::uint32_t kMaxGrownPages = 1u << 18;

// One record onto its page: Strata's own (a write anywhere, a zeroed page), or MariaDB's.
MariaApply ApplyRecord(const MariaRedoRecord& r, MutableBytes page) {
  const std::string_view type = r.type;
  if (type == "STRATA_INIT") {
    std::fill(page.begin(), page.end(), std::byte{0});
    return MariaApply::kApplied;
  }
  if (type == "STRATA_WRITE") {
    if (std::size_t{r.offset} + r.data.size() > page.size()) return MariaApply::kCorrupt;
    std::copy(r.data.begin(), r.data.end(), page.begin() + r.offset);
    return MariaApply::kApplied;
  }
  return ApplyMariaRecord(r, page);
}

// The logs whose records are physical page changes: MariaDB 10.8+'s and Strata's.
bool Replayable(const RedoReport& r) { return !r.block_framed || r.format == kStrataLogFormat; }

// Torn pages put back from their doublewrite copies, as the server's recovery does before it
// replays: each page that fails its checksum and has a copy recovery would take
// (doublewrite_report's choice). Page-compressed and encrypted copies are left to be said
// (their bytes are not the pages as read here).
std::uint64_t MendFromDoublewrite(const std::filesystem::path& dir,
                                  const std::unordered_map<std::uint32_t, SpaceFile*>& by_id, RedoApplyResult& out) {
  std::uint64_t mended = 0;
  const DoublewriteReport dw = AnalyzeDoublewrite(dir);
  for (const DoublewriteSource& src : dw.sources) {
    std::ifstream in(src.file, std::ios::binary);
    for (const DoublewriteCopy& c : src.copies) {
      if (!c.restores || !c.space || c.unverifiable) continue;
      const auto f = by_id.find(*c.space);
      if (f == by_id.end() || f->second->shape().page_compressed() || c.page >= f->second->n_pages()) continue;
      SpaceFile& file = *f->second;
      std::vector<std::byte> copy(file.page_size());
      in.seekg(static_cast<std::streamoff>(c.file_offset));
      if (!in.read(reinterpret_cast<char*>(copy.data()), static_cast<std::streamsize>(copy.size()))) {
        in.clear();
        continue;
      }
      MutableBytes page = file.MutablePage(c.page);
      if (page.empty() || file.CheckPage(page).valid || !file.CheckPage(copy).valid) continue;
      std::copy(copy.begin(), copy.end(), page.begin());
      ++mended;
      out.findings.push_back(
          {Severity::kInfo, file.path().string(), c.page, std::nullopt, "restored from doublewrite",
           fmt::format("the page failed its checksum; its copy in slot {} of {} (LSN {}) is put in its "
                       "place before the log is replayed, as recovery does",
                       c.slot, src.file, c.lsn)});
    }
  }
  return mended;
}

}  // namespace

std::optional<Finding> StaleLogFinding(const std::filesystem::path& dir, const RedoReport* analysed) {
  if (!HasLog(dir)) return std::nullopt;
  const RedoReport r = analysed ? *analysed : AnalyzeRedo(dir, {});
  if (!r.newest) return std::nullopt;
  const std::uint64_t cp = r.checkpoints[*r.newest].lsn;
  std::string what;
  if (r.records_decoded && r.mtr_groups > r.checkpoint_marks) {
    what = fmt::format("{} mini-transactions past its checkpoint (LSN {} .. {}) changing {} pages",
                       r.mtr_groups - r.checkpoint_marks, cp, r.lsn_end, r.pages.size());
  } else if (!r.records_decoded && r.lsn_end > cp) {
    what = fmt::format("{} bytes of log past its checkpoint (LSN {} .. {})", r.lsn_end - cp, cp, r.lsn_end);
  } else {
    return std::nullopt;
  }
  const bool replayable = Replayable(r);
  return Finding{
      Severity::kWarning,
      dir.string(),
      std::nullopt,
      std::nullopt,
      "stale pages",
      fmt::format("the redo log ({}) holds {}: these files are older than the server's state (it crashed, or "
                  "they were copied while it ran), so what follows may be out of date{}",
                  std::filesystem::path(r.file).filename().string(), what,
                  replayable ? "; --apply-redo replays the log in memory first" : "")};
}

namespace {

using PageId = std::pair<std::uint32_t, std::uint32_t>;  // space, page

// The replay of a MariaDB 10.8+ (or Strata) log's mini-transactions onto the pages in memory.
class Replayer {
 public:
  Replayer(const std::unordered_map<std::uint32_t, SpaceFile*>& by_id, RedoApplyResult& out)
      : by_id_(by_id), out_(out) {}

  // One mini-transaction: the records of each page within it are applied together, or (when
  // one of them cannot be) not at all: the page then stays as the previous one left it.
  void Mtr(const std::vector<MariaRedoRecord>& records, std::uint64_t end_lsn) {
    ++out_.mtrs;
    for (std::size_t i = 0; i < records.size(); ++i) {
      if (!records[i].page_op) continue;
      const PageId id{records[i].space, records[i].page};
      std::size_t last = i;
      while (last + 1 < records.size() && records[last + 1].page_op && records[last + 1].space == id.first &&
             records[last + 1].page == id.second)
        ++last;
      out_.records += last - i + 1;
      ApplyToPage(id, records, i, last, end_lsn);
      i = last;
    }
  }

  // Pages changed get their checksums and LSN trailers anew; what was done is said.
  void Finish(const std::filesystem::path& dir) {
    std::set<SpaceFile*> touched;
    for (auto& [id, st] : pages_) {
      if (!st.dirty) continue;
      ++out_.pages_changed;
      Restamp(*st.file, st.file->MutablePage(id.second));
      touched.insert(st.file);
    }
    for (SpaceFile* f : touched) f->RereadHeader();
    out_.pages_not_here = not_here_.size();
    std::string left;
    for (const auto& [id, why] : out_.pages_left) {
      if (left.size() < 400) left += fmt::format("{}{}:{} ({})", left.empty() ? "" : "; ", id.first, id.second, why);
    }
    out_.findings.push_back(
        {Severity::kInfo, dir.string(), std::nullopt, std::nullopt, "redo applied",
         fmt::format(
             "{} mini-transactions past the checkpoint (LSN {} .. {}) replayed in memory: {} pages "
             "brought forward{}{}",
             out_.mtrs, out_.checkpoint_lsn, out_.end_lsn, out_.pages_changed,
             out_.pages_from_doublewrite ? fmt::format(" ({} torn pages first put back from their doublewrite copies)",
                                                       out_.pages_from_doublewrite)
                                         : "",
             out_.pages_not_here ? fmt::format(", {} pages of tablespaces not given", out_.pages_not_here) : "")});
    if (!out_.pages_left.empty()) {
      out_.findings.push_back(
          {Severity::kWarning, dir.string(), std::nullopt, std::nullopt, "pages left behind",
           fmt::format("{} pages could not be brought all the way forward and are read as far as they got: {}{}",
                       out_.pages_left.size(), left, left.size() >= 400 ? "; ..." : "")});
    }
  }

 private:
  struct PageState {
    SpaceFile* file = nullptr;
    bool left = false;  // a record it could not replay: no later change applies
    bool dirty = false;
  };

  void Leave(const PageId& id, PageState& st, std::string why) {
    st.left = true;
    out_.pages_left.emplace(id, std::move(why));
  }

  // The page's state, or null for a page of a tablespace not given.
  PageState* State(const PageId& id) {
    auto it = pages_.find(id);
    if (it != pages_.end()) return &it->second;
    const auto f = by_id_.find(id.first);
    if (f == by_id_.end()) {
      not_here_.insert(id);
      return nullptr;
    }
    return &pages_.emplace(id, PageState{f->second}).first->second;
  }

  // The page as it may take changes, or empty (and the page left) when it cannot.
  MutableBytes Writable(const PageId& id, PageState& st) {
    SpaceFile& f = *st.file;
    // A page still encrypted (no key given) cannot take its changes.
    if (id.second < f.n_pages() && f.IsEncryptedPage(f.page(id.second))) {
      Leave(id, st, "its page is encrypted: give the key (--key-file) to replay its changes");
      return {};
    }
    // A page past the end of the file: the log grew the file after the pages were written.
    if (id.second >= f.n_pages() && id.second < kMaxGrownPages) f.Grow(id.second + 1);
    MutableBytes page = f.MutablePage(id.second);
    if (page.empty()) {
      Leave(id, st,
            id.second >= f.n_pages() ? "far past the end of its file" : "its file could not be mapped for changes");
      return {};
    }
    // A damaged page takes no changes: the server would first mend it from the doublewrite
    // buffer, or stop. Replayed, its checksum would be made anew and the damage hidden.
    if (!st.dirty) {
      const PageCheck c = f.CheckPage(page);
      if (!c.valid && !c.all_zero && !c.unverifiable) {
        Leave(id, st, "its checksum fails (torn or damaged) and no doublewrite copy recovery would take mends it");
        return {};
      }
    }
    return page;
  }

  void ApplyToPage(const PageId& id, const std::vector<MariaRedoRecord>& records, std::size_t first, std::size_t last,
                   std::uint64_t end_lsn) {
    PageState* st = State(id);
    if (!st || st->left) return;
    const MutableBytes page = Writable(id, *st);
    if (page.empty()) return;
    // A page already written at or after this mini-transaction holds its changes.
    if (Load64(page, FilHeader::kLsn) >= end_lsn && !st->dirty) return;
    before_.assign(page.begin(), page.end());
    for (std::size_t k = first; k <= last; ++k) {
      const MariaApply a = ApplyRecord(records[k], page);
      if (a == MariaApply::kApplied) continue;
      std::copy(before_.begin(), before_.end(), page.begin());
      Leave(id, *st,
            a == MariaApply::kUnsupported
                ? fmt::format("a {} record (LSN {}'s mini-transaction), which this reader does not replay",
                              records[k].type, end_lsn)
                : fmt::format("a {} record that does not fit the page (mini-transaction ending at LSN {})",
                              records[k].type, end_lsn));
      if (a == MariaApply::kCorrupt) {
        out_.findings.push_back({Severity::kError, st->file->path().string(), id.second, std::nullopt, "redo record",
                                 fmt::format("{} of the mini-transaction ending at LSN {} does not fit the page",
                                             records[k].type, end_lsn)});
      }
      return;
    }
    Store64(page, FilHeader::kLsn, end_lsn);
    st->dirty = true;
  }

  const std::unordered_map<std::uint32_t, SpaceFile*>& by_id_;
  RedoApplyResult& out_;
  std::map<PageId, PageState> pages_;
  std::vector<std::byte> before_;  // a page before its records, to put back when one fails
  std::set<PageId> not_here_;
};

}  // namespace

RedoApplyResult ApplyRedo(const std::filesystem::path& dir, std::vector<SpaceFile>& files) {
  RedoApplyResult out;
  std::unordered_map<std::uint32_t, SpaceFile*> by_id;
  // Only this directory's tablespaces: another directory's may reuse its space ids.
  const std::string under = std::filesystem::weakly_canonical(dir).string() + "/";
  for (SpaceFile& f : files) {
    if (std::filesystem::weakly_canonical(f.path()).string().starts_with(under))
      by_id.emplace(f.space_id().value(), &f);
  }
  if (!HasLog(dir)) {
    out.findings.push_back({Severity::kInfo, dir.string(), std::nullopt, std::nullopt, "--apply-redo",
                            "no redo log here: nothing to apply"});
    return out;
  }
  Replayer replayer(by_id, out);
  out.pages_from_doublewrite = MendFromDoublewrite(dir, by_id, out);
  const RedoReport r = AnalyzeRedo(
      dir, {}, [&](const std::vector<MariaRedoRecord>& records, std::uint64_t end) { replayer.Mtr(records, end); });
  if (!Replayable(r) || !r.newest) {
    out.findings.push_back(
        {Severity::kInfo, dir.string(), std::nullopt, std::nullopt, "--apply-redo",
         fmt::format("nothing applied: --apply-redo replays MariaDB 10.8+ and Strata logs, and this is {}",
                     r.format_name.empty() ? "no readable log" : r.format_name)});
    return out;
  }
  out.checkpoint_lsn = r.checkpoints[*r.newest].lsn;
  out.end_lsn = r.lsn_end;
  replayer.Finish(dir);
  return out;
}

}  // namespace strata::inspect
