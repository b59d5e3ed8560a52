#include "engine/purge.h"

#include <mutex>
#include <utility>
#include <vector>

#include "engine/table_impl.h"
#include "engine/undo_record.h"

namespace strata::engine {

PurgeSys::~PurgeSys() { StopThread(); }

void PurgeSys::StopThread() {
  {
    MutexLock lock(stop_mu_);
    stop_ = true;
    stopping_ = true;
  }
  stop_cv_.NotifyAll();
  if (thread_.joinable()) thread_.join();
}

void PurgeSys::StartThread() {
  thread_ = std::thread([this] { Loop(); });
}

Result<std::uint64_t> PurgeSys::PurgeOneLog(const ReadView& view) {
  auto oldest = parts_.rseg.Oldest();
  if (!oldest.ok()) return oldest.status();
  if (!oldest->has_value() || (*oldest)->trx_no >= view.low_limit_no) return std::uint64_t{0};
  const HistoryLog log = **oldest;
  std::unique_lock lock(parts_.db_mu);
  std::vector<std::pair<TableImpl*, UndoRecord>> records;
  STRATA_RETURN_IF_ERROR(parts_.rseg.ForEachRecord(log, [&](ondisk::ConstBytes page, std::size_t start) {
    auto h = ondisk::UndoRecordHeader::Decode(page, start);
    if (!h.ok()) return h.status();
    TableImpl* t = parts_.table_by_id(h->table_id);
    if (!t) return Status::Ok();  // the table was dropped
    auto r = UndoRecord::Decode(page, start, t->n_key());
    if (!r.ok()) return r.status();
    records.emplace_back(t, std::move(*r));
    return Status::Ok();
  }));
  for (const auto& [t, r] : records) STRATA_RETURN_IF_ERROR(t->Purge(r, log.trx_id, view));
  STRATA_RETURN_IF_ERROR(parts_.rseg.RemoveFromHistory(log));
  ++purged_logs_;
  purged_records_ += records.size();
  return std::uint64_t{1};
}

Result<std::uint64_t> PurgeSys::RunAll() {
  MutexLock run(run_mu_);
  const ReadView view = parts_.trx_sys.PurgeView();
  std::uint64_t n = 0;
  for (;;) {
    auto one = PurgeOneLog(view);
    if (!one.ok()) return one.status();
    if (*one == 0) return n;
    n += *one;
  }
}

// srv_purge_coordinator_thread, in short: purge whenever there is history the oldest view
// lets go of, else sleep a little.
void PurgeSys::Loop() {
  MutexLock stop(stop_mu_);
  while (!stop_) {
    stop.Unlock();
    std::uint64_t done = 0;
    {
      MutexLock run(run_mu_);
      const ReadView view = parts_.trx_sys.PurgeView();
      for (int i = 0; i < 300 && !stopping_; ++i) {
        auto one = PurgeOneLog(view);
        if (!one.ok() || *one == 0) break;
        done += *one;
      }
    }
    stop.Lock();
    if (done == 0 && !stop_) (void)stop_cv_.WaitFor(stop_mu_, std::chrono::milliseconds(100));
  }
}

}  // namespace strata::engine
