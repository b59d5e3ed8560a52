#include "inspect/undo_locator.h"

#include <fmt/format.h>

#include <algorithm>
#include <unordered_set>

#include "inspect/sys_dictionary.h"

#include "ondisk/fil_header.h"

namespace strata::inspect {

using namespace strata::ondisk;

namespace {

std::uint64_t Key(std::uint32_t space, std::uint32_t page) { return (std::uint64_t{space} << 32) | page; }

}  // namespace

Result<std::vector<SpaceFile>> OpenUndoSpaces(const std::filesystem::path& file, const EncryptionKeys* keys) {
  const auto system = FindSystemTablespace(file);
  if (!system) {
    return Status::NotFound(
        "older versions are in the undo logs of the data directory, and no ibdata1 is beside the "
        "file or one directory up");
  }
  std::vector<std::filesystem::path> paths{*system};
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(system->parent_path(), ec)) {
    if (e.is_regular_file(ec) && KindFromName(e.path()) == SpaceKind::kUndo) paths.push_back(e.path());
  }
  std::sort(paths.begin() + 1, paths.end());
  std::vector<SpaceFile> out;
  for (const auto& p : paths) {
    auto f = SpaceFile::Open(p, keys);
    if (!f.ok()) return f.status().WithContext(p.string());
    out.push_back(std::move(*f));
  }
  return out;
}

std::string UndoRecordAt::Where() const {
  return fmt::format("{} page {} offset {}", file->path().filename().string(), page, offset);
}

UndoLocator::UndoLocator(const std::vector<const SpaceFile*>& files) {
  const SpaceFile* system = nullptr;
  for (const SpaceFile* f : files) {
    if (!PageSize::IsValid(f->page_size())) continue;
    if (f->kind() == SpaceKind::kSystem) {
      // ibdata2.. share space 0 with ibdata1; TRX_SYS is in the file that starts the space.
      if (FilHeader(f->page(0)).type() == PageType::kFspHdr) system = f;
    } else if (f->kind() == SpaceKind::kUndo) {
      by_space_[f->space_id().value()] = f;
    }
  }
  no_rollback_segments_ = true;
  if (!system) {
    gaps_.push_back("no system tablespace (ibdata1): its TRX_SYS page names the rollback segments");
    return;
  }
  by_space_[kSystemSpaceId] = system;
  for (const auto& [id, f] : by_space_) {
    if (f->flavor() != system->flavor()) {
      Gap(f, fmt::format("{} was written by {}, {} by {}: not one server's files", f->path().filename().string(),
                         f->shape().flavor_name(), system->path().filename().string(), system->shape().flavor_name()));
    }
  }
  if (system->n_pages() <= 5 || FilHeader(system->page(5)).type() != PageType::kTrxSys) {
    gaps_.push_back(system->path().filename().string() + ": page 5 is not TRX_SYS");
    return;
  }
  if (!Intact(*system, 5, "TRX_SYS")) return;
  no_rollback_segments_ = false;
  const bool mysql80 = system->flavor() == Flavor::kMySql && [&] {
    for (const auto& [id, f] : by_space_) {
      if (f->kind() == SpaceKind::kUndo && f->n_pages() > 3 && FilHeader(f->page(3)).type() == PageType::kRsegArray)
        return true;
    }
    return false;
  }();
  TrxSysPage trx(system->page(5));
  max_trx_id_ = trx.trx_id_store();
  std::map<std::uint32_t, std::uint32_t> missing;  // space id -> slots naming it
  for (std::uint32_t i = 0; i < kTrxSysRsegSlots; ++i) {
    const RsegSlot slot = trx.rseg_slot(i);
    if (!slot.used()) continue;
    // MySQL 8.0 keeps only the system tablespace's rollback segments in TRX_SYS (number 0).
    if (!mysql80) rseg_space_[static_cast<std::uint8_t>(i)] = slot.space.value();
    if (mysql80 && slot.space.value() != kSystemSpaceId) continue;
    auto it = by_space_.find(slot.space.value());
    if (it == by_space_.end()) {
      ++missing[slot.space.value()];
      continue;
    }
    ReadRseg(*it->second, slot.page.value(), fmt::format("TRX_SYS slot {}", i));
  }
  for (const auto& [space, slots] : missing) {
    gaps_.push_back(
        fmt::format("tablespace {}, which {} of TRX_SYS's rollback segment slots name, is not at hand (an "
                    "undo tablespace: undo001, undo_001 or *.ibu beside ibdata1)",
                    space, slots));
  }
  for (const auto& [space, f] : by_space_) {
    const std::uint32_t id = space;  // (a structured binding cannot be captured before C++20's P1091 in clang)
    if (f->kind() == SpaceKind::kUndo && id != kSystemSpaceId && !missing.count(id) && !mysql80 &&
        std::none_of(rseg_space_.begin(), rseg_space_.end(), [&](const auto& r) { return r.second == id; })) {
      Gap(f, fmt::format("{} (space {}) is named by none of TRX_SYS's rollback segment slots: it is not this "
                         "ibdata1's undo tablespace",
                         f->path().filename().string(), id));
    }
  }
  if (!mysql80) return;
  rseg_space_[0] = kSystemSpaceId;
  for (const auto& [id, f] : by_space_) {
    if (f->kind() != SpaceKind::kUndo || f->n_pages() <= 3) continue;
    if (!Intact(*f, 3, "RSEG_ARRAY")) continue;
    auto a = RsegArrayPage::Open(f->page(3));
    if (!a.ok()) {
      Gap(f, fmt::format("{} page 3: {}", f->path().filename().string(), a.status().message()));
      continue;
    }
    rseg_space_[MySqlUndoSpaceNumber(id)] = id;
    const auto pages = a->rseg_pages();
    for (std::size_t r = 0; r < pages.size(); ++r)
      ReadRseg(*f, pages[r].value(), fmt::format("RSEG_ARRAY entry {}", r));
  }
}

