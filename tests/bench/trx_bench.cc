// What transactions cost in Strata's engine on this machine, printed as Markdown tables:
//
//  1. A sysbench oltp_update-like mix on
//        sbtest1(id BIGINT PRIMARY KEY, k INT UNSIGNED, c CHAR(120), pad CHAR(60), KEY k_1(k))
//     loaded with STRATA_BENCH_TRX_ROWS (default 100,000) rows (InsertBatch, 1000 rows a call).
//     Each transaction, REPEATABLE READ:
//        BEGIN;
//        SELECT * FROM sbtest1 WHERE id = ?;                      -- Get(id), a consistent read
//        UPDATE sbtest1 SET k = k + 1 WHERE id = ?;               -- Get(id, FOR UPDATE), Update: the indexed k changes
//        UPDATE sbtest1 SET c = ? WHERE id = ?;                   -- another id: Get(FOR UPDATE), Update: no index changes
//        COMMIT;
//     with ids uniform over the table, from STRATA_BENCH_TRX_THREADS (default 1,8,50) threads
//     for STRATA_BENCH_TRX_SECONDS (default 5) each, with flush_log_at_trx_commit=1 and =2, the
//     background purge thread on (STRATA_BENCH_TRX_PURGE=0: off). A deadlock victim (already rolled back) and a lock wait
//     timeout (rolled back here) are retried with a new transaction. Reports transactions/s,
//     the latency of a whole transaction (first BEGIN to the COMMIT that succeeded, retries
//     included) p50/p99, deadlocks, lock waits, timeouts, the history list length when the
//     threads stop, and how long Purge() then takes to empty it. Every line reopens the same
//     loaded directory (one load for all lines; the history is purged and the database closed
//     between lines) and warms the buffer pool with a scan; sum(k) is checked after each line
//     against the number of k = k + 1 updates that committed.
//  2. Purge throughput: on a copy of the loaded directory with the purge thread off
//     (purge=false) and flush_log_at_trx_commit=2, a REPEATABLE READ view is held open
//     (consistent snapshot + one read) while STRATA_BENCH_PURGE_TRX (default 100,000)
//     autocommit single-row updates of random rows (every other one changes k, the others c)
//     and STRATA_BENCH_PURGE_DELETES (default 20,000) autocommit deletes of distinct random rows
//     run; then the view commits and Database::Purge() is timed. Reports undo logs and undo
//     records purged per second and the history list length before and after; then checks the
//     row count and Table::Check().
//  3. Memory of the lock table: in a fresh process (this program exec'd with --locks), one
//     REPEATABLE READ transaction locks N rows (STRATA_BENCH_LOCK_ROWS, default
//     1000,10000,100000, capped at the table's rows) with Get(id, FOR UPDATE) on ids 1..N, or with
//     a locking Scan (FOR UPDATE, next-key locks) of the first N rows. Reports
//     StatusReport().locks (entries and memory_bytes, the lock table's own estimate) and bytes
//     per lock, and the process's RSS growth (/proc/self/statm, after malloc_trim) per lock.
//  4. SQLite, same run, same table shape (INTEGER PRIMARY KEY, k with an index, c, pad) and row
//     count, the same transaction from one thread (a SELECT by id, UPDATE SET k=k+1, UPDATE SET
//     c=?, in BEGIN/COMMIT) with journal_mode=WAL and synchronous=FULL (against
//     flush_log_at_trx_commit=1) and synchronous=NORMAL (against 2), locking_mode=EXCLUSIVE (Strata
//     holds its data directory too), cache_size as large as Strata's buffer pool. Only when the
//     build found SQLite (STRATA_BENCH_HAVE_SQLITE).
//
// Everything runs under STRATA_BENCH_DIR (default: the system's temporary directory, /tmp).
// STRATA_BENCH_ONLY=mix,purge,locks,sqlite runs a subset. STRATA_BENCH_TRX_POOL_MIB (128) sets
// the buffer pool. Run through tests/bench/trx_bench.sh, which builds it and keeps a copy of
// the output.
#include <fcntl.h>
#include <malloc.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cinttypes>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <mutex>
#include <numeric>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "engine/db.h"
#include "experiments/sbtest.h"

#ifdef STRATA_BENCH_HAVE_SQLITE
#include "sqlite_util.h"
#endif

#include "bench_util.h"

