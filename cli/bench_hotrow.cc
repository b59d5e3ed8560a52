#include "cli/bench_hotrow.h"

#include <fmt/format.h>

#include <algorithm>
#include <boost/program_options.hpp>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/command.h"
#include "cli/options.h"
#include "cli/progress.h"
#include "engine/db_options.h"
#include "experiments/hot_row_bench.h"

namespace strata::cli {

namespace po = boost::program_options;

namespace {

// Python's print(round(x, 2)): at most two decimals, trailing zeros dropped, at least one kept.
std::string PythonRound2(double x) {
  std::string s = fmt::format("{:.2f}", x);
  while (s.back() == '0' && s[s.size() - 2] != '.') s.pop_back();
  return s;
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

namespace {

po::options_description BenchHotRowOptions() {
  po::options_description options("Options");
  options.add_options()("datadir", po::value<std::string>(), "the data directory (created when missing)")(
      "threads", po::value<unsigned>()->default_value(50), "sessions updating the row at once (1 to 1024)")(
      "updates", po::value<unsigned>()->default_value(2000), "updates per session")(
      "mode", po::value<std::string>()->default_value("default"),
      "default (locks held until the commit is durable), elr (early lock release), group-commit (hint "
      "GROUP_COMMIT(TRUE) on each update), elr+group-commit")(
      "fsync-latency-us", po::value<unsigned>()->default_value(0),
      "added to every sync of the redo log, as a slower disk would take")(
      "max-elr-dependent-trx-count",
      po::value<std::size_t>()->default_value(engine::DatabaseOptions{}.max_elr_dependent_trx_count),
      "with early lock release: how many commits may wait for durability with their locks already released; "
      "beyond that, commits keep their locks until durable")("json", "print the result as JSON")("help,h",
                                                                                                 "show this help");
  return options;
}

// The result on stdout: JSON, or OceanBase's four lines and what explains them.
void PrintHotRowResult(const std::string& mode, bool elr, const experiments::HotRowOptions& o,
                       const experiments::HotRowResult& r, bool json) {
  const bool k_ok = r.k_grew == r.total_updates;
  if (json) {
    nlohmann::json j = {{"mode", mode},
                        {"threads", o.threads},
                        {"updates_per_thread", o.updates},
                        {"total_updates", r.total_updates},
                        {"seconds", r.seconds},
                        {"tps", r.tps},
                        {"fsync_latency_us", o.fsync_latency_us},
                        {"max_elr_dependent_trx_count", o.max_elr_dependent_trx_count},
                        {"log_fsyncs", r.log_fsyncs},
                        {"commits", r.commits},
                        {"commits_per_fsync", r.commits_per_fsync},
                        {"p50_ms", r.p50_ms},
                        {"p99_ms", r.p99_ms},
                        {"log_sync_ms", r.log_sync_ms},
                        {"ceiling_tps", r.ceiling_tps},
                        {"k_grew", r.k_grew},
                        {"k_ok", k_ok}};
    std::cout << j.dump(2) << "\n";
  } else {
    // The four lines as OceanBase's example script prints them.
    std::cout << "Parallel Degree: " << o.threads << "\n"
              << "Total Updates: " << r.total_updates << "\n"
              << "Elapse Time: " << PythonRound2(r.seconds) << " s\n"
              << "TPS on Hot Row: " << PythonRound2(r.tps) << " /s\n"
              << fmt::format("Mode: {}, fsync latency added: {} us{}\n", mode, o.fsync_latency_us,
                             elr ? fmt::format(", max_elr_dependent_trx_count {}", o.max_elr_dependent_trx_count) : "")
              << fmt::format("Commits per log fsync: {:.1f} ({} commits, {} fsyncs)\n", r.commits_per_fsync, r.commits,
                             r.log_fsyncs)
              << fmt::format("Commit latency: p50 {:.2f} ms, p99 {:.2f} ms\n", r.p50_ms, r.p99_ms)
              << (r.ceiling_tps > 0
                      ? fmt::format(
                            "Log sync: {:.2f} ms on average; {} sessions each waiting for its own update's sync "
                            "allow at most {:.0f} TPS (this run: {:.0f}% of that)\n",
                            r.log_sync_ms, o.threads, r.ceiling_tps, 100 * r.tps / r.ceiling_tps)
                      : "")
              << fmt::format("k grew by {} (expected {}): {}\n", r.k_grew, r.total_updates, k_ok ? "ok" : "MISMATCH");
  }
}

}  // namespace

int BenchHotRow(const std::vector<std::string>& args) {
  const po::options_description options = BenchHotRowOptions();
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
  if (vm["threads"].as<unsigned>() > 1024) {
    std::cerr << "strata bench hotrow: --threads takes 1 to 1024, not " << vm["threads"].as<unsigned>() << "\n";
    usage(std::cerr);
    return kExitUsage;
  }
  experiments::HotRowOptions o;
  o.datadir = vm["datadir"].as<std::string>();
  o.threads = std::max(1u, vm["threads"].as<unsigned>());
  o.updates = vm["updates"].as<unsigned>();
  o.early_lock_release = mode->elr;
  o.group_commit_hint = mode->group_commit;
  o.fsync_latency_us = vm["fsync-latency-us"].as<unsigned>();
  o.max_elr_dependent_trx_count = vm["max-elr-dependent-trx-count"].as<std::size_t>();
  ProgressBar progress("hot row " + vm["mode"].as<std::string>(), std::uint64_t{o.threads} * o.updates);
  auto result = experiments::RunHotRow(o, [&](std::uint64_t done) { progress.Update(done); });
  progress.Finish();
  if (!result.ok()) {
    std::cerr << "strata bench hotrow: " << result.status().ToString() << "\n";
    return kExitFailure;
  }
  const experiments::HotRowResult& r = *result;
  const bool k_ok = r.k_grew == r.total_updates;
  PrintHotRowResult(vm["mode"].as<std::string>(), mode->elr, o, r, vm.count("json") > 0);
  return k_ok ? kExitOk : kExitFailure;
}

int BenchAsyncCommit(const std::vector<std::string>& args) {
  po::options_description options("Options");
  options.add_options()("datadir", po::value<std::string>(), "the data directory (created when missing)")(
      "loops", po::value<unsigned>()->default_value(1000), "the procedure's loop count (INSERT + COMMIT each)")(
      "fsync-latency-us", po::value<unsigned>()->default_value(0),
      "added to every sync of the redo log, as a slower disk would take")("json", "print the result as JSON")(
      "help,h", "show this help");
  auto usage = [&](std::ostream& out) {
    out << "Usage: strata bench async-commit --datadir D [--loops 1000] [--fsync-latency-us N]\n\n"
        << "OceanBase's stored-procedure experiment, as its authors wrote it: a procedure test() whose\n"
        << "WHILE loop runs INSERT INTO t0 ... ; commit; --loops times, CALLed with\n"
        << "ob_enable_pl_async_commit OFF (each commit waits for its fsync), then ON (commits inside the\n"
        << "procedure return once their record is in the log buffer; the CALL waits once, at its end,\n"
        << "until everything is durable, and that wait is part of its time). The seed's figures on\n"
        << "OceanBase were 5.5 s (OFF) and 5.1 s (ON) per 1,000 commits.\n\n"
        << options << "\n";
  };
  po::variables_map vm;
  if (auto done = ParseOptions("bench async-commit", args, options, {}, usage, vm, {"datadir"})) return *done;
  experiments::AsyncCommitOptions o;
  o.datadir = vm["datadir"].as<std::string>();
  o.loops = vm["loops"].as<unsigned>();
  o.fsync_latency_us = vm["fsync-latency-us"].as<unsigned>();
  auto result = experiments::RunAsyncCommit(o);
  if (!result.ok()) {
    std::cerr << "strata bench async-commit: " << result.status().ToString() << "\n";
    return kExitFailure;
  }
  const experiments::AsyncCommitResult& r = *result;
  const std::pair<const char*, const experiments::AsyncCommitRun*> runs[] = {{"OFF", &r.off}, {"ON ", &r.on}};
  if (vm.count("json")) {
    nlohmann::json j = {{"loops", o.loops}, {"fsync_latency_us", o.fsync_latency_us}, {"rows_ok", r.rows_ok}};
    for (const auto& [name, run] : runs) {
      j[run == &r.on ? "async_commit_on" : "async_commit_off"] = {
          {"seconds", run->seconds}, {"commits_per_second", run->commits_per_second}, {"log_fsyncs", run->log_fsyncs}};
    }
    std::cout << j.dump(2) << "\n";
  } else {
    std::cout << fmt::format("call test(): {} x (INSERT + commit), fsync latency added: {} us\n", o.loops,
                             o.fsync_latency_us);
    for (const auto& [name, run] : runs) {
      std::cout << fmt::format(
          "  ob_enable_pl_async_commit={}: {:.3f} s ({:.2f} s per 1,000 commits), {:.0f} commits/s, "
          "{} log fsyncs of {:.3f} ms each\n",
          name, run->seconds, run->seconds * 1000 / o.loops, run->commits_per_second, run->log_fsyncs,
          run->log_sync_ms);
    }
    std::cout << fmt::format("  gain: {:.1f}x; rows present: {}\n", r.off.seconds / r.on.seconds,
                             r.rows_ok ? "all" : "MISSING")
              << "  OceanBase (the seed): 5.5 s OFF, 5.1 s ON per 1,000 commits\n";
  }
  return r.rows_ok ? kExitOk : kExitFailure;
}

}  // namespace strata::cli
