#include "engine/buffer_pool.h"

#include <fmt/format.h>

#include <algorithm>
#include <cassert>
#include <cstring>

#include "engine/sync_point.h"
#include "ondisk/checksum.h"
#include "ondisk/fil_header.h"

namespace strata::engine {

using namespace strata::ondisk;
using Clock = std::chrono::steady_clock;

struct Frame {
  PageId id{};
  std::byte* data = nullptr;
  std::shared_mutex latch;
  // Everything below is guarded by the pool mutex.
  int pins = 0;
  bool valid = false;  // holds id's page; false while being read in or after a failed read
  bool in_hash = false;
  bool dirty = false;
  std::uint64_t oldest = 0, newest = 0;  // LSNs of the first and last unflushed change
  std::uint64_t version = 0;             // bumped by every change, so a flush knows what it wrote
  bool writing = false;                  // a WriteBatch is writing it (InnoDB's io_fix)
  bool old = true;
  bool in_lru = false;
  Clock::time_point first_access;
  std::list<Frame*>::iterator lru_it, flush_it;
  Status read_status;
};

PageGuard& PageGuard::operator=(PageGuard&& o) noexcept {
  if (this != &o) {
    Release();
    pool_ = std::exchange(o.pool_, nullptr);
    frame_ = std::exchange(o.frame_, nullptr);
    exclusive_ = o.exclusive_;
    changed_ = o.changed_;
    lsn_ = o.lsn_;
    start_lsn_ = o.start_lsn_;
  }
  return *this;
}

PageId PageGuard::id() const { return frame_->id; }
ConstBytes PageGuard::page() const { return {frame_->data, pool_->opt_.page_size.bytes()}; }
MutableBytes WriteGuard::page() { return {frame_->data, pool_->opt_.page_size.bytes()}; }

void PageGuard::Release() {
  if (!frame_) return;
  const bool dirtied = exclusive_ && changed_ && frame_->valid;
  if (dirtied) {
    // The page changed: it gets its LSN in the header before the latch goes.
    if (lsn_ == 0) lsn_ = start_lsn_ = pool_->NextLsn().value();
    FilHeaderWriter(MutableBytes(frame_->data, pool_->opt_.page_size.bytes())).set_lsn(Lsn(lsn_));
    // Dirty before the latch goes: a flush that copies the page once the latch is free must
    // find the change's LSN in `newest` (it makes the log durable that far first, INV-1) and a
    // new version (so it does not take the frame for clean).
    pool_->MarkDirty(frame_, lsn_, start_lsn_);
  }
  exclusive_ ? frame_->latch.unlock() : frame_->latch.unlock_shared();
  pool_->Unfix(frame_);
  frame_ = nullptr;
}

namespace {
std::size_t FrameCount(const BufferPoolOptions& opt) {
  return std::max<std::size_t>(opt.bytes / opt.page_size.bytes(), 16);
}
}  // namespace

// The frames' memory is untouched until used: a large pool opens fast.
BufferPool::BufferPool(BufferPoolOptions options)
    : opt_(options), memory_(FrameCount(options) * options.page_size.bytes()) {
  const std::size_t ps = opt_.page_size.bytes();
  const std::size_t n = FrameCount(opt_);
  frames_.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    frames_.push_back(std::make_unique<Frame>());
    frames_.back()->data = memory_.data() + i * ps;
    free_.push_back(frames_.back().get());
  }
  std::reverse(free_.begin(), free_.end());
  stats_.frames = n;
  if (opt_.page_cleaner) cleaner_ = std::thread([this] { CleanerLoop(); });
}

BufferPool::~BufferPool() { StopCleaner(); }

void BufferPool::StopCleaner() {
  {
    MutexLock lock(cleaner_mu_);
    stop_ = true;
  }
  cleaner_cv_.NotifyAll();
  if (cleaner_.joinable()) cleaner_.join();
}

