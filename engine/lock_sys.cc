#include "engine/lock_sys.h"

#include <cassert>
#include <algorithm>
#include <functional>

#include "ondisk/endian.h"

namespace strata::engine {

using namespace strata::ondisk;

namespace {

bool IsGapKind(LockKind k) { return k == LockKind::kGap || k == LockKind::kNextKey; }
bool HasRecord(LockKind k) { return k == LockKind::kRecord || k == LockKind::kNextKey; }

std::string IndexPrefix(std::uint64_t index_id, char tag) {
  std::string s(9, '\0');
  Store64(MutableBytes(reinterpret_cast<std::byte*>(s.data()), 8), 0, index_id);
  s[8] = tag;
  return s;
}

}  // namespace

// Fields are length-prefixed so that different splits of the same bytes name different keys.
std::string LockKey(std::uint64_t index_id, const Tuple& key, std::size_t n_fields) {
  std::string s = IndexPrefix(index_id, 'r');
  for (std::size_t i = 0; i < n_fields && i < key.size(); ++i) {
    const Datum& d = key[i];
    const std::uint32_t n = d.null ? 0xFFFFFFFF : static_cast<std::uint32_t>(d.bytes.size());
    s.append(reinterpret_cast<const char*>(&n), 4);
    s += d.bytes;
  }
  return s;
}

std::string SupremumKey(std::uint64_t index_id) { return IndexPrefix(index_id, 's'); }

bool LockSys::Conflicts(const Entry& r, const Entry& o) {
  if (r.trx == o.trx) return false;
  if (r.kind == LockKind::kGap) return false;
  if (r.mode == LockMode::kShared && o.mode == LockMode::kShared) return false;
  if (o.kind == LockKind::kInsertIntention) return false;
  if (r.kind == LockKind::kInsertIntention) return IsGapKind(o.kind);
  return HasRecord(o.kind);
}

bool LockSys::Covered(const Queue& q, const TrxLocks& trx, LockMode mode, LockKind kind) const {
  for (const auto& e : q) {
    if (e.trx != &trx || !e.granted) continue;
    if (mode == LockMode::kExclusive && e.mode != LockMode::kExclusive) continue;
    if (e.kind == kind) return true;
    if (e.kind == LockKind::kNextKey && (kind == LockKind::kRecord || kind == LockKind::kGap)) return true;
  }
  return false;
}

std::vector<TrxLocks*> LockSys::Blockers(const Queue& q, std::size_t at) const {
  std::vector<TrxLocks*> out;
  for (std::size_t i = 0; i < q.size(); ++i) {
    if (i == at || (i > at && !q[i].granted)) continue;
    if (Conflicts(q[at], q[i]) && std::find(out.begin(), out.end(), q[i].trx) == out.end()) out.push_back(q[i].trx);
  }
  return out;
}

std::vector<TrxLocks*> LockSys::BlockersOf(TrxLocks& trx) {
  if (!trx.waiting_on) return {};
  auto it = queues_.find(*trx.waiting_on);
  if (it == queues_.end()) return {};
  for (std::size_t i = 0; i < it->second.size(); ++i) {
    if (it->second[i].trx == &trx && !it->second[i].granted) return Blockers(it->second, i);
  }
  return {};
}

// Depth-first search of the wait-for graph from `start`; on a cycle back to it, the youngest
// transaction on the cycle. A search that runs too deep counts as a deadlock, as InnoDB's
// (LOCK_MAX_DEPTH_IN_DEADLOCK_CHECK) does, with the requester as the victim.
TrxLocks* LockSys::FindCycle(TrxLocks& start) {
  std::vector<TrxLocks*> path{&start};
  std::vector<TrxLocks*> visited;
  TrxLocks* victim = nullptr;
  std::size_t steps = 0;
  std::function<bool(TrxLocks*)> dfs = [&](TrxLocks* t) REQUIRES(mu_) -> bool {
    if (++steps > 1'000'000 || path.size() > 200) {
      victim = &start;
      return true;
    }
    for (TrxLocks* b : BlockersOf(*t)) {
      if (b == &start) {
        victim = *std::max_element(path.begin(), path.end(), [](auto* a, auto* c) { return a->seq < c->seq; });
        return true;
      }
      if (std::find(visited.begin(), visited.end(), b) != visited.end()) continue;
      visited.push_back(b);
      path.push_back(b);
      if (dfs(b)) return true;
      path.pop_back();
    }
    return false;
  };
  dfs(&start);
  return victim;
}

void LockSys::Grant(TrxLocks& trx, const std::string& key, Queue& q, Entry e) {
  e.granted = true;
  q.push_back(e);
  ++entries_;
  if (IsGapKind(e.kind)) ++gap_entries_;
  trx.keys.push_back(key);  // a repeat is harmless: ReleaseAll finds nothing more there
}

Status LockSys::TryAcquire(TrxLocks& trx, const std::string& key, LockMode mode, LockKind kind) {
  assert(!key.empty() && trx.waiting_on == nullptr);  // one request at a time per transaction
  MutexLock l(mu_);
  Queue& q = queues_[key];
  if (Covered(q, trx, mode, kind)) return Status::Ok();
  const Entry e{&trx, mode, kind, false};
  for (const auto& o : q) {
    if (Conflicts(e, o)) return Status::Busy("must wait");
  }
  Grant(trx, key, q, e);
  return Status::Ok();
}

Status LockSys::Acquire(TrxLocks& trx, const std::string& key, LockMode mode, LockKind kind) {
  assert(!key.empty() && trx.waiting_on == nullptr);
  MutexLock l(mu_);
  Queue* q = &queues_[key];
  if (Covered(*q, trx, mode, kind)) return Status::Ok();
  Entry e{&trx, mode, kind, false};
  bool blocked = false;
  for (const auto& o : *q) blocked = blocked || Conflicts(e, o);
  if (!blocked) {
    Grant(trx, key, *q, e);
    return Status::Ok();
  }
  q->push_back(e);
  ++entries_;
  if (IsGapKind(kind)) ++gap_entries_;
  trx.keys.push_back(key);  // a repeat is harmless: ReleaseAll finds nothing more there
  ++waits_;
  const std::string* name = &queues_.find(key)->first;  // node-stable in an unordered_map
  trx.waiting_on = name;
  const auto deadline = std::chrono::steady_clock::now() + options_.wait_timeout;
  auto give_up = [&](Status s) REQUIRES(mu_) {
    trx.waiting_on = nullptr;
    Queue& queue = queues_[key];
    for (auto it = queue.begin(); it != queue.end(); ++it) {
      if (it->trx == &trx && !it->granted) {
        if (IsGapKind(it->kind)) --gap_entries_;
        --entries_;
        queue.erase(it);
        break;
      }
    }
    WakeWaiters(queue);
    return s;
  };
  if (options_.deadlock_detect) {
    if (TrxLocks* victim = FindCycle(trx)) {
      ++deadlocks_;
      if (victim == &trx)
        return give_up(Status::Deadlock("Deadlock found when trying to get lock; try restarting transaction"));
      victim->victim = true;
      victim->cv.NotifyAll();
    }
  }
  for (;;) {
    if (trx.victim) {
      trx.victim = false;
      return give_up(Status::Deadlock("Deadlock found when trying to get lock; try restarting transaction"));
    }
    Queue& queue = queues_[key];
    std::size_t at = 0;
    while (at < queue.size() && !(queue[at].trx == &trx && !queue[at].granted)) ++at;
    if (at == queue.size()) return Status::Corruption("lock request vanished from its queue");
    if (Blockers(queue, at).empty()) {
      queue[at].granted = true;
      trx.waiting_on = nullptr;
      return Status::Ok();
    }
    if (!trx.cv.WaitUntil(mu_, deadline) && !trx.victim) {
      // One last look: the lock may have been released just as time ran out.
      Queue& again = queues_[key];
      std::size_t i = 0;
      while (i < again.size() && !(again[i].trx == &trx && !again[i].granted)) ++i;
      if (i < again.size() && Blockers(again, i).empty()) {
        again[i].granted = true;
        trx.waiting_on = nullptr;
        return Status::Ok();
      }
      ++timeouts_;
      return give_up(Status::LockWaitTimeout("Lock wait timeout exceeded; try restarting transaction"));
    }
  }
}

// Wakes only the waiters that can now be granted: on a hot row fifty sessions queue for one
// lock, and waking them all at every release (to find all but one still blocked) costs more
// context switches than the update itself.
void LockSys::WakeWaiters(const Queue& q) {
  for (std::size_t i = 0; i < q.size(); ++i) {
    if (!q[i].granted && Blockers(q, i).empty()) q[i].trx->cv.NotifyAll();
  }
}

void LockSys::ConvertImplicit(std::uint64_t owner_id, const std::string& key) {
  MutexLock l(mu_);
  auto it = owners_.find(owner_id);
  if (it == owners_.end()) return;
  TrxLocks& owner = *it->second;
  Queue& q = queues_[key];
  if (Covered(q, owner, LockMode::kExclusive, LockKind::kRecord)) return;
  // The owner's lock is older than any request queued since: it goes first.
  q.insert(q.begin(), Entry{&owner, LockMode::kExclusive, LockKind::kRecord, true});
  ++entries_;
  owner.keys.push_back(key);
}

void LockSys::Register(TrxLocks& trx) {
  assert(trx.id != 0);  // a writer has its id before its first lock on a record it wrote
  MutexLock l(mu_);
  owners_[trx.id] = &trx;
  trx.registered = true;
}

bool LockSys::HoldsLocks(std::uint64_t trx_id) {
  MutexLock l(mu_);
  return owners_.count(trx_id) > 0;
}

void LockSys::ReleaseAll(TrxLocks& trx) {
  MutexLock l(mu_);
  if (trx.registered) {
    owners_.erase(trx.id);
    trx.registered = false;
  }
  for (const auto& key : trx.keys) {
    auto it = queues_.find(key);
    if (it == queues_.end()) continue;
    Queue& q = it->second;
    const std::size_t before = q.size();
    for (const auto& e : q) {
      if (e.trx == &trx && IsGapKind(e.kind)) --gap_entries_;
    }
    q.erase(std::remove_if(q.begin(), q.end(), [&](const Entry& e) { return e.trx == &trx; }), q.end());
    entries_ -= before - q.size();
    if (q.empty())
      queues_.erase(it);
    else
      WakeWaiters(q);
  }
  trx.keys.clear();
  trx.waiting_on = nullptr;
}

void LockSys::InheritGaps(const std::string& key, const std::string& next) {
  MutexLock l(mu_);
  auto it = queues_.find(key);
  if (it == queues_.end()) return;
  std::vector<Entry> gaps;
  for (const auto& e : it->second) {
    if (e.granted && IsGapKind(e.kind)) gaps.push_back(e);
  }
  if (gaps.empty()) return;
  Queue& q = queues_[next];
  for (auto e : gaps) {
    if (Covered(q, *e.trx, e.mode, LockKind::kGap)) continue;
    e.kind = LockKind::kGap;
    Grant(*e.trx, next, q, e);
  }
}

bool LockSys::AnyGapLocks() {
  MutexLock l(mu_);
  return gap_entries_ > 0;
}

LockStats LockSys::stats() {
  MutexLock l(mu_);
  LockStats s;
  s.locks = entries_;
  s.waits = waits_;
  s.timeouts = timeouts_;
  s.deadlocks = deadlocks_;
  std::uint64_t bytes = queues_.bucket_count() * sizeof(void*);
  for (const auto& [key, q] : queues_) {
    bytes += sizeof(std::pair<const std::string, Queue>) + 2 * sizeof(void*);  // node
    const std::size_t heap = key.capacity() > 15 ? key.capacity() + 1 : 0;     // beyond SSO
    bytes += heap + q.capacity() * sizeof(Entry);
    bytes += q.size() * (sizeof(std::string) + heap);  // each owner's copy in TrxLocks::keys
  }
  s.memory_bytes = bytes;
  return s;
}

void LockSys::set_wait_timeout(std::chrono::milliseconds t) {
  MutexLock l(mu_);
  options_.wait_timeout = t;
}

void LockSys::set_deadlock_detect(bool on) {
  MutexLock l(mu_);
  options_.deadlock_detect = on;
}

}  // namespace strata::engine
