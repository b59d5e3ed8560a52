#include "cli/bench_hotrow.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <boost/program_options.hpp>
#include <chrono>
#include <iostream>
#include <nlohmann/json.hpp>
#include <thread>

#include "cli/command.h"
#include "cli/options.h"
#include "cli/progress.h"
#include "engine/db.h"
#include "sql/session.h"
#include "engine/sync_latency_env.h"

namespace strata::cli {

namespace po = boost::program_options;
using namespace strata::engine;
using Clock = std::chrono::steady_clock;

namespace {

using FirstValue = sql::FirstValueSink;  // results are not printed

// Runs statements, turning the first error into a message.
std::optional<std::string> RunAll(sql::Session& s, const std::vector<std::string>& statements,
                                  FirstValue* out = nullptr) {
  FirstValue ignore;
  for (const auto& text : statements) {
    auto o = s.Execute(text, out ? *out : ignore);
    if (o.error) return fmt::format("{}: ERROR {} ({}): {}", text, o.error->code, o.error->sqlstate, o.error->message);
  }
  return std::nullopt;
}

// Python's print(round(x, 2)): at most two decimals, trailing zeros dropped, at least one kept.
std::string PythonRound2(double x) {
  std::string s = fmt::format("{:.2f}", x);
  while (s.back() == '0' && s[s.size() - 2] != '.') s.pop_back();
  return s;
}

double Percentile(std::vector<double>& v, double p) {
  if (v.empty()) return 0;
  const auto k = static_cast<std::size_t>(p * static_cast<double>(v.size() - 1));
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(k), v.end());
  return v[k];
}

struct Mode {
  bool elr = false, group_commit = false;
};

std::optional<Mode> ParseMode(const std::string& m) {
  if (m == "default") return Mode{false, false};
  if (m == "elr") return Mode{true, false};
  if (m == "group-commit") return Mode{false, true};
  if (m == "elr+group-commit") return Mode{true, true};
  return std::nullopt;
}

}  // namespace