namespace {

using namespace strata::bench;  // NOLINT: the shared helpers read as this file's own

namespace fs = std::filesystem;
using strata::engine::Charset;
using strata::engine::Column;
using strata::engine::ColumnType;
using strata::engine::Database;
using strata::engine::DatabaseOptions;
using strata::engine::EngineStatus;
using strata::engine::IndexSpec;
using strata::engine::Isolation;
using strata::engine::LockStats;
using strata::engine::RedoStats;
using strata::engine::Row;
using strata::engine::RowLock;
using strata::engine::ScanOptions;
using strata::engine::Status;
using strata::engine::Table;
using strata::engine::TableSpec;
using strata::engine::Transaction;
using strata::engine::TransactionOptions;
using strata::engine::Value;
using Clock = std::chrono::steady_clock;

// ---------------------------------------------------------------------------------------------
// Helpers

// Resident set size from /proc/self/statm, in bytes.
std::uint64_t RssBytes() {
  std::ifstream in("/proc/self/statm");
  std::uint64_t size = 0, resident = 0;
  in >> size >> resident;
  return resident * static_cast<std::uint64_t>(::sysconf(_SC_PAGE_SIZE));
}

// sysbench's c and pad: groups of 11 random digits joined by '-' (119 and 59 characters).
std::string DigitGroups(std::mt19937_64& rng, int groups) {
  std::string s;
  s.reserve(static_cast<std::size_t>(groups) * 12);
  for (int g = 0; g < groups; ++g) {
    if (g > 0) s += '-';
    for (int i = 0; i < 11; ++i) s += static_cast<char>('0' + rng() % 10);
  }
  return s;
}

// sysbench's sbtest1 with its secondary index k_1 and sysbench's own BIGINT id.
TableSpec SbtestSpec() {
  strata::experiments::SbtestShape shape;
  shape.bigint_id = true;
  return strata::experiments::SbtestSpec("bench", "sbtest1", shape);
}

std::uint64_t KOf(const Row& row) {
  const Value& v = row[1];
  if (v.is_uint()) return v.as_uint();
  if (v.is_int()) return static_cast<std::uint64_t>(v.as_int());
  Die("column k is neither an integer nor an unsigned integer");
}

struct OpenDb {
  std::unique_ptr<Database> db;
  Table* table = nullptr;
};

OpenDb OpenExisting(const fs::path& dir, const DatabaseOptions& opts) {
  OpenDb out;
  auto db = Database::Open(dir, opts);
  if (!db.ok()) Die("Database::Open " + dir.string() + ": " + db.status().ToString());
  out.db = std::move(*db);
  auto t = out.db->GetTable("bench", "sbtest1");
  if (!t.ok()) Die("GetTable bench.sbtest1: " + t.status().ToString());
  out.table = *t;
  return out;
}

struct TableSums {
  std::uint64_t rows = 0, sum_k = 0;
};

// A full scan of an index (a consistent read of its own autocommit transaction): the row
// count and sum(k). Also what warms the buffer pool.
TableSums ScanSums(Table* table, const std::string& index = "PRIMARY") {
  TableSums s;
  ScanOptions o;
  o.index = index;
  Status st = table->Scan(o, [&](const Row& r) {
    ++s.rows;
    s.sum_k += KOf(r);
    return true;
  });
  if (!st.ok()) Die("Scan of " + index + ": " + st.ToString());
  return s;
}

// Loads `rows` sysbench rows (ids 1..rows) into a new database in `dir`, and closes it.
double LoadBase(const fs::path& dir, std::uint64_t rows, std::uint64_t pool_bytes) {
  DatabaseOptions opts;
  opts.buffer_pool_bytes = pool_bytes;
  opts.flush_log_at_trx_commit = 2;
  auto db = Database::Open(dir, opts);
  if (!db.ok()) Die("Database::Open " + dir.string() + ": " + db.status().ToString());
  if (auto st = (*db)->CreateDatabase("bench"); !st.ok()) Die("CreateDatabase: " + st.ToString());
  auto t = (*db)->CreateTable(SbtestSpec());
  if (!t.ok()) Die("CreateTable: " + t.status().ToString());
  Table* table = *t;
  std::mt19937_64 rng(20240131);
  const auto start = Clock::now();
  constexpr std::uint64_t kBatch = 1000;
  std::vector<Row> batch;
  batch.reserve(kBatch);
  for (std::uint64_t id = 1; id <= rows;) {
    batch.clear();
    for (; id <= rows && batch.size() < kBatch; ++id) {
      batch.push_back({Value::Int(static_cast<std::int64_t>(id)), Value::UInt(1 + rng() % rows),
                       Value::String(DigitGroups(rng, 10)), Value::String(DigitGroups(rng, 5))});
    }
    if (auto st = table->InsertBatch(batch); !st.ok())
      Die("InsertBatch ending at id " + std::to_string(id - 1) + ": " + st.ToString());
  }
  if (auto st = (*db)->Flush(); !st.ok()) Die("Flush: " + st.ToString());
  const double s = Seconds(Clock::now() - start);
  db->reset();
  return s;
}

void CopyDir(const fs::path& from, const fs::path& to) {
  std::error_code ec;
  fs::copy(from, to, fs::copy_options::recursive, ec);
  if (ec) Die("copying " + from.string() + " to " + to.string() + ": " + ec.message());
}

// Waits for `done` to reach `n`, and says so when it takes far longer than it should: every
// 30 s it prints a note and, from a thread of its own (the engine may be stuck in a way that
// blocks StatusReport too), the engine's TRANSACTIONS status; after STRATA_BENCH_HANG_SECONDS
// (300) it aborts, leaving the window before that for gdb -p.
void WaitOrReportHang(const std::atomic<int>& done, int n, Database* db, const std::string& what) {
  const auto start = Clock::now();
  const double hang_s = static_cast<double>(EnvU64("STRATA_BENCH_HANG_SECONDS", 300));
  double next_report = 30;
  std::thread reporter;
  std::atomic<bool> reporting{false};
  while (done.load() < n) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    const double waited = Seconds(Clock::now() - start);
    if (waited >= next_report) {
      Progress(what + ": " + std::to_string(n - done.load()) + " of " + std::to_string(n) + " threads still running " +
               Fixed(waited, 0) + " s after the stop: a hang? (pid " + std::to_string(::getpid()) +
               ", gdb -p it); aborting at " + Fixed(hang_s, 0) + " s");
      if (!reporting.load()) {
        if (reporter.joinable()) reporter.join();
        reporting = true;
        reporter = std::thread([db, &reporting] {
          const std::string status = db->StatusReport().Render();
          Progress("engine status:\n" + status);
          reporting = false;
        });
      } else {
        Progress("(the engine status asked for before has not come back: StatusReport() is blocked too)");
      }
      next_report += 30;
    }
    if (waited >= hang_s) {
      Progress(what + ": giving up on the hang; aborting");
      std::abort();
    }
  }
  if (reporter.joinable()) reporter.join();
}

// ---------------------------------------------------------------------------------------------
// 1. The point-update mix

struct MixResult {
  int threads = 0;
  int flush_mode = 1;
  std::uint64_t commits = 0;
  double seconds = 0;
  double p50_us = 0, p99_us = 0, max_us = 0;
  std::uint64_t deadlocks = 0, timeouts = 0;  // retried transactions, as the threads saw them
  LockStats locks;                            // the lock system's counters during the run
  std::uint64_t history_at_stop = 0;          // history list length right after the threads stopped
  std::uint64_t history_peak = 0;             // largest seen while running (sampled every 100 ms)
  double drain_seconds = 0;                   // Purge() to empty the history after the run
  std::uint64_t drained_logs = 0;
  std::uint64_t redo_fsyncs = 0;
  bool sum_ok = true;
};

struct MixConfig {
  int threads = 1;
  int flush_mode = 1;
  double seconds = 5;
  std::uint64_t rows = 0;
  std::uint64_t pool_bytes = 0;
  bool purge = true;  // the background purge thread
};

