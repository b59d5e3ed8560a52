// The rollback segment (architecture layer 8): undo logs in InnoDB's pages, in the system
// tablespace (ibdata1), reached from TRX_SYS slot 0 (page 6).
//
// Each transaction that changes rows writes up to two undo logs, as MySQL 5.7/8.0 do: an
// insert log (type 1, needed only to roll back; discarded at commit) and an update log
// (type 2; at commit it joins the rollback segment's history list, newest first, for MVCC
// readers and purge). A log lives in an undo segment: a file segment whose first page holds
// the segment header and the log headers, with its pages on the segment's page list. A
// segment holding one page less than 3/4 full is kept for reuse at commit (state CACHED,
// trx_undo_set_state_at_finish): a new insert log starts the page afresh, a new update log is
// appended after the logs already there, which is how a long history fits in a few pages.
//
// History list length is the length of TRX_RSEG_HISTORY; TRX_RSEG_HISTORY_SIZE counts the
// pages of non-cached segments in it, as InnoDB counts them.
//
// Callers serialise every change (the database's write lock); readers of undo records
// (MVCC) only take page latches.
#pragma once

#include <atomic>
#include <functional>
#include <optional>
#include <vector>

#include "engine/buffer_pool.h"
#include "engine/mtr.h"
#include "engine/tablespace.h"
#include "ondisk/undo.h"

namespace strata::engine {

// One transaction's undo log of one type, and where its newest record is.
struct UndoLog {
  ondisk::UndoPageType type = ondisk::UndoPageType::kInsert;
  std::uint32_t slot = 0;    // in the rollback segment header
  ondisk::PageNo seg_page;   // the segment header page (the log header is on it)
  std::uint16_t header = 0;  // offset of the undo log header on seg_page
  ondisk::PageNo last_page;  // the page new records go to
  std::uint32_t pages = 1;   // pages in the segment
  std::uint64_t trx_id = 0;
  // The newest record (rollback walks back from it); records == 0 when there is none.
  ondisk::PageNo top_page;
  std::uint16_t top_offset = 0;
  std::uint64_t records = 0;
  bool del_marks = false;
};

// A committed update log in the history list.
struct HistoryLog {
  ondisk::PageNo page;
  std::uint16_t header = 0;
  std::uint64_t trx_id = 0, trx_no = 0;
};

class Rseg {
 public:
  static constexpr std::uint8_t kId = 0;  // DB_ROLL_PTR's rollback segment number

  Rseg(BufferPool& pool, Tablespace& system, ondisk::PageNo header_page);

  // Reads the header at startup: the history length, the cached segments, and the logs of
  // transactions that were active when the database stopped (to be rolled back).
  // `max_trx_id`/`max_trx_no` receive the largest ids found in logs.
  Result<std::vector<UndoLog>> Load(std::uint64_t* max_trx_id, std::uint64_t* max_trx_no);

  // A new log for a transaction: a cached segment when there is one, else a new segment.
  Result<UndoLog> Create(ondisk::UndoPageType type, std::uint64_t trx_id);
  // Appends a record (built by UndoRecord::Encode for the offset given to `encode`) and
  // returns its DB_ROLL_PTR.
  Result<std::uint64_t> Append(UndoLog& log, const std::function<std::vector<std::byte>(std::uint16_t start)>& encode);
  // Ends a transaction's logs at its commit, in one mini-transaction: the insert log is freed
  // (or cached); the update log gets the serialisation number and joins the history list.
  // Either may be null.
  Status Commit(UndoLog* insert_log, UndoLog* update_log, std::uint64_t trx_no);
  // Removes the newest record (after rollback has undone it); frees a page left empty.
  Status PopTop(UndoLog& log);
  // Frees (or caches) a log whose records have all been rolled back.
  Status Discard(UndoLog& log);

  // Reads the record at a roll pointer, or at (page, offset), with the page latched.
  Status WithRecord(ondisk::PageNo page, std::uint16_t offset,
                    const std::function<Status(ondisk::ConstBytes page, std::size_t start)>& fn);

  // Purge's side: the oldest log of the history, its records in order, and its removal
  // (which frees its segment when nothing else uses it).
  Result<std::optional<HistoryLog>> Oldest();
  Status ForEachRecord(const HistoryLog& log,
                       const std::function<Status(ondisk::ConstBytes page, std::size_t start)>& fn);
  Status RemoveFromHistory(const HistoryLog& log);

  std::uint64_t history_length() const { return history_length_.load(); }
  std::size_t cached_segments() const { return cached_insert_.size() + cached_update_.size(); }

 private:
  // An undo segment's first page, latched for writing, with its two headers read.
  struct SegmentPage {
    ondisk::MutableBytes page;
    ondisk::UndoPageHeader page_header;
    ondisk::UndoSegmentHeader segment_header;
  };
  Result<SegmentPage> WriteSegmentPage(Mtr& mtr, ondisk::PageNo seg_page);
  Result<UndoLog> NewSegment(ondisk::UndoPageType type);
  Status AddLogHeader(UndoLog& log, bool reuse_page);
  Status EndLog(Mtr& mtr, UndoLog& log, std::uint64_t trx_no);
  Status FreeSegment(Mtr& mtr, ondisk::PageNo seg_page, std::uint32_t slot);
  Result<UndoLog> ReadActiveLog(std::uint32_t slot, ondisk::PageNo seg_page);

  BufferPool& pool_;
  Tablespace& system_;
  ondisk::PageNo header_page_;
  std::vector<std::pair<std::uint32_t, ondisk::PageNo>> cached_insert_, cached_update_;  // slot, page
  std::atomic<std::uint64_t> history_length_{0};
};

}  // namespace strata::engine
