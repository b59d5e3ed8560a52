#include "cli/bench_command.h"

#include <fmt/format.h>
#include <unistd.h>

#include <boost/program_options.hpp>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/bench_hotrow.h"
#include "cli/options.h"
#include "cli/progress.h"
#include "datasets/keys.h"
#include "experiments/insert_bench.h"

namespace strata::cli {

namespace po = boost::program_options;

namespace {

po::options_description BenchInsertOptions() {
  po::options_description options("Options");
  options.add_options()("datadir", po::value<std::string>(), "the data directory (created when missing)")(
      "keys", po::value<std::string>()->default_value("autoinc"),
      ("key strategy: " + datasets::KeyStrategyNames()).c_str())(
      "rows", po::value<std::uint64_t>()->default_value(100000), "rows to insert")(
      "batch", po::value<std::uint64_t>()->default_value(1), "rows per API call (Table::InsertBatch)")(
      "buffer-pool", po::value<std::string>()->default_value("128M"), "buffer pool size, e.g. 8M, 1G")(
      "database", po::value<std::string>()->default_value("bench"), "database to create the table in")(
      "table", po::value<std::string>()->default_value("sbtest1"), "table to create (must not exist)")(
      "seed", po::value<std::uint64_t>()->default_value(1), "seed of the key and row generators")(
      "flush-log-at-trx-commit", po::value<int>()->default_value(1),
      "1: each insert durable before the next (an fsync each); 2: log written at commit, synced each second; "
      "0: both each second")("disable-redo",
                             "insert with redo logging disabled (ALTER INSTANCE DISABLE INNODB REDO_LOG), "
                             "enabled again at the end")(
      "rows-out", po::value<std::string>(),
      "also write the rows as TSV (id, k, c, pad; uuid-bin ids in hex), "
      "e.g. for experiments/mariadb/insert-fidelity.sh")("json", "print the result as JSON")("help,h",
                                                                                             "show this help");
  return options;
}

// The result on stdout, as JSON or as lines.
void PrintInsertResult(const experiments::InsertBenchOptions& o, const experiments::InsertBenchResult& r, bool json) {
  const std::uint64_t rows = o.rows, batch = o.batch;
  if (json) {
    nlohmann::json j = {{"keys", datasets::ToString(o.keys)},
                        {"rows", rows},
                        {"batch", batch},
                        {"flush_log_at_trx_commit", o.flush_log_at_trx_commit},
                        {"redo", !o.disable_redo},
                        {"insert_seconds", r.insert_seconds},
                        {"seconds_with_flush", r.seconds_with_flush},
                        {"rows_per_second", r.rows_per_second},
                        {"page_splits", r.page_splits},
                        {"file", r.file.string()},
                        {"file_bytes", r.file_bytes}};
    std::cout << j.dump(2) << "\n";
    return;
  }
  std::cout << fmt::format("inserted {} rows ({} keys, {} per call, {}) into {}.{}\n", rows, datasets::ToString(o.keys),
                           batch,
                           o.disable_redo ? "redo disabled"
                                          : fmt::format("flush_log_at_trx_commit={}", o.flush_log_at_trx_commit),
                           o.database, o.table)
            << fmt::format("  {:.2f} s, {:.0f} rows/s ({:.2f} s with the final flush)\n", r.insert_seconds,
                           r.rows_per_second, r.seconds_with_flush)
            << fmt::format("  {} page splits; {} is {:.1f} MiB\n", r.page_splits, r.file.string(),
                           static_cast<double>(r.file_bytes) / (1 << 20))
            << fmt::format("  see how it filled: strata inspect index {}\n", r.file.string());
}

int BenchInsert(const std::vector<std::string>& args) {
  const po::options_description options = BenchInsertOptions();
  auto usage = [&](std::ostream& out) {
    out << "Usage: strata bench insert --datadir D [--keys STRATEGY] [--rows N] [--batch B]\n\n"
        << "Creates an sbtest-like table (id keyed by the strategy, k, c, pad, KEY k_1(k)) and inserts\n"
        << "generated rows through the engine API one by one (or B per call), then prints rows/s and\n"
        << "how the clustered index filled.\n\n"
        << options << "\n";
  };
  po::variables_map vm;
  if (auto done = ParseOptions("bench insert", args, options, {}, usage, vm)) return *done;
  auto fail_usage = [&](const std::string& what) {
    std::cerr << "strata bench insert: " << what << "\n";
    usage(std::cerr);
    return kExitUsage;
  };
  if (!vm.count("datadir")) return fail_usage("missing --datadir");
  const auto keys = datasets::ParseKeyStrategy(vm["keys"].as<std::string>());
  if (!keys) return fail_usage("unknown key strategy '" + vm["keys"].as<std::string>() + "'");
  const auto pool = ParseSize(vm["buffer-pool"].as<std::string>());
  if (!pool || *pool < (1u << 20)) return fail_usage("--buffer-pool must be a size of at least 1M, e.g. 128M");
  const std::uint64_t rows = vm["rows"].as<std::uint64_t>();
  const std::uint64_t batch = std::max<std::uint64_t>(1, vm["batch"].as<std::uint64_t>());
  const std::string database = vm["database"].as<std::string>(), table = vm["table"].as<std::string>();

  experiments::InsertBenchOptions o;
  o.datadir = vm["datadir"].as<std::string>();
  o.keys = *keys;
  o.rows = rows;
  o.batch = batch;
  o.buffer_pool_bytes = *pool;
  o.database = database;
  o.table = table;
  o.seed = vm["seed"].as<std::uint64_t>();
  o.flush_log_at_trx_commit = vm["flush-log-at-trx-commit"].as<int>();
  if (o.flush_log_at_trx_commit < 0 || o.flush_log_at_trx_commit > 2) {
    return fail_usage("--flush-log-at-trx-commit must be 0, 1 or 2");
  }
  o.disable_redo = vm.count("disable-redo") > 0;
  if (vm.count("rows-out")) o.rows_out = vm["rows-out"].as<std::string>();
  ProgressBar progress("insert " + datasets::ToString(*keys), rows);
  auto result = experiments::RunInsertBench(o, [&](std::uint64_t done) { progress.Update(done); });
  progress.Finish();
  if (!result.ok()) {
    std::cerr << "strata bench insert: " << result.status().ToString()
              << (result.status().IsAlreadyExists() ? " (use a fresh --datadir or another --table)" : "") << "\n";
    return kExitFailure;
  }
  PrintInsertResult(o, *result, vm.count("json") > 0);
  return kExitOk;
}

}  // namespace

std::vector<Command> BenchCommands() {
  return {{"insert", "insert generated sbtest rows keyed by a strategy; rows/s", BenchInsert},
          {"hotrow", "many sessions updating one row: default, early lock release, hot-row group commit", BenchHotRow},
          {"async-commit", "a loop of INSERT + COMMIT with async_commit off and on", BenchAsyncCommit}};
}

}  // namespace strata::cli