bool UndoLocator::Intact(const SpaceFile& f, std::uint32_t page, const std::string& what) {
  if (page < f.n_pages() && f.CheckPage(f.page(page)).valid) return true;
  Gap(&f, page < f.n_pages()
              ? fmt::format("{} page {} ({}) fails its checksum: the undo logs behind it cannot be known",
                            f.path().filename().string(), page, what)
              : fmt::format(
                    "{} has {} pages: page {} ({}) is past its end (the file is cut short, its FSP header "
                    "says {} pages)",
                    f.path().filename().string(), f.n_pages(), page, what,
                    f.shape().fsp_size ? std::to_string(f.shape().fsp_size) : std::string("nothing readable about")));
  return false;
}

void UndoLocator::ReadRseg(const SpaceFile& f, std::uint32_t page, const std::string& source) {
  const std::string where = fmt::format("{} page {} ({})", f.path().filename().string(), page, source);
  if (!Intact(f, page, "a rollback segment header")) return;
  RsegHeader h(f.page(page));
  if (Status s = h.Check(); !s.ok()) {
    Gap(&f, where + ": " + s.message());
    return;
  }
  if (f.flavor() == Flavor::kMariaDb) max_trx_id_ = std::max(max_trx_id_, h.maria_max_trx_id());
  for (std::uint32_t i = 0; i < RsegHeader::NumUndoSlots(f.page_size()); ++i) {
    if (h.undo_slot(i) != kNullPage) ReadActive(f, h.undo_slot(i).value());
  }
  // The history list's nodes sit in undo log headers, on their segments' first pages.
  std::unordered_set<std::uint64_t> seen;
  std::uint32_t n = 0;
  for (FileAddr a = h.history().first; !a.is_null() && n < h.history().length; ++n) {
    if (a.offset < UndoLogHeader::kHistoryNode || !seen.insert(std::uint64_t{a.page.value()} << 16 | a.offset).second) {
      Gap(&f,
          fmt::format("{}: history list node {} (page {} offset {}) is broken", where, n, a.page.value(), a.offset));
      return;
    }
    if (!Intact(f, a.page.value(), "an undo log in the history")) return;
    const auto header = static_cast<std::uint16_t>(a.offset - UndoLogHeader::kHistoryNode);
    auto lh = UndoLogHeader::Decode(f.page(a.page.value()), header);
    if (!lh.ok()) {
      Gap(&f, fmt::format("{}: history list node {}: {}", where, n, lh.status().message()));
      return;
    }
    oldest_history_ = std::min(oldest_history_.value_or(lh->trx_no), lh->trx_no);
    ReadLog(f, a.page.value(), header, false);
    a = lh->history_node.next;
  }
}

// An undo slot's segment: its newest log holds versions while its transaction is active or
// prepared; once committed, a log is in the history list (read from there) or purged.
void UndoLocator::ReadActive(const SpaceFile& f, std::uint32_t seg_page) {
  if (!Intact(f, seg_page, "an undo segment's first page")) return;
  auto seg = UndoSegmentHeader::Decode(f.page(seg_page));
  if (!seg.ok()) {
    Gap(&f, fmt::format("{} page {}: {}", f.path().filename().string(), seg_page, seg.status().message()));
    return;
  }
  const auto state = static_cast<UndoState>(seg->state);
  const bool open = state == UndoState::kActive || state == UndoState::kPrepared || state == UndoState::kPrepared80 ||
                    state == UndoState::kPreparedInTc;
  if (open && seg->last_log != 0) ReadLog(f, seg_page, seg->last_log, true);
}