MixResult RunMix(const fs::path& base, const MixConfig& cfg, std::uint64_t seed) {
  DatabaseOptions opts;
  opts.buffer_pool_bytes = cfg.pool_bytes;
  opts.flush_log_at_trx_commit = cfg.flush_mode;
  opts.purge = cfg.purge;
  OpenDb o = OpenExisting(base, opts);
  // Warm the buffer pool (both indexes) and take sum(k) before.
  const TableSums before = ScanSums(o.table);
  (void)ScanSums(o.table, "k_1");
  if (before.rows != cfg.rows)
    Die("the loaded table has " + std::to_string(before.rows) + " rows, not " + std::to_string(cfg.rows));

  const int threads = cfg.threads;
  std::vector<std::vector<double>> lat(static_cast<std::size_t>(threads));
  std::vector<std::uint64_t> deadlocks(static_cast<std::size_t>(threads)), timeouts(static_cast<std::size_t>(threads));
  std::atomic<int> ready{0}, done{0};
  std::atomic<bool> go{false}, stop{false}, failed{false};
  std::string failure;
  std::mutex failure_mu;
  auto fail = [&](const std::string& what) {
    std::lock_guard l(failure_mu);
    if (!failed.exchange(true)) failure = what;
    stop.store(true);
  };
  Table* table = o.table;
  Database* db = o.db.get();
  const std::uint64_t rows = cfg.rows;
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) {
    pool.emplace_back([&, t] {
      std::mt19937_64 rng(seed * 7919 + static_cast<std::uint64_t>(t));
      auto& mine = lat[static_cast<std::size_t>(t)];
      mine.reserve(1 << 16);
      ready.fetch_add(1);
      while (!go.load(std::memory_order_acquire)) std::this_thread::yield();
      while (!stop.load(std::memory_order_relaxed)) {
        const std::int64_t id_select = static_cast<std::int64_t>(1 + rng() % rows);
        const std::int64_t id_index = static_cast<std::int64_t>(1 + rng() % rows);
        const std::int64_t id_plain = static_cast<std::int64_t>(1 + rng() % rows);
        const std::string new_c = DigitGroups(rng, 10);
        const auto t0 = Clock::now();
        bool committed = false;
        for (;;) {  // until it commits
          auto trx = db->Begin(TransactionOptions{Isolation::kRepeatableRead});
          if (!trx.ok()) return fail("Begin: " + trx.status().ToString());
          Transaction* x = trx->get();
          Status s;
          // SELECT c FROM sbtest1 WHERE id = ?
          auto sel = table->Get({Value::Int(id_select)}, x);
          if (!sel.ok())
            s = sel.status();
          else if (!sel->has_value())
            return fail("point select: no row " + std::to_string(id_select));
          // UPDATE sbtest1 SET k = k + 1 WHERE id = ?
          if (s.ok()) {
            auto r = table->Get({Value::Int(id_index)}, x, RowLock::kExclusive);
            if (!r.ok())
              s = r.status();
            else if (!r->has_value())
              return fail("k update: no row " + std::to_string(id_index));
            else {
              Row row = std::move(**r);
              row[1] = Value::UInt(KOf(row) + 1);
              s = table->Update(row, x);
            }
          }
          // UPDATE sbtest1 SET c = ? WHERE id = ?
          if (s.ok()) {
            auto r = table->Get({Value::Int(id_plain)}, x, RowLock::kExclusive);
            if (!r.ok())
              s = r.status();
            else if (!r->has_value())
              return fail("c update: no row " + std::to_string(id_plain));
            else {
              Row row = std::move(**r);
              row[2] = Value::String(new_c);
              s = table->Update(row, x);
            }
          }
          if (s.ok()) s = x->Commit();
          if (s.ok()) {
            committed = true;
            break;
          }
          if (s.IsDeadlock()) {
            ++deadlocks[static_cast<std::size_t>(t)];  // the engine rolled it back already
          } else if (s.IsLockWaitTimeout()) {
            ++timeouts[static_cast<std::size_t>(t)];
            if (Status r = x->Rollback(); !r.ok()) return fail("Rollback after a lock wait timeout: " + r.ToString());
          } else {
            return fail("transaction: " + s.ToString());
          }
          if (stop.load(std::memory_order_relaxed)) break;  // not retried past the end
        }
        if (!committed) break;  // a retry cut short by the stop
        mine.push_back(std::chrono::duration<double, std::micro>(Clock::now() - t0).count());
      }
    });
  }
  // One latency per committed transaction: their count is the commits (checked against sum(k)).
  while (ready.load() < threads) std::this_thread::yield();
  const LockStats locks_before = db->StatusReport().locks;
  const RedoStats redo_before = db->redo_stats();
  const auto start = Clock::now();
  go.store(true, std::memory_order_release);
  std::uint64_t history_peak = 0;
  const auto deadline = start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(cfg.seconds));
  while (Clock::now() < deadline && !failed.load()) {
    std::this_thread::sleep_for(std::min<Clock::duration>(std::chrono::milliseconds(100), deadline - Clock::now()));
    history_peak = std::max(history_peak, db->history_list_length());
  }
  stop.store(true);
  // Join with a watch for hangs.
  std::vector<std::thread> joiners;
  for (auto& th : pool) {
    joiners.emplace_back([&th, &done] {
      th.join();
      done.fetch_add(1);
    });
  }
  WaitOrReportHang(done, threads, db,
                   std::to_string(threads) + " threads, flush_log_at_trx_commit=" + std::to_string(cfg.flush_mode));
  for (auto& j : joiners) j.join();
  const double seconds = Seconds(Clock::now() - start);
  MixResult r;
  r.history_at_stop = db->history_list_length();
  r.history_peak = std::max(history_peak, r.history_at_stop);
  const EngineStatus st = db->StatusReport();
  const RedoStats redo_after = db->redo_stats();
  if (failed)
    Die(std::to_string(threads) + " threads, flush_log_at_trx_commit=" + std::to_string(cfg.flush_mode) + ": " +
        failure);
  r.threads = threads;
  r.flush_mode = cfg.flush_mode;
  r.seconds = seconds;
  r.locks.locks = st.locks.locks;
  r.locks.waits = st.locks.waits - locks_before.waits;
  r.locks.timeouts = st.locks.timeouts - locks_before.timeouts;
  r.locks.deadlocks = st.locks.deadlocks - locks_before.deadlocks;
  r.redo_fsyncs = redo_after.fsyncs - redo_before.fsyncs;
  std::vector<double> all;
  for (auto& v : lat) all.insert(all.end(), v.begin(), v.end());
  std::sort(all.begin(), all.end());
  r.commits = all.size();
  r.p50_us = Percentile(all, 0.5);
  r.p99_us = Percentile(all, 0.99);
  r.max_us = all.empty() ? 0 : all.back();
  for (int t = 0; t < threads; ++t) {
    r.deadlocks += deadlocks[static_cast<std::size_t>(t)];
    r.timeouts += timeouts[static_cast<std::size_t>(t)];
  }
  // Empty the history (so that the next line starts from none), then check sum(k).
  const auto drain_start = Clock::now();
  auto purged = db->Purge();
  if (!purged.ok()) Die("Purge after the run: " + purged.status().ToString());
  r.drain_seconds = Seconds(Clock::now() - drain_start);
  r.drained_logs = *purged;
  if (db->history_list_length() != 0) {
    Progress("warning: the history list still has " + std::to_string(db->history_list_length()) +
             " logs after Purge() with no transaction open");
  }
  const TableSums after = ScanSums(table);
  const TableSums after_k = ScanSums(table, "k_1");
  r.sum_ok = after.rows == rows && after_k.rows == rows && after.sum_k == before.sum_k + r.commits &&
             after_k.sum_k == after.sum_k;
  if (!r.sum_ok) {
    Progress("WRONG RESULT: " + std::to_string(r.commits) +
             " transactions committed, each k = k + 1 once, but sum(k) went from " + std::to_string(before.sum_k) +
             " to " + std::to_string(after.sum_k) + " (PRIMARY, " + std::to_string(after.rows) + " rows) / " +
             std::to_string(after_k.sum_k) + " (k_1, " + std::to_string(after_k.rows) + " rows)");
  }
  o.db.reset();
  return r;
}