void BufferPool::Register(Tablespace* space) {
  MutexLock lock(mu_);
  spaces_[space->id().value()] = space;
}

Tablespace* BufferPool::space(SpaceId id) {
  MutexLock lock(mu_);
  auto it = spaces_.find(id.value());
  return it == spaces_.end() ? nullptr : it->second;
}

Status BufferPool::Unregister(SpaceId space) {
  STRATA_RETURN_IF_ERROR(FlushSpace(space));
  Discard(space);
  return Status::Ok();
}

void BufferPool::Discard(SpaceId space) {
  MutexLock lock(mu_);
  // The caller closes and deletes the file next, so what still uses it ends first: a batch
  // writing a page of the space (it holds the Tablespace), a flush or an eviction holding a
  // page pinned (a frame freed under a pin would be handed out twice), a flush syncing the
  // file. Those pins are brief and not signalled, hence the polling. Nothing takes a page of
  // the space again once its frames are invalid, and they are made so under this hold of mu_.
  while (SpaceInUse(space)) (void)written_.WaitFor(mu_, std::chrono::milliseconds(1));
  for (auto& fp : frames_) {
    Frame* f = fp.get();
    if (!f->in_hash || f->id.space != space) continue;
    hash_.erase(f->id.key());
    f->in_hash = false;
    if (f->in_lru) (f->old ? old_ : young_).erase(f->lru_it);
    f->in_lru = false;
    if (f->dirty) flush_list_.erase(f->flush_it);
    f->dirty = false;
    f->valid = false;
    free_.push_back(f);
  }
  spaces_.erase(space.value());
  CheckInvariants();
}

bool BufferPool::SpaceInUse(SpaceId space) const {
  return space_syncs_.count(space.value()) > 0 || std::any_of(frames_.begin(), frames_.end(), [&](const auto& f) {
           return f->id.space == space && (f->writing || (f->in_hash && f->pins > 0));
         });
}

void BufferPool::CheckInvariants() const {
#ifndef NDEBUG
  std::size_t in_hash = 0, in_lru = 0, dirty = 0;
  for (const auto& fp : frames_) {
    in_hash += fp->in_hash;
    in_lru += fp->in_lru;
    dirty += fp->dirty;
    assert(fp->pins >= 0);
    assert(!fp->in_lru || fp->in_hash);  // the LRU lists only pages that are in the hash
  }
  assert(in_hash == hash_.size());
  for (const auto& [key, f] : hash_) assert(f->in_hash && f->id.key() == key);
  assert(in_lru == young_.size() + old_.size());
  for (const Frame* f : old_) assert(f->old && f->in_lru);
  for (const Frame* f : young_) assert(!f->old && f->in_lru);
  assert(dirty == flush_list_.size());
  for (const Frame* f : flush_list_) assert(f->dirty && f->oldest > 0 && f->oldest <= f->newest);
  for (const Frame* f : free_) assert(!f->in_hash && !f->in_lru && !f->dirty && f->pins == 0);
  assert(free_.size() + hash_.size() <= frames_.size());
#endif
}

void BufferPool::Touch(Frame* f) {
  const auto now = Clock::now();
  if (!f->old) {
    young_.splice(young_.begin(), young_, f->lru_it);
  } else if (now - f->first_access >= opt_.old_blocks_time) {
    young_.splice(young_.begin(), old_, f->lru_it);
    f->old = false;
    ++stats_.young_moves;
    BalanceLru();
  }
}

// Keeps the old sublist at its share of the LRU by demoting the young tail.
void BufferPool::BalanceLru() {
  const std::size_t total = young_.size() + old_.size();
  const auto want_old = static_cast<std::size_t>(static_cast<double>(total) * opt_.old_fraction);
  while (old_.size() < want_old && !young_.empty()) {
    Frame* f = young_.back();
    old_.splice(old_.begin(), young_, std::prev(young_.end()));
    f->old = true;
  }
}

