#include "engine/async_commit.h"

#include <algorithm>

namespace strata::engine {

AsyncCommitQueue::AsyncCommitQueue(std::function<Status(ondisk::Lsn)> make_durable)
    : make_durable_(std::move(make_durable)), thread_([this] { Loop(); }) {}

AsyncCommitQueue::~AsyncCommitQueue() {
  {
    std::lock_guard lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  thread_.join();
}

std::shared_future<Status> AsyncCommitQueue::Add(ondisk::Lsn lsn) {
  std::promise<Status> promise;
  std::shared_future<Status> done = promise.get_future().share();
  {
    std::lock_guard lock(mu_);
    pending_.emplace_back(lsn.value(), std::move(promise));
  }
  cv_.notify_one();
  return done;
}

void AsyncCommitQueue::Loop() {
  std::unique_lock lock(mu_);
  for (;;) {
    cv_.wait(lock, [this] { return stop_ || !pending_.empty(); });
    if (pending_.empty()) return;  // stopping, and nothing left to make durable
    auto batch = std::move(pending_);
    pending_.clear();
    lock.unlock();
    std::uint64_t upto = 0;
    for (const auto& [lsn, promise] : batch) upto = std::max(upto, lsn);
    const Status s = make_durable_(ondisk::Lsn(upto));
    for (auto& [lsn, promise] : batch) promise.set_value(s);
    lock.lock();
  }
}

}  // namespace strata::engine
