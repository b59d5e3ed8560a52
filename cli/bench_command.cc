#include "cli/bench_command.h"

#include <fmt/format.h>
#include <unistd.h>

#include <boost/program_options.hpp>
#include <chrono>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/bench_hotrow.h"
#include "cli/options.h"
#include "cli/progress.h"
#include "datasets/keys.h"
#include "engine/db.h"

namespace strata::cli {

namespace po = boost::program_options;
using namespace strata::engine;
using datasets::KeyStrategy;

namespace {

// The sbtest-like table of the key-strategy experiments: the key as the strategy stores it,
// then sysbench's k, c and pad, and its secondary index k_1.
TableSpec SbtestSpec(const std::string& database, const std::string& table, KeyStrategy keys) {
  auto col = [](std::string name, ColumnType type, std::uint32_t length) {
    Column c;
    c.name = std::move(name);
    c.type = type;
    c.length = length;
    c.nullable = false;
    return c;
  };
  TableSpec s;
  s.database = database;
  s.name = table;
  switch (keys) {
    case KeyStrategy::kSeq:
      s.columns.push_back(col("id", ColumnType::kInt, 0));
      break;
    case KeyStrategy::kAutoinc:
      s.columns.push_back(col("id", ColumnType::kInt, 0));
      s.columns.back().auto_increment = true;
      break;
    case KeyStrategy::kUuid:
      s.columns.push_back(col("id", ColumnType::kChar, 36));
      break;
    case KeyStrategy::kUlid:
      s.columns.push_back(col("id", ColumnType::kChar, 26));
      break;
    case KeyStrategy::kUuid7:
      s.columns.push_back(col("id", ColumnType::kChar, 36));
      break;
    case KeyStrategy::kUuidBin:
    case KeyStrategy::kUuid7Bin:
    case KeyStrategy::kUuid1SwapBin:
      s.columns.push_back(col("id", ColumnType::kBinary, 16));
      break;
  }
  s.columns.push_back(col("k", ColumnType::kInt, 0));
  s.columns.back().is_unsigned = true;
  s.columns.back().default_value = Value::UInt(0);
  s.columns.push_back(col("c", ColumnType::kChar, 120));
  s.columns.push_back(col("pad", ColumnType::kChar, 60));
  s.primary_key = {"id"};
  s.indexes = {{"k_1", {"k"}, false}};
  return s;
}

int BenchInsert(const std::vector<std::string>& args) {
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
      "e.g. for experiments/mariadb/insert-fidelity.sh")("json", "print the result as JSON")("help,h", "show this help");
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