// One log: its records on its header's page run from its start to the next log's header (or
// the page's free end); the newest log of a segment goes on over the segment's later pages.
void UndoLocator::ReadLog(const SpaceFile& f, std::uint32_t first_page, std::uint16_t header, bool active) {
  const std::uint32_t space = f.space_id().value();
  if (!logs_read_.insert((Key(space, first_page) << 16) ^ header).second) return;
  const std::string where = fmt::format("{} page {}", f.path().filename().string(), first_page);
  const ConstBytes page = f.page(first_page);
  if (FilHeader(page).type() != PageType::kUndoLog) {
    Gap(&f, where + ": a rollback segment names it as an undo log's page, but it is not an undo page");
    return;
  }
  auto ph = UndoPageHeader::Decode(page);
  auto lh = UndoLogHeader::Decode(page, header);
  if (!ph.ok() || !lh.ok()) {
    Gap(&f,
        fmt::format("{}: undo log header at {}: {}", where, header, (!ph.ok() ? ph.status() : lh.status()).message()));
    return;
  }
  max_trx_id_ = std::max({max_trx_id_, lh->trx_id, lh->trx_no});
  if (lh->trx_id == 0) return;  // MariaDB zeroes it when it frees the segment
  const std::uint64_t trx_no = active ? 0 : lh->trx_no;
  const std::uint16_t end = lh->next_log > header ? lh->next_log : ph->free;
  if (lh->log_start < end) spans_[Key(space, first_page)].push_back({lh->log_start, end, lh->trx_id, trx_no, active});
  if (lh->next_log != 0) return;
  auto seg = UndoSegmentHeader::Decode(page);
  if (!seg.ok()) return;  // a log that is not on its segment's first page has no later pages
  std::unordered_set<std::uint32_t> pages{first_page};
  FileAddr a = ph->node.next;
  for (std::uint32_t n = 1; !a.is_null() && n < seg->page_list.length; ++n) {
    const std::uint32_t p = a.page.value();
    if (!pages.insert(p).second || !Intact(f, p, "a page of an undo log")) {
      if (pages.count(p) && p < f.n_pages())
        Gap(&f, fmt::format("{}: the undo log's page list comes back to page {}", where, p));
      return;
    }
    auto next = UndoPageHeader::Decode(f.page(p));
    if (FilHeader(f.page(p)).type() != PageType::kUndoLog || !next.ok()) {
      Gap(&f, fmt::format("{}: the undo log's page list leads to page {}, which is not an undo page", where, p));
      return;
    }
    if (next->start < next->free)
      spans_[Key(space, p)].push_back({next->start, next->free, lh->trx_id, trx_no, active});
    a = next->node.next;
  }
}

void UndoLocator::Gap(const SpaceFile* f, std::string why) {
  if (f) spaces_with_gaps_.insert(f->space_id().value());
  gaps_.push_back(std::move(why));
}

const SpaceFile* UndoLocator::SpaceOf(std::uint8_t rseg_id) const {
  auto it = rseg_space_.find(rseg_id);
  if (it == rseg_space_.end()) return nullptr;
  auto f = by_space_.find(it->second);
  return f == by_space_.end() ? nullptr : f->second;
}

Result<UndoRecordAt> UndoLocator::Find(const RollPtr& p) const {
  const std::string named = fmt::format("rollback segment {} page {} offset {}", p.rseg_id, p.page_no, p.offset);
  if (no_rollback_segments_)
    return Status::IoError(named + ": the rollback segments cannot be read (" + gaps_.front() + ")");
  const SpaceFile* f = SpaceOf(p.rseg_id);
  if (!f) return Status::IoError(named + ": no tablespace at hand holds that rollback segment");
  const std::uint32_t space = f->space_id().value();
  const std::string file = f->path().filename().string();
  auto it = spans_.find(Key(space, p.page_no));
  if (it != spans_.end()) {
    for (const Span& s : it->second) {
      if (p.offset < s.start || p.offset >= s.end) continue;
      const UndoRecordAt at{f, space, p.page_no, p.offset, s.trx_id, s.trx_no, s.active};
      const ConstBytes page = f->page(p.page_no);
      auto intact = page_intact_.try_emplace(Key(space, p.page_no), false);
      if (intact.second) intact.first->second = f->CheckPage(page).valid;
      if (!intact.first->second) return Status::Corruption(at.Where() + ": the undo page fails its checksum");
      // The offset must be where one of the log's records starts.
      for (std::size_t rec = s.start; rec < s.end;) {
        if (rec == p.offset) return at;
        auto h = UndoRecordHeader::Decode(page, rec);
        if (!h.ok() || h->next <= rec) {
          return Status::Corruption(
              fmt::format("{}: {}", at.Where(), h.ok() ? "its log's records loop" : h.status().message()));
        }
        rec = h->next;
      }
      return Status::Corruption(at.Where() + ": no undo record of its log starts there");
    }
  }
  if (spaces_with_gaps_.count(space)) {
    return Status::IoError(
        fmt::format("{} page {} offset {}: in none of the undo logs that could be read, and some of "
                    "{}'s could not be",
                    file, p.page_no, p.offset, file));
  }
  return Status::NotFound(
      fmt::format("{} page {} offset {}: in no undo log that still holds versions: purged", file, p.page_no, p.offset));
}

}  // namespace strata::inspect