Result<Frame*> BufferPool::TakeFreeFrame() {
  constexpr std::size_t kScanDepth = 128;
  constexpr std::size_t kFlushBatch = 16;
  constexpr int kPinnedAttempts = 1000;
  for (int attempt = 0; attempt < kPinnedAttempts; ++attempt) {
    if (!free_.empty()) {
      Frame* f = free_.back();
      free_.pop_back();
      return f;
    }
    // The least recently used unpinned clean frame near the tail.
    std::vector<Frame*> dirty;
    for (auto* list : {&old_, &young_}) {
      std::size_t seen = 0;
      for (auto it = list->rbegin(); it != list->rend() && seen < kScanDepth; ++it, ++seen) {
        Frame* f = *it;
        if (f->pins > 0) continue;
        if (!f->dirty) {
          list->erase(std::next(it).base());
          f->in_lru = false;
          hash_.erase(f->id.key());
          f->in_hash = false;
          f->valid = false;
          ++stats_.evictions;
          return f;
        }
        if (dirty.size() < kFlushBatch) dirty.push_back(f);
      }
    }
    if (dirty.empty()) {
      // Every frame near the tail is pinned: by this operation's own pages, or briefly by a
      // flush. Wait a little for the latter before giving up.
      if (attempt == kPinnedAttempts - 1) {
        return Status::Busy(
            fmt::format("buffer pool of {} pages has every page in use; give it more memory", frames_.size()));
      }
      mu_.Unlock();
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
      mu_.Lock();
      continue;
    }
    // Only dirty pages near the tail: write a batch of them, then look again.
    for (Frame* f : dirty) ++f->pins;
    mu_.Unlock();
    Status s = WriteBatch(dirty);
    mu_.Lock();
    for (Frame* f : dirty) --f->pins;
    if (!s.ok()) return s;
  }
  return Status::Busy("buffer pool: no frame became free");
}

Result<Frame*> BufferPool::Fix(PageId id, bool create) {
  MutexLock lock(mu_);
  for (;;) {
    if (auto it = hash_.find(id.key()); it != hash_.end()) {
      Frame* f = it->second;
      ++f->pins;
      Touch(f);
      ++stats_.hits;
      return f;
    }
    auto sit = spaces_.find(id.space.value());
    if (sit == spaces_.end()) {
      return Status::InvalidArgument(fmt::format("buffer pool: tablespace {} is not open", id.space.value()));
    }
    Tablespace* ts = sit->second;
    if (id.page.value() >= ts->size()) {
      return Status::Corruption(fmt::format("{}: page {} is past the end of the tablespace ({} pages)",
                                            ts->path().string(), id.page.value(), ts->size()));
    }
    auto taken = TakeFreeFrame();
    if (!taken.ok()) return taken.status();
    Frame* f = *taken;
    // TakeFreeFrame may have let go of mu_: another thread may have read the page in, or
    // discarded the space, meanwhile. Look again.
    if (hash_.count(id.key()) || !spaces_.count(id.space.value())) {
      free_.push_back(f);
      continue;
    }
    f->id = id;
    f->pins = 1;
    f->in_hash = true;
    hash_[id.key()] = f;
    f->old = true;
    old_.push_front(f);
    f->lru_it = old_.begin();
    f->in_lru = true;
    f->first_access = Clock::now();
    f->dirty = false;
    BalanceLru();
    if (create) {
      std::memset(f->data, 0, opt_.page_size.bytes());
      f->valid = true;
      return f;
    }
    // Read with the frame latched so that others who find it in the hash wait for the data.
    // The frame was free, so no one holds its latch and taking it under the pool mutex cannot
    // wait (the usual order is latch first). try_lock says so to ThreadSanitizer's lock-order
    // check; it may still fail spuriously, and then lock() takes the latch at once.
    f->valid = false;
    std::unique_lock latch(f->latch, std::try_to_lock);
    if (!latch.owns_lock()) latch.lock();
    lock.Unlock();
    Status s = ts->Read(id.page, MutableBytes(f->data, opt_.page_size.bytes()));
    lock.Lock();
    ++stats_.reads;
    f->valid = s.ok();
    f->read_status = s;
    latch.unlock();
    if (!s.ok()) {
      lock.Unlock();
      Unfix(f);
      return s;
    }
    return f;
  }
}

