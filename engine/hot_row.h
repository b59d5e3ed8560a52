// Hot-row group commit's queues (Database::RunGrouped): statements that update the same row
// wait here while one of them, the leader, runs the lot in one transaction.
//
// Updates of one row serialise on its lock; when every commit must also wait for its fsync
// before the lock goes, the row manages one update per fsync. Here the updates queued behind
// a row are run by one leader, back to back in one transaction (each a statement of its own,
// so a failure undoes only itself), and committed together: one lock acquisition, one commit
// record and one fsync per batch. The leader hands leadership on as soon as its batch is
// committed in memory, so the next batch runs while this one's log write is in flight (with
// early lock release it need not even wait for the row lock).
#pragma once

#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "engine/env.h"
#include "engine/thread_annotations.h"

namespace strata::engine {

class Transaction;

class HotRowGroups {
 public:
  // What a leader needs of the database: a transaction to run its batch in, and that
  // transaction's commit, which calls `in_memory` once the commit is in memory.
  struct Hooks {
    std::function<Result<std::unique_ptr<Transaction>>()> begin;
    std::function<Status(Transaction&, const std::function<void()>& in_memory)> commit;
  };

  // Runs `body` as one statement of the batch queued on `group`; returns once the batch's
  // commit is durable (or with the statement's own failure).
  Status Run(const std::string& group, const std::function<Status(Transaction&)>& body, const Hooks& db) EXCLUDES(mu_);

  // The tables whose autocommit single-row UPDATEs are grouped ("db.t1,db.t2").
  void set_tables(const std::string& list) EXCLUDES(tables_mu_);
  std::string tables() const EXCLUDES(tables_mu_);
  bool covers(const std::string& database, const std::string& table) const EXCLUDES(tables_mu_);

 private:
  struct Request {
    const std::function<Status(Transaction&)>* body = nullptr;
    // The three below are read and written with mu_ held, except `result` by the leader
    // while the request is taken.
    Status result;
    bool taken = false;  // in a leader's batch
    bool done = false;   // its result is final: durable, or failed
    // Each waiter sleeps on its own: a hand-over wakes only the next leader, a batch's end only
    // its members (one shared condition woke every session on the row at each). They are
    // woken after mu_ is released, so that they do not wake only to wait for it; the leader's
    // reference keeps a request alive until then.
    CondVar cv;
  };
  using Batch = std::vector<std::shared_ptr<Request>>;
  struct Group {
    std::deque<std::shared_ptr<Request>> queue;
    bool leading = false;  // a leader is running statements (it hands over once committed in memory)
    int users = 0;         // threads in Run for it: the last one out removes it
  };
  // The leader's work, with mu_ released: runs and commits `batch`, and calls hand_over once
  // the next leader may start.
  static void Lead(const Batch& batch, const Hooks& db, const std::function<void()>& hand_over);

  Mutex mu_;
  std::unordered_map<std::string, Group> groups_ GUARDED_BY(mu_);
  mutable Mutex tables_mu_;
  std::vector<std::string> tables_ GUARDED_BY(tables_mu_);  // "db.table"
};

}  // namespace strata::engine