// ---------------------------------------------------------------------------------------------
// 2. Purge throughput

struct PurgeResult {
  std::uint64_t updates = 0, deletes = 0;
  double churn_seconds = 0;
  std::uint64_t history_before = 0, history_after = 0;
  std::uint64_t logs = 0, records = 0;
  double purge_seconds = 0;
  std::uint64_t rows_after = 0;
  bool rows_ok = true, check_ok = true;
  std::string check_error;
};

PurgeResult MeasurePurge(const fs::path& base, std::uint64_t rows, std::uint64_t pool_bytes, std::uint64_t n_updates,
                         std::uint64_t n_deletes) {
  PurgeResult res;
  TempDir dir("purge");
  const fs::path data = dir.path() / "data";
  CopyDir(base, data);
  DatabaseOptions opts;
  opts.buffer_pool_bytes = pool_bytes;
  opts.flush_log_at_trx_commit = 2;
  opts.purge = false;
  OpenDb o = OpenExisting(data, opts);
  (void)ScanSums(o.table);
  (void)ScanSums(o.table, "k_1");
  if (auto p = o.db->Purge(); !p.ok()) Die("Purge before: " + p.status().ToString());

  // The view that holds purge back.
  auto view = o.db->Begin(TransactionOptions{Isolation::kRepeatableRead, true});
  if (!view.ok()) Die("Begin: " + view.status().ToString());
  if (auto r = o.table->Get({Value::Int(1)}, view->get()); !r.ok() || !r->has_value())
    Die("the view's read of row 1 failed");

  std::mt19937_64 rng(4242);
  n_deletes = std::min(n_deletes, rows);
  const auto churn_start = Clock::now();
  for (std::uint64_t i = 0; i < n_updates; ++i) {
    const std::int64_t id = static_cast<std::int64_t>(1 + rng() % rows);
    auto r = o.table->Get({Value::Int(id)});
    if (!r.ok() || !r->has_value())
      Die("purge: reading row " + std::to_string(id) + ": " + (r.ok() ? "missing" : r.status().ToString()));
    Row row = std::move(**r);
    if (i % 2 == 0) {
      row[1] = Value::UInt(KOf(row) + 1);  // the indexed column: a delete-marked k_1 entry and a new one
    } else {
      row[2] = Value::String(DigitGroups(rng, 10));
    }
    if (auto st = o.table->Update(row); !st.ok())
      Die("purge: Update of row " + std::to_string(id) + ": " + st.ToString());
    ++res.updates;
  }
  std::vector<std::int64_t> ids(rows);
  std::iota(ids.begin(), ids.end(), 1);
  std::shuffle(ids.begin(), ids.end(), rng);
  for (std::uint64_t i = 0; i < n_deletes; ++i) {
    if (auto st = o.table->Delete({Value::Int(ids[i])}); !st.ok())
      Die("purge: Delete of row " + std::to_string(ids[i]) + ": " + st.ToString());
    ++res.deletes;
  }
  res.churn_seconds = Seconds(Clock::now() - churn_start);

  res.history_before = o.db->history_list_length();
  // With the view still open purge may remove nothing of this history.
  if (auto p = o.db->Purge(); !p.ok()) {
    Die("Purge with the view open: " + p.status().ToString());
  } else if (*p != 0) {
    Progress("WRONG RESULT?: Purge() removed " + std::to_string(*p) + " undo logs while an older read view was open");
  }
  if (auto st = (*view)->Commit(); !st.ok()) Die("commit of the view: " + st.ToString());
  const EngineStatus before = o.db->StatusReport();
  const auto start = Clock::now();
  auto purged = o.db->Purge();
  res.purge_seconds = Seconds(Clock::now() - start);
  if (!purged.ok()) Die("Purge: " + purged.status().ToString());
  const EngineStatus after = o.db->StatusReport();
  res.logs = *purged;
  res.records = after.purged_records - before.purged_records;
  if (after.purged_logs - before.purged_logs != res.logs) {
    Progress("note: Purge() returned " + std::to_string(res.logs) + " but purged_logs grew by " +
             std::to_string(after.purged_logs - before.purged_logs));
  }
  res.history_after = o.db->history_list_length();
  const TableSums s = ScanSums(o.table);
  const TableSums sk = ScanSums(o.table, "k_1");
  res.rows_after = s.rows;
  res.rows_ok = s.rows == rows - res.deletes && sk.rows == s.rows && sk.sum_k == s.sum_k;
  if (!res.rows_ok) {
    Progress("WRONG RESULT: after purge PRIMARY has " + std::to_string(s.rows) + " rows (sum k " +
             std::to_string(s.sum_k) + "), k_1 " + std::to_string(sk.rows) + " (sum k " + std::to_string(sk.sum_k) +
             "); expected " + std::to_string(rows - res.deletes));
  }
  if (Status c = o.table->Check(); !c.ok()) {
    res.check_ok = false;
    res.check_error = c.ToString();
    Progress("Table::Check after purge: " + c.ToString());
  }
  return res;
}