// A write guard's frame changed (its exclusive latch still held).
void BufferPool::MarkDirty(Frame* f, std::uint64_t lsn, std::uint64_t start_lsn) {
  MutexLock lock(mu_);
  assert(f->pins > 0 && f->valid && f->in_hash && lsn > 0);
  if (!f->dirty) {
    f->dirty = true;
    f->oldest = start_lsn ? start_lsn : lsn;
    flush_list_.push_back(f);
    f->flush_it = std::prev(flush_list_.end());
  }
  f->newest = std::max(f->newest, lsn);
  ++f->version;
}

// Unpins a frame whose latch the caller has released.
void BufferPool::Unfix(Frame* f) {
  MutexLock lock(mu_);
  assert(f->pins > 0);
  if (--f->pins == 0 && !f->valid && f->in_hash) {  // a failed read nobody waits for any more
    hash_.erase(f->id.key());
    f->in_hash = false;
    if (f->in_lru) old_.erase(f->lru_it);
    f->in_lru = false;
    free_.push_back(f);
  }
}

Result<ReadGuard> BufferPool::Read(PageId id) {
  auto f = Fix(id, false);
  if (!f.ok()) return f.status();
  (*f)->latch.lock_shared();
  if (!(*f)->valid) {
    Status s = (*f)->read_status;
    (*f)->latch.unlock_shared();
    Unfix(*f);
    return s.ok() ? Status::IoError("page read failed") : s;
  }
  return ReadGuard(this, *f, false);
}

Result<WriteGuard> BufferPool::Write(PageId id) {
  auto f = Fix(id, false);
  if (!f.ok()) return f.status();
  (*f)->latch.lock();
  if (!(*f)->valid) {
    Status s = (*f)->read_status;
    (*f)->latch.unlock();
    Unfix(*f);
    return s.ok() ? Status::IoError("page read failed") : s;
  }
  return WriteGuard(this, *f, true);
}

Result<WriteGuard> BufferPool::Create(PageId id) {
  auto f = Fix(id, true);
  if (!f.ok()) return f.status();
  (*f)->latch.lock();
  InitPageImage(MutableBytes((*f)->data, opt_.page_size.bytes()), id);
  return WriteGuard(this, *f, true);
}

void InitPageImage(MutableBytes page, PageId id) {
  std::fill(page.begin(), page.end(), std::byte{0});
  FilHeaderWriter fil(page);
  fil.set_page_no(id.page);
  fil.set_space_id(id.space);
  fil.set_prev(kNullPage);
  fil.set_next(kNullPage);
}

