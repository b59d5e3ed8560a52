#include "engine/rseg.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "engine/file_list_ops.h"
#include "engine/mtr.h"
#include "engine/space_manager.h"
#include "ondisk/fil_header.h"

namespace strata::engine {

using namespace strata::ondisk;

namespace {

constexpr std::size_t kPageStart = UndoPageHeader::kEnd;
constexpr std::size_t kPageList = UndoSegmentHeader::kPageList;
constexpr std::size_t kHistoryBase = RsegHeader::kHistory;
constexpr std::size_t kTrailerReserve = 10;  // trx_undo_left keeps this free

Status Damaged(PageNo page, const Status& s) {
  return s.WithContext(fmt::format("ibdata1: undo page {}", page.value()));
}

}  // namespace

Rseg::Rseg(BufferPool& pool, Tablespace& system, PageNo header_page)
    : pool_(pool), system_(system), header_page_(header_page) {}

Result<UndoLog> Rseg::NewSegment(UndoPageType type) {
  Mtr mtr(pool_);
  auto hdr = mtr.Write({system_.id(), header_page_});
  if (!hdr.ok()) return hdr.status();
  RsegHeader rh(*hdr);
  std::uint32_t slot = 0;
  const std::uint32_t n = RsegHeader::NumUndoSlots(hdr->size());
  while (slot < n && rh.undo_slot(slot) != kNullPage) ++slot;
  if (slot == n) {
    return Status::Busy(fmt::format(
        "Too many active concurrent transactions: all {} undo slots of the rollback segment are in use", n));
  }
  MtrPageStore store(mtr, system_);
  SpaceManager sm(store);
  auto seg = sm.CreateSegment();
  if (!seg.ok()) return seg.status();
  auto page_no = sm.AllocatePage(*seg);
  if (!page_no.ok()) return page_no.status();
  auto p = mtr.Create({system_.id(), *page_no});
  if (!p.ok()) return p.status();
  FilHeaderWriter(*p).set_type(PageType::kUndoLog);
  UndoPageHeader ph;
  ph.type = static_cast<std::uint16_t>(type);
  ph.start = ph.free = static_cast<std::uint16_t>(UndoSegmentHeader::kFirstLog);
  ph.EncodeTo(*p);
  UndoSegmentHeader sh;
  sh.state = static_cast<std::uint16_t>(UndoState::kActive);
  sh.fseg = *seg;
  sh.EncodeTo(*p);
  STRATA_RETURN_IF_ERROR(ListAddLast(store, ListRef{*page_no, kPageList}, FileAddr{*page_no, UndoPageHeader::kNode}));
  hdr = mtr.Write({system_.id(), header_page_});
  RsegHeaderWriter(*hdr).set_undo_slot(slot, *page_no);
  UndoLog log;
  log.type = type;
  log.slot = slot;
  log.seg_page = log.last_page = log.top_page = *page_no;
  return log;
}

Result<Rseg::SegmentPage> Rseg::WriteSegmentPage(Mtr& mtr, PageNo seg_page) {
  auto p = mtr.Write({system_.id(), seg_page});
  if (!p.ok()) return p.status();
  auto ph = UndoPageHeader::Decode(*p);
  if (!ph.ok()) return Damaged(seg_page, ph.status());
  auto sh = UndoSegmentHeader::Decode(*p);
  if (!sh.ok()) return Damaged(seg_page, sh.status());
  return SegmentPage{*p, *ph, *sh};
}

// trx_undo_header_create: a fresh insert log starts the page over; an update log goes after
// the logs already on the page.
Status Rseg::AddLogHeader(UndoLog& log, bool append) {
  Mtr mtr(pool_);
  auto seg = WriteSegmentPage(mtr, log.seg_page);
  if (!seg.ok()) return seg.status();
  auto& [page, ph, sh] = *seg;
  const std::uint16_t at = append ? ph.free : static_cast<std::uint16_t>(UndoSegmentHeader::kFirstLog);
  UndoLogHeader h;
  h.trx_id = log.trx_id;
  h.log_start = static_cast<std::uint16_t>(at + UndoLogHeader::kSizeWithoutXid);
  if (append && sh.last_log != 0) {
    h.prev_log = sh.last_log;
    Store16(page, sh.last_log + UndoLogHeader::kNextLog, at);  // the previous header's
  }
  std::fill(page.begin() + at, page.begin() + h.log_start, std::byte{0});
  h.EncodeTo(page, at);
  ph.start = ph.free = h.log_start;
  ph.EncodeTo(page);
  sh.state = static_cast<std::uint16_t>(UndoState::kActive);
  sh.last_log = at;
  sh.EncodeTo(page);
  log.header = at;
  log.last_page = log.top_page = log.seg_page;
  log.top_offset = 0;
  log.records = 0;
  return Status::Ok();
}

Result<UndoLog> Rseg::Create(UndoPageType type, std::uint64_t trx_id) {
  auto& cache = type == UndoPageType::kInsert ? cached_insert_ : cached_update_;
  UndoLog log;
  if (!cache.empty()) {
    log.type = type;
    log.slot = cache.back().first;
    log.seg_page = cache.back().second;
    cache.pop_back();
  } else {
    auto fresh = NewSegment(type);
    if (!fresh.ok()) return fresh.status();
    log = *fresh;
  }
  log.trx_id = trx_id;
  STRATA_RETURN_IF_ERROR(AddLogHeader(log, type == UndoPageType::kUpdate));
  return log;
}

Result<std::uint64_t> Rseg::Append(UndoLog& log, const std::function<std::vector<std::byte>(std::uint16_t)>& encode) {
  Mtr mtr(pool_);
  auto p = mtr.Write({system_.id(), log.last_page});
  if (!p.ok()) return p.status();
  auto ph = UndoPageHeader::Decode(*p);
  if (!ph.ok()) return Damaged(log.last_page, ph.status());
  const std::size_t limit = p->size() - kFilTrailerSize - kTrailerReserve;
  std::uint16_t start = ph->free;
  std::vector<std::byte> rec = encode(start);
  if (start + rec.size() > limit) {
    if (kPageStart + rec.size() > limit) {
      return Status::NotSupported(fmt::format("an undo record of {} bytes does not fit in an undo page", rec.size()));
    }
    // trx_undo_add_page: the segment grows by a page, linked at the end of its page list.
    auto seg_page = mtr.Write({system_.id(), log.seg_page});
    if (!seg_page.ok()) return seg_page.status();
    const FsegHeader fseg = FsegHeader::Decode(*seg_page, UndoSegmentHeader::kFseg);
    MtrPageStore store(mtr, system_);
    auto n = SpaceManager(store).AllocatePage(fseg);
    if (!n.ok()) return n.status();
    auto np = mtr.Create({system_.id(), *n});
    if (!np.ok()) return np.status();
    FilHeaderWriter(*np).set_type(PageType::kUndoLog);
    UndoPageHeader nh;
    nh.type = static_cast<std::uint16_t>(log.type);
    nh.start = nh.free = kPageStart;
    nh.EncodeTo(*np);
    STRATA_RETURN_IF_ERROR(ListAddLast(store, ListRef{log.seg_page, kPageList}, FileAddr{*n, UndoPageHeader::kNode}));
    log.last_page = *n;
    ++log.pages;
    p = np;
    // Read back: the list insertion just wrote the header's page-list node, which rollback
    // follows backwards (a copy of `nh` would write a null node over it).
    ph = UndoPageHeader::Decode(*np);
    if (!ph.ok()) return Damaged(*n, ph.status());
    start = kPageStart;
    rec = encode(start);
  }
  std::memcpy(p->data() + start, rec.data(), rec.size());
  ph->free = static_cast<std::uint16_t>(start + rec.size());
  ph->EncodeTo(*p);
  log.top_page = log.last_page;
  log.top_offset = start;
  ++log.records;
  return RollPtr{log.type == UndoPageType::kInsert, kId, log.last_page.value(), start}.Encode();
}

Status Rseg::PopTop(UndoLog& log) {
  if (log.records == 0) return Status::Corruption("rollback past the start of an undo log");
  Mtr mtr(pool_);
  auto p = mtr.Write({system_.id(), log.top_page});
  if (!p.ok()) return p.status();
  auto ph = UndoPageHeader::Decode(*p);
  if (!ph.ok()) return Damaged(log.top_page, ph.status());
  ph->free = log.top_offset;
  ph->EncodeTo(*p);
  if (--log.records == 0) return Status::Ok();
  const std::size_t first =
      log.top_page == log.seg_page ? Load16(*p, log.header + UndoLogHeader::kLogStart) : kPageStart;
  if (log.top_offset > first) {
    log.top_offset = Load16(*p, log.top_offset - UndoRecordHeader::kStartBefore);
    return Status::Ok();
  }
  // The page holds nothing of the log any more: it leaves the segment.
  const PageNo empty = log.top_page;
  const PageNo prev = ph->node.prev.page;
  if (empty == log.seg_page || prev == kNullPage) return Status::Corruption("undo log page list is broken");
  auto seg_page = mtr.Write({system_.id(), log.seg_page});
  if (!seg_page.ok()) return seg_page.status();
  const FsegHeader fseg = FsegHeader::Decode(*seg_page, UndoSegmentHeader::kFseg);
  MtrPageStore store(mtr, system_);
  STRATA_RETURN_IF_ERROR(ListRemove(store, ListRef{log.seg_page, kPageList}, FileAddr{empty, UndoPageHeader::kNode}));
  STRATA_RETURN_IF_ERROR(SpaceManager(store).FreePage(fseg, empty));
  --log.pages;
  auto pp = mtr.Write({system_.id(), prev});
  if (!pp.ok()) return pp.status();
  auto pph = UndoPageHeader::Decode(*pp);
  if (!pph.ok()) return Damaged(prev, pph.status());
  log.last_page = log.top_page = prev;
  log.top_offset = Load16(*pp, pph->free - UndoRecordHeader::kStartBefore);
  return Status::Ok();
}

Status Rseg::FreeSegment(Mtr& mtr, PageNo seg_page, std::uint32_t slot) {
  auto p = mtr.Write({system_.id(), seg_page});
  if (!p.ok()) return p.status();
  auto sh = UndoSegmentHeader::Decode(*p);
  if (!sh.ok()) return Damaged(seg_page, sh.status());
  MtrPageStore store(mtr, system_);
  SpaceManager sm(store);
  std::vector<PageNo> pages;
  for (FileAddr a = sh->page_list.first; !a.is_null();) {
    if (pages.size() > system_.size()) return Status::Corruption("undo segment page list loops");
    pages.push_back(a.page);
    auto q = mtr.Write({system_.id(), a.page});
    if (!q.ok()) return q.status();
    a = ListNode::Decode(*q, UndoPageHeader::kNode).next;
  }
  for (auto it = pages.rbegin(); it != pages.rend(); ++it) STRATA_RETURN_IF_ERROR(sm.FreePage(sh->fseg, *it));
  STRATA_RETURN_IF_ERROR(sm.DropSegment(sh->fseg));
  if (slot != kFilNull) {
    auto hdr = mtr.Write({system_.id(), header_page_});
    if (!hdr.ok()) return hdr.status();
    RsegHeaderWriter(*hdr).set_undo_slot(slot, kNullPage);
  }
  return Status::Ok();
}

// The commit is one mini-transaction (trx_commit_low's): a crash between ending the insert
// log and the update log would leave the one ended and the other ACTIVE, and recovery would
// roll back half a transaction (its updates undone, its inserts kept).
Status Rseg::Commit(UndoLog* insert_log, UndoLog* update_log, std::uint64_t trx_no) {
  Mtr mtr(pool_);
  if (insert_log) STRATA_RETURN_IF_ERROR(EndLog(mtr, *insert_log, trx_no));
  if (update_log) STRATA_RETURN_IF_ERROR(EndLog(mtr, *update_log, trx_no));
  return Status::Ok();
}

// trx_undo_set_state_at_finish and trx_purge_add_undo_to_history.
Status Rseg::EndLog(Mtr& mtr, UndoLog& log, std::uint64_t trx_no) {
  auto seg = WriteSegmentPage(mtr, log.seg_page);
  if (!seg.ok()) return seg.status();
  auto& [page, ph, sh] = *seg;
  const bool cache = log.pages == 1 && ph.free < page.size() * 3 / 4;
  if (log.type == UndoPageType::kInsert) {
    if (!cache) return FreeSegment(mtr, log.seg_page, log.slot);
    sh.state = static_cast<std::uint16_t>(UndoState::kCached);
    sh.EncodeTo(page);
    cached_insert_.emplace_back(log.slot, log.seg_page);
    return Status::Ok();
  }
  Store64(page, log.header + UndoLogHeader::kTrxNo, trx_no);
  Store16(page, log.header + UndoLogHeader::kDelMarks, log.del_marks ? 1 : 0);
  sh.state = static_cast<std::uint16_t>(cache ? UndoState::kCached : UndoState::kToPurge);
  sh.EncodeTo(page);
  MtrPageStore store(mtr, system_);
  STRATA_RETURN_IF_ERROR(
      ListAddFirst(store, ListRef{header_page_, kHistoryBase},
                   FileAddr{log.seg_page, static_cast<std::uint16_t>(log.header + UndoLogHeader::kHistoryNode)}));
  auto hdr = mtr.Write({system_.id(), header_page_});
  if (!hdr.ok()) return hdr.status();
  if (cache) {
    cached_update_.emplace_back(log.slot, log.seg_page);
  } else {
    // The slot is free again; purge frees the segment through the history.
    RsegHeaderWriter w(*hdr);
    w.set_undo_slot(log.slot, kNullPage);
    w.set_history_size(RsegHeader(*hdr).history_size() + log.pages);
  }
  ++history_length_;
  return Status::Ok();
}

Status Rseg::WithRecord(PageNo page, std::uint16_t offset, const std::function<Status(ConstBytes, std::size_t)>& fn) {
  if (page.value() >= system_.size())
    return Status::Corruption(fmt::format("roll pointer to page {} past the end of ibdata1", page.value()));
  auto g = pool_.Read({system_.id(), page});
  if (!g.ok()) return g.status();
  return Damaged(page, fn(g->page(), offset));
}

Result<std::optional<HistoryLog>> Rseg::Oldest() {
  auto g = pool_.Read({system_.id(), header_page_});
  if (!g.ok()) return g.status();
  const ListBase h = ListBase::Decode(g->page(), kHistoryBase);
  if (h.length == 0 || h.last.is_null()) return std::optional<HistoryLog>();
  HistoryLog log;
  log.page = h.last.page;
  log.header = static_cast<std::uint16_t>(h.last.offset - UndoLogHeader::kHistoryNode);
  // One latch at a time: a commit holds an undo page and then wants the header.
  g = ReadGuard();
  auto p = pool_.Read({system_.id(), log.page});
  if (!p.ok()) return p.status();
  auto lh = UndoLogHeader::Decode(p->page(), log.header);
  if (!lh.ok()) return Damaged(log.page, lh.status());
  log.trx_id = lh->trx_id;
  log.trx_no = lh->trx_no;
  return std::optional<HistoryLog>(log);
}

Status Rseg::ForEachRecord(const HistoryLog& log, const std::function<Status(ConstBytes, std::size_t)>& fn) {
  PageNo page = log.page;
  bool first = true;
  for (std::uint32_t guard = 0; page != kNullPage; ++guard) {
    if (guard > system_.size()) return Status::Corruption("undo log page list loops");
    auto g = pool_.Read({system_.id(), page});
    if (!g.ok()) return g.status();
    ConstBytes p = g->page();
    auto ph = UndoPageHeader::Decode(p);
    if (!ph.ok()) return Damaged(page, ph.status());
    std::size_t at = kPageStart, end = ph->free;
    if (first) {
      auto lh = UndoLogHeader::Decode(p, log.header);
      if (!lh.ok()) return Damaged(page, lh.status());
      at = lh->log_start;
      if (lh->next_log != 0) end = lh->next_log;
    }
    while (at < end) {
      STRATA_RETURN_IF_ERROR(fn(p, at));
      const std::size_t next = Load16(p, at);
      if (next <= at || next > end) return Damaged(page, Status::CorruptionAt(at, "undo record chain goes backwards"));
      at = next;
    }
    if (first && Load16(p, log.header + UndoLogHeader::kNextLog) != 0)
      return Status::Ok();  // a later log follows on this page
    first = false;
    page = ListNode::Decode(p, UndoPageHeader::kNode).next.page;
  }
  return Status::Ok();
}

// trx_purge_remove_log_hdr and trx_purge_free_segment.
Status Rseg::RemoveFromHistory(const HistoryLog& log) {
  Mtr mtr(pool_);
  MtrPageStore store(mtr, system_);
  STRATA_RETURN_IF_ERROR(
      ListRemove(store, ListRef{header_page_, kHistoryBase},
                 FileAddr{log.page, static_cast<std::uint16_t>(log.header + UndoLogHeader::kHistoryNode)}));
  --history_length_;
  auto p = mtr.Write({system_.id(), log.page});
  if (!p.ok()) return p.status();
  auto sh = UndoSegmentHeader::Decode(*p);
  if (!sh.ok()) return Damaged(log.page, sh.status());
  if (sh->state != static_cast<std::uint16_t>(UndoState::kToPurge) || sh->last_log != log.header) return Status::Ok();
  const std::uint32_t pages = sh->page_list.length;
  STRATA_RETURN_IF_ERROR(FreeSegment(mtr, log.page, kFilNull));
  auto hdr = mtr.Write({system_.id(), header_page_});
  if (!hdr.ok()) return hdr.status();
  const std::uint32_t size = RsegHeader(*hdr).history_size();
  RsegHeaderWriter(*hdr).set_history_size(size >= pages ? size - pages : 0);
  return Status::Ok();
}

Result<UndoLog> Rseg::ReadActiveLog(std::uint32_t slot, PageNo seg_page) {
  auto g = pool_.Read({system_.id(), seg_page});
  if (!g.ok()) return g.status();
  ConstBytes p = g->page();
  auto ph = UndoPageHeader::Decode(p);
  if (!ph.ok()) return Damaged(seg_page, ph.status());
  auto sh = UndoSegmentHeader::Decode(p);
  if (!sh.ok()) return Damaged(seg_page, sh.status());
  auto lh = UndoLogHeader::Decode(p, sh->last_log);
  if (!lh.ok()) return Damaged(seg_page, lh.status());
  UndoLog log;
  log.type = static_cast<UndoPageType>(ph->type);
  log.slot = slot;
  log.seg_page = seg_page;
  log.header = sh->last_log;
  log.trx_id = lh->trx_id;
  log.pages = sh->page_list.length;
  log.last_page = log.top_page = sh->page_list.last.page;
  g = ReadGuard();  // ForEachRecord latches the page again
  HistoryLog walk{seg_page, log.header, log.trx_id, 0};
  STRATA_RETURN_IF_ERROR(ForEachRecord(walk, [&](ConstBytes page, std::size_t start) {
    log.top_page = FilHeader(page).page_no();
    log.top_offset = static_cast<std::uint16_t>(start);
    ++log.records;
    return Status::Ok();
  }));
  if (log.records && log.top_page != log.last_page)
    return Status::Corruption("undo log's last page holds none of its records");
  return log;
}

Result<std::vector<UndoLog>> Rseg::Load(std::uint64_t* max_trx_id, std::uint64_t* max_trx_no) {
  std::vector<UndoLog> active;
  std::vector<std::pair<std::uint32_t, PageNo>> to_free;
  {
    auto g = pool_.Read({system_.id(), header_page_});
    if (!g.ok()) return g.status();
    RsegHeader rh(g->page());
    history_length_ = rh.history_length();
    const std::uint32_t n = RsegHeader::NumUndoSlots(g->page().size());
    std::vector<std::pair<std::uint32_t, PageNo>> used;
    for (std::uint32_t i = 0; i < n; ++i) {
      if (rh.undo_slot(i) != kNullPage) used.emplace_back(i, rh.undo_slot(i));
    }
    const FileAddr newest = rh.history().first;
    g = ReadGuard();
    if (!newest.is_null()) {
      auto p = pool_.Read({system_.id(), newest.page});
      if (!p.ok()) return p.status();
      auto lh = UndoLogHeader::Decode(p->page(), newest.offset - UndoLogHeader::kHistoryNode);
      if (!lh.ok()) return Damaged(newest.page, lh.status());
      *max_trx_id = std::max(*max_trx_id, lh->trx_id);
      *max_trx_no = std::max(*max_trx_no, lh->trx_no);
    }
    for (const auto& [slot, page] : used) {
      auto p = pool_.Read({system_.id(), page});
      if (!p.ok()) return p.status();
      auto ph = UndoPageHeader::Decode(p->page());
      if (!ph.ok()) return Damaged(page, ph.status());
      auto sh = UndoSegmentHeader::Decode(p->page());
      if (!sh.ok()) return Damaged(page, sh.status());
      if (sh->last_log != 0) {
        auto lh = UndoLogHeader::Decode(p->page(), sh->last_log);
        if (!lh.ok()) return Damaged(page, lh.status());
        *max_trx_id = std::max(*max_trx_id, lh->trx_id);
        *max_trx_no = std::max(*max_trx_no, lh->trx_no);
      }
      const auto state = static_cast<UndoState>(sh->state);
      p = ReadGuard();
      if (state == UndoState::kActive && sh->last_log != 0) {
        auto log = ReadActiveLog(slot, page);
        if (!log.ok()) return log.status();
        active.push_back(*log);
      } else if (state == UndoState::kCached) {
        (ph->type == static_cast<std::uint16_t>(UndoPageType::kInsert) ? cached_insert_ : cached_update_)
            .emplace_back(slot, page);
      } else {
        to_free.emplace_back(slot, page);
      }
    }
  }
  for (const auto& [slot, page] : to_free) {
    Mtr mtr(pool_);
    STRATA_RETURN_IF_ERROR(FreeSegment(mtr, page, slot));
  }
  return active;
}

}  // namespace strata::engine