  const int flush_mode = vm["flush-log-at-trx-commit"].as<int>();
  if (flush_mode < 0 || flush_mode > 2) return fail_usage("--flush-log-at-trx-commit must be 0, 1 or 2");
  DatabaseOptions o;
  o.buffer_pool_bytes = *pool;
  o.flush_log_at_trx_commit = flush_mode;
  auto db = Database::Open(vm["datadir"].as<std::string>(), o);
  if (!db.ok()) {
    std::cerr << "strata bench insert: " << db.status().ToString() << "\n";
    return kExitFailure;
  }
  if (Status s = (*db)->CreateDatabase(database); !s.ok() && !s.IsAlreadyExists()) {
    std::cerr << "strata bench insert: " << s.ToString() << "\n";
    return kExitFailure;
  }
  auto t = (*db)->CreateTable(SbtestSpec(database, table, *keys));
  if (!t.ok()) {
    std::cerr << "strata bench insert: " << t.status().ToString()
              << (t.status().IsAlreadyExists() ? " (use a fresh --datadir or another --table)" : "") << "\n";
    return kExitFailure;
  }
  const bool unlogged = vm.count("disable-redo") > 0;
  if (unlogged) {
    if (Status s = (*db)->SetRedoLogging(false); !s.ok()) {
      std::cerr << "strata bench insert: " << s.ToString() << "\n";
      return kExitFailure;
    }
  }
  std::ofstream tsv;
  if (vm.count("rows-out")) {
    tsv.open(vm["rows-out"].as<std::string>());
    if (!tsv) {
      std::cerr << "strata bench insert: cannot write " << vm["rows-out"].as<std::string>() << "\n";
      return kExitFailure;
    }
  }
  datasets::KeyGenerator gen(*keys, vm["seed"].as<std::uint64_t>());
  datasets::SbtestRowGenerator rowgen(rows, vm["seed"].as<std::uint64_t>() + 1);
  ProgressBar progress("insert " + datasets::ToString(*keys), rows);
  std::vector<Row> pending;
  const auto start = std::chrono::steady_clock::now();
  for (std::uint64_t i = 0; i < rows; ++i) {
    const std::string key = gen.Next();
    const datasets::SbtestRow r = rowgen.Next();
    Value id = *keys == KeyStrategy::kAutoinc ? Value::Null()
               : *keys == KeyStrategy::kSeq   ? Value::Int(static_cast<std::int64_t>(std::stoull(key)))
                                              : Value::String(key);
    pending.push_back({std::move(id), Value::UInt(r.k), Value::String(r.c), Value::String(r.pad)});
    if (tsv.is_open())
      tsv << (datasets::KeyGenerator::IsBinary(*keys) ? datasets::ToHex(key) : key) << '\t' << r.k << '\t' << r.c
          << '\t' << r.pad << '\n';
    if (pending.size() == batch || i + 1 == rows) {
      Status s = batch == 1 ? (*t)->Insert(pending[0]) : (*t)->InsertBatch(pending);
      if (!s.ok()) {
        std::cerr << "\nstrata bench insert: row " << i + 1 << ": " << s.ToString() << "\n";
        return kExitFailure;
      }
      pending.clear();
      progress.Update(i + 1);
    }
  }
  const double insert_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (Status s = unlogged ? (*db)->SetRedoLogging(true) : (*db)->Flush(); !s.ok()) {
    std::cerr << "strata bench insert: " << s.ToString() << "\n";
    return kExitFailure;
  }
  const double total_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();  // with the flush
  progress.Finish();
  const TableStats st = (*t)->stats();
  const auto file_bytes = std::filesystem::file_size((*t)->path());
  const double rate = static_cast<double>(rows) / insert_s;
  if (vm.count("json")) {
    nlohmann::json j = {{"keys", datasets::ToString(*keys)},
                        {"rows", rows},
                        {"batch", batch},
                        {"flush_log_at_trx_commit", flush_mode},
                        {"redo", !unlogged},
                        {"insert_seconds", insert_s},
                        {"seconds_with_flush", total_s},
                        {"rows_per_second", rate},
                        {"page_splits", st.page_splits},
                        {"file", (*t)->path().string()},
                        {"file_bytes", file_bytes}};
    std::cout << j.dump(2) << "\n";
    return kExitOk;
  }
  std::cout << fmt::format("inserted {} rows ({} keys, {} per call, {}) into {}.{}\n", rows, datasets::ToString(*keys),
                           batch, unlogged ? "redo disabled" : fmt::format("flush_log_at_trx_commit={}", flush_mode),
                           database, table)
            << fmt::format("  {:.2f} s, {:.0f} rows/s ({:.2f} s with the final flush)\n", insert_s, rate, total_s)
            << fmt::format("  {} page splits; {} is {:.1f} MiB\n", st.page_splits, (*t)->path().string(),
                           static_cast<double>(file_bytes) / (1 << 20))
            << fmt::format("  see how it filled: strata inspect index {}\n", (*t)->path().string());
  return kExitOk;
}

}  // namespace

std::vector<Command> BenchCommands() {
  return {{"insert", "insert generated sbtest rows keyed by a strategy; rows/s", BenchInsert},
          {"hotrow", "many sessions updating one row: default, early lock release, hot-row group commit", BenchHotRow},
          {"async-commit", "a loop of INSERT + COMMIT with async_commit off and on", BenchAsyncCommit}};
}

}  // namespace strata::cli