Status BufferPool::WriteBatch(const std::vector<Frame*>& frames, std::vector<Frame*>* busy) {
  struct Copy {
    Frame* frame;
    std::uint64_t version;
    Tablespace* space;
    MutableBytes bytes;
  };
  const std::size_t ps = opt_.page_size.bytes();
  // The copies sit side by side, so that pages adjacent in a file go out in one write.
  auto buffer = std::make_unique_for_overwrite<std::byte[]>(frames.size() * ps);
  std::vector<Copy> copies;
  std::uint64_t newest = 0;
  for (Frame* f : frames) {
    std::shared_lock latch(f->latch);
    MutexLock lock(mu_);
    if (!f->dirty || !f->valid) continue;
    if (f->writing) {
      if (busy) busy->push_back(f);
      continue;
    }
    auto it = spaces_.find(f->id.space.value());
    if (it == spaces_.end()) continue;
    f->writing = true;
    newest = std::max(newest, f->newest);
    MutableBytes bytes(buffer.get() + copies.size() * ps, ps);
    std::memcpy(bytes.data(), f->data, ps);
    copies.push_back({f, f->version, it->second, bytes});
  }
  if (copies.empty()) return Status::Ok();
  if (sync_point::Armed()) {
    for (const auto& c : copies)
      sync_point::Hit(fmt::format("buffer_pool.writing space {}", c.frame->id.space.value()));
  }
  // However the batch ends, its frames may be written again (by it, or by the next batch).
  auto done = [&](bool written) {
    {
      MutexLock lock(mu_);
      for (const auto& c : copies) {
        c.frame->writing = false;
        if (!written) continue;
        ++stats_.writes;
        if (c.frame->dirty && c.frame->version == c.version) {
          c.frame->dirty = false;
          flush_list_.erase(c.frame->flush_it);
        }
      }
    }
    written_.NotifyAll();
  };
  if (before_write) {
    if (Status s = before_write(Lsn(newest)); !s.ok()) {  // INV-1
      done(false);
      return s;
    }
  }
  for (auto& c : copies) StampChecksum(c.bytes, ChecksumAlgorithm::kCrc32);  // INV-4
  auto in_place = [&](bool sync) -> Status {
    std::vector<Tablespace*> touched;
    for (std::size_t i = 0; i < copies.size();) {
      // A run of copies of consecutive pages of one file, adjacent in the buffer.
      std::size_t j = i + 1;
      while (j < copies.size() && copies[j].space == copies[i].space &&
             copies[j].frame->id.page.value() == copies[i].frame->id.page.value() + (j - i)) {
        ++j;
      }
      STRATA_RETURN_IF_ERROR(
          copies[i].space->Write(copies[i].frame->id.page, ConstBytes(copies[i].bytes.data(), (j - i) * ps)));
      if (std::find(touched.begin(), touched.end(), copies[i].space) == touched.end())
        touched.push_back(copies[i].space);
      i = j;
    }
    if (sync) {
      for (Tablespace* ts : touched) STRATA_RETURN_IF_ERROR(ts->Sync());
    }
    return Status::Ok();
  };
  Status s;
  if (doublewrite) {
    std::vector<PageImage> images;
    for (const auto& c : copies) images.push_back({c.frame->id, c.bytes});
    s = doublewrite(images, in_place);  // INV-2
  } else {
    s = in_place(false);
  }
  done(s.ok());
  return s;
}

// Writes the dirty frames `pick` chooses, in page order (mostly sequential writes), pinning
// one frame at a time so that eviction never finds the pool pinned by a flush.
Status BufferPool::FlushWhere(const std::function<bool(const Frame&)>& pick) {
  std::vector<std::pair<std::uint64_t, Frame*>> batch;
  std::vector<SpaceId> touched;
  {
    MutexLock lock(mu_);
    for (Frame* f : flush_list_) {
      if (!pick(*f)) continue;
      batch.emplace_back(f->id.key(), f);
      if (std::find(touched.begin(), touched.end(), f->id.space) == touched.end()) touched.push_back(f->id.space);
    }
  }
  std::sort(batch.begin(), batch.end());
  // Pinned at once: a quarter of the pool at most (64 pages), so that a slow write never leaves
  // eviction with every frame of a small pool pinned.
  const std::size_t kBatch = std::clamp<std::size_t>(frames_.size() / 4, 1, 64);
  for (std::size_t at = 0; at < batch.size(); at += kBatch) {
    std::vector<Frame*> pinned;
    {
      MutexLock lock(mu_);
      for (std::size_t i = at; i < std::min(batch.size(), at + kBatch); ++i) {
        auto [key, f] = batch[i];
        if (!f->in_hash || f->id.key() != key || !f->dirty) continue;  // written or evicted meanwhile
        ++f->pins;
        pinned.push_back(f);
      }
    }
    // A page another batch is writing is taken again once that batch ends: it may have
    // changed since that batch copied it. Still pinned, the frames stay these pages meanwhile.
    Status s;
    for (std::vector<Frame*> todo = pinned; !todo.empty();) {
      std::vector<Frame*> busy;
      s = WriteBatch(todo, &busy);
      if (!s.ok() || busy.empty()) break;
      MutexLock lock(mu_);
      while (std::any_of(busy.begin(), busy.end(), [](Frame* f) { return f->writing; })) written_.Wait(mu_);
      todo = std::move(busy);
    }
    {
      MutexLock lock(mu_);
      for (Frame* f : pinned) --f->pins;
    }
    STRATA_RETURN_IF_ERROR(s);
  }
  for (SpaceId id : touched) STRATA_RETURN_IF_ERROR(SyncSpace(id));
  return Status::Ok();
}

