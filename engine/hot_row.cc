#include "engine/hot_row.h"

#include <algorithm>
#include <cctype>

#include "engine/db.h"

namespace strata::engine {

Status HotRowGroups::Run(const std::string& name, const std::function<Status(Transaction&)>& body, const Hooks& db) {
  auto me = std::make_shared<Request>();
  me->body = &body;
  MutexLock lock(mu_);
  Group& g = groups_[name];
  ++g.users;
  g.queue.push_back(me);
  while (!me->done) {
    if (g.leading || me->taken) {
      me->cv.Wait(mu_);
      continue;
    }
    // Lead: take everything queued, this request included.
    g.leading = true;
    Batch batch(g.queue.begin(), g.queue.end());
    g.queue.clear();
    for (auto& r : batch) r->taken = true;
    lock.Unlock();
    Lead(batch, db, [&] {
      std::shared_ptr<Request> next;
      {
        MutexLock l(mu_);
        g.leading = false;
        if (!g.queue.empty()) next = g.queue.front();
      }
      if (next) next->cv.NotifyOne();  // the next leader
    });
    lock.Lock();
    for (auto& r : batch) r->done = true;
    lock.Unlock();
    for (auto& r : batch) {
      if (r != me) r->cv.NotifyOne();
    }
    lock.Lock();
  }
  if (--g.users == 0) groups_.erase(name);
  return me->result;
}

void HotRowGroups::Lead(const Batch& batch, const Hooks& db, const std::function<void()>& hand_over) {
  auto trx = db.begin();
  if (!trx.ok()) {
    for (auto& r : batch) r->result = trx.status();
    hand_over();
    return;
  }
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
    const Status gone =
        Status::Deadlock("Deadlock found when trying to get lock; the hot-row group's transaction was rolled back");
    for (auto& r : batch) {
      if (r->result.ok()) r->result = gone;  // undone, or never run
    }
    hand_over();
    return;
  }
  const Status c = db.commit(t, hand_over);
  for (auto& r : batch) {
    if (r->result.ok()) r->result = c;
  }
}

void HotRowGroups::set_tables(const std::string& list) {
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
  MutexLock lock(tables_mu_);
  tables_ = std::move(tables);
}

std::string HotRowGroups::tables() const {
  MutexLock lock(tables_mu_);
  std::string out;
  for (const auto& t : tables_) out += (out.empty() ? "" : ",") + t;
  return out;
}

bool HotRowGroups::covers(const std::string& database, const std::string& table) const {
  MutexLock lock(tables_mu_);
  const std::string name = database + "." + table;
  return std::find(tables_.begin(), tables_.end(), name) != tables_.end();
}

}  // namespace strata::engine
