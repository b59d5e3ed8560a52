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
    return Status::NotFound("older versions are in the undo logs of the data directory, and no ibdata1 is beside the "
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
  if (!system) {
    gaps_.push_back("no system tablespace (ibdata1): its TRX_SYS page names the rollback segments");
    return;
  }
  by_space_[kSystemSpaceId] = system;
  if (system->n_pages() <= 5 || FilHeader(system->page(5)).type() != PageType::kTrxSys) {
    gaps_.push_back(system->path().filename().string() + ": page 5 is not TRX_SYS");
    return;
  }
  const bool mysql80 = system->flavor() == Flavor::kMySql && [&] {
    for (const auto& [id, f] : by_space_) {
      if (f->kind() == SpaceKind::kUndo && f->n_pages() > 3 && FilHeader(f->page(3)).type() == PageType::kRsegArray) return true;
    }
    return false;
  }();
  TrxSysPage trx(system->page(5));
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
    gaps_.push_back(fmt::format("tablespace {}, which {} of TRX_SYS's rollback segment slots name, is not at hand (an "
                                "undo tablespace: undo001, undo_001 or *.ibu beside ibdata1)", space, slots));
  }
  if (!mysql80) return;
  rseg_space_[0] = kSystemSpaceId;
  for (const auto& [id, f] : by_space_) {
    if (f->kind() != SpaceKind::kUndo || f->n_pages() <= 3) continue;
    auto a = RsegArrayPage::Open(f->page(3));
    if (!a.ok()) {
      Gap(f, fmt::format("{} page 3: {}", f->path().filename().string(), a.status().message()));
      continue;
    }
    rseg_space_[MySqlUndoSpaceNumber(id)] = id;
    const auto pages = a->rseg_pages();
    for (std::size_t r = 0; r < pages.size(); ++r) ReadRseg(*f, pages[r].value(), fmt::format("RSEG_ARRAY entry {}", r));
  }
}

void UndoLocator::ReadRseg(const SpaceFile& f, std::uint32_t page, const std::string& source) {
  const std::string where = fmt::format("{} page {} ({})", f.path().filename().string(), page, source);
  if (page >= f.n_pages()) {
    Gap(&f, where + ": past the end of the file");
    return;
  }
  RsegHeader h(f.page(page));
  if (Status s = h.Check(); !s.ok()) {
    Gap(&f, where + ": " + s.message());
    return;
  }
  for (std::uint32_t i = 0; i < RsegHeader::NumUndoSlots(f.page_size()); ++i) {
    if (h.undo_slot(i) != kNullPage) ReadSegment(f, h.undo_slot(i).value());
  }
  // The history list's nodes sit in undo log headers, on their segments' first pages.
  std::unordered_set<std::uint64_t> seen;
  std::uint32_t n = 0;
  for (FileAddr a = h.history().first; !a.is_null() && n < h.history().length; ++n) {
    if (a.page.value() >= f.n_pages() || a.offset < UndoLogHeader::kHistoryNode || !seen.insert(std::uint64_t{a.page.value()} << 16 | a.offset).second) {
      Gap(&f, fmt::format("{}: history list node {} (page {} offset {}) is broken", where, n, a.page.value(), a.offset));
      return;
    }
    ReadSegment(f, a.page.value());
    auto lh = UndoLogHeader::Decode(f.page(a.page.value()), a.offset - UndoLogHeader::kHistoryNode);
    if (!lh.ok()) {
      Gap(&f, fmt::format("{}: history list node {}: {}", where, n, lh.status().message()));
      return;
    }
    a = lh->history_node.next;
  }
}

