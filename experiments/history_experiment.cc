#include "experiments/history_experiment.h"

#include <chrono>
#include <thread>

namespace strata::experiments {

using engine::Database;
using engine::DatabaseOptions;
using engine::Isolation;
using engine::Row;
using engine::Value;
using ondisk::Result;
using ondisk::Status;

namespace {

// bank.acct (id BIGINT PRIMARY KEY, k BIGINT, note VARCHAR(40), KEY k_1 (k)), as the MariaDB
// side of the experiment (experiments/mariadb/history-scenario.sh) creates it.
engine::TableSpec AccountSpec() {
  engine::TableSpec s;
  s.database = "bank";
  s.name = "acct";
  s.columns = {engine::NotNull(engine::Col("id", engine::ColumnType::kBigInt)),
               engine::Col("k", engine::ColumnType::kBigInt), engine::Col("note", engine::ColumnType::kVarchar, 40)};
  s.primary_key = {"id"};
  engine::IndexSpec k;
  k.name = "k_1";
  k.columns = {"k"};
  s.indexes = {k};
  return s;
}

double Since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

}  // namespace

Result<HistoryExperimentResult> RunHistoryExperiment(const std::filesystem::path& datadir,
                                                     const HistoryExperimentOptions& options,
                                                     const std::function<void(const HistorySample&)>& on_sample) {
  HistoryExperimentResult out;
  auto sample = [&](HistorySample s) {
    out.samples.push_back(s);
    if (on_sample) on_sample(s);
  };
  DatabaseOptions o;
  o.buffer_pool_bytes = options.buffer_pool_bytes;
  o.fast_shutdown = 1;
  {
    auto db = Database::Open(datadir, o);
    if (!db.ok()) return db.status();
    if (Status s = (*db)->CreateDatabase("bank"); !s.ok() && !s.IsAlreadyExists()) return s;
    auto t = (*db)->GetTable("bank", "acct");
    if (!t.ok()) t = (*db)->CreateTable(AccountSpec());
    if (!t.ok()) return t.status();
    if (Status s = (*t)->Insert({Value::Int(1), Value::Int(0), Value::String("hot row")});
        !s.ok() && !s.IsAlreadyExists())
      return s;
    // Earlier history (from a previous run) is purged first, so the growth is this run's.
    auto purged = (*db)->Purge();
    if (!purged.ok()) return purged.status();
    out.history_at_start = (*db)->history_list_length();
    auto row = (*t)->Get({Value::Int(1)});
    if (!row.ok()) return row.status();
    const std::int64_t first_k = (**row)[1].as_int();

    // The session that holds the view: START TRANSACTION WITH CONSISTENT SNAPSHOT; SELECT.
    std::unique_ptr<engine::Transaction> view;
    {
      auto begun = (*db)->Begin({Isolation::kRepeatableRead, true});
      if (!begun.ok()) return begun.status();
      view = std::move(*begun);
    }
    auto seen = (*t)->Get({Value::Int(1)}, view.get());
    if (!seen.ok()) return seen.status();

    // The other sessions: one autocommit UPDATE ... SET k = k + 1 each.
    const auto start = std::chrono::steady_clock::now();
    const std::uint64_t every =
        std::max<std::uint64_t>(1, options.updates / std::max<std::uint64_t>(1, options.samples));
    sample({"view_open", 0, (*db)->history_list_length(), 0});
    Status failed;
    std::thread others([&] {
      for (std::uint64_t i = 1; i <= options.updates && failed.ok(); ++i) {
        Status s =
            (*t)->Update({Value::Int(1), Value::Int(first_k + static_cast<std::int64_t>(i)), Value::String("hot row")});
        if (!s.ok()) {
          failed = s;
          break;
        }
        if (i % every == 0 || i == options.updates)
          sample({"view_open", i, (*db)->history_list_length(), Since(start)});
      }
    });
    others.join();
    if (!failed.ok()) return failed;
    out.update_seconds = Since(start);
    auto still = (*t)->Get({Value::Int(1)}, view.get());
    if (!still.ok()) return still.status();
    out.view_reads_k = static_cast<std::uint64_t>((**still)[1].as_int());
    out.history_at_shutdown = (*db)->history_list_length();
    out.status_at_shutdown = (*db)->StatusReport().Render();
    // Fast shutdown with the view still open: `view` outlives the database.
    db->reset();
  }
  if (!options.purge_after) return out;

  auto db = Database::Open(datadir, o);
  if (!db.ok()) return db.status();
  out.history_after_restart = (*db)->recovery().history_at_open;  // purge may already have begun
  const auto start = std::chrono::steady_clock::now();
  sample({"after_restart", options.updates, out.history_after_restart, 0});
  // The background purge thread works it off; the samples watch it.
  while ((*db)->history_list_length() > 0 && Since(start) < options.purge_timeout_s) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    sample({"purging", options.updates, (*db)->history_list_length(), Since(start)});
  }
  out.purge_seconds = Since(start);
  out.history_at_end = (*db)->history_list_length();
  return out;
}

}  // namespace strata::experiments
