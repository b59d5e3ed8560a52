#include "experiments/insert_bench.h"

#include <fmt/format.h>

#include <chrono>
#include <fstream>
#include <vector>

#include "engine/db.h"
#include "experiments/sbtest.h"

namespace strata::experiments {

using datasets::KeyStrategy;
using ondisk::Status;
using Clock = std::chrono::steady_clock;

namespace {

double Since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

engine::Value IdValue(KeyStrategy keys, const std::string& key) {
  if (keys == KeyStrategy::kAutoinc) return engine::Value::Null();  // the engine numbers the row
  if (keys == KeyStrategy::kSeq) return engine::Value::Int(static_cast<std::int64_t>(std::stoull(key)));
  return engine::Value::String(key);
}

}  // namespace

ondisk::Result<InsertBenchResult> RunInsertBench(const InsertBenchOptions& o, const RowsDoneFn& progress) {
  engine::DatabaseOptions d;
  d.buffer_pool_bytes = o.buffer_pool_bytes;
  d.flush_log_at_trx_commit = o.flush_log_at_trx_commit;
  auto db = engine::Database::Open(o.datadir, d);
  if (!db.ok()) return db.status();
  if (Status s = (*db)->CreateDatabase(o.database); !s.ok() && !s.IsAlreadyExists()) return s;
  SbtestShape shape;
  shape.keys = o.keys;
  auto table = (*db)->CreateTable(SbtestSpec(o.database, o.table, shape));
  if (!table.ok()) return table.status();
  if (o.disable_redo) {
    if (Status s = (*db)->SetRedoLogging(false); !s.ok()) return s;
  }
  std::ofstream tsv;
  if (o.rows_out) {
    tsv.open(*o.rows_out);
    if (!tsv) return Status::IoError(fmt::format("cannot write {}", o.rows_out->string()));
  }
  datasets::KeyGenerator keys(o.keys, o.seed);
  datasets::SbtestRowGenerator rows(o.rows, o.seed + 1);
  const std::uint64_t batch = std::max<std::uint64_t>(1, o.batch);
  std::vector<engine::Row> pending;
  const auto start = Clock::now();
  for (std::uint64_t i = 0; i < o.rows; ++i) {
    const std::string key = keys.Next();
    const datasets::SbtestRow r = rows.Next();
    pending.push_back(
        {IdValue(o.keys, key), engine::Value::UInt(r.k), engine::Value::String(r.c), engine::Value::String(r.pad)});
    if (tsv.is_open()) {
      tsv << (datasets::KeyGenerator::IsBinary(o.keys) ? datasets::ToHex(key) : key) << '\t' << r.k << '\t' << r.c
          << '\t' << r.pad << '\n';
    }
    if (pending.size() == batch || i + 1 == o.rows) {
      Status s = batch == 1 ? (*table)->Insert(pending[0]) : (*table)->InsertBatch(pending);
      if (!s.ok()) return s.WithContext(fmt::format("row {}", i + 1));
      pending.clear();
      if (progress) progress(i + 1);
    }
  }
  InsertBenchResult result;
  result.insert_seconds = Since(start);
  if (Status s = o.disable_redo ? (*db)->SetRedoLogging(true) : (*db)->Flush(); !s.ok()) return s;
  result.seconds_with_flush = Since(start);
  if (tsv.is_open() && !tsv.flush()) return Status::IoError(fmt::format("cannot write {}", o.rows_out->string()));
  result.rows_per_second = static_cast<double>(o.rows) / result.insert_seconds;
  result.page_splits = (*table)->stats().page_splits;
  result.file = (*table)->path();
  result.file_bytes = std::filesystem::file_size(result.file);
  return result;
}

}  // namespace strata::experiments
