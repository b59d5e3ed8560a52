// Asynchronous commit's back half: a thread that makes queued commits durable and tells each
// its outcome. Commits that queue while one log flush runs share the next: one write and one
// fsync for the lot, as group commit does for waiting sessions.
#pragma once

#include <condition_variable>
#include <functional>
#include <future>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

#include "engine/env.h"
#include "ondisk/types.h"

namespace strata::engine {

class AsyncCommitQueue {
 public:
  // `make_durable(lsn)` makes the log durable up to lsn (as the database's setting asks).
  explicit AsyncCommitQueue(std::function<Status(ondisk::Lsn)> make_durable);
  ~AsyncCommitQueue();  // every queued commit is made durable (or told why not) first

  // A commit whose record ends at `lsn`; the future turns ready once the log is durable
  // there, with the log's error if it could not be made so.
  std::shared_future<Status> Add(ondisk::Lsn lsn);

 private:
  void Loop();

  std::function<Status(ondisk::Lsn)> make_durable_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::vector<std::pair<std::uint64_t, std::promise<Status>>> pending_;
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace strata::engine