// ---------------------------------------------------------------------------------------------
// 3. Lock memory (in a fresh process each)

struct LockResult {
  std::uint64_t n = 0;
  std::string method;
  std::uint64_t locks = 0, memory_bytes = 0;
  std::int64_t rss_growth = 0;
  double seconds = 0;
  std::uint64_t locks_after_commit = 0;
  std::uint64_t rows_locked = 0;
};

// The child: trx_bench --locks <dir> <n> <get|scan> <pool bytes>; prints one line:
// "rows_locked locks memory_bytes rss_growth seconds locks_after_commit".
int LocksMain(char** argv) {
  const fs::path dir = argv[2];
  const std::uint64_t n = std::strtoull(argv[3], nullptr, 10);
  const std::string method = argv[4];
  DatabaseOptions opts;
  opts.buffer_pool_bytes = std::strtoull(argv[5], nullptr, 10);
  opts.purge = false;
  OpenDb o = OpenExisting(dir, opts);
  (void)ScanSums(o.table);  // every page of the clustered index in the pool before the baseline
  auto trx = o.db->Begin(TransactionOptions{Isolation::kRepeatableRead});
  if (!trx.ok()) Die("Begin: " + trx.status().ToString());
  ::malloc_trim(0);
  const std::uint64_t rss0 = RssBytes();
  const LockStats l0 = o.db->StatusReport().locks;
  std::uint64_t rows_locked = 0;
  const auto start = Clock::now();
  if (method == "get") {
    for (std::uint64_t id = 1; id <= n; ++id) {
      auto r = o.table->Get({Value::Int(static_cast<std::int64_t>(id))}, trx->get(), RowLock::kExclusive);
      if (!r.ok() || !r->has_value())
        Die("locks: Get FOR UPDATE of row " + std::to_string(id) + ": " + (r.ok() ? "missing" : r.status().ToString()));
      ++rows_locked;
    }
  } else {
    ScanOptions so;
    so.lock = RowLock::kExclusive;
    Status st = o.table->Scan(
        so, [&](const Row&) { return ++rows_locked < n; }, trx->get());
    if (!st.ok()) Die("locks: locking Scan: " + st.ToString());
  }
  const double seconds = Seconds(Clock::now() - start);
  const LockStats l1 = o.db->StatusReport().locks;
  const std::uint64_t rss1 = RssBytes();
  if (auto st = (*trx)->Commit(); !st.ok()) Die("locks: Commit: " + st.ToString());
  const LockStats l2 = o.db->StatusReport().locks;
  std::printf("%" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRId64 " %.6f %" PRIu64 "\n", rows_locked, l1.locks - l0.locks,
              l1.memory_bytes - l0.memory_bytes, static_cast<std::int64_t>(rss1) - static_cast<std::int64_t>(rss0),
              seconds, l2.locks);
  std::fflush(stdout);
  return 0;
}