int BenchHotRow(const std::vector<std::string>& args) {
  po::options_description options("Options");
  options.add_options()("datadir", po::value<std::string>(), "the data directory (created when missing)")(
      "threads", po::value<unsigned>()->default_value(50), "sessions updating the row at once")(
      "updates", po::value<unsigned>()->default_value(2000), "updates per session")(
      "mode", po::value<std::string>()->default_value("default"),
      "default (locks held until the commit is durable), elr (early lock release), group-commit (hint "
      "GROUP_COMMIT(TRUE) on each update), elr+group-commit")(
      "fsync-latency-us", po::value<unsigned>()->default_value(0),
      "added to every sync of the redo log, as a slower disk would take")(
      "max-elr-dependent-trx-count",
      po::value<std::size_t>()->default_value(DatabaseOptions{}.max_elr_dependent_trx_count),
      "with early lock release: how many commits may wait for durability with their locks already released; "
      "beyond that, commits keep their locks until durable")("json", "print the result as JSON")("help,h",
                                                                                                 "show this help");
  auto usage = [&](std::ostream& out) {
    out << "Usage: strata bench hotrow --datadir D [--threads 50] [--updates 2000] [--mode MODE] [--fsync-latency-us "
           "N]\n"
        << "                          [--max-elr-dependent-trx-count N] [--json]\n\n"
        << "OceanBase's hot-row experiment, in-process: creates sbtest.sbtest1 with one row, then every\n"
        << "session runs UPDATE sbtest1 SET k=k+1 WHERE id=1 as autocommit statements, each acknowledged\n"
        << "only once durable. Prints the experiment's four lines, commits per log fsync, commit latency,\n"
        << "the mean log sync and the most TPS the sessions could reach at it (each waits for its own\n"
        << "update's sync), and checks that k grew by exactly threads x updates.\n\n"
        << options << "\n";
  };
  po::variables_map vm;
  if (auto done = ParseOptions("bench hotrow", args, options, {}, usage, vm, {"datadir"})) return *done;
  const auto mode = ParseMode(vm["mode"].as<std::string>());
  if (!mode) {
    std::cerr << "strata bench hotrow: unknown --mode '" << vm["mode"].as<std::string>() << "'\n";
    usage(std::cerr);
    return kExitUsage;
  }
  const unsigned threads = std::max(1u, vm["threads"].as<unsigned>());
  const unsigned updates = vm["updates"].as<unsigned>();
  SyncLatencyEnv env(Env::Default(), std::chrono::microseconds(vm["fsync-latency-us"].as<unsigned>()));
  DatabaseOptions o;
  o.env = &env;
  o.enable_early_lock_release = mode->elr;
  o.max_elr_dependent_trx_count = vm["max-elr-dependent-trx-count"].as<std::size_t>();
  auto db = Database::Open(vm["datadir"].as<std::string>(), o);
  if (!db.ok()) {
    std::cerr << "strata bench hotrow: " << db.status().ToString() << "\n";
    return kExitFailure;
  }
  auto fail = [](const std::string& what) {
    std::cerr << "strata bench hotrow: " << what << "\n";
    return kExitFailure;
  };
  FirstValue before;
  {
    sql::Session setup(**db);
    if (auto e = RunAll(setup,
                        {"CREATE DATABASE IF NOT EXISTS sbtest", "USE sbtest", "DROP TABLE IF EXISTS sbtest1",
                         "CREATE TABLE sbtest1 (id int NOT NULL AUTO_INCREMENT, k int NOT NULL DEFAULT '0', "
                         "c char(120) NOT NULL DEFAULT '', pad char(60) NOT NULL DEFAULT '', PRIMARY KEY (id))",
                         "INSERT INTO sbtest1 VALUES (1, 0, 'aa', 'aa')", "SELECT k FROM sbtest1 WHERE id = 1"},
                        &before)) {
      return fail(*e);
    }
  }
  const std::string update = mode->group_commit ? "UPDATE /*+ GROUP_COMMIT(TRUE) */ sbtest1 SET k=k+1 WHERE id=1"
                                                : "UPDATE sbtest1 SET k=k+1 WHERE id=1";
  std::atomic<std::uint64_t> acknowledged{0};
  std::vector<std::vector<double>> latencies(threads);
  std::vector<std::string> errors(threads);
  // Each session's end: the run ends with the last of them (the progress loop below only
  // looks every 100 ms, which would round the elapsed time up by as much).
  std::vector<Clock::time_point> finished(threads);
  const RedoStats redo_before = (*db)->redo_stats();
  ProgressBar progress("hot row " + vm["mode"].as<std::string>(), std::uint64_t{threads} * updates);
  const auto start = Clock::now();
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t) {
    pool.emplace_back([&, t] {
      sql::Session s(**db);
      FirstValue ignore;
      if (auto e = RunAll(s, {"USE sbtest"})) {
        errors[t] = *e;
        return;
      }
      latencies[t].reserve(updates);
      for (unsigned i = 0; i < updates; ++i) {
        const auto begin = Clock::now();
        auto r = s.Execute(update, ignore);
        if (r.error) {
          errors[t] = fmt::format("ERROR {} ({}): {}", r.error->code, r.error->sqlstate, r.error->message);
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
    progress.Update(done);
    if (done == std::uint64_t{threads} * updates) break;
    if (std::any_of(errors.begin(), errors.end(), [](const std::string& e) { return !e.empty(); })) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  for (auto& th : pool) th.join();
  const double seconds =
      std::chrono::duration<double>(*std::max_element(finished.begin(), finished.end()) - start).count();
  progress.Finish();
  const RedoStats redo_after = (*db)->redo_stats();
  for (const auto& e : errors) {
    if (!e.empty()) return fail(e);
  }
  FirstValue after;
  {
    sql::Session check(**db);
    if (auto e = RunAll(check, {"SELECT k FROM sbtest.sbtest1 WHERE id = 1"}, &after)) return fail(*e);
  }
  const std::uint64_t total = std::uint64_t{threads} * updates;
  const std::uint64_t grew = std::stoull(after.value.value_or("0")) - std::stoull(before.value.value_or("0"));
  std::vector<double> all;
  for (auto& l : latencies) all.insert(all.end(), l.begin(), l.end());
  const double p50 = Percentile(all, 0.50), p99 = Percentile(all, 0.99);
  const std::uint64_t fsyncs = redo_after.fsyncs - redo_before.fsyncs;
  const std::uint64_t commits = redo_after.commits - redo_before.commits;
  const double per_fsync = fsyncs ? static_cast<double>(commits) / static_cast<double>(fsyncs) : 0;
  const double tps = static_cast<double>(total) / seconds;
  // Each session waits for its update to be durable before it sends the next, so whatever the
  // mode, no session passes one update per log sync: the sessions' ceiling.
  const std::uint64_t syncs = redo_after.commit_syncs - redo_before.commit_syncs;
  const double sync_ms = syncs ? static_cast<double>(redo_after.commit_sync_micros - redo_before.commit_sync_micros) /
                                     1000.0 / static_cast<double>(syncs)
                               : 0;
  const double ceiling = sync_ms > 0 ? threads * 1000.0 / sync_ms : 0;
  if (vm.count("json")) {
    nlohmann::json j = {{"mode", vm["mode"].as<std::string>()},
                        {"threads", threads},
                        {"updates_per_thread", updates},
                        {"total_updates", total},
                        {"seconds", seconds},
                        {"tps", tps},
                        {"fsync_latency_us", vm["fsync-latency-us"].as<unsigned>()},
                        {"max_elr_dependent_trx_count", o.max_elr_dependent_trx_count},
                        {"log_fsyncs", fsyncs},
                        {"commits", commits},
                        {"commits_per_fsync", per_fsync},
                        {"p50_ms", p50},
                        {"p99_ms", p99},
                        {"log_sync_ms", sync_ms},
                        {"ceiling_tps", ceiling},
                        {"k_grew", grew},
                        {"k_ok", grew == total}};
    std::cout << j.dump(2) << "\n";
  } else {
    // The four lines as OceanBase's example script prints them.
    std::cout << "Parallel Degree: " << threads << "\n"
              << "Total Updates: " << total << "\n"
              << "Elapse Time: " << PythonRound2(seconds) << " s\n"
              << "TPS on Hot Row: " << PythonRound2(tps) << " /s\n"
              << fmt::format(
                     "Mode: {}, fsync latency added: {} us{}\n", vm["mode"].as<std::string>(),
                     vm["fsync-latency-us"].as<unsigned>(),
                     mode->elr ? fmt::format(", max_elr_dependent_trx_count {}", o.max_elr_dependent_trx_count) : "")
              << fmt::format("Commits per log fsync: {:.1f} ({} commits, {} fsyncs)\n", per_fsync, commits, fsyncs)
              << fmt::format("Commit latency: p50 {:.2f} ms, p99 {:.2f} ms\n", p50, p99)
              << (ceiling > 0
                      ? fmt::format(
                            "Log sync: {:.2f} ms on average; {} sessions each waiting for its own update's sync "
                            "allow at most {:.0f} TPS (this run: {:.0f}% of that)\n",
                            sync_ms, threads, ceiling, 100 * tps / ceiling)
                      : "")
              << fmt::format("k grew by {} (expected {}): {}\n", grew, total, grew == total ? "ok" : "MISMATCH");
  }
  return grew == total ? kExitOk : kExitFailure;
}

int BenchAsyncCommit(const std::vector<std::string>& args) {
  po::options_description options("Options");
  options.add_options()("datadir", po::value<std::string>(), "the data directory (created when missing)")(
      "loops", po::value<unsigned>()->default_value(1000), "INSERT + COMMIT iterations per run")(
      "fsync-latency-us", po::value<unsigned>()->default_value(0),
      "added to every sync of the redo log, as a slower disk would take")("json", "print the result as JSON")(
      "help,h", "show this help");
  auto usage = [&](std::ostream& out) {
    out << "Usage: strata bench async-commit --datadir D [--loops 1000] [--fsync-latency-us N]\n\n"
        << "The stored-procedure case: one session runs a loop of INSERT then COMMIT, first with\n"
        << "async_commit off (each COMMIT waits for its fsync), then on (each COMMIT returns once its\n"
        << "record is in the log buffer; the run ends by waiting until everything is durable, and that\n"
        << "wait is part of its time).\n\n"
        << options << "\n";
  };
  po::variables_map vm;
  if (auto done = ParseOptions("bench async-commit", args, options, {}, usage, vm, {"datadir"})) return *done;
  const unsigned loops = vm["loops"].as<unsigned>();
  SyncLatencyEnv env(Env::Default(), std::chrono::microseconds(vm["fsync-latency-us"].as<unsigned>()));
  DatabaseOptions o;
  o.env = &env;
  auto db = Database::Open(vm["datadir"].as<std::string>(), o);
  if (!db.ok()) {
    std::cerr << "strata bench async-commit: " << db.status().ToString() << "\n";
    return kExitFailure;
  }
  auto fail = [](const std::string& what) {
    std::cerr << "strata bench async-commit: " << what << "\n";
    return kExitFailure;
  };
  sql::Session s(**db);
  if (auto e = RunAll(
          s, {"CREATE DATABASE IF NOT EXISTS bench", "USE bench", "DROP TABLE IF EXISTS commits",
              "CREATE TABLE commits (id int NOT NULL AUTO_INCREMENT PRIMARY KEY, run int NOT NULL, i int NOT NULL)",
              "SET autocommit = 0"})) {
    return fail(*e);
  }
  struct Run {
    bool async;
    double seconds = 0, wait_seconds = 0;
    std::uint64_t fsyncs = 0;
  };
  std::vector<Run> runs = {{false}, {true}};
  for (std::size_t r = 0; r < runs.size(); ++r) {
    if (auto e = RunAll(s, {fmt::format("SET SESSION async_commit = {}", runs[r].async ? 1 : 0)})) return fail(*e);
    const std::uint64_t fsyncs = (*db)->redo_stats().fsyncs;
    const auto start = Clock::now();
    for (unsigned i = 0; i < loops; ++i) {
      if (auto e = RunAll(s, {fmt::format("INSERT INTO commits (run, i) VALUES ({}, {})", r, i), "COMMIT"}))
        return fail(*e);
    }
    const auto looped = Clock::now();
    if (Status w = s.WaitDurable(); !w.ok()) return fail(w.ToString());  // the script's success waits for durability
    runs[r].seconds = std::chrono::duration<double>(Clock::now() - start).count();
    runs[r].wait_seconds = std::chrono::duration<double>(Clock::now() - looped).count();
    runs[r].fsyncs = (*db)->redo_stats().fsyncs - fsyncs;
  }
  FirstValue count;
  if (auto e = RunAll(s, {"SELECT COUNT(*) FROM commits"}, &count)) return fail(*e);
  const bool ok = count.value == std::to_string(std::uint64_t{loops} * runs.size());
  if (vm.count("json")) {
    nlohmann::json j = {{"loops", loops}, {"fsync_latency_us", vm["fsync-latency-us"].as<unsigned>()}, {"rows_ok", ok}};
    for (const Run& r : runs) {
      j[r.async ? "async_commit_on" : "async_commit_off"] = {{"seconds", r.seconds},
                                                             {"final_wait_seconds", r.wait_seconds},
                                                             {"commits_per_second", loops / r.seconds},
                                                             {"log_fsyncs", r.fsyncs}};
    }
    std::cout << j.dump(2) << "\n";
  } else {
    std::cout << fmt::format("{} x (INSERT + COMMIT), fsync latency added: {} us\n", loops,
                             vm["fsync-latency-us"].as<unsigned>());
    for (const Run& r : runs) {
      std::cout << fmt::format(
          "  async_commit={}: {:.3f} s, {:.0f} commits/s, {} log fsyncs (final wait for durability {:.3f} s)\n",
          r.async ? "ON " : "OFF", r.seconds, loops / r.seconds, r.fsyncs, r.wait_seconds);
    }
    std::cout << fmt::format("  gain: {:.1f}x; rows present: {}\n", runs[0].seconds / runs[1].seconds,
                             ok ? "all" : "MISSING");
  }
  return ok ? kExitOk : kExitFailure;
}

}  // namespace strata::cli
