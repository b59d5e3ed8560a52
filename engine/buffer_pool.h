// The buffer pool (architecture layer 3): a fixed set of page frames shared by every
// tablespace of a database.
//
//   - a page hash finds the frame holding (space, page);
//   - an LRU list with InnoDB's midpoint insertion: a page read in joins the "old" sublist
//     (the last 3/8), and moves to the young head only when touched again more than
//     `old_blocks_time` after its first access, so one scan cannot flush the working set;
//   - a flush list of dirty frames in the order they were first modified;
//   - page latches behind RAII guards: ReadGuard (shared) and WriteGuard (exclusive). Only a
//     WriteGuard dirties a page; when it is released the page gets a new LSN;
//   - eviction takes the least recently used unpinned frame, writing it first if dirty;
//   - a background page cleaner writes the oldest dirty pages so eviction rarely has to.
// Lock order: a frame's latch, then the pool mutex (a write guard marks its frame dirty before
// its latch goes, and a flush copies a page under its latch). A frame with no pins is never
// latched, so the pool mutex may be held while a free frame is latched for its first read.
// A flush that waits for another's write of a page holds no latch while it waits, and a batch
// never waits for another batch: so FlushAll/FlushSpace must not be called with a page latched.
// Every write stamps the page with its LSN and a CRC-32C checksum (INV-4). The hook
// `before_write` lets the redo log enforce the WAL rule (INV-1) once it exists.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <list>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <thread>
#include <unordered_map>
#include <vector>

#include "engine/engine_status.h"
#include "engine/frame_memory.h"
#include "engine/tablespace.h"
#include "engine/thread_annotations.h"

namespace strata::engine {

struct PageId {
  ondisk::SpaceId space;
  ondisk::PageNo page;
  std::uint64_t key() const { return (std::uint64_t{space.value()} << 32) | page.value(); }
};

struct BufferPoolOptions {
  std::size_t bytes = 128u << 20;  // innodb_buffer_pool_size
  ondisk::PageSize page_size{};
  double old_fraction = 3.0 / 8;  // innodb_old_blocks_pct = 37
  std::chrono::milliseconds old_blocks_time{1000};
  bool page_cleaner = true;
  std::chrono::milliseconds cleaner_interval{1000};
  double dirty_low_water = 0.10;  // the cleaner keeps dirty pages below this fraction
};

class BufferPool;
struct Frame;

class PageGuard {
 public:
  PageGuard() = default;
  PageGuard(PageGuard&& o) noexcept { *this = std::move(o); }
  PageGuard& operator=(PageGuard&& o) noexcept;
  ~PageGuard() { Release(); }
  explicit operator bool() const { return frame_ != nullptr; }
  PageId id() const;
  ondisk::ConstBytes page() const;
  void Release();

 protected:
  friend class BufferPool;
  PageGuard(BufferPool* pool, Frame* frame, bool exclusive) : pool_(pool), frame_(frame), exclusive_(exclusive) {}
  BufferPool* pool_ = nullptr;
  Frame* frame_ = nullptr;
  bool exclusive_ = false;
  bool changed_ = true;          // write guards: whether the page changed
  std::uint64_t lsn_ = 0;        // write guards: the LSN the change gets (0: the next one)
  std::uint64_t start_lsn_ = 0;  // and where its redo starts (the page's oldest modification)
};

class ReadGuard : public PageGuard {
 public:
  ReadGuard() = default;

 private:
  friend class BufferPool;
  using PageGuard::PageGuard;
};

class WriteGuard : public PageGuard {
 public:
  WriteGuard() = default;
  ondisk::MutableBytes page();
  // The LSN this change will carry (a mini-transaction gives all its pages one: the end of
  // its redo), and where its redo starts (recovery must begin there while the page is dirty).
  void set_lsn(ondisk::Lsn end, ondisk::Lsn start) {
    lsn_ = end.value();
    start_lsn_ = start.value();
  }
  void set_lsn(ondisk::Lsn lsn) { set_lsn(lsn, lsn); }
  // Releases without dirtying: the holder looked but changed nothing.
  void set_unchanged() { changed_ = false; }

 private:
  friend class BufferPool;
  using PageGuard::PageGuard;
};

class BufferPool {
 public:
  explicit BufferPool(BufferPoolOptions options);
  ~BufferPool();
  BufferPool(const BufferPool&) = delete;
  BufferPool& operator=(const BufferPool&) = delete;

  // Tablespaces must be registered before their pages are used. Unregister writes the
  // space's dirty pages (Discard drops them: the file is being deleted). Both return once no
  // write of the space's pages is in flight, so the Tablespace may be closed then.
  void Register(Tablespace* space);
  Status Unregister(ondisk::SpaceId space);
  void Discard(ondisk::SpaceId space);
  Tablespace* space(ondisk::SpaceId id);

  Result<ReadGuard> Read(PageId id);
  Result<WriteGuard> Write(PageId id);
  // A page being initialised from scratch: no read; the frame holds InitPageImage.
  Result<WriteGuard> Create(PageId id);

  // Writes every dirty page (of one space, or all) and syncs the files.
  Status FlushAll();
  Status FlushSpace(ondisk::SpaceId space);
  // Syncs every registered tablespace (page writes by eviction are not synced on their own):
  // before a checkpoint moves past them.
  Status SyncAll();

