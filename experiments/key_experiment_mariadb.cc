// The key experiment on a real MariaDB: a private server per strategy (scripts/mariadb/
// server.sh, fresh data directory, bound to 127.0.0.1), the same statements Strata ran sent
// through the mariadb client, and figures from the server itself: insert times from its
// clock (NOW(6) between chunks), page splits from INNODB_METRICS, leaf pages from
// mysql.innodb_index_stats after ANALYZE TABLE, COUNT(*) timed by the server after a restart.
// Page figures and maps come from the .ibd it wrote, read after its slow shutdown.
#include "experiments/key_experiment.h"

#include <fmt/format.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <thread>

namespace strata::experiments {

using ondisk::Result;
using ondisk::Status;

namespace {

std::string Quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// Runs a shell command; its stdout, or an error naming the command and its stderr's tail.
Result<std::string> Shell(const std::string& command, const std::filesystem::path& log) {
  const std::string full = command + " 2>>" + Quote(log.string());
  FILE* p = ::popen(full.c_str(), "r");
  if (!p) return Status::IoError("cannot run: " + command);
  std::string out;
  char buf[4096];
  for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
  const int rc = ::pclose(p);
  if (rc != 0) {
    std::ifstream in(log);
    std::stringstream ss;
    ss << in.rdbuf();
    std::string tail = ss.str();
    if (tail.size() > 600) tail = "..." + tail.substr(tail.size() - 600);
    return Status::IoError(fmt::format("{} failed (exit {}): {}", command, rc, tail));
  }
  return out;
}

// The lines of the client's batch output as numbers per line ("12345\t1764567890.123456").
std::vector<std::vector<double>> Numbers(const std::string& out) {
  std::vector<std::vector<double>> rows;
  std::istringstream in(out);
  for (std::string line; std::getline(in, line);) {
    std::vector<double> row;
    std::istringstream fields(line);
    for (std::string f; std::getline(fields, f, '\t');) {
      try {
        row.push_back(std::stod(f));
      } catch (const std::exception&) {
        row.push_back(0);
      }
    }
    rows.push_back(row);
  }
  return rows;
}

// The load: the statements Strata ran, a server timestamp after every sample's rows, the page
// splits counted at the end.
Status WriteLoadScript(const std::filesystem::path& path, const KeyExperimentOptions& options, KeyStrategy strategy,
                       const std::string& table) {
  std::ofstream sql(path, std::ios::binary);
  sql << fmt::format("CREATE DATABASE `{0}`;\nUSE `{0}`;\n{1};\n", options.database, CreateTableFor(options, strategy))
      << "SET GLOBAL innodb_monitor_enable = 'index_page_splits';\nSET GLOBAL innodb_monitor_reset_all = "
         "'index_page_splits';\n"
      << "SELECT 0, UNIX_TIMESTAMP(NOW(6));\n";
  ForEachInsert(options, strategy, table, [&](const std::string& statement, std::uint64_t done, bool sample) {
    sql << statement << ";\n";
    if (sample) sql << "SELECT " << done << ", UNIX_TIMESTAMP(NOW(6));\n";
    return true;
  });
  sql << "SELECT COUNT FROM information_schema.INNODB_METRICS WHERE NAME = 'index_page_splits';\n";
  if (!sql.flush()) return Status::IoError(path.string() + ": cannot write");
  return Status::Ok();
}

// The load script through the client, its marks followed for the progress bar; then the
// samples, the insert time and the page splits from the marks.
Status RunLoad(const std::string& client, const std::filesystem::path& workdir, const std::filesystem::path& log,
               const KeyProgressFn& progress, KeyRunResult& r) {
  const auto sql_path = workdir / "load.sql";
  const auto marks_path = workdir / "load.out";
  std::atomic<bool> loading{true};
  Result<std::string> loaded = std::string();
  std::thread load([&] {
    loaded = Shell(
        fmt::format("{} --unbuffered < {} | tee {}", client, Quote(sql_path.string()), Quote(marks_path.string())),
        log);
    loading = false;
  });
  while (loading) {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    if (!progress) continue;
    std::ifstream in(marks_path);
    std::string line, last;
    while (std::getline(in, line)) last = line;
    if (!last.empty()) progress({r.strategy, r.engine, "insert", static_cast<std::uint64_t>(std::atof(last.c_str()))});
  }
  load.join();
  if (!loaded.ok()) return loaded.status();
  const auto marks = Numbers(*loaded);
  if (marks.size() < 3 || marks.front().size() != 2)
    return Status::Corruption(marks_path.string() + ": no timestamps from the load");
  const double t0 = marks.front()[1];
  for (std::size_t i = 1; i + 1 < marks.size(); ++i) {
    if (marks[i].size() == 2) r.samples.push_back({static_cast<std::uint64_t>(marks[i][0]), marks[i][1] - t0});
  }
  r.insert_seconds = r.samples.empty() ? 0 : r.samples.back().seconds;
  r.page_splits = static_cast<std::uint64_t>(marks.back().at(0));
  return Status::Ok();
}

// The server's own count of the primary key's leaf pages (mysql.innodb_index_stats).
Status ReadServerLeafPages(const std::string& client, const std::string& database, const std::filesystem::path& log,
                           KeyRunResult& r) {
  auto stats =
      Shell(client + fmt::format(" -e \"ANALYZE TABLE \\`{0}\\`.\\`{1}\\`\" >/dev/null; ", database, r.table) + client +
                fmt::format(" -e \"SELECT stat_value FROM mysql.innodb_index_stats WHERE database_name = '{}' AND "
                            "table_name = '{}' AND index_name = 'PRIMARY' AND stat_name = 'n_leaf_pages'\"",
                            database, r.table),
            log);
  if (!stats.ok()) return stats.status();
  const auto leaves = Numbers(*stats);
  if (leaves.size() != 1 || leaves[0].size() != 1)
    return Status::Corruption("unexpected n_leaf_pages output: " + *stats);
  r.server_leaf_pages = static_cast<std::uint64_t>(leaves[0][0]);
  return Status::Ok();
}

// COUNT(*) twice, timed by the server's clock between the statements: cold, then warm.
Status CountColdAndWarm(const std::string& client, const std::string& database, const std::filesystem::path& log,
                        KeyRunResult& r) {
  const std::string count = fmt::format("SELECT COUNT(*) FROM \\`{}\\`.\\`{}\\`", database, r.table);
  auto counted = Shell(
      fmt::format("{0} -e \"SELECT 0, UNIX_TIMESTAMP(NOW(6)); {1}; SELECT 0, UNIX_TIMESTAMP(NOW(6)); {1}; SELECT 0, "
                  "UNIX_TIMESTAMP(NOW(6))\"",
                  client, count),
      log);
  if (!counted.ok()) return counted.status();
  const auto times = Numbers(*counted);
  if (times.size() != 5 || times[0].size() != 2 || times[2].size() != 2 || times[4].size() != 2)
    return Status::Corruption("unexpected COUNT(*) output: " + *counted);
  r.count = static_cast<std::uint64_t>(times[1][0]);
  r.count_cold_seconds = times[2][1] - times[0][1];
  r.count_warm_seconds = times[4][1] - times[2][1];
  return Status::Ok();
}

}  // namespace

Result<KeyRunResult> RunMariadbKeys(const std::filesystem::path& workdir, KeyStrategy strategy,
                                    const KeyExperimentOptions& options, const MariadbOptions& server,
                                    const KeyProgressFn& progress, std::string* version) {
  KeyRunResult r;
  r.engine = "mariadb";
  r.strategy = strategy;
  r.table = DefaultTableName(strategy);
  std::error_code ec;
  std::filesystem::remove_all(workdir, ec);
  std::filesystem::create_directories(workdir, ec);
  if (ec) return Status::IoError(workdir.string() + ": " + ec.message());
  r.file = workdir / "data" / options.database / (r.table + ".ibd");
  const auto log = workdir / "experiment.log";
  const std::string script = Quote(server.script.string()), dir = Quote(workdir.string());
  const std::string start = fmt::format(
      "{} start {} {} --innodb-buffer-pool-size={} --innodb-log-file-size=96M --innodb-flush-log-at-trx-commit={} "
      ">/dev/null",
      script, dir, server.port, options.buffer_pool_bytes, options.flush_log_at_trx_commit);
  const std::string client = fmt::format("{} sql {} --batch --skip-column-names", script, dir);
  struct Stop {  // the server goes down however this ends
    std::string command;
    bool running = false;
    ~Stop() {
      if (running) std::system((command + " >/dev/null 2>&1").c_str());
    }
  } stop{fmt::format("{} stop {}", script, dir)};

  if (auto s = Shell(start, log); !s.ok()) return s.status();
  stop.running = true;
  auto v = Shell(client + " -e 'SELECT VERSION()'", log);
  if (!v.ok()) return v.status();
  if (version) *version = "MariaDB " + v->substr(0, v->find('\n'));
  STRATA_RETURN_IF_ERROR(WriteLoadScript(workdir / "load.sql", options, strategy, r.table));
  STRATA_RETURN_IF_ERROR(RunLoad(client, workdir, log, progress, r));
  STRATA_RETURN_IF_ERROR(ReadServerLeafPages(client, options.database, log, r));

  // COUNT(*) after a restart (its buffer pool empty; the file out of the OS cache too).
  if (progress) progress({strategy, r.engine, "count", options.rows});
  if (auto s = Shell(stop.command + " >/dev/null", log); !s.ok()) return s.status();
  stop.running = false;
  EvictFromPageCache(r.file);
  if (auto s = Shell(start, log); !s.ok()) return s.status();
  stop.running = true;
  STRATA_RETURN_IF_ERROR(CountColdAndWarm(client, options.database, log, r));

  // A slow shutdown writes every page; then the file is read as Strata's are.
  if (auto s = Shell(stop.command + " >/dev/null", log); !s.ok()) return s.status();
  stop.running = false;
  if (Status s = ReadPageFigures(r, /*server_dictionary=*/true); !s.ok()) return s;
  if (progress) progress({strategy, r.engine, "done", options.rows});
  return r;
}

}  // namespace strata::experiments