Status BufferPool::SyncSpace(SpaceId id) {
  Tablespace* ts = nullptr;
  {
    MutexLock lock(mu_);
    auto it = spaces_.find(id.value());
    if (it == spaces_.end()) return Status::Ok();  // discarded meanwhile: its file is going
    ts = it->second;
    ++space_syncs_[id.value()];
  }
  Status s = ts->Sync();
  {
    MutexLock lock(mu_);
    if (--space_syncs_[id.value()] == 0) space_syncs_.erase(id.value());
  }
  written_.NotifyAll();
  return s;
}

Status BufferPool::FlushAll() {
  return FlushWhere([](const Frame&) { return true; });
}

Status BufferPool::FlushSpace(SpaceId space) {
  STRATA_RETURN_IF_ERROR(FlushWhere([space](const Frame& f) { return f.id.space == space; }));
  return SyncSpace(space);
}

// Wakes every interval and writes the oldest dirty pages until at most `dirty_low_water` of
// the pool is dirty.
void BufferPool::CleanerLoop() {
  MutexLock wait(cleaner_mu_);
  while (!stop_) {
    (void)cleaner_cv_.WaitFor(cleaner_mu_, opt_.cleaner_interval);
    if (stop_) break;
    wait.Unlock();
    std::size_t excess = 0;
    {
      MutexLock lock(mu_);
      const auto limit = static_cast<std::size_t>(opt_.dirty_low_water * static_cast<double>(frames_.size()));
      excess = flush_list_.size() > limit ? flush_list_.size() - limit : 0;
    }
    if (excess > 0) {
      std::size_t n = 0;
      Status s = FlushWhere([&n, excess](const Frame&) { return n++ < excess; });
      if (!s.ok()) {
        MutexLock lock(cleaner_mu_);
        if (cleaner_status_.ok()) cleaner_status_ = s;
      }
    }
    wait.Lock();
  }
}

Status BufferPool::SyncAll() {
  std::vector<SpaceId> all;
  {
    MutexLock lock(mu_);
    for (const auto& [id, ts] : spaces_) all.push_back(SpaceId(id));
  }
  for (SpaceId id : all) STRATA_RETURN_IF_ERROR(SyncSpace(id));
  return Status::Ok();
}

std::uint64_t BufferPool::OldestModification() {
  MutexLock lock(mu_);
  std::uint64_t oldest = 0;
  for (const Frame* f : flush_list_) oldest = oldest == 0 ? f->oldest : std::min(oldest, f->oldest);
  return oldest;
}

Status BufferPool::cleaner_status() {
  MutexLock lock(cleaner_mu_);
  return cleaner_status_;
}

BufferPoolStats BufferPool::stats() {
  MutexLock lock(mu_);
  CheckInvariants();
  BufferPoolStats s = stats_;
  s.used = hash_.size();
  s.dirty = flush_list_.size();
  return s;
}

}  // namespace strata::engine