LockResult MeasureLocks(const fs::path& base, std::uint64_t n, const std::string& method, std::uint64_t pool_bytes) {
  int fds[2];
  if (::pipe(fds) != 0) Die("pipe");
  std::fflush(stdout);
  std::fflush(stderr);
  const std::string n_s = std::to_string(n), pool_s = std::to_string(pool_bytes);
  const pid_t pid = ::fork();
  if (pid < 0) Die("fork");
  if (pid == 0) {
    ::dup2(fds[1], 1);
    ::close(fds[0]);
    ::close(fds[1]);
    const char* args[] = {"trx_bench", "--locks", base.c_str(), n_s.c_str(), method.c_str(), pool_s.c_str(), nullptr};
    ::execv("/proc/self/exe", const_cast<char* const*>(args));
    std::_Exit(127);
  }
  ::close(fds[1]);
  std::string out;
  char buf[512];
  for (;;) {
    const ssize_t got = ::read(fds[0], buf, sizeof buf);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) break;
    out.append(buf, static_cast<std::size_t>(got));
  }
  ::close(fds[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    Die("the --locks child (" + method + ", " + n_s + ") failed, wait status " + std::to_string(status));
  LockResult r;
  r.n = n;
  r.method = method;
  std::istringstream in(out);
  if (!(in >> r.rows_locked >> r.locks >> r.memory_bytes >> r.rss_growth >> r.seconds >> r.locks_after_commit)) {
    Die("the --locks child printed '" + out + "'");
  }
  return r;
}

// ---------------------------------------------------------------------------------------------
// 4. SQLite

struct SqliteResult {
  std::string synchronous;
  std::uint64_t commits = 0;
  double seconds = 0, p50_us = 0, p99_us = 0;
  std::string error;  // when it could not run
};

#ifdef STRATA_BENCH_HAVE_SQLITE
SqliteResult SqliteMix(const std::string& synchronous, std::uint64_t rows, double target_seconds,
                       std::uint64_t cache_bytes) {
  SqliteResult res;
  res.synchronous = synchronous;
  TempDir dir("sqlite");
  const fs::path file = dir.path() / "bench.db";
  sqlite3* db = nullptr;
  struct Closer {
    sqlite3*& db;
    ~Closer() {
      if (db) sqlite3_close_v2(db);
    }
  } closer{db};
  auto error = [&](const std::string& e) {
    res.error = e;
    return res;
  };
  if (sqlite3_open(file.c_str(), &db) != SQLITE_OK) return error(std::string("sqlite3_open: ") + sqlite3_errmsg(db));
  for (const std::string& sql :
       {std::string("PRAGMA journal_mode=WAL"), "PRAGMA synchronous=" + synchronous,
        std::string("PRAGMA locking_mode=EXCLUSIVE"), "PRAGMA cache_size=-" + std::to_string(cache_bytes / 1024),
        std::string("CREATE TABLE sbtest1(id INTEGER PRIMARY KEY, k INTEGER NOT NULL DEFAULT 0, c CHAR(120) NOT NULL, "
                    "pad CHAR(60) NOT NULL)"),
        std::string("CREATE INDEX k_1 ON sbtest1(k)")}) {
    if (auto e = SqlExec(db, sql); !e.empty()) return error(e);
  }
  {
    Stmt ins(db, "INSERT INTO sbtest1(id, k, c, pad) VALUES (?, ?, ?, ?)");
    if (!ins.ok()) return error(std::string("prepare INSERT: ") + sqlite3_errmsg(db));
    std::mt19937_64 rng(20240131);
    for (std::uint64_t id = 1; id <= rows; ++id) {
      if (id % 1000 == 1) {
        if (auto e = SqlExec(db, "BEGIN"); !e.empty()) return error(e);
      }
      const std::string c = DigitGroups(rng, 10), pad = DigitGroups(rng, 5);
      sqlite3_stmt* st = ins.get();
      sqlite3_bind_int64(st, 1, static_cast<sqlite3_int64>(id));
      sqlite3_bind_int64(st, 2, static_cast<sqlite3_int64>(1 + rng() % rows));
      sqlite3_bind_text(st, 3, c.data(), static_cast<int>(c.size()), SQLITE_TRANSIENT);
      sqlite3_bind_text(st, 4, pad.data(), static_cast<int>(pad.size()), SQLITE_TRANSIENT);
      if (sqlite3_step(st) != SQLITE_DONE) return error("INSERT: " + std::string(sqlite3_errmsg(db)));
      sqlite3_reset(st);
      if (id % 1000 == 0 || id == rows) {
        if (auto e = SqlExec(db, "COMMIT"); !e.empty()) return error(e);
      }
    }
  }
  if (auto e = SqlExec(db, "PRAGMA wal_checkpoint(TRUNCATE)"); !e.empty()) return error(e);
  Stmt begin(db, "BEGIN"), commit(db, "COMMIT"), sel(db, "SELECT c FROM sbtest1 WHERE id = ?"),
      upd_k(db, "UPDATE sbtest1 SET k = k + 1 WHERE id = ?"), upd_c(db, "UPDATE sbtest1 SET c = ? WHERE id = ?");
  for (const Stmt* s : {&begin, &commit, &sel, &upd_k, &upd_c}) {
    if (!s->ok()) return error(std::string("prepare: ") + sqlite3_errmsg(db));
  }
  // Warm the cache as Strata's scan does.
  if (auto e = SqlExec(db, "SELECT sum(k), count(*), sum(length(c)), sum(length(pad)) FROM sbtest1"); !e.empty())
    return error(e);
  if (auto e = SqlExec(db, "SELECT count(*) FROM sbtest1 INDEXED BY k_1 WHERE k >= 0"); !e.empty()) return error(e);
  auto step_done = [&](sqlite3_stmt* st) {
    const int rc = sqlite3_step(st);
    sqlite3_reset(st);
    return rc == SQLITE_DONE;
  };
  std::mt19937_64 rng(99);
  std::vector<double> lat;
  lat.reserve(1 << 16);
  const auto start = Clock::now();
  const auto deadline =
      start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(target_seconds));
  while (Clock::now() < deadline) {
    const sqlite3_int64 id_select = static_cast<sqlite3_int64>(1 + rng() % rows);
    const sqlite3_int64 id_index = static_cast<sqlite3_int64>(1 + rng() % rows);
    const sqlite3_int64 id_plain = static_cast<sqlite3_int64>(1 + rng() % rows);
    const std::string new_c = DigitGroups(rng, 10);
    const auto t0 = Clock::now();
    if (!step_done(begin.get())) return error(std::string("BEGIN: ") + sqlite3_errmsg(db));
    sqlite3_bind_int64(sel.get(), 1, id_select);
    if (sqlite3_step(sel.get()) != SQLITE_ROW) return error(std::string("SELECT: ") + sqlite3_errmsg(db));
    sqlite3_reset(sel.get());
    sqlite3_bind_int64(upd_k.get(), 1, id_index);
    if (!step_done(upd_k.get()) || sqlite3_changes(db) != 1)
      return error(std::string("UPDATE k: ") + sqlite3_errmsg(db));
    sqlite3_bind_text(upd_c.get(), 1, new_c.data(), static_cast<int>(new_c.size()), SQLITE_TRANSIENT);
    sqlite3_bind_int64(upd_c.get(), 2, id_plain);
    if (!step_done(upd_c.get()) || sqlite3_changes(db) != 1)
      return error(std::string("UPDATE c: ") + sqlite3_errmsg(db));
    if (!step_done(commit.get())) return error(std::string("COMMIT: ") + sqlite3_errmsg(db));
    lat.push_back(std::chrono::duration<double, std::micro>(Clock::now() - t0).count());
  }
  res.seconds = Seconds(Clock::now() - start);
  std::sort(lat.begin(), lat.end());
  res.commits = lat.size();
  res.p50_us = Percentile(lat, 0.5);
  res.p99_us = Percentile(lat, 0.99);
  return res;
}
#endif

}  // namespace

