#include "engine/trx_sys.h"

#include <algorithm>

#include "engine/mtr.h"
#include "ondisk/undo.h"

namespace strata::engine {

using namespace strata::ondisk;

namespace {
constexpr std::uint64_t kWriteMargin = 256;  // TRX_SYS_TRX_ID_WRITE_MARGIN
constexpr PageNo kTrxSysPage{5};
}  // namespace

std::string ToString(Isolation i) {
  switch (i) {
    case Isolation::kReadUncommitted:
      return "READ UNCOMMITTED";
    case Isolation::kReadCommitted:
      return "READ COMMITTED";
    case Isolation::kRepeatableRead:
      return "REPEATABLE READ";
    case Isolation::kSerializable:
      return "SERIALIZABLE";
  }
  return "?";
}

Status TrxSys::Load(std::uint64_t seen_id, std::uint64_t seen_no) {
  auto g = pool_.Read({system_.id(), kTrxSysPage});
  if (!g.ok()) return g.status();
  const std::uint64_t stored = TrxSysPage(g->page()).trx_id_store();
  const std::uint64_t resumed = (stored + kWriteMargin - 1) / kWriteMargin * kWriteMargin + 2 * kWriteMargin;
  std::lock_guard l(mu_);
  next_ = std::max({resumed, seen_id + 1, seen_no + 1, std::uint64_t{1}});
  return Status::Ok();
}

Status TrxSys::Persist(std::uint64_t value) {
  Mtr mtr(pool_);
  auto p = mtr.Write({system_.id(), kTrxSysPage});
  if (!p.ok()) return p.status();
  TrxSysPageWriter(*p).set_trx_id_store(value);
  return Status::Ok();
}

std::uint64_t TrxSys::Take() {
  const std::uint64_t v = next_++;
  if (v % kWriteMargin == 0) persist_due_ = true;
  return v;
}

void TrxSys::Begin(TrxImpl& trx) {
  std::lock_guard l(mu_);
  trx.locks.seq = ++seq_;
  all_[trx.locks.seq] = &trx;
}

void TrxSys::Finish(TrxImpl& trx) {
  std::lock_guard l(mu_);
  all_.erase(trx.locks.seq);
  if (trx.id) active_.erase(trx.id);
  views_.erase(std::remove(views_.begin(), views_.end(), &trx), views_.end());
  trx.view.reset();
}

Status TrxSys::AssignId(TrxImpl& trx) {
  std::uint64_t persist = 0;
  {
    std::lock_guard l(mu_);
    trx.id = Take();
    trx.locks.id = trx.id;
    active_[trx.id] = &trx;
    // A view opened by an earlier read (REPEATABLE READ's snapshot, taken while the transaction
    // had no id) must see this transaction's own changes from now on (trx_set_rw_mode).
    if (trx.view) trx.view->creator = trx.id;
    if (persist_due_) {
      persist_due_ = false;
      persist = next_;
    }
  }
  return persist ? Persist(persist) : Status::Ok();
}

void TrxSys::AdoptRecovered(TrxImpl& trx) {
  std::lock_guard l(mu_);
  trx.locks.id = trx.id;
  active_[trx.id] = &trx;
  next_ = std::max(next_, trx.id + 1);
}

ReadView TrxSys::MakeView(std::uint64_t creator) {
  ReadView v;
  v.creator = creator;
  v.low_limit_id = v.low_limit_no = next_;
  v.up_limit_id = next_;
  for (const auto& [id, t] : active_) {
    if (id == creator) continue;
    v.ids.push_back(id);
  }
  if (!v.ids.empty()) v.up_limit_id = v.ids.front();
  return v;
}

void TrxSys::OpenView(TrxImpl& trx) {
  std::lock_guard l(mu_);
  trx.view = MakeView(trx.id);
  if (std::find(views_.begin(), views_.end(), &trx) == views_.end()) views_.push_back(&trx);
}

void TrxSys::CloseView(TrxImpl& trx) {
  std::lock_guard l(mu_);
  views_.erase(std::remove(views_.begin(), views_.end(), &trx), views_.end());
  trx.view.reset();
}

ReadView TrxSys::ViewNow() {
  std::lock_guard l(mu_);
  return MakeView(0);
}

Status TrxSys::Commit(TrxImpl& trx, const std::function<Status(std::uint64_t)>& end_undo) {
  std::uint64_t persist = 0;
  Status s;
  {
    std::lock_guard l(mu_);
    trx.no = Take();
    s = end_undo(trx.no);
    if (trx.id) active_.erase(trx.id);
    if (persist_due_) {
      persist_due_ = false;
      persist = next_;
    }
  }
  if (persist) {
    Status p = Persist(persist);
    if (s.ok()) s = p;
  }
  return s;
}

ReadView TrxSys::PurgeView() {
  std::lock_guard l(mu_);
  const TrxImpl* oldest = nullptr;
  for (const TrxImpl* t : views_) {
    if (!oldest || t->view->low_limit_no < oldest->view->low_limit_no) oldest = t;
  }
  if (!oldest) return MakeView(0);
  // Purge sees only what is committed: the creator's own changes are not, for it.
  ReadView v = *oldest->view;
  if (v.creator != 0) {
    v.ids.insert(std::lower_bound(v.ids.begin(), v.ids.end(), v.creator), v.creator);
    v.up_limit_id = std::min(v.up_limit_id, v.creator);
    v.creator = 0;
  }
  return v;
}

void TrxSys::AbandonAll() {
  std::lock_guard l(mu_);
  for (auto& [seq, t] : all_) t->state = TrxImpl::State::kRolledBack;
  all_.clear();
  active_.clear();
  views_.clear();
}

std::uint64_t TrxSys::max_trx_id() {
  std::lock_guard l(mu_);
  return next_;
}

std::size_t TrxSys::open_views() {
  std::lock_guard l(mu_);
  return views_.size();
}

std::vector<TrxSummary> TrxSys::Transactions() {
  std::lock_guard l(mu_);
  std::vector<TrxSummary> out;
  const auto now = std::chrono::steady_clock::now();
  for (auto it = all_.rbegin(); it != all_.rend(); ++it) {
    const TrxImpl& t = *it->second;
    TrxSummary s;
    s.id = t.id;
    s.seq = t.locks.seq;
    s.isolation = t.isolation;
    s.seconds = std::chrono::duration<double>(now - t.started).count();
    s.undo_records = t.undo_no;
    s.rows_modified = t.rows_modified;
    s.locks = t.locks.keys.size();
    s.has_view = t.view.has_value();
    s.waiting = t.locks.waiting_on != nullptr;
    if (t.view) {
      s.view_low_limit_id = t.view->low_limit_id;
      s.view_up_limit_id = t.view->up_limit_id;
    }
    out.push_back(s);
  }
  return out;
}

}  // namespace strata::engine
