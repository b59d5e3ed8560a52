#include "experiments/hot_row_bench.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "engine/db.h"
#include "engine/sync_latency_env.h"
#include "experiments/run_sql.h"
#include "experiments/sbtest.h"
#include "sql/session.h"

namespace strata::experiments {

using ondisk::Status;
using Clock = std::chrono::steady_clock;

namespace {

// Runs statements until one fails; `out` keeps the first value of their results.
Status RunAll(sql::Session& s, const std::vector<std::string>& statements, sql::FirstValueSink* out = nullptr) {
  for (const auto& text : statements) STRATA_RETURN_IF_ERROR(RunSql(s, text, out));
  return Status::Ok();
}

double Percentile(std::vector<double>& v, double p) {
  if (v.empty()) return 0;
  const auto k = static_cast<std::size_t>(p * static_cast<double>(v.size() - 1));
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(k), v.end());
  return v[k];
}

std::uint64_t ValueOf(const sql::FirstValueSink& v) { return std::stoull(v.value.value_or("0")); }

}  // namespace

ondisk::Result<HotRowResult> RunHotRow(const HotRowOptions& o, const UpdatesDoneFn& progress) {
  const unsigned threads = std::max(1u, o.threads);
  engine::SyncLatencyEnv env(engine::Env::Default(), std::chrono::microseconds(o.fsync_latency_us));
  engine::DatabaseOptions d;
  d.env = &env;
  d.enable_early_lock_release = o.early_lock_release;
  d.max_elr_dependent_trx_count = o.max_elr_dependent_trx_count;
  auto db = engine::Database::Open(o.datadir, d);
  if (!db.ok()) return db.status();

  // sysbench's sbtest1 as OceanBase's script makes it: an AUTO_INCREMENT id and no index on k.
  SbtestShape shape;
  shape.keys = datasets::KeyStrategy::kAutoinc;
  shape.k_index = false;
  sql::FirstValueSink before;
  {
    sql::Session setup(**db);
    if (Status s = RunAll(setup, {"CREATE DATABASE IF NOT EXISTS sbtest", "DROP TABLE IF EXISTS sbtest.sbtest1"});
        !s.ok()) {
      return s;
    }
    if (auto t = (*db)->CreateTable(SbtestSpec("sbtest", "sbtest1", shape)); !t.ok()) return t.status();
    if (Status s = RunAll(
            setup,
            {"USE sbtest", "INSERT INTO sbtest1 VALUES (1, 0, 'aa', 'aa')", "SELECT k FROM sbtest1 WHERE id = 1"},
            &before);
        !s.ok()) {
      return s;
    }
  }
  const std::string update = o.group_commit_hint ? "UPDATE /*+ GROUP_COMMIT(TRUE) */ sbtest1 SET k=k+1 WHERE id=1"
                                                 : "UPDATE sbtest1 SET k=k+1 WHERE id=1";
  const std::uint64_t total = std::uint64_t{threads} * o.updates;
  std::atomic<std::uint64_t> acknowledged{0};
  std::atomic<bool> failed{false};
  std::vector<std::vector<double>> latencies(threads);
  std::vector<Status> errors(threads);
  // Each session's end: the run ends with the last of them (the progress loop below only
  // looks every 100 ms, which would round the elapsed time up by as much).
  std::vector<Clock::time_point> finished(threads);
  const engine::RedoStats redo_before = (*db)->redo_stats();
  const auto start = Clock::now();
  std::vector<std::thread> sessions;
  for (unsigned t = 0; t < threads; ++t) {
    sessions.emplace_back([&, t] {
      sql::Session s(**db);
      if (errors[t] = RunAll(s, {"USE sbtest"}); !errors[t].ok()) {
        failed = true;
        return;
      }
      latencies[t].reserve(o.updates);
      for (unsigned i = 0; i < o.updates; ++i) {
        const auto begin = Clock::now();
        if (errors[t] = RunAll(s, {update}); !errors[t].ok()) {
          failed = true;
          return;
        }
        latencies[t].push_back(std::chrono::duration<double, std::milli>(Clock::now() - begin).count());
        ++acknowledged;
      }
      finished[t] = Clock::now();
    });
  }
  while (true) {
    const std::uint64_t done = acknowledged.load();
    if (progress) progress(done);
    if (done == total || failed) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  for (auto& session : sessions) session.join();
  const engine::RedoStats redo_after = (*db)->redo_stats();
  for (const Status& e : errors) {
    if (!e.ok()) return e;
  }

  HotRowResult r;
  r.total_updates = total;
  r.seconds = std::chrono::duration<double>(*std::max_element(finished.begin(), finished.end()) - start).count();
  r.tps = static_cast<double>(total) / r.seconds;
  r.log_fsyncs = redo_after.fsyncs - redo_before.fsyncs;
  r.commits = redo_after.commits - redo_before.commits;
  r.commits_per_fsync = r.log_fsyncs ? static_cast<double>(r.commits) / static_cast<double>(r.log_fsyncs) : 0;
  std::vector<double> all;
  for (auto& l : latencies) all.insert(all.end(), l.begin(), l.end());
  r.p50_ms = Percentile(all, 0.50);
  r.p99_ms = Percentile(all, 0.99);
  const std::uint64_t syncs = redo_after.commit_syncs - redo_before.commit_syncs;
  r.log_sync_ms = syncs ? static_cast<double>(redo_after.commit_sync_micros - redo_before.commit_sync_micros) / 1000.0 /
                              static_cast<double>(syncs)
                        : 0;
  r.ceiling_tps = r.log_sync_ms > 0 ? threads * 1000.0 / r.log_sync_ms : 0;
  sql::FirstValueSink after;
  sql::Session check(**db);
  if (Status s = RunAll(check, {"SELECT k FROM sbtest.sbtest1 WHERE id = 1"}, &after); !s.ok()) return s;
  r.k_grew = ValueOf(after) - ValueOf(before);
  return r;
}

// The OceanBase PL experiment as its authors wrote it (their table t0, their procedure), the
// loop's length aside; each CALL returns once its commits are durable.
ondisk::Result<AsyncCommitResult> RunAsyncCommit(const AsyncCommitOptions& o) {
  engine::SyncLatencyEnv env(engine::Env::Default(), std::chrono::microseconds(o.fsync_latency_us));
  engine::DatabaseOptions d;
  d.env = &env;
  auto db = engine::Database::Open(o.datadir, d);
  if (!db.ok()) return db.status();
  sql::Session s(**db);
  const std::string procedure = fmt::format(R"(CREATE PROCEDURE test()
BEGIN
  DECLARE counter INT DEFAULT 0;
  WHILE counter < {} DO
    INSERT INTO t0 (a) VALUES (counter);
    commit;
    SET counter = counter + 1;
  END WHILE;
END)",
                                            o.loops);
  if (Status e = RunAll(s, {"CREATE DATABASE IF NOT EXISTS bench", "USE bench", "DROP TABLE IF EXISTS t0",
                            "DROP PROCEDURE IF EXISTS test",
                            "CREATE TABLE t0 (id INT AUTO_INCREMENT PRIMARY KEY, a INT)", procedure});
      !e.ok()) {
    return e;
  }
  AsyncCommitResult result;
  for (const bool async : {false, true}) {
    AsyncCommitRun& run = async ? result.on : result.off;
    if (Status e = RunAll(s, {fmt::format("SET ob_enable_pl_async_commit = {}", async ? "ON" : "OFF")}); !e.ok())
      return e;
    const engine::RedoStats before = (*db)->redo_stats();
    const auto start = Clock::now();
    if (Status e = RunAll(s, {"call test()"}); !e.ok()) return e;
    run.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    run.commits_per_second = o.loops / run.seconds;
    const engine::RedoStats after = (*db)->redo_stats();
    run.log_fsyncs = after.fsyncs - before.fsyncs;
    const std::uint64_t syncs = after.commit_syncs - before.commit_syncs;
    if (syncs) run.log_sync_ms = (after.commit_sync_micros - before.commit_sync_micros) / 1000.0 / syncs;
  }
  sql::FirstValueSink count;
  if (Status e = RunAll(s, {"SELECT COUNT(*) FROM t0"}, &count); !e.ok()) return e;
  result.rows_ok = count.value == std::to_string(std::uint64_t{o.loops} * 2);
  return result;
}

}  // namespace strata::experiments
