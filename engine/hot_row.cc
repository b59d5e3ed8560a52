// Hot-row group commit. Updates of one row serialise on its lock; when every commit must also
// wait for its fsync before the lock goes, the row manages one update per fsync. Here the
// updates queued behind a row are run by one leader, back to back in one transaction (each a
// statement of its own, so a failure undoes only itself), and committed together: one lock
// acquisition, one commit record and one fsync per batch. The leader hands leadership on as
// soon as its batch is committed in memory, so the next batch runs while this one's log write
// is in flight (with early lock release it need not even wait for the row lock).
#include "engine/hot_row.h"

#include <algorithm>
#include <cctype>
#include <vector>

#include "engine/db.h"

namespace strata::engine {

Status Database::RunGrouped(const std::string& name, const std::function<Status(Transaction&)>& body) {
  if (!hot_rows_) return Status::InvalidArgument("the database is read-only");
  HotRowGroups& h = *hot_rows_;
  auto me = std::make_shared<HotRowGroups::Request>();
  me->body = &body;
  std::unique_lock lock(h.mu);
  HotRowGroups::Group& g = h.groups[name];
  ++g.users;
  g.queue.push_back(me);
  auto leave = [&] {  // with h.mu held
    if (--g.users == 0) h.groups.erase(name);
    return me->result;
  };
  while (!me->done) {
    if (g.leading || me->taken) {
      me->cv.wait(lock);
      continue;
    }
    // Lead: take everything queued, this request included.
    g.leading = true;
    std::vector<std::shared_ptr<HotRowGroups::Request>> batch(g.queue.begin(), g.queue.end());
    g.queue.clear();
    for (auto& r : batch) r->taken = true;
    lock.unlock();
    auto hand_over = [&] {
      std::shared_ptr<HotRowGroups::Request> next;
      {
        std::lock_guard l(h.mu);
        g.leading = false;
        if (!g.queue.empty()) next = g.queue.front();
      }
      if (next) next->cv.notify_one();  // the next leader
    };
    auto trx = Begin();
    if (!trx.ok()) {
      for (auto& r : batch) r->result = trx.status();
      hand_over();
    } else {
      Transaction& t = **trx;
      for (auto& r : batch) {
        if (!t.active()) break;
        const std::uint64_t savepoint = t.Savepoint();
        r->result = (*r->body)(t);
        if (!r->result.ok() && t.active()) {
          Status undo = t.RollbackToSavepoint(savepoint);
          if (!undo.ok()) r->result = undo.WithContext("undoing the failed statement (" + r->result.ToString() + ")");
        }
      }
      if (!t.active()) {
        // A deadlock rolled the shared transaction back: nobody's statement survived it.
        const Status gone = Status::Deadlock("Deadlock found when trying to get lock; the hot-row group's transaction was rolled back");
        for (auto& r : batch) {
          if (r->result.ok()) r->result = gone;  // undone, or never run
        }
        hand_over();
      } else {
        const Status c = CommitTrx(*t.impl_, hand_over);
        for (auto& r : batch) {
          if (r->result.ok()) r->result = c;
        }
      }
    }
    lock.lock();
    for (auto& r : batch) r->done = true;
    lock.unlock();
    for (auto& r : batch) {
      if (r != me) r->cv.notify_one();
    }
    lock.lock();
  }
  return leave();
}

void Database::set_group_commit_tables(const std::string& list) {
  std::vector<std::string> tables;
  std::size_t at = 0;
  while (at <= list.size()) {
    std::size_t end = list.find(',', at);
    if (end == std::string::npos) end = list.size();
    std::string name = list.substr(at, end - at);
    std::erase_if(name, [](char c) { return std::isspace(static_cast<unsigned char>(c)) || c == '`'; });
    if (!name.empty()) tables.push_back(std::move(name));
    at = end + 1;
  }
  std::lock_guard lock(group_tables_mu_);
  group_commit_tables_ = std::move(tables);
}

std::string Database::group_commit_tables() const {
  std::lock_guard lock(group_tables_mu_);
  std::string out;
  for (const auto& t : group_commit_tables_) out += (out.empty() ? "" : ",") + t;
  return out;
}

bool Database::groups_commits_of(const std::string& database, const std::string& table) const {
  std::lock_guard lock(group_tables_mu_);
  const std::string name = database + "." + table;
  return std::find(group_commit_tables_.begin(), group_commit_tables_.end(), name) != group_commit_tables_.end();
}

}  // namespace strata::engine
