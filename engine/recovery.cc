#include "engine/recovery.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <mutex>
#include <thread>
#include <unordered_map>

#include "ondisk/checksum.h"
#include "ondisk/fil_header.h"
#include "ondisk/redo_record.h"

namespace strata::engine {

using namespace strata::ondisk;

namespace {

struct PageRecord {
  std::size_t group;
  RedoRecord record;
};

// Replays one page's records, oldest group first: a group applies when the page is older than
// its end (INV-5); an unreadable page is rebuilt only by a group that starts it from INIT.
Status ApplyPage(BufferPool& pool, PageId id, const std::vector<RedoGroup>& groups, const std::vector<PageRecord>& recs,
                 RecoveryStats& st) {
  std::size_t current = SIZE_MAX;
  bool apply = false;
  for (const auto& [gi, rec] : recs) {
    const RedoGroup& g = groups[gi];
    if (gi != current) {
      current = gi;
      auto page = pool.Read(id);
      if (page.ok() && rec.type != RedoType::kInit && AllZero(page->page())) {
        // The log changes a page it does not create here, so the page was written before
        // (the checkpoint passed its creation only once it was on disk): that write is gone.
        return Status::Corruption(fmt::format(
            "{}: page {} is all zeros, but the log's group ending at LSN {} changes it (the page was wiped or its "
            "writes were lost)",
            pool.space(id.space)->path().string(), id.page.value(), g.end.value()));
      }
      if (page.ok()) {
        apply = FilHeader(page->page()).lsn().value() < g.end.value();
      } else if (rec.type == RedoType::kInit) {
        apply = true;
      } else {
        return page.status().WithContext(fmt::format("recovery of the group ending at LSN {}", g.end.value()));
      }
    }
    if (!apply) {
      ++st.skipped;
      continue;
    }
    auto guard = rec.type == RedoType::kInit ? pool.Create(id) : pool.Write(id);
    if (!guard.ok()) return guard.status();
    // INIT makes the page all zeros (redo_record.h), which is what the mtr diffed a created
    // page against; the buffer pool's new-page image (FIL_NULL siblings) would keep 0xFF in
    // every byte the diff found zero, such as the low byte of a link to page 768.
    if (rec.type == RedoType::kInit) std::fill(guard->page().begin(), guard->page().end(), std::byte{0});
    if (rec.type == RedoType::kWrite)
      std::memcpy(guard->page().data() + rec.offset, rec.bytes.data(), rec.bytes.size());
    guard->set_lsn(g.end, g.start);
    ++st.applied;
  }
  return Status::Ok();
}

}  // namespace

namespace {

// The engine grows a file by a few extents at a time (SpaceManager::GrowForExtent: four at most,
// a few times in one mini-transaction); a record that would grow one by more than this is damage
// (or not ours), refused before anything is allocated, not a reason to fill the disk.
constexpr std::uint64_t kMaxGrowthExtents = 64;

Status Grow(Tablespace& ts, std::uint64_t pages, const RedoGroup& g) {
  if (pages <= ts.size()) return Status::Ok();
  const std::uint64_t limit = std::uint64_t{ts.size()} + kMaxGrowthExtents * ts.page_size().pages_per_extent();
  if (pages > limit || pages > kFilNull) {
    return Status::Corruption(
        fmt::format("recovery: the mini-transaction at LSN {} grows {} from {} to {} pages, more than "
                    "the engine ever grows a file at once (a damaged log, or not this directory's)",
                    g.start.value(), ts.path().string(), ts.size(), pages));
  }
  return ts.Extend(static_cast<std::uint32_t>(pages));
}

}  // namespace

// One pass in log order extends the files and sorts the records by page; then the pages are
// replayed independently, spread over threads when there are enough of them.
Result<RecoveryStats> ApplyRedo(BufferPool& pool, const std::vector<RedoGroup>& groups,
                                const std::function<bool(SpaceId)>& covers, DamagedSpaces* damaged) {
  RecoveryStats st;
  const std::size_t page_size = pool.options().page_size.bytes();
  std::unordered_map<std::uint64_t, std::vector<PageRecord>> by_page;
  std::vector<std::uint64_t> order;  // pages in order of first appearance
  for (std::size_t gi = 0; gi < groups.size(); ++gi) {
    ++st.groups;
    ConstBytes recs = groups[gi].records;
    for (std::size_t at = 0, next = 0; at < recs.size(); at = next) {
      auto r = ParseRedoRecord(recs, at, page_size, &next);
      if (!r.ok()) return r.status();
      if (!r->has_value()) return Status::Corruption("recovery: a complete group ends inside a record");
      const RedoRecord& rec = **r;
      ++st.records;
      if (rec.type == RedoType::kMtrEnd) continue;
      if (covers && !covers(SpaceId(rec.space))) continue;
      Tablespace* ts = pool.space(SpaceId(rec.space));
      if (!ts) {
        ++st.skipped;  // a dropped table's
        continue;
      }
      if (rec.type == RedoType::kExtend) {
        STRATA_RETURN_IF_ERROR(Grow(*ts, rec.page, groups[gi]));
        continue;
      }
      STRATA_RETURN_IF_ERROR(Grow(*ts, std::uint64_t{rec.page} + 1, groups[gi]));
      const PageId id{SpaceId(rec.space), PageNo(rec.page)};
      auto [it, fresh] = by_page.try_emplace(id.key());
      if (fresh) order.push_back(id.key());
      it->second.push_back({gi, rec});
    }
  }
  st.pages = order.size();
  const std::size_t threads =
      order.size() < 32 ? 1 : std::clamp<std::size_t>(std::thread::hardware_concurrency(), 1, 8);
  st.threads = threads;
  std::mutex mu;
  Status first_error;
  RecoveryStats applied;
  auto work = [&](std::size_t t) {
    RecoveryStats local;
    for (std::size_t i = t; i < order.size(); i += threads) {
      const std::uint64_t key = order[i];
      const PageId id{SpaceId(static_cast<std::uint32_t>(key >> 32)), PageNo(static_cast<std::uint32_t>(key))};
      if (damaged) {
        std::lock_guard lock(mu);
        if (damaged->count(id.space.value())) continue;  // its other pages are not replayed
      }
      Status s = ApplyPage(pool, id, groups, by_page.at(key), local);
      if (!s.ok()) {
        std::lock_guard lock(mu);
        if (damaged) {
          damaged->try_emplace(id.space.value(), s);
          continue;
        }
        if (first_error.ok()) first_error = s;
        return;
      }
    }
    std::lock_guard lock(mu);
    applied.applied += local.applied;
    applied.skipped += local.skipped;
  };
  if (threads == 1) {
    work(0);
  } else {
    std::vector<std::thread> pool_threads;
    for (std::size_t t = 0; t < threads; ++t) pool_threads.emplace_back(work, t);
    for (auto& th : pool_threads) th.join();
  }
  STRATA_RETURN_IF_ERROR(first_error);
  st.applied = applied.applied;
  st.skipped += applied.skipped;
  return st;
}

}  // namespace strata::engine
