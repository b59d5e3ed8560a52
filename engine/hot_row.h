// Hot-row group commit's queues (Database::RunGrouped): statements that update the same row
// wait here while one of them, the leader, runs the lot in one transaction.
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

#include "engine/env.h"

namespace strata::engine {

class Transaction;

struct HotRowGroups {
  struct Request {
    const std::function<Status(Transaction&)>* body = nullptr;
    Status result;
    bool taken = false;  // in a leader's batch
    bool done = false;   // its result is final: durable, or failed
    // Each waiter sleeps on its own: a hand-over wakes only the next leader, a batch's end only
    // its members (one shared condition woke every session on the row at each). They are
    // woken after `mu` is released, so that they do not wake only to wait for it; the leader's
    // reference keeps a request alive until then.
    std::condition_variable cv;
  };
  struct Group {
    std::deque<std::shared_ptr<Request>> queue;
    bool leading = false;  // a leader is running statements (it hands over once committed in memory)
    int users = 0;         // threads in RunGrouped for it: the last one out removes it
  };
  std::mutex mu;
  std::unordered_map<std::string, Group> groups;
};

}  // namespace strata::engine