// An undo segment: its log headers on the first page (newest last, each pointing back to the
// one before), the records of each up to the next header; the newest log's records go on
// over the pages of the segment's page list.
void UndoLocator::ReadSegment(const SpaceFile& f, std::uint32_t first_page) {
  const std::uint32_t space = f.space_id().value();
  if (!segments_.emplace(Key(space, first_page), true).second) return;
  const std::string where = fmt::format("{} page {}", f.path().filename().string(), first_page);
  if (first_page >= f.n_pages() || FilHeader(f.page(first_page)).type() != PageType::kUndoLog) {
    Gap(&f, where + ": a rollback segment names it as an undo segment's first page, but it is not an undo page");
    return;
  }
  const ConstBytes page = f.page(first_page);
  auto seg = UndoSegmentHeader::Decode(page);
  auto ph = UndoPageHeader::Decode(page);
  if (!seg.ok() || !ph.ok()) {
    Gap(&f, where + ": " + (!seg.ok() ? seg.status() : ph.status()).message());
    return;
  }
  std::uint64_t newest_trx = 0, newest_no = 0;
  std::uint16_t end = ph->free;
  std::unordered_set<std::uint16_t> headers;
  for (std::uint16_t at = seg->last_log; at != 0 && headers.insert(at).second;) {
    auto lh = UndoLogHeader::Decode(page, at);
    if (!lh.ok() || lh->log_start > end) {
      Gap(&f, fmt::format("{}: undo log header at {}: {}", where, at,
                                  lh.ok() ? "its records start after the next log" : lh.status().message()));
      return;
    }
    if (at == seg->last_log) newest_trx = lh->trx_id, newest_no = lh->trx_no;
    // MariaDB zeroes the transaction id of a log whose segment is being freed.
    if (lh->trx_id != 0) {
      AddSpan(f, first_page, {lh->log_start, end, lh->trx_id, lh->trx_no});
      ++logs_;
    }
    end = at;
    if (lh->prev_log >= at) break;
    at = lh->prev_log;
  }
  if (seg->last_log == 0) return;
  std::unordered_set<std::uint32_t> pages{first_page};
  FileAddr a = ListNode::Decode(page, UndoPageHeader::kNode).next;
  for (std::uint32_t n = 1; !a.is_null() && n < seg->page_list.length; ++n) {
    const std::uint32_t p = a.page.value();
    if (p >= f.n_pages() || !pages.insert(p).second || FilHeader(f.page(p)).type() != PageType::kUndoLog) {
      Gap(&f, fmt::format("{}: the segment's page list leads to page {}, which is not one of its undo pages", where, p));
      return;
    }
    auto next = UndoPageHeader::Decode(f.page(p));
    if (!next.ok()) {
      Gap(&f, fmt::format("{} page {}: {}", f.path().filename().string(), p, next.status().message()));
      return;
    }
    if (newest_trx != 0) AddSpan(f, p, {next->start, next->free, newest_trx, newest_no});
    a = next->node.next;
  }
}

void UndoLocator::Gap(const SpaceFile* f, std::string why) {
  if (f) spaces_with_gaps_.insert(f->space_id().value());
  gaps_.push_back(std::move(why));
}

void UndoLocator::AddSpan(const SpaceFile& f, std::uint32_t page, Span s) {
  if (s.start < s.end) spans_[Key(f.space_id().value(), page)].push_back(s);
}

const SpaceFile* UndoLocator::SpaceOf(std::uint8_t rseg_id) const {
  auto it = rseg_space_.find(rseg_id);
  if (it == rseg_space_.end()) return nullptr;
  auto f = by_space_.find(it->second);
  return f == by_space_.end() ? nullptr : f->second;
}

Result<UndoRecordAt> UndoLocator::Find(const RollPtr& p) const {
  const std::string named = fmt::format("rollback segment {} page {} offset {}", p.rseg_id, p.page_no, p.offset);
  const SpaceFile* f = SpaceOf(p.rseg_id);
  if (!f) return Status::IoError(named + ": no tablespace at hand holds that rollback segment");
  const std::uint32_t space = f->space_id().value();
  auto it = spans_.find(Key(space, p.page_no));
  if (it != spans_.end()) {
    for (const Span& s : it->second) {
      if (p.offset < s.start || p.offset >= s.end) continue;
      // The offset must be where one of the log's records starts.
      const ConstBytes page = f->page(p.page_no);
      for (std::size_t at = s.start; at < s.end;) {
        if (at == p.offset) return UndoRecordAt{f, space, p.page_no, at, s.trx_id, s.trx_no, !f->CheckPage(page).valid};
        auto h = UndoRecordHeader::Decode(page, at);
        if (!h.ok() || h->next <= at) return Status::Corruption(fmt::format("{}: {}", named, h.ok() ? "records loop" : h.status().message()));
        at = h->next;
      }
      return Status::Corruption(named + ": no undo record starts there");
    }
  }
  if (spaces_with_gaps_.count(space)) {
    return Status::IoError(fmt::format("{} (space {}): in none of the undo logs that could be read; some of that "
                                       "tablespace's could not be", named, space));
  }
  return Status::NotFound(fmt::format("{} (space {}): in no undo log a rollback segment still holds: purged", named, space));
}

}  // namespace strata::inspect
