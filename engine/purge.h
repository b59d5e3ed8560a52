// Purge (architecture layer 9): removes what committed transactions left behind once no read
// view can need it (INV-7): delete-marked records, the secondary entries of old versions, and
// the undo logs themselves, oldest first from the history list. It runs on its own thread
// (InnoDB's purge coordinator, in short) and on demand (Database::Purge, a slow shutdown).
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <shared_mutex>
#include <thread>

#include "engine/read_view.h"
#include "engine/rseg.h"
#include "engine/thread_annotations.h"
#include "engine/trx_sys.h"

namespace strata::engine {

class TableImpl;

class PurgeSys {
 public:
  struct Parts {
    SharedMutex& db_mu;  // held exclusively while one undo log is purged
    Rseg& rseg;
    TrxSys& trx_sys;
    // The table an undo record names, or null when it was dropped (db_mu held).
    std::function<TableImpl*(std::uint64_t table_id)> table_by_id;
  };
  explicit PurgeSys(Parts parts) : parts_(std::move(parts)) {}
  ~PurgeSys();  // stops the thread

  void StartThread();
  void StopThread();  // waits for the thread to finish what it is doing
  // Purges as far as the oldest read view allows; the number of undo logs removed.
  Result<std::uint64_t> RunAll();

  std::uint64_t purged_logs() const { return purged_logs_.load(); }
  std::uint64_t purged_records() const { return purged_records_.load(); }

 private:
  Result<std::uint64_t> PurgeOneLog(const ReadView& view) REQUIRES(run_mu_);  // 1 when a log was purged
  void Loop();

  Parts parts_;
  Mutex run_mu_;  // one purge at a time
  Mutex stop_mu_;
  CondVar stop_cv_;
  bool stop_ GUARDED_BY(stop_mu_) = false;
  std::atomic<bool> stopping_{false};  // stop_, readable between logs without stop_mu_
  std::thread thread_;
  std::atomic<std::uint64_t> purged_logs_{0}, purged_records_{0};
};

}  // namespace strata::engine