  ondisk::Lsn NextLsn() { return ondisk::Lsn(lsn_.fetch_add(1) + 1); }
  ondisk::Lsn current_lsn() const { return ondisk::Lsn(lsn_.load()); }
  void set_lsn(ondisk::Lsn lsn) { lsn_.store(lsn.value()); }

  // Called with a page's LSN before the page is written (the WAL rule's hook).
  std::function<Status(ondisk::Lsn)> before_write;
  // A batch of page writes about to go in place (INV-2): the hook writes and syncs the
  // images somewhere safe, calls `write_in_place(true)` (which syncs the in-place writes before
  // returning) and keeps the copies until that returns; or, keeping no copies, calls
  // `write_in_place(false)` and leaves the sync to the next flush or checkpoint.
  struct PageImage {
    PageId id;
    ondisk::ConstBytes bytes;
  };
  using WriteInPlace = std::function<Status(bool sync)>;
  std::function<Status(const std::vector<PageImage>&, const WriteInPlace& write_in_place)> doublewrite;
  // The redo log mini-transactions append to (null: none, as in tests of the lower layers),
  // and whether it is enabled (ALTER INSTANCE DISABLE INNODB REDO_LOG turns it off).
  class RedoLog* redo() const {
    return redo_;
  }
  void set_redo(class RedoLog* log) { redo_ = log; }
  bool redo_enabled() const { return redo_enabled_.load(); }
  void set_redo_enabled(bool on) { redo_enabled_.store(on); }
  // The smallest start LSN among dirty pages (0 when none): a checkpoint may not pass it.
  std::uint64_t OldestModification();

  BufferPoolStats stats();
  const BufferPoolOptions& options() const { return opt_; }
  // The first error the page cleaner met (it keeps running and retries).
  Status cleaner_status();
  // Stops the page cleaner for good (before spaces are discarded: it pins their pages).
  void StopCleaner();

 private:
  friend class PageGuard;
  friend class WriteGuard;

  Result<Frame*> Fix(PageId id, bool create) EXCLUDES(mu_);
  // A frame for a page about to be read in: a free one, else the LRU tail's clean one; it may
  // let go of mu_ for a while (to write dirty pages and make one clean), and holds it again
  // when it returns.
  Result<Frame*> TakeFreeFrame() REQUIRES(mu_);
  // Pinned, being written or being synced: what Discard must wait for.
  bool SpaceInUse(ondisk::SpaceId space) const REQUIRES(mu_);
  void MarkDirty(Frame* f, std::uint64_t lsn, std::uint64_t start_lsn) EXCLUDES(mu_);
  void Unfix(Frame* f) EXCLUDES(mu_);
  void Touch(Frame* f) REQUIRES(mu_);  // LRU bookkeeping on access
  void BalanceLru() REQUIRES(mu_);
  // Debug builds: the pool's lists agree with its frames' flags (every change of them ends with
  // this check); release builds: nothing.
  void CheckInvariants() const REQUIRES(mu_);
  // Writes the frames that are dirty, as one batch (copies stamped with their checksum, the
  // WAL hook for the newest, the doublewrite hook, then in place). The frames must be pinned
  // by the caller; the pool mutex is not held. A frame another batch is writing is left to it
  // (added to `busy` when given): two writes of one page in flight could land in either order,
  // and the older copy landing last would be taken for the page once the frame is clean.
  Status WriteBatch(const std::vector<Frame*>& frames, std::vector<Frame*>* busy = nullptr) EXCLUDES(mu_);
  Status FlushWhere(const std::function<bool(const Frame&)>& pick) EXCLUDES(mu_);
  // Syncs a registered space's file, holding it against Discard meanwhile; a space already
  // discarded is skipped.
  Status SyncSpace(ondisk::SpaceId id) EXCLUDES(mu_);
  void CleanerLoop() EXCLUDES(mu_, cleaner_mu_);

  BufferPoolOptions opt_;
  FrameMemory memory_;
  std::vector<std::unique_ptr<Frame>> frames_;
  // mu_ guards the lists below and every frame's bookkeeping (pins, in_hash, in_lru, old,
  // dirty, writing, oldest/newest, version); a frame's page bytes are its latch's.
  mutable Mutex mu_;
  std::unordered_map<std::uint64_t, Frame*> hash_ GUARDED_BY(mu_);
  std::unordered_map<std::uint32_t, Tablespace*> spaces_ GUARDED_BY(mu_);
  std::vector<Frame*> free_ GUARDED_BY(mu_);
  std::list<Frame*> young_ GUARDED_BY(mu_), old_ GUARDED_BY(mu_);  // front = most recently used
  std::list<Frame*> flush_list_ GUARDED_BY(mu_);                   // front = oldest modification
  CondVar written_;  // a batch's frames stopped being written, or a sync ended
  std::unordered_map<std::uint32_t, std::size_t> space_syncs_ GUARDED_BY(mu_);  // syncs in progress, by space
  std::atomic<std::uint64_t> lsn_{8192};
  class RedoLog* redo_ = nullptr;
  std::atomic<bool> redo_enabled_{true};
  BufferPoolStats stats_ GUARDED_BY(mu_);

  Mutex cleaner_mu_;
  CondVar cleaner_cv_;
  bool stop_ GUARDED_BY(cleaner_mu_) = false;
  Status cleaner_status_ GUARDED_BY(cleaner_mu_);
  std::thread cleaner_;
};

// A new page as Create leaves it: zeros, its number and space, and no siblings (FIL_NULL).
void InitPageImage(ondisk::MutableBytes page, PageId id);

}  // namespace strata::engine