int main(int argc, char** argv) {
  strata::bench::ProgramName() = "trx_bench";
  if (argc == 6 && std::strcmp(argv[1], "--locks") == 0) return LocksMain(argv);
  if (argc > 1) return EnvOnlyUsage();
  const Machine machine;
  const unsigned cores = machine.cores;
  const std::uint64_t rows = std::max<std::uint64_t>(2, EnvU64("STRATA_BENCH_TRX_ROWS", 100000));
  const double mix_seconds = EnvDouble("STRATA_BENCH_TRX_SECONDS", 5.0);
  const std::vector<std::uint64_t> thread_counts = EnvList("STRATA_BENCH_TRX_THREADS", "1,8,50", 1000);
  const std::uint64_t pool_bytes = EnvU64("STRATA_BENCH_TRX_POOL_MIB", 128) * kMiB;
  const bool mix_purge = EnvU64("STRATA_BENCH_TRX_PURGE", 1) != 0;
  const std::uint64_t purge_updates = EnvU64("STRATA_BENCH_PURGE_TRX", 100000);
  const std::uint64_t purge_deletes = EnvU64("STRATA_BENCH_PURGE_DELETES", 20000);
  const std::vector<std::uint64_t> lock_ns = EnvList("STRATA_BENCH_LOCK_ROWS", "1000,10000,100000", 100000000);
  machine.SayStart();

  const auto wall_start = Clock::now();
  TempDir top("base");
  const fs::path base = top.path() / "data";
  Progress("loading " + std::to_string(rows) + " rows");
  const double load_seconds = LoadBase(base, rows, pool_bytes);
  Progress("loaded in " + Fixed(load_seconds, 2) + " s");

  // 1.
  std::vector<MixResult> mix;
  if (Wanted("mix")) {
    std::uint64_t seed = 1;
    for (std::uint64_t threads : thread_counts) {
      for (int flush : {1, 2}) {
        MixConfig cfg;
        cfg.threads = static_cast<int>(threads);
        cfg.flush_mode = flush;
        cfg.seconds = mix_seconds;
        cfg.rows = rows;
        cfg.pool_bytes = pool_bytes;
        cfg.purge = mix_purge;
        mix.push_back(RunMix(base, cfg, seed++));
        const auto& r = mix.back();
        Progress("mix: " + std::to_string(threads) + " threads, flush_log_at_trx_commit=" + std::to_string(flush) +
                 ": " + Thousands(static_cast<double>(r.commits) / r.seconds) + " trx/s, " +
                 std::to_string(r.deadlocks) + " deadlocks, history " + std::to_string(r.history_at_stop) +
                 (r.sum_ok ? "" : ", WRONG sum(k)"));
      }
    }
  }

  // 3 (before 2: it needs ids 1..N, and section 2 works on a copy anyway).
  std::vector<LockResult> locks;
  if (Wanted("locks")) {
    for (std::uint64_t n : lock_ns) {
      const std::uint64_t capped = std::min(n, rows);
      for (const char* method : {"get", "scan"}) {
        locks.push_back(MeasureLocks(base, capped, method, pool_bytes));
        const auto& r = locks.back();
        Progress(std::string("locks: ") + method + " " + std::to_string(capped) + ": " + std::to_string(r.locks) +
                 " locks, " + Thousands(static_cast<double>(r.memory_bytes)) + " bytes");
      }
    }
  }

  // 2.
  PurgeResult purge;
  const bool do_purge = Wanted("purge");
  if (do_purge) {
    Progress("purge: " + std::to_string(purge_updates) + " updates and " + std::to_string(purge_deletes) +
             " deletes behind an open view");
    purge = MeasurePurge(base, rows, pool_bytes, purge_updates, purge_deletes);
    Progress("purge: " + std::to_string(purge.logs) + " logs, " + std::to_string(purge.records) + " records in " +
             Fixed(purge.purge_seconds, 2) + " s");
  }

  // 4.
  std::vector<SqliteResult> sqlite;
  bool have_sqlite = false;
  std::string sqlite_version = "-";
#ifdef STRATA_BENCH_HAVE_SQLITE
  have_sqlite = true;
  sqlite_version = sqlite3_libversion();
  if (Wanted("sqlite")) {
    for (const char* sync : {"FULL", "NORMAL"}) {
      sqlite.push_back(SqliteMix(sync, rows, mix_seconds, pool_bytes));
      const auto& r = sqlite.back();
      if (!r.error.empty())
        Progress(std::string("sqlite ") + sync + ": " + r.error);
      else
        Progress(std::string("sqlite synchronous=") + sync + ": " +
                 Thousands(static_cast<double>(r.commits) / r.seconds) + " trx/s");
    }
  }
#endif
  const double wall = Seconds(Clock::now() - wall_start);

  // ---- Report ----
  machine.PrintSection();
  std::printf(
      "- Table: bench.sbtest1(id BIGINT PRIMARY KEY, k INT UNSIGNED, c CHAR(120), pad CHAR(60), KEY k_1(k)), %s rows, "
      "loaded with InsertBatch (1000 rows a call, flush_log_at_trx_commit=2) in %s s\n",
      Thousands(static_cast<double>(rows)).c_str(), Fixed(load_seconds, 2).c_str());
  std::printf(
      "- Buffer pool: %s MiB; everything else at DatabaseOptions' defaults (group_commit on, lock_wait_timeout 50 s, "
      "deadlock_detect on) unless a section says\n",
      Thousands(static_cast<double>(pool_bytes / kMiB)).c_str());
  std::printf("- Run time of this program: %s s\n", Fixed(wall, 0).c_str());

  if (!mix.empty()) {
    std::printf("\n## 1. Point-update mix (sysbench oltp_update-like), %s s per line, %u cores\n\n",
                Fixed(mix_seconds, 1).c_str(), cores);
    std::printf(
        "Each transaction (REPEATABLE READ): BEGIN; Get(id) (consistent read); Get(id2, FOR UPDATE) + Update k = k + 1 "
        "(the indexed column); Get(id3, FOR UPDATE) + Update c (no index changes); COMMIT; ids uniform over %s rows. "
        "purge=%s (the background purge thread%s). Every line reopens the one loaded directory (the history purged and "
        "the "
        "database closed between lines; the buffer pool warmed by a scan of both indexes). Latency: first BEGIN to the "
        "COMMIT that succeeded, retries included. Deadlocks and lock wait timeouts are retried with a new transaction. "
        "History: the history list length when the threads stopped (and the largest seen, sampled every 100 ms); "
        "drain: "
        "Database::Purge() emptying it afterwards. sum(k) check: after the line, sum(k) over PRIMARY and over k_1 "
        "equals "
        "the sum before plus the transactions committed.\n\n",
        Thousands(static_cast<double>(rows)).c_str(), mix_purge ? "true" : "false",
        mix_purge ? "" : " off: STRATA_BENCH_TRX_PURGE=0");
    std::printf(
        "| flush_log_at_trx_commit | threads | transactions | seconds | trx/s | p50 us | p99 us | max us | deadlocks "
        "(retried) | "
        "lock wait timeouts | lock waits | log fsyncs | history at stop | history peak | drain s | sum(k) check |\n");
    std::printf("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
    for (int flush : {1, 2}) {
      for (const auto& r : mix) {
        if (r.flush_mode != flush) continue;
        std::printf("| %d | %d | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", r.flush_mode,
                    r.threads, Thousands(static_cast<double>(r.commits)).c_str(), Fixed(r.seconds, 2).c_str(),
                    Thousands(static_cast<double>(r.commits) / r.seconds).c_str(), Thousands(r.p50_us).c_str(),
                    Thousands(r.p99_us).c_str(), Thousands(r.max_us).c_str(),
                    Thousands(static_cast<double>(r.deadlocks)).c_str(),
                    Thousands(static_cast<double>(r.timeouts)).c_str(),
                    Thousands(static_cast<double>(r.locks.waits)).c_str(),
                    Thousands(static_cast<double>(r.redo_fsyncs)).c_str(),
                    Thousands(static_cast<double>(r.history_at_stop)).c_str(),
                    Thousands(static_cast<double>(r.history_peak)).c_str(), Fixed(r.drain_seconds, 3).c_str(),
                    r.sum_ok ? "ok" : "**WRONG**");
      }
    }
  }

  if (do_purge) {
    const auto& p = purge;
    std::printf("\n## 2. Purge throughput (purge=false, flush_log_at_trx_commit=2, one thread, %u cores)\n\n", cores);
    std::printf(
        "A REPEATABLE READ view held open (consistent snapshot + one read) while %s autocommit single-row updates of "
        "random rows "
        "(every other one k = k + 1, the indexed column; the others c) and %s autocommit deletes of distinct random "
        "rows ran "
        "(%s s, %s statements/s); then the view committed and Database::Purge() ran to completion. Records: "
        "StatusReport().purged_records before and after.\n\n",
        Thousands(static_cast<double>(p.updates)).c_str(), Thousands(static_cast<double>(p.deletes)).c_str(),
        Fixed(p.churn_seconds, 2).c_str(),
        Thousands(static_cast<double>(p.updates + p.deletes) / p.churn_seconds).c_str());
    std::printf(
        "| history before | undo logs purged | undo records purged | Purge() s | undo logs/s | undo records/s | "
        "history after | rows after | Table::Check |\n");
    std::printf("|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
    std::printf(
        "| %s | %s | %s | %s | %s | %s | %s | %s%s | %s |\n", Thousands(static_cast<double>(p.history_before)).c_str(),
        Thousands(static_cast<double>(p.logs)).c_str(), Thousands(static_cast<double>(p.records)).c_str(),
        Fixed(p.purge_seconds, 2).c_str(), Thousands(static_cast<double>(p.logs) / p.purge_seconds).c_str(),
        Thousands(static_cast<double>(p.records) / p.purge_seconds).c_str(),
        Thousands(static_cast<double>(p.history_after)).c_str(), Thousands(static_cast<double>(p.rows_after)).c_str(),
        p.rows_ok ? "" : " (**WRONG**)", p.check_ok ? "ok" : ("**" + p.check_error + "**").c_str());
  }

  if (!locks.empty()) {
    std::printf(
        "\n## 3. Lock table memory per held lock (one REPEATABLE READ transaction, a fresh process per line, %u "
        "cores)\n\n",
        cores);
    std::printf(
        "get: Get(id, FOR UPDATE) for ids 1..N (a unique exact match: record locks); scan: a locking Scan of PRIMARY "
        "(FOR UPDATE: next-key locks) stopping at the N-th row. locks and memory_bytes: StatusReport().locks growth "
        "(the lock "
        "table's own estimate of its containers); RSS: /proc/self/statm growth over the locking (after malloc_trim, "
        "with the "
        "clustered index already in the buffer pool).\n\n");
    std::printf(
        "| method | N rows | rows locked | lock entries | memory_bytes | bytes/lock | RSS growth bytes | RSS "
        "bytes/lock | locking s | entries after commit |\n");
    std::printf("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (const auto& r : locks) {
      const double per = r.locks ? static_cast<double>(r.memory_bytes) / static_cast<double>(r.locks) : 0;
      const double rss_per = r.locks ? static_cast<double>(r.rss_growth) / static_cast<double>(r.locks) : 0;
      std::printf("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", r.method.c_str(),
                  Thousands(static_cast<double>(r.n)).c_str(), Thousands(static_cast<double>(r.rows_locked)).c_str(),
                  Thousands(static_cast<double>(r.locks)).c_str(),
                  Thousands(static_cast<double>(r.memory_bytes)).c_str(), Fixed(per, 1).c_str(),
                  Thousands(static_cast<double>(r.rss_growth)).c_str(), Fixed(rss_per, 1).c_str(),
                  Fixed(r.seconds, 3).c_str(), Thousands(static_cast<double>(r.locks_after_commit)).c_str());
    }
  }

  if (Wanted("sqlite")) {
    std::printf("\n## 4. Strata against SQLite, the same transaction from 1 thread (%u cores)\n\n", cores);
    if (!have_sqlite) {
      std::printf(
          "Skipped: the build did not find SQLite (find_package(SQLite3)); install libsqlite3-dev and reconfigure.\n");
    } else {
      std::printf(
          "SQLite %s: sbtest1(id INTEGER PRIMARY KEY, k INTEGER, c CHAR(120), pad CHAR(60)) + INDEX k_1(k), %s rows; "
          "PRAGMA journal_mode=WAL, locking_mode=EXCLUSIVE, cache_size %s MiB (Strata's buffer pool); each transaction "
          "BEGIN; SELECT c WHERE id=?; UPDATE SET k=k+1 WHERE id=?; UPDATE SET c=? WHERE id=?; COMMIT (prepared "
          "statements), for %s s. Strata's figures are section 1's 1-thread lines of this run.\n\n",
          sqlite_version.c_str(), Thousands(static_cast<double>(rows)).c_str(),
          Thousands(static_cast<double>(pool_bytes / kMiB)).c_str(), Fixed(mix_seconds, 1).c_str());
      std::printf(
          "| durability | Strata trx/s | Strata p50 us | Strata p99 us | SQLite trx/s | SQLite p50 us | SQLite p99 us "
          "| Strata/SQLite |\n");
      std::printf("|---|---:|---:|---:|---:|---:|---:|---:|\n");
      for (const auto& s : sqlite) {
        const int flush = s.synchronous == "FULL" ? 1 : 2;
        const MixResult* m = nullptr;
        for (const auto& r : mix) {
          if (r.threads == 1 && r.flush_mode == flush) m = &r;
        }
        const std::string what =
            "flush_log_at_trx_commit=" + std::to_string(flush) + " vs synchronous=" + s.synchronous;
        if (!s.error.empty()) {
          std::printf("| %s | - | - | - | error: %s | - | - | - |\n", what.c_str(), s.error.c_str());
          continue;
        }
        const double q = static_cast<double>(s.commits) / s.seconds;
        const double st = m ? static_cast<double>(m->commits) / m->seconds : 0;
        std::printf("| %s | %s | %s | %s | %s | %s | %s | %s |\n", what.c_str(), m ? Thousands(st).c_str() : "-",
                    m ? Thousands(m->p50_us).c_str() : "-", m ? Thousands(m->p99_us).c_str() : "-",
                    Thousands(q).c_str(), Thousands(s.p50_us).c_str(), Thousands(s.p99_us).c_str(),
                    m && q > 0 ? (Fixed(st / q, 2) + "x").c_str() : "-");
      }
    }
  }
  std::fflush(stdout);
  return 0;
}
