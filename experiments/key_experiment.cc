#include "experiments/key_experiment.h"

#include <fcntl.h>
#include <unistd.h>

#include <fmt/format.h>

#include <chrono>

#include "engine/db.h"
#include "experiments/run_sql.h"
#include "sql/session.h"
#include "inspect/schema.h"
#include "inspect/space_file.h"
#include "inspect/summary.h"
#include "inspect/sys_dictionary.h"
#include "ondisk/index_page.h"

namespace strata::experiments {

using ondisk::Result;
using ondisk::Status;
using Clock = std::chrono::steady_clock;

std::vector<KeyStrategy> StudyStrategies() {
  return {KeyStrategy::kAutoinc, KeyStrategy::kSeq, KeyStrategy::kUuid, KeyStrategy::kUlid};
}

namespace {

using FirstValue = sql::FirstValueSink;

double Since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

engine::DatabaseOptions EngineOptions(const KeyExperimentOptions& o) {
  engine::DatabaseOptions d;
  d.buffer_pool_bytes = o.buffer_pool_bytes;
  d.flush_log_at_trx_commit = o.flush_log_at_trx_commit;
  return d;
}

}  // namespace

std::string CreateTableFor(const KeyExperimentOptions& options, KeyStrategy strategy) {
  DumpOptions shape;
  shape.keys = strategy;
  shape.shape = options.shape;
  return CreateTableStatement(shape);
}

void ForEachInsert(const KeyExperimentOptions& options, KeyStrategy strategy, const std::string& table,
                   const std::function<bool(const std::string&, std::uint64_t, bool)>& fn) {
  RowTuples tuples(strategy, options.shape, options.rows, options.seed);
  const std::uint64_t batch = std::max<std::uint64_t>(1, options.batch);
  const std::uint64_t every = std::max<std::uint64_t>(1, options.rows / std::max<std::uint32_t>(1, options.samples));
  const std::string head = fmt::format("INSERT INTO `{}` VALUES ", table);
  std::uint64_t next_sample = every;
  std::string statement;
  for (std::uint64_t done = 0; done < options.rows;) {
    const std::uint64_t n = std::min({batch, options.rows - done, next_sample - done});
    statement = head;
    for (std::uint64_t i = 0; i < n; ++i) {
      if (i) statement += ',';
      statement += tuples.Next(/*autoinc_as_null=*/true);
    }
    done += n;
    const bool sample = done == next_sample || done == options.rows;
    if (sample) next_sample = std::min(options.rows, done + every);
    if (!fn(statement, done, sample)) return;
  }
}

void EvictFromPageCache(const std::filesystem::path& file) {
  const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return;
  ::fdatasync(fd);  // only clean pages can be dropped
  ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
  ::close(fd);
}

Result<KeyRunResult> RunStrataKeys(const std::filesystem::path& datadir, KeyStrategy strategy,
                                   const KeyExperimentOptions& options, const KeyProgressFn& progress) {
  KeyRunResult r;
  r.engine = "strata";
  r.strategy = strategy;
  r.table = DefaultTableName(strategy);
  r.file = datadir / options.database / (r.table + ".ibd");
  {
    auto db = engine::Database::Open(datadir, EngineOptions(options));
    if (!db.ok()) return db.status();
    sql::Session session(**db);
    for (const std::string& text : {fmt::format("CREATE DATABASE `{}`", options.database),
                                    fmt::format("USE `{}`", options.database), CreateTableFor(options, strategy)}) {
      if (Status s = RunSql(session, text); !s.ok()) return s;
    }
    Status failed;
    const auto start = Clock::now();
    ForEachInsert(options, strategy, r.table, [&](const std::string& statement, std::uint64_t done, bool sample) {
      if (failed = RunSql(session, statement); !failed.ok()) {
        failed = failed.WithContext(fmt::format("{} rows in", done));
        return false;
      }
      if (sample) {
        r.samples.push_back({done, Since(start)});
        if (progress) progress({strategy, r.engine, "insert", done});
      }
      return true;
    });
    if (!failed.ok()) return failed;
    r.insert_seconds = Since(start);
    auto table = (*db)->GetTable(options.database, r.table);
    if (!table.ok()) return table.status();
    r.page_splits = (*table)->stats().page_splits;
  }  // a clean shutdown: every page written, the log checkpointed

  if (progress) progress({strategy, r.engine, "count", options.rows});
  EvictFromPageCache(r.file);
  {
    auto db = engine::Database::Open(datadir, EngineOptions(options));
    if (!db.ok()) return db.status();
    sql::Session session(**db);
    const std::string count = fmt::format("SELECT COUNT(*) FROM `{}`.`{}`", options.database, r.table);
    for (double* seconds : {&r.count_cold_seconds, &r.count_warm_seconds}) {
      FirstValue answer;
      const auto start = Clock::now();
      if (Status s = RunSql(session, count, &answer); !s.ok()) return s;
      *seconds = Since(start);
      const std::string got = answer.value.value_or("");
      if (got.empty() || got.find_first_not_of("0123456789") != std::string::npos) {
        return Status::Corruption(count + " returned '" + got + "'");
      }
      r.count = std::stoull(got);
    }
  }
  if (Status s = ReadPageFigures(r); !s.ok()) return s;
  if (progress) progress({strategy, r.engine, "done", options.rows});
  return r;
}

Status ReadPageFigures(KeyRunResult& r, bool server_dictionary) {
  std::vector<inspect::Finding> findings;
  std::vector<inspect::SpaceFile> files = inspect::OpenSpaces({r.file}, &findings);
  if (files.empty()) {
    return Status::IoError(findings.empty() ? r.file.string() + ": cannot open" : findings.front().ToString());
  }
  const inspect::SpaceFile& f = files.front();
  inspect::ServerDictionaries servers;
  const inspect::Dictionary* names = server_dictionary ? servers.For(f) : nullptr;
  const inspect::SpaceSummary s = inspect::Summarize(f, names);
  r.file_bytes = std::filesystem::file_size(r.file);
  r.pages = s.pages;
  // The table's own indexes (not the SDI's tree of table definitions). The clustered one:
  // PRIMARY by name, else the first created (the lowest id).
  std::vector<const inspect::IndexSummary*> indexes;
  for (const auto& ix : s.indexes) {
    if (ix.index_id != ondisk::kSdiIndexId) indexes.push_back(&ix);
  }
  if (indexes.empty()) return Status::Corruption(r.file.string() + ": no index pages");
  const inspect::IndexSummary* clustered = indexes.front();
  for (const auto* ix : indexes) {
    if (ix->name == "PRIMARY") clustered = ix;
  }
  r.data_pages = clustered->leaf_pages + clustered->nonleaf_pages;
  r.leaf_pages = clustered->leaf_pages;
  r.levels = clustered->levels;
  r.records = clustered->records;
  r.avg_leaf_fill = clustered->avg_leaf_fill;
  r.index_pages = 0;
  for (const auto* ix : indexes) {
    if (ix != clustered) r.index_pages += ix->leaf_pages + ix->nonleaf_pages;
  }
  return Status::Ok();
}

}  // namespace strata::experiments
