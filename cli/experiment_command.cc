#include "cli/experiment_command.h"

#include <boost/program_options.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <atomic>
#include <csignal>
#include <iostream>

#include "cli/options.h"
#include "cli/progress.h"
#include "experiments/history_experiment.h"
#include "experiments/key_experiment.h"
#include "experiments/key_report.h"

namespace po = boost::program_options;

namespace strata::cli {
namespace {

// The experiment's samples and figures as JSON.
nlohmann::json HistoryJson(const std::string& dir, const experiments::HistoryExperimentOptions& o,
                           const experiments::HistoryExperimentResult& r) {
  nlohmann::json samples = nlohmann::json::array();
  for (const auto& s : r.samples) {
    samples.push_back({{"phase", s.phase},
                       {"updates", s.updates},
                       {"history_list_length", s.history_list_length},
                       {"seconds", s.seconds}});
  }
  nlohmann::json j = {{"datadir", dir},
                      {"updates", o.updates},
                      {"history_at_start", r.history_at_start},
                      {"history_at_shutdown", r.history_at_shutdown},
                      {"growth", r.history_at_shutdown - r.history_at_start},
                      {"view_still_reads_k", r.view_reads_k},
                      {"update_seconds", r.update_seconds},
                      {"samples", samples}};
  if (o.purge_after) {
    j["history_after_restart"] = r.history_after_restart;
    j["history_at_end"] = r.history_at_end;
    j["purge_seconds"] = r.purge_seconds;
  }
  return j;
}

int History(const std::vector<std::string>& args) {
  po::options_description options("Options");
  options.add_options()("datadir", po::value<std::string>(), "the data directory (created when missing)")(
      "updates", po::value<std::uint64_t>()->default_value(10000), "single-row updates run while the view is open")(
      "samples", po::value<std::uint64_t>()->default_value(20), "history list length samples while they run")(
      "purge-after", "reopen after the shutdown and watch purge empty the history (the undo on disk is then gone)")(
      "json", "print the samples and figures as JSON")("help,h", "show this help");
  auto usage = [&](std::ostream& out) {
    out << "Usage: strata experiment history --datadir D [--updates N] [--purge-after] [--json]\n\n"
        << "Why does 'History list length' keep growing? One session opens a REPEATABLE READ view\n"
        << "(START TRANSACTION WITH CONSISTENT SNAPSHOT) and keeps it; other sessions run N single-row\n"
        << "updates of bank.acct. Each committed update leaves an update-undo log that purge may not\n"
        << "remove while the view could still read the versions it holds, so the history grows by one\n"
        << "per update. The engine then stops with a fast shutdown, the view still open, and the\n"
        << "history stays on disk: see it with 'strata inspect undo D --logs'.\n\n"
        << options << "\n";
  };
  po::variables_map vm;
  if (auto done = ParseOptions("experiment history", args, options, {}, usage, vm, {"datadir"})) return *done;
  const bool json = vm.count("json") > 0;
  experiments::HistoryExperimentOptions o;
  o.updates = vm["updates"].as<std::uint64_t>();
  o.samples = vm["samples"].as<std::uint64_t>();
  o.purge_after = vm.count("purge-after") > 0;
  const std::string dir = vm["datadir"].as<std::string>();
  ProgressBar progress("updates with the view open", o.updates);
  if (!json)
    std::cout << fmt::format("{:<14} {:>9} {:>22} {:>9}\n", "phase", "updates", "History list length", "seconds");
  auto result = experiments::RunHistoryExperiment(dir, o, [&](const experiments::HistorySample& s) {
    if (s.phase == "view_open") progress.Update(s.updates);
    if (json) return;
    progress.Finish();
    std::cout << fmt::format("{:<14} {:>9} {:>22} {:>9.2f}\n", s.phase, s.updates, s.history_list_length, s.seconds)
              << std::flush;
  });
  progress.Finish();
  if (!result.ok()) {
    std::cerr << "strata experiment history: " << result.status().ToString() << "\n";
    return kExitFailure;
  }
  const auto& r = *result;
  if (json) {
    std::cout << HistoryJson(dir, o, r).dump(2) << "\n";
    return kExitOk;
  }
  std::cout << "\n"
            << fmt::format(
                   "{} updates in {:.2f} s; the history grew by {} (from {} to {}) while the view stayed open,\n",
                   o.updates, r.update_seconds, r.history_at_shutdown - r.history_at_start, r.history_at_start,
                   r.history_at_shutdown)
            << fmt::format("and the view still reads k = {}, the version from before the first update.\n\n",
                           r.view_reads_k)
            << "At shutdown:\n"
            << r.status_at_shutdown << "\n";
  if (o.purge_after) {
    std::cout << fmt::format("After the restart the history was {}; purge brought it to {} in {:.2f} s.\n",
                             r.history_after_restart, r.history_at_end, r.purge_seconds);
  } else {
    std::cout << "The engine stopped with a fast shutdown (innodb_fast_shutdown=1) while the view was open:\n"
              << fmt::format("the history is on disk. See it with: strata inspect undo {} --logs\n", dir);
  }
  return kExitOk;
}

// Ctrl-C during the MariaDB runs reaches the client and scripts too (one process group); the
// run then fails, stops its private server on the way out, and the command exits 130.
std::atomic<bool> interrupted{false};
extern "C" void OnInterrupt(int) { interrupted = true; }

std::optional<std::vector<experiments::KeyStrategy>> ParseStrategies(const std::string& text) {
  if (text == "study") return experiments::StudyStrategies();
  if (text == "all") return experiments::AllKeyStrategies();
  std::vector<experiments::KeyStrategy> out;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    auto s = experiments::ParseKeyStrategy(text.substr(start, comma - start));
    if (!s) return std::nullopt;
    if (std::find(out.begin(), out.end(), *s) == out.end()) out.push_back(*s);
    start = comma + 1;
  }
  return out;
}

po::options_description KeysOptions() {
  po::options_description options("Options");
  options.add_options()("out", po::value<std::string>(), "the report directory (created; its data/ is replaced)")(
      "rows", po::value<std::uint64_t>()->default_value(100000), "rows per table")(
      "strategies", po::value<std::string>()->default_value("study"),
      ("comma-separated key strategies (" + experiments::KeyStrategyNames() +
       "), 'study' (autoinc,seq,uuid,ulid) or 'all'")
          .c_str())("batch", po::value<std::uint64_t>()->default_value(100),
                    "rows per INSERT statement (each statement commits)")(
      "buffer-pool", po::value<std::string>()->default_value("32M"), "buffer pool size, e.g. 16M, 1G")(
      "shape", po::value<std::string>()->default_value("key-only"),
      "key-only (one key column) or sbtest (adds k, c, pad, KEY k_1)")(
      "seed", po::value<std::uint64_t>()->default_value(1), "seed of the key and row generators")(
      "flush-log-at-trx-commit", po::value<int>()->default_value(1), "innodb_flush_log_at_trx_commit: 1, 2 or 0")(
      "mariadb", "run the same on a private MariaDB server per strategy (needs mariadb-server) and compare")(
      "mariadb-port", po::value<int>()->default_value(33281), "the TCP port of that server on 127.0.0.1")(
      "mariadb-script", po::value<std::string>()->default_value(STRATA_SOURCE_DIR "/scripts/mariadb/server.sh"),
      "the script that starts and stops it")("json", "print results.json on stdout instead of the table")(
      "help,h", "show this help");
  return options;
}

void KeysUsage(std::ostream& out, const po::options_description& options) {
  out << "Usage: strata experiment keys --out DIR [--rows N] [--strategies LIST] [--batch B]\n"
      << "                              [--buffer-pool SIZE] [--shape key-only|sbtest] [--mariadb] [--json]\n\n"
      << "Why do UUID primary keys make InnoDB tables bigger and slower? For each key strategy, a fresh\n"
      << "data directory (DIR/data/strata-STRATEGY) gets one table keyed that way, and N rows are inserted\n"
      << "as an application inserts them (autocommit INSERTs of B rows, keys in the order generated).\n"
      << "Then: file size, data and index pages, leaf pages and fill, B-tree levels, page splits, and\n"
      << "COUNT(*) from a cold and a warm cache. DIR gets report.md, report.html, results.json,\n"
      << "insert_time.png, and extents.png, lsn.png and index.png with every table side by side.\n"
      << "With --mariadb the same statements also go to a private MariaDB (DIR/data/mariadb-STRATEGY,\n"
      << "same buffer pool and flush setting); its figures and maps join Strata's, and its leaf pages\n"
      << "(mysql.innodb_index_stats) are set against Strata's.\n\n"
      << options << "\n";
}

// The report's options from the command line; a message when one is out of its range.
std::optional<std::string> ReadKeyOptions(const po::variables_map& vm, experiments::KeyExperimentOptions& o) {
  o.rows = vm["rows"].as<std::uint64_t>();
  if (o.rows == 0) return "--rows must be at least 1";
  auto strategies = ParseStrategies(vm["strategies"].as<std::string>());
  if (!strategies || strategies->empty())
    return "--strategies: not a list of key strategies: " + vm["strategies"].as<std::string>();
  o.strategies = *strategies;
  o.batch = std::max<std::uint64_t>(1, vm["batch"].as<std::uint64_t>());
  auto pool = ParseSize(vm["buffer-pool"].as<std::string>());
  if (!pool || *pool < (5u << 20)) return "--buffer-pool must be a size of at least 5M, e.g. 32M";
  o.buffer_pool_bytes = *pool;
  auto shape = experiments::ParseTableShape(vm["shape"].as<std::string>());
  if (!shape) return "--shape must be key-only or sbtest";
  o.shape = *shape;
  o.seed = vm["seed"].as<std::uint64_t>();
  o.flush_log_at_trx_commit = vm["flush-log-at-trx-commit"].as<int>();
  if (o.flush_log_at_trx_commit < 0 || o.flush_log_at_trx_commit > 2)
    return "--flush-log-at-trx-commit must be 0, 1 or 2";
  return std::nullopt;
}

// Every strategy on one engine, in order, into `report`; an exit code when one fails or is
// interrupted.
template <typename Run>
std::optional<int> RunEachStrategy(const std::string& engine, const std::filesystem::path& data, bool json,
                                   experiments::KeyReport& report, Run run) {
  for (auto strategy : report.options.strategies) {
    const std::string name = experiments::ToString(strategy);
    ProgressBar progress(engine + " " + name, report.options.rows);
    auto r = run(data / (engine + "-" + name), strategy,
                 [&](const experiments::KeyExperimentProgress& p) { progress.Update(p.rows_done, p.phase); });
    progress.Finish();
    if (interrupted) {
      std::cerr << "strata experiment keys: interrupted; the private MariaDB server was stopped\n";
      return 130;
    }
    if (!r.ok()) {
      std::cerr << "strata experiment keys: " << engine << " " << name << ": " << r.status().ToString() << "\n";
      return kExitFailure;
    }
    if (!json) {
      std::cerr << fmt::format("{:<7} {:<15} {:>8.2f} s insert, {:>8.1f} MiB, leaves {:.1f}% full\n", engine, name,
                               r->insert_seconds, r->file_bytes / 1048576.0, 100 * r->avg_leaf_fill);
    }
    report.results.push_back(std::move(*r));
  }
  return std::nullopt;
}

int Keys(const std::vector<std::string>& args) {
  const po::options_description options = KeysOptions();
  auto usage = [&](std::ostream& out) { KeysUsage(out, options); };
  po::variables_map vm;
  if (auto done = ParseOptions("experiment keys", args, options, {}, usage, vm, {"out"})) return *done;
  auto fail_usage = [&](const std::string& what) {
    std::cerr << "strata experiment keys: " << what << "\n";
    usage(std::cerr);
    return kExitUsage;
  };
  experiments::KeyReport report;
  auto& o = report.options;
  if (auto bad = ReadKeyOptions(vm, o)) return fail_usage(*bad);
  report.command_line = "strata experiment keys";
  for (const auto& a : args) report.command_line += " " + a;

  const std::filesystem::path out = vm["out"].as<std::string>();
  const std::filesystem::path data = out / "data";
  std::error_code ec;
  std::filesystem::remove_all(data, ec);
  std::filesystem::create_directories(data, ec);
  if (ec) {
    std::cerr << "strata experiment keys: " << data.string() << ": " << ec.message() << "\n";
    return kExitFailure;
  }
  const bool json = vm.count("json") > 0;
  if (auto failed =
          RunEachStrategy("strata", data, json, report, [&](const auto& dir, auto strategy, const auto& progress) {
            return experiments::RunStrataKeys(dir, strategy, o, progress);
          })) {
    return *failed;
  }
  if (vm.count("mariadb")) {
    experiments::MariadbOptions server;
    server.script = vm["mariadb-script"].as<std::string>();
    server.port = vm["mariadb-port"].as<int>();
    if (!std::filesystem::exists(server.script)) {
      std::cerr << "strata experiment keys: " << server.script.string() << ": no such script (see --mariadb-script)\n";
      return kExitFailure;
    }
    std::signal(SIGINT, OnInterrupt);
    if (auto failed =
            RunEachStrategy("mariadb", data, json, report, [&](const auto& dir, auto strategy, const auto& progress) {
              return experiments::RunMariadbKeys(dir, strategy, o, server, progress, &report.mariadb_version);
            })) {
      return *failed;
    }
    std::signal(SIGINT, SIG_DFL);
  }
  std::vector<std::filesystem::path> written;
  if (auto s = experiments::WriteKeyReport(out, report, &written); !s.ok()) {
    std::cerr << "strata experiment keys: " << s.ToString() << "\n";
    return kExitFailure;
  }
  if (json) {
    std::cout << experiments::ToJson(report).dump(2) << "\n";
    return kExitOk;
  }
  std::cout << experiments::SummaryTable(report) << "\nReport: " << (out / "report.html").string()
            << " (and report.md, results.json, " << written.size() - 3 << " images)\n";
  return kExitOk;
}

}  // namespace

std::vector<Command> ExperimentCommands() {
  return {{"history", "undo history growing behind an open read view, live and on disk", History},
          {"keys", "the UUID-vs-ULID-vs-auto-increment primary key study, with maps and a report", Keys}};
}

}  // namespace strata::cli
