// What durability costs in Strata's engine on this machine, printed as Markdown tables:
//
//  1. fsync: STRATA_BENCH_FSYNCS (default 1000) rounds of pwrite + fdatasync on files in the
//     benchmark's directory, four kinds interleaved so that other load on the machine falls
//     on all alike: 4 KiB into a block written before (the steady state of a circular redo
//     log), 512 bytes likewise (one log block, what a small commit writes), 4 KiB into a
//     posix_fallocate'd block never written (what a new ib_logfile0 is), and a 4 KiB append.
//     Median/p99/max latency and syncs per second: the physical limit everything below is read
//     against. Measured again after section 2, to show how much the machine drifted.
//  2. Commits per second with flush_log_at_trx_commit=1 from 1, 8 and 50 threads, group commit
//     on and off: each commit is one Table::Insert of a small row
//        commits(id BIGINT PRIMARY KEY, k INT UNSIGNED, c CHAR(120))
//     into one shared table (a fresh database for each configuration), distinct keys per
//     thread. A pilot run sizes each run to about STRATA_BENCH_COMMIT_SECONDS (default 3)
//     seconds, or STRATA_BENCH_COMMITS_PER_THREAD fixes it; STRATA_BENCH_COMMIT_THREADS (1,8,50)
//     sets the thread counts. Reports commits/s, the log's fsyncs
//     during the run (redo_stats().fsyncs: log writes that synced; checkpoint and data-file
//     syncs are not counted there) and fsyncs per commit, commit latency p50/p99.
//     flush_log_at_trx_commit=2 and 0 from one thread are there for reference.
//  3. Bulk load of STRATA_BENCH_BULK_ROWS (default 1,000,000) sysbench-style rows
//        sbtest1(id BIGINT PRIMARY KEY, k INT UNSIGNED, c CHAR(120), pad CHAR(60))
//     with sequential keys from one thread, buffer pool STRATA_BENCH_BULK_POOL_MIB (1024) and
//     redo log STRATA_BENCH_BULK_LOG_MIB (96, the engine's default): redo off
//     (SetRedoLogging(false) before, SetRedoLogging(true) after, both inside the timing;
//     enabling writes every dirty page); redo on with flush_log_at_trx_commit=0, as a bulk load
//     would run, and 2, each ending with Database::Flush(); flush_log_at_trx_commit=1 with
//     fewer rows (STRATA_BENCH_BULK_SYNC_ROWS, default about 5 s worth at the measured fsync
//     rate), as it syncs once per row; and flush_log_at_trx_commit=0 again with a
//     STRATA_BENCH_BULK_BIG_LOG_MIB (2048; 0 skips) log, where the log's free-space check never
//     forces a flush of every dirty page. Every variant ends with its pages written and synced.
//  4. Crash recovery of about STRATA_BENCH_RECOVERY_MIB (default 1024) MiB of redo: a forked
//     child opens a database (buffer pool STRATA_BENCH_RECOVERY_POOL_MIB, default 2048, and a
//     log 4x the target, so that nothing is flushed or checkpointed; page_cleaner=false;
//     flush_log_at_trx_commit=0), inserts STRATA_BENCH_RECOVERY_ROWS (default 1,000,000) rows
//     and then updates random rows until redo_stats().bytes grew by the target, waits 2.5 s so
//     that the once-a-second log sync runs after its last commit, and ends with _exit(0): no
//     destructor, no clean shutdown, no page written. Then Database::Open (scan + replay + the
//     Flush() that Open does after replaying) is timed on the crashed directory as the child
//     left it (page cache warm, as after a process crash) and on a copy whose files were
//     dropped from the page cache (posix_fadvise DONTNEED, as after a reboot; skip with
//     STRATA_BENCH_RECOVERY_COLD=0), each in a fresh process (this program exec'd with
//     --recover), which then checks the recovered table (row count and key order, the last
//     update, Table::Check). STRATA_BENCH_RECOVERY_KEEP=1 keeps a copy of the crashed
//     directory under STRATA_BENCH_DIR for replaying by hand.
//
// Everything runs under STRATA_BENCH_DIR (default: the system's temporary directory, /tmp).
// STRATA_BENCH_ONLY=fsync,commits,bulk,recovery runs a subset. Run through
// tests/bench/durability_bench.sh, which keeps a copy of the output.
#include <fcntl.h>
#include <sys/resource.h>
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
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "engine/db.h"

#include "bench_util.h"

namespace {

using namespace strata::bench;  // NOLINT: the shared helpers read as this file's own

namespace fs = std::filesystem;
using strata::engine::Charset;
using strata::engine::Column;
using strata::engine::ColumnType;
using strata::engine::Database;
using strata::engine::DatabaseOptions;
using strata::engine::RedoStats;
using strata::engine::Row;
using strata::engine::ScanOptions;
using strata::engine::Table;
using strata::engine::TableSpec;
using strata::engine::Value;
using Clock = std::chrono::steady_clock;

constexpr std::uint64_t kGiB = 1u << 30;

// ---------------------------------------------------------------------------------------------
// Helpers

std::uint64_t AvailableMemory() {
  std::ifstream in("/proc/meminfo");
  std::string key;
  std::uint64_t kb = 0;
  std::string unit;
  while (in >> key >> kb >> unit) {
    if (key == "MemAvailable:") return kb * 1024;
  }
  return PhysicalMemory();
}

// VmHWM/VmRSS from /proc/self/status, in bytes.
std::uint64_t ProcStatusBytes(const char* key) {
  std::ifstream in("/proc/self/status");
  std::string k, unit;
  std::uint64_t kb = 0;
  while (in >> k) {
    if (k == key) {
      in >> kb >> unit;
      return kb * 1024;
    }
    std::getline(in, unit);
  }
  return 0;
}

// Resets VmHWM to the current RSS (Linux 4.0+).
void ResetPeakRss() {
  std::ofstream out("/proc/self/clear_refs");
  out << "5";
}

std::uint64_t PeakRssBytes() {
  struct rusage ru {};
  ::getrusage(RUSAGE_SELF, &ru);
  return static_cast<std::uint64_t>(ru.ru_maxrss) * 1024;
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

Column MakeColumn(std::string name, ColumnType type, std::uint32_t length, bool is_unsigned) {
  Column col;
  col.name = std::move(name);
  col.type = type;
  col.length = length;
  col.is_unsigned = is_unsigned;
  col.nullable = false;
  col.charset = Charset::kUtf8mb4;
  return col;
}

// As tests/bench/engine_bench.cc's sbtest1.
TableSpec SbtestSpec() {
  TableSpec spec;
  spec.database = "bench";
  spec.name = "sbtest1";
  spec.columns = {MakeColumn("id", ColumnType::kBigInt, 0, false), MakeColumn("k", ColumnType::kInt, 0, true),
                  MakeColumn("c", ColumnType::kChar, 120, false), MakeColumn("pad", ColumnType::kChar, 60, false)};
  spec.primary_key = {"id"};
  return spec;
}

TableSpec CommitSpec() {
  TableSpec spec;
  spec.database = "bench";
  spec.name = "commits";
  spec.columns = {MakeColumn("id", ColumnType::kBigInt, 0, false), MakeColumn("k", ColumnType::kInt, 0, true),
                  MakeColumn("c", ColumnType::kChar, 120, false)};
  spec.primary_key = {"id"};
  return spec;
}

struct OpenDb {
  std::unique_ptr<Database> db;
  Table* table = nullptr;
};

OpenDb OpenWithTable(const fs::path& dir, const DatabaseOptions& opts, const TableSpec& spec) {
  OpenDb out;
  auto db = Database::Open(dir, opts);
  if (!db.ok()) Die("Database::Open " + dir.string() + ": " + db.status().ToString());
  out.db = std::move(*db);
  if (auto st = out.db->CreateDatabase(spec.database); !st.ok()) Die("CreateDatabase: " + st.ToString());
  auto t = out.db->CreateTable(spec);
  if (!t.ok()) Die("CreateTable: " + t.status().ToString());
  out.table = *t;
  return out;
}

RedoStats Delta(const RedoStats& a, const RedoStats& b) {
  RedoStats d;
  d.appends = b.appends - a.appends;
  d.writes = b.writes - a.writes;
  d.fsyncs = b.fsyncs - a.fsyncs;
  d.bytes = b.bytes - a.bytes;
  d.checkpoints = b.checkpoints - a.checkpoints;
  return d;
}

// ---------------------------------------------------------------------------------------------
// 1. fsync latency

struct FsyncResult {
  std::string what;
  double median_us = 0, p99_us = 0, max_us = 0, per_second = 0;
};

enum class FsyncMode { kOverwrite, kOverwrite512, kFallocated, kAppend };

// The four kinds of write + fdatasync, interleaved (one of each per round, the order rotating)
// so that whatever else the machine is doing falls on all of them alike.
std::vector<FsyncResult> MeasureFsync(const fs::path& dir, int n) {
  const FsyncMode modes[] = {FsyncMode::kOverwrite, FsyncMode::kOverwrite512, FsyncMode::kFallocated,
                             FsyncMode::kAppend};
  constexpr std::size_t kRegion = 4 * kMiB;  // overwrite: the blocks cycle through 4 MiB written before
  struct Probe {
    FsyncMode mode;
    int fd = -1;
    std::size_t block = 4096;
    std::vector<double> us;
  };
  std::vector<Probe> probes;
  for (FsyncMode m : modes) {
    Probe p;
    p.mode = m;
    p.block = m == FsyncMode::kOverwrite512 ? 512 : 4096;
    const fs::path path = dir / ("fsync_probe_" + std::to_string(static_cast<int>(m)));
    p.fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (p.fd < 0) Die("open " + path.string() + ": " + std::strerror(errno));
    if (m == FsyncMode::kOverwrite || m == FsyncMode::kOverwrite512) {
      std::vector<char> zeros(kMiB, 0);
      for (std::size_t off = 0; off < kRegion; off += zeros.size()) {
        if (::pwrite(p.fd, zeros.data(), zeros.size(), static_cast<off_t>(off)) != static_cast<ssize_t>(zeros.size()))
          Die("pwrite");
      }
    } else if (m == FsyncMode::kFallocated) {
      if (int e = ::posix_fallocate(p.fd, 0, static_cast<off_t>(static_cast<std::uint64_t>(n) * p.block)); e != 0) {
        Die(std::string("posix_fallocate: ") + std::strerror(e));
      }
    }
    if (::fsync(p.fd) != 0) Die("fsync");
    p.us.reserve(static_cast<std::size_t>(n));
    probes.push_back(std::move(p));
  }
  std::vector<char> buf(4096, 'x');
  for (int i = 0; i < n; ++i) {
    buf[static_cast<std::size_t>(i) % 512] = static_cast<char>('a' + i % 26);
    for (std::size_t j = 0; j < probes.size(); ++j) {
      Probe& p = probes[(j + static_cast<std::size_t>(i)) % probes.size()];
      const bool overwrite = p.mode == FsyncMode::kOverwrite || p.mode == FsyncMode::kOverwrite512;
      const std::uint64_t off =
          overwrite ? (static_cast<std::uint64_t>(i) * p.block) % kRegion : static_cast<std::uint64_t>(i) * p.block;
      const auto t0 = Clock::now();
      if (::pwrite(p.fd, buf.data(), p.block, static_cast<off_t>(off)) != static_cast<ssize_t>(p.block)) Die("pwrite");
      if (::fdatasync(p.fd) != 0) Die(std::string("fdatasync: ") + std::strerror(errno));
      p.us.push_back(std::chrono::duration<double, std::micro>(Clock::now() - t0).count());
    }
  }
  std::vector<FsyncResult> out;
  for (Probe& p : probes) {
    ::close(p.fd);
    double total_us = 0;
    for (double v : p.us) total_us += v;
    std::sort(p.us.begin(), p.us.end());
    FsyncResult r;
    r.what = p.mode == FsyncMode::kOverwrite      ? "4 KiB pwrite + fdatasync, block written before (steady-state log)"
             : p.mode == FsyncMode::kOverwrite512 ? "512 B pwrite + fdatasync, block written before (one log block)"
             : p.mode == FsyncMode::kFallocated   ? "4 KiB pwrite + fdatasync, fallocated block never written (new log)"
                                                  : "4 KiB append + fdatasync (file grows)";
    r.median_us = Percentile(p.us, 0.5);
    r.p99_us = Percentile(p.us, 0.99);
    r.max_us = p.us.back();
    r.per_second = static_cast<double>(n) / (total_us / 1e6);
    out.push_back(r);
  }
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) fs::remove(e.path(), ec);
  return out;
}

// ---------------------------------------------------------------------------------------------
// 2. Commits per second

struct CommitConfig {
  int threads = 1;
  bool group_commit = true;
  int flush_mode = 1;
};

struct CommitResult {
  CommitConfig cfg;
  std::uint64_t commits = 0;
  double seconds = 0;
  RedoStats redo;  // during the timed run
  double p50_us = 0, p99_us = 0;
};

// Runs `per_thread` commits on each of `threads` threads; keys start at `*next_key`.
CommitResult RunCommits(Table* table, Database* db, const CommitConfig& cfg, std::uint64_t per_thread,
                        std::int64_t* next_key) {
  const int threads = cfg.threads;
  std::vector<std::vector<double>> lat(static_cast<std::size_t>(threads));
  std::atomic<int> ready{0};
  std::atomic<bool> go{false};
  std::atomic<bool> failed{false};
  std::string failure;
  std::mutex failure_mu;
  const std::int64_t base = *next_key;
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) {
    pool.emplace_back([&, t] {
      std::mt19937_64 rng(static_cast<std::uint64_t>(base) * 131 + static_cast<std::uint64_t>(t));
      Row row(3);
      row[2] = Value::String(DigitGroups(rng, 10));
      auto& mine = lat[static_cast<std::size_t>(t)];
      mine.reserve(per_thread);
      ready.fetch_add(1);
      while (!go.load(std::memory_order_acquire)) std::this_thread::yield();
      for (std::uint64_t i = 0; i < per_thread && !failed.load(std::memory_order_relaxed); ++i) {
        row[0] = Value::Int(base + static_cast<std::int64_t>(i) * threads + t);
        row[1] = Value::UInt(rng() % 1000000);
        const auto t0 = Clock::now();
        auto st = table->Insert(row);
        mine.push_back(std::chrono::duration<double, std::micro>(Clock::now() - t0).count());
        if (!st.ok()) {
          std::lock_guard l(failure_mu);
          if (!failed.exchange(true)) failure = st.ToString();
        }
      }
    });
  }
  while (ready.load() < threads) std::this_thread::yield();
  const RedoStats before = db->redo_stats();
  const auto start = Clock::now();
  go.store(true, std::memory_order_release);
  for (auto& th : pool) th.join();
  const double seconds = Seconds(Clock::now() - start);
  const RedoStats after = db->redo_stats();
  if (failed) Die("Insert during the commit benchmark: " + failure);
  *next_key = base + static_cast<std::int64_t>(per_thread) * threads;
  CommitResult r;
  r.cfg = cfg;
  r.commits = per_thread * static_cast<std::uint64_t>(threads);
  r.seconds = seconds;
  r.redo = Delta(before, after);
  std::vector<double> all;
  for (auto& v : lat) all.insert(all.end(), v.begin(), v.end());
  std::sort(all.begin(), all.end());
  r.p50_us = Percentile(all, 0.5);
  r.p99_us = Percentile(all, 0.99);
  return r;
}

CommitResult MeasureCommits(const CommitConfig& cfg, double target_seconds) {
  TempDir dir("commits");
  DatabaseOptions opts;
  opts.flush_log_at_trx_commit = cfg.flush_mode;
  opts.group_commit = cfg.group_commit;
  OpenDb o = OpenWithTable(dir.path(), opts, CommitSpec());
  std::int64_t next_key = 1;
  std::uint64_t per_thread = EnvU64("STRATA_BENCH_COMMITS_PER_THREAD", 0);
  if (per_thread == 0) {
    // Pilot: about 300 commits in all (more when no fsync is involved), then size the real run.
    const std::uint64_t pilot_total =
        cfg.flush_mode == 1 ? std::max<std::uint64_t>(300, 40 * static_cast<std::uint64_t>(cfg.threads)) : 20000;
    const std::uint64_t pilot = std::max<std::uint64_t>(2, pilot_total / static_cast<std::uint64_t>(cfg.threads));
    CommitResult p = RunCommits(o.table, o.db.get(), cfg, pilot, &next_key);
    const double rate = static_cast<double>(p.commits) / std::max(p.seconds, 1e-6);
    per_thread = std::max<std::uint64_t>(10, static_cast<std::uint64_t>(rate * target_seconds / cfg.threads));
  }
  CommitResult r = RunCommits(o.table, o.db.get(), cfg, per_thread, &next_key);
  return r;
}

// ---------------------------------------------------------------------------------------------
// 3. Bulk load

struct BulkData {
  std::vector<std::uint32_t> k;
  std::vector<std::string> c, pad;
};

BulkData MakeBulkData(std::size_t n) {
  BulkData d;
  std::mt19937_64 rng(20240131);
  d.k.reserve(n);
  d.c.reserve(n);
  d.pad.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    d.k.push_back(static_cast<std::uint32_t>(1 + rng() % n));
    d.c.push_back(DigitGroups(rng, 10));
    d.pad.push_back(DigitGroups(rng, 5));
  }
  return d;
}

enum class BulkMode { kRedoOff, kFlush0, kFlush2, kFlush1 };

struct BulkResult {
  std::string what;
  std::uint64_t rows = 0;
  double insert_seconds = 0;  // the Insert calls only
  double total_seconds = 0;   // with SetRedoLogging / Flush: all pages written and synced
  RedoStats redo;
  std::uint64_t pool_writes = 0, evictions = 0;
};

BulkResult MeasureBulk(const BulkData& d, std::uint64_t rows, BulkMode mode, std::uint64_t pool_bytes,
                       std::uint64_t log_bytes) {
  TempDir dir("bulk");
  DatabaseOptions opts;
  opts.buffer_pool_bytes = pool_bytes;
  opts.redo_log_bytes = log_bytes;
  opts.flush_log_at_trx_commit = mode == BulkMode::kFlush0 ? 0 : mode == BulkMode::kFlush2 ? 2 : 1;
  OpenDb o = OpenWithTable(dir.path(), opts, SbtestSpec());
  const RedoStats before = o.db->redo_stats();
  const auto pool_before = o.db->buffer_pool_stats();
  Row row(4);
  const auto start = Clock::now();
  if (mode == BulkMode::kRedoOff) {
    if (auto st = o.db->SetRedoLogging(false); !st.ok()) Die("SetRedoLogging(false): " + st.ToString());
  }
  const auto insert_start = Clock::now();
  for (std::uint64_t i = 0; i < rows; ++i) {
    row[0] = Value::Int(static_cast<std::int64_t>(i + 1));
    row[1] = Value::UInt(d.k[i]);
    row[2] = Value::String(d.c[i]);
    row[3] = Value::String(d.pad[i]);
    if (auto st = o.table->Insert(row); !st.ok())
      Die("bulk Insert of row " + std::to_string(i + 1) + ": " + st.ToString());
  }
  const auto insert_end = Clock::now();
  if (mode == BulkMode::kRedoOff) {
    if (auto st = o.db->SetRedoLogging(true); !st.ok()) Die("SetRedoLogging(true): " + st.ToString());
  } else {
    if (auto st = o.db->Flush(); !st.ok()) Die("Flush: " + st.ToString());
  }
  const auto end = Clock::now();
  const auto pool_after = o.db->buffer_pool_stats();
  BulkResult r;
  switch (mode) {
    case BulkMode::kRedoOff:
      r.what = "redo disabled (SetRedoLogging false/true inside the timing)";
      break;
    case BulkMode::kFlush0:
      r.what = "redo on, flush_log_at_trx_commit=0, then Flush()";
      break;
    case BulkMode::kFlush2:
      r.what = "redo on, flush_log_at_trx_commit=2, then Flush()";
      break;
    case BulkMode::kFlush1:
      r.what = "redo on, flush_log_at_trx_commit=1, then Flush()";
      break;
  }
  r.rows = rows;
  r.insert_seconds = Seconds(insert_end - insert_start);
  r.total_seconds = Seconds(end - start);
  r.redo = Delta(before, o.db->redo_stats());
  r.pool_writes = pool_after.writes - pool_before.writes;
  r.evictions = pool_after.evictions - pool_before.evictions;
  return r;
}

// ---------------------------------------------------------------------------------------------
// 4. Recovery

// What the crashing child reports through a pipe.
struct ChildReport {
  int ok = 0;
  char error[512] = {};
  std::uint64_t rows = 0, updates = 0;
  double load_seconds = 0;
  RedoStats redo;                  // during the load
  std::uint64_t fsyncs_after = 0;  // log syncs between the last commit and _exit
  std::uint64_t dirty_pages = 0, pool_writes = 0;
  std::int64_t last_id = 0;  // the last row updated, and its values
  std::uint32_t last_k = 0;
  char last_c[128] = {};
};

void WriteAll(int fd, const void* p, std::size_t n) {
  const char* c = static_cast<const char*>(p);
  while (n > 0) {
    const ssize_t w = ::write(fd, c, n);
    if (w <= 0) {
      if (w < 0 && errno == EINTR) continue;
      std::_Exit(3);
    }
    c += w;
    n -= static_cast<std::size_t>(w);
  }
}

[[noreturn]] void ChildFail(int fd, ChildReport& rep, const std::string& what) {
  rep.ok = 0;
  std::snprintf(rep.error, sizeof rep.error, "%s", what.c_str());
  WriteAll(fd, &rep, sizeof rep);
  ::_exit(2);
}

// The child: load, make the log durable by waiting for the background sync, crash.
[[noreturn]] void CrashingLoad(int fd, const fs::path& dir, const DatabaseOptions& opts, std::uint64_t target_bytes,
                               std::uint64_t max_rows) {
  ChildReport rep;
  auto db = Database::Open(dir, opts);
  if (!db.ok()) ChildFail(fd, rep, "Open: " + db.status().ToString());
  Database* d = db->get();
  if (auto st = d->CreateDatabase("bench"); !st.ok()) ChildFail(fd, rep, "CreateDatabase: " + st.ToString());
  auto t = d->CreateTable(SbtestSpec());
  if (!t.ok()) ChildFail(fd, rep, "CreateTable: " + t.status().ToString());
  Table* table = *t;
  std::mt19937_64 rng(7);
  const std::string pad = DigitGroups(rng, 5);
  const RedoStats before = d->redo_stats();
  const auto start = Clock::now();
  Row row(4);
  row[3] = Value::String(pad);
  std::uint64_t rows = 0;
  // Inserts, sequential keys, until max_rows or the target.
  while (rows < max_rows && d->redo_stats().bytes - before.bytes < target_bytes) {
    for (int b = 0; b < 1000 && rows < max_rows; ++b) {
      ++rows;
      row[0] = Value::Int(static_cast<std::int64_t>(rows));
      row[1] = Value::UInt(static_cast<std::uint32_t>(rng() % 1000000));
      row[2] = Value::String(DigitGroups(rng, 10));
      if (auto st = table->Insert(row); !st.ok()) ChildFail(fd, rep, "Insert: " + st.ToString());
    }
  }
  // Then updates of random rows (k and c change) until the target.
  std::uint64_t updates = 0;
  std::int64_t last_id = 0;
  std::uint32_t last_k = 0;
  std::string last_c;
  while (d->redo_stats().bytes - before.bytes < target_bytes) {
    for (int b = 0; b < 1000; ++b) {
      last_id = static_cast<std::int64_t>(1 + rng() % rows);
      last_k = static_cast<std::uint32_t>(rng() % 1000000);
      last_c = DigitGroups(rng, 10);
      row[0] = Value::Int(last_id);
      row[1] = Value::UInt(last_k);
      row[2] = Value::String(last_c);
      if (auto st = table->Update(row); !st.ok()) ChildFail(fd, rep, "Update: " + st.ToString());
      ++updates;
    }
  }
  const auto end = Clock::now();
  const RedoStats after = d->redo_stats();
  // flush_log_at_trx_commit=0: the background thread syncs the log once a second. Wait for a
  // sync that started after the last commit: two full periods.
  std::this_thread::sleep_for(std::chrono::milliseconds(2500));
  const RedoStats synced = d->redo_stats();
  const auto pool = d->buffer_pool_stats();
  rep.ok = 1;
  rep.rows = rows;
  rep.updates = updates;
  rep.load_seconds = Seconds(end - start);
  rep.redo = Delta(before, after);
  rep.fsyncs_after = synced.fsyncs - after.fsyncs;
  rep.dirty_pages = pool.dirty;
  rep.pool_writes = pool.writes;
  rep.last_id = last_id;
  rep.last_k = last_k;
  std::snprintf(rep.last_c, sizeof rep.last_c, "%s", last_c.c_str());
  WriteAll(fd, &rep, sizeof rep);
  ::_exit(0);  // the crash: no destructors, no clean shutdown, no page written
}

// Copies a data directory, leaving all-zero 1 MiB chunks as holes; syncs the copies and drops
// them from the page cache.
void CopyCold(const fs::path& from, const fs::path& to) {
  fs::create_directories(to);
  std::vector<char> buf(kMiB);
  for (const auto& e : fs::recursive_directory_iterator(from)) {
    const fs::path rel = fs::relative(e.path(), from);
    if (e.is_directory()) {
      fs::create_directories(to / rel);
      continue;
    }
    if (!e.is_regular_file()) continue;
    const int in = ::open(e.path().c_str(), O_RDONLY | O_CLOEXEC);
    const int out = ::open((to / rel).c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (in < 0 || out < 0) Die("copy " + e.path().string() + ": " + std::strerror(errno));
    const auto size = static_cast<off_t>(e.file_size());
    if (::ftruncate(out, size) != 0) Die("ftruncate");
    for (off_t off = 0; off < size;) {
      const ssize_t n = ::pread(in, buf.data(), buf.size(), off);
      if (n <= 0) Die("pread " + e.path().string());
      const bool zero = std::all_of(buf.begin(), buf.begin() + n, [](char c) { return c == 0; });
      if (!zero && ::pwrite(out, buf.data(), static_cast<std::size_t>(n), off) != n) Die("pwrite");
      off += n;
    }
    if (::fsync(out) != 0) Die("fsync");
    (void)::posix_fadvise(out, 0, 0, POSIX_FADV_DONTNEED);
    ::close(in);
    ::close(out);
  }
}

// One recovery, measured in a fresh process (this program exec'd with --recover), so that
// each run starts from the same address space: no heap left over from earlier phases to
// reuse, no page faults saved.
struct RecoveryRun {
  int done = 0;
  char cache[64] = {};
  double open_seconds = 0;
  strata::engine::RecoveryStats stats;
  int verified = 0;
  char verify_note[512] = {};
  double check_seconds = 0;
  double close_seconds = 0;
  std::uint64_t rss_before = 0, rss_peak = 0;  // of the recovering process, around Open
};

RecoveryRun RecoverAndVerify(const fs::path& dir, const DatabaseOptions& opts, const ChildReport& rep,
                             const char* cache) {
  RecoveryRun run;
  std::snprintf(run.cache, sizeof run.cache, "%s", cache);
  ResetPeakRss();
  run.rss_before = ProcStatusBytes("VmRSS:");
  const auto t0 = Clock::now();
  auto db = Database::Open(dir, opts);
  const auto t1 = Clock::now();
  run.rss_peak = ProcStatusBytes("VmHWM:");
  if (!db.ok()) Die(std::string("recovery (") + cache + "): Database::Open: " + db.status().ToString());
  run.open_seconds = Seconds(t1 - t0);
  run.stats = (*db)->recovery();
  Progress(std::string("recovery (") + cache + "): Open took " + Fixed(run.open_seconds, 2) + " s; verifying");
  // Verification (untimed): every row there, the last update there, the B-tree sound.
  std::string note;
  bool ok = true;
  auto t = (*db)->GetTable("bench", "sbtest1");
  if (!t.ok()) Die("GetTable after recovery: " + t.status().ToString());
  std::uint64_t count = 0;
  std::int64_t expect = 1;
  bool ordered = true;
  auto st = (*t)->Scan(ScanOptions{}, [&](const Row& r) {
    if (r[0].as_int() != expect) ordered = false;
    ++expect;
    ++count;
    return true;
  });
  if (!st.ok()) {
    ok = false;
    note += "Scan: " + st.ToString() + "; ";
  }
  if (count != rep.rows || !ordered) {
    ok = false;
    note += "rows " + std::to_string(count) + " of " + std::to_string(rep.rows) + (ordered ? "" : " (keys not 1..n)") +
            "; ";
  }
  if (rep.last_id != 0) {
    auto g = (*t)->Get({Value::Int(rep.last_id)});
    if (!g.ok() || !g->has_value()) {
      ok = false;
      note += "last updated row " + std::to_string(rep.last_id) + " missing; ";
    } else if ((**g)[1].as_uint() != rep.last_k || (**g)[2].as_string() != rep.last_c) {
      ok = false;
      note += "last update (row " + std::to_string(rep.last_id) + ") lost: k=" + std::to_string((**g)[1].as_uint()) +
              " expected " + std::to_string(rep.last_k) + "; ";
    }
  }
  const auto c0 = Clock::now();
  st = (*t)->Check();
  run.check_seconds = Seconds(Clock::now() - c0);
  if (!st.ok()) {
    ok = false;
    note += "Check: " + st.ToString() + "; ";
  }
  if (run.stats.groups != rep.redo.appends) {
    note += "groups replayed " + std::to_string(run.stats.groups) + " vs mini-transactions logged by the load " +
            std::to_string(rep.redo.appends) + "; ";
  }
  run.verified = ok;
  const std::string verdict =
      ok ? (note.empty() ? "all rows, last update, Check ok" : "data ok; " + note) : "FAILED: " + note;
  std::snprintf(run.verify_note, sizeof run.verify_note, "%s", verdict.c_str());
  const auto c1 = Clock::now();
  db->reset();
  run.close_seconds = Seconds(Clock::now() - c1);
  run.done = 1;
  return run;
}

// argv: --recover <dir> <report file> <pool bytes> <cache label> <fd, or - to print a line>
int RecoverMain(char** argv) {
  const fs::path dir = argv[2];
  ChildReport rep;
  {
    std::ifstream in(argv[3], std::ios::binary);
    if (!in.read(reinterpret_cast<char*>(&rep), sizeof rep)) Die(std::string("cannot read ") + argv[3]);
  }
  DatabaseOptions opts;
  opts.buffer_pool_bytes = std::strtoull(argv[4], nullptr, 10);
  opts.page_cleaner = false;
  opts.flush_log_at_trx_commit = 1;
  opts.create_if_missing = false;
  const RecoveryRun run = RecoverAndVerify(dir, opts, rep, argv[5]);
  if (std::strcmp(argv[6], "-") == 0) {
    std::printf("Open %.2f s; groups %" PRIu64 ", records %" PRIu64 ", applied %" PRIu64 ", pages %" PRIu64 "; %s\n",
                run.open_seconds, run.stats.groups, run.stats.records, run.stats.applied, run.stats.pages,
                run.verify_note);
    return run.verified ? 0 : 1;
  }
  WriteAll(std::atoi(argv[6]), &run, sizeof run);
  return 0;
}

RecoveryRun RunRecoveryProcess(const fs::path& dir, const fs::path& report, std::uint64_t pool, const char* cache) {
  int fds[2];
  if (::pipe(fds) != 0) Die("pipe");
  std::fflush(stdout);
  std::fflush(stderr);
  const std::string pool_s = std::to_string(pool), fd_s = std::to_string(fds[1]);
  const pid_t pid = ::fork();
  if (pid < 0) Die("fork");
  if (pid == 0) {
    ::close(fds[0]);
    const char* args[] = {"durability_bench", "--recover", dir.c_str(),  report.c_str(),
                          pool_s.c_str(),     cache,       fd_s.c_str(), nullptr};
    ::execv("/proc/self/exe", const_cast<char* const*>(args));
    std::fprintf(stderr, "durability_bench: execv /proc/self/exe: %s\n", std::strerror(errno));
    ::_exit(127);
  }
  ::close(fds[1]);
  RecoveryRun run;
  const std::size_t got = ReadFully(fds[0], &run, sizeof run);
  ::close(fds[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  if (got != sizeof run || !run.done) {
    Die(std::string("the recovering process (") + cache + ") died without reporting; wait status " +
        std::to_string(status) + "; the crashed directory is left at " + dir.string() +
        " (a copy of it reproduces: durability_bench --recover " + dir.string() + " " + report.string() + " " + pool_s +
        " x -)");
  }
  return run;
}

struct RecoveryResult {
  std::uint64_t pool_bytes = 0, log_bytes = 0, target_bytes = 0;
  ChildReport child;
  std::uintmax_t dir_bytes = 0;
  std::vector<RecoveryRun> runs;
};

RecoveryResult MeasureRecovery() {
  RecoveryResult res;
  const std::uint64_t phys = PhysicalMemory();
  res.target_bytes = EnvU64("STRATA_BENCH_RECOVERY_MIB", 1024) * kMiB;
  std::uint64_t pool = EnvU64("STRATA_BENCH_RECOVERY_POOL_MIB", 2048) * kMiB;
  // The child's pool, then the parent's recovery holds the log (~2x while it is read) and a
  // pool: keep it all well inside memory.
  if (pool + 3 * res.target_bytes > phys / 2) {
    pool = std::max<std::uint64_t>(256 * kMiB, phys / 8);
    res.target_bytes = std::min<std::uint64_t>(res.target_bytes, phys / 8);
    Progress("recovery: scaled down to the machine's memory: pool " + std::to_string(pool / kMiB) + " MiB, redo " +
             std::to_string(res.target_bytes / kMiB) + " MiB");
  }
  res.pool_bytes = pool;
  // Free check flushes everything once half the log is in use, and the LSN counts block
  // headers and trailers besides record bytes: 4x the target leaves room.
  res.log_bytes = std::max<std::uint64_t>(4 * res.target_bytes, 64 * kMiB);
  const std::uint64_t max_rows = EnvU64("STRATA_BENCH_RECOVERY_ROWS", 1000000);

  TempDir dir("recovery");
  const fs::path data = dir.path() / "data";
  DatabaseOptions opts;
  opts.buffer_pool_bytes = pool;
  opts.redo_log_bytes = res.log_bytes;
  opts.page_cleaner = false;
  opts.flush_log_at_trx_commit = 0;

  int fds[2];
  if (::pipe(fds) != 0) Die("pipe");
  std::fflush(stdout);
  std::fflush(stderr);
  const pid_t pid = ::fork();
  if (pid < 0) Die("fork");
  if (pid == 0) {
    ::close(fds[0]);
    CrashingLoad(fds[1], data, opts, res.target_bytes, max_rows);
  }
  ::close(fds[1]);
  ChildReport rep;
  const std::size_t got = ReadFully(fds[0], &rep, sizeof rep);
  ::close(fds[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  if (got != sizeof rep) Die("the loading child died without reporting (wait status " + std::to_string(status) + ")");
  if (!rep.ok) Die(std::string("the loading child failed: ") + rep.error);
  res.child = rep;
  res.dir_bytes = DirBytes(data, true);
  Progress("recovery: child loaded " + std::to_string(rep.rows) + " rows + " + std::to_string(rep.updates) +
           " updates, " + Fixed(static_cast<double>(rep.redo.bytes) / kMiB, 0) + " MiB redo in " +
           Fixed(rep.load_seconds, 1) + " s, then crashed; " + std::to_string(rep.dirty_pages) +
           " dirty pages never written");

  fs::path cold;
  const bool do_cold = EnvU64("STRATA_BENCH_RECOVERY_COLD", 1) != 0;
  if (do_cold) {
    cold = dir.path() / "cold";
    Progress("recovery: copying the crashed directory for the cold-cache run");
    CopyCold(data, cold);
  }
  // The recovering Open gets the same pool (it holds every recovered page).
  const fs::path report = dir.path() / "child_report.bin";
  {
    std::ofstream out(report, std::ios::binary);
    out.write(reinterpret_cast<const char*>(&rep), sizeof rep);
  }
  if (EnvU64("STRATA_BENCH_RECOVERY_KEEP", 0) != 0) {
    // A copy of the crashed directory that outlives this run, for replaying by hand.
    const fs::path kept = BaseDir() / ("strata-durability-crashed-" + std::to_string(::getpid()));
    CopyCold(data, kept);
    fs::copy_file(report, kept / "child_report.bin");
    Progress("recovery: the crashed directory is kept at " + kept.string() +
             "; replay a copy of it with: " + "durability_bench --recover <copy> " +
             (kept / "child_report.bin").string() + " " + std::to_string(pool) + " manual -");
  }
  res.runs.push_back(RunRecoveryProcess(data, report, pool, "warm (process crash)"));
  if (do_cold) {
    fs::remove_all(data);  // the disk space
    res.runs.push_back(RunRecoveryProcess(cold, report, pool, "cold (files dropped from page cache)"));
  }
  return res;
}

}  // namespace

int main(int argc, char** argv) {
  strata::bench::ProgramName() = "durability_bench";
  if (argc == 7 && std::strcmp(argv[1], "--recover") == 0) return RecoverMain(argv);
  if (argc > 1) return EnvOnlyUsage();
  const Machine machine;
  machine.SayStart();

  // 1.
  const int n_fsync = static_cast<int>(EnvU64("STRATA_BENCH_FSYNCS", 1000));
  std::vector<FsyncResult> fsyncs, fsyncs_again;
  auto probe_fsync = [&](std::vector<FsyncResult>& into, const char* when) {
    TempDir dir("fsync");
    into = MeasureFsync(dir.path(), n_fsync);
    for (const auto& f : into)
      Progress(std::string("fsync (") + when + "): " + f.what + ": median " + Fixed(f.median_us, 0) + " us");
  };
  if (Wanted("fsync")) probe_fsync(fsyncs, "first");
  // The commit table's ratio column reads against the 4 KiB steady-state rate.
  const double fsync_rate = fsyncs.empty() ? 0 : fsyncs[0].per_second;

  // 2.
  const double target_s = EnvDouble("STRATA_BENCH_COMMIT_SECONDS", 3.0);
  std::vector<CommitResult> commits;
  // STRATA_BENCH_COMMIT_THREADS: the thread counts, comma-separated (default 1,8,50).
  std::vector<int> thread_counts;
  {
    const char* s = std::getenv("STRATA_BENCH_COMMIT_THREADS");
    std::string list = (s && *s) ? s : "1,8,50";
    for (std::size_t at = 0; at < list.size();) {
      const std::size_t comma = std::min(list.find(',', at), list.size());
      const int n = std::atoi(list.substr(at, comma - at).c_str());
      if (n < 1 || n > 1000) Die("STRATA_BENCH_COMMIT_THREADS: thread counts from 1 to 1000, not '" + list + "'");
      thread_counts.push_back(n);
      at = comma + 1;
    }
  }
  for (int threads : thread_counts) {
    if (!Wanted("commits")) break;
    for (bool group : {true, false}) {
      commits.push_back(MeasureCommits({threads, group, 1}, target_s));
      const auto& r = commits.back();
      Progress("commits: " + std::to_string(threads) + " threads, group commit " + (group ? "on" : "off") + ": " +
               Thousands(static_cast<double>(r.commits) / r.seconds) + "/s");
    }
  }
  for (int mode : {2, 0}) {
    if (!Wanted("commits")) break;
    commits.push_back(MeasureCommits({1, true, mode}, target_s));
    const auto& r = commits.back();
    Progress("commits: 1 thread, flush_log_at_trx_commit=" + std::to_string(mode) + ": " +
             Thousands(static_cast<double>(r.commits) / r.seconds) + "/s");
  }

  if (Wanted("fsync") && Wanted("commits")) probe_fsync(fsyncs_again, "again, after the commit runs");

  // 3.
  const std::uint64_t bulk_rows = std::max<std::uint64_t>(1, EnvU64("STRATA_BENCH_BULK_ROWS", 1000000));
  const std::uint64_t bulk_pool = EnvU64("STRATA_BENCH_BULK_POOL_MIB", 1024) * kMiB;
  const std::uint64_t bulk_log = EnvU64("STRATA_BENCH_BULK_LOG_MIB", 96) * kMiB;
  std::uint64_t sync_rows = EnvU64("STRATA_BENCH_BULK_SYNC_ROWS", 0);
  if (sync_rows == 0) sync_rows = std::clamp<std::uint64_t>(static_cast<std::uint64_t>(fsync_rate * 5), 1000, 200000);
  sync_rows = std::min(sync_rows, bulk_rows);
  std::vector<BulkResult> bulk;
  if (Wanted("bulk")) {
    Progress("bulk: generating " + std::to_string(bulk_rows) + " rows");
    const BulkData data = MakeBulkData(bulk_rows);
    for (BulkMode m : {BulkMode::kRedoOff, BulkMode::kFlush0, BulkMode::kFlush2, BulkMode::kFlush1}) {
      bulk.push_back(MeasureBulk(data, m == BulkMode::kFlush1 ? sync_rows : bulk_rows, m, bulk_pool, bulk_log));
      const auto& r = bulk.back();
      Progress("bulk: " + r.what + ": " + Thousands(static_cast<double>(r.rows) / r.total_seconds) + " rows/s");
    }
    // With a log large enough that its free-space check never forces a full flush.
    const std::uint64_t big_log = EnvU64("STRATA_BENCH_BULK_BIG_LOG_MIB", 2048) * kMiB;
    if (big_log > 0) {
      bulk.push_back(MeasureBulk(data, bulk_rows, BulkMode::kFlush0, bulk_pool, big_log));
      bulk.back().what =
          "redo on, flush_log_at_trx_commit=0, then Flush(); " + std::to_string(big_log / kMiB) + " MiB log";
      Progress("bulk: " + bulk.back().what + ": " +
               Thousands(static_cast<double>(bulk.back().rows) / bulk.back().total_seconds) + " rows/s");
    }
  }

  // 4.
  RecoveryResult rec;
  const bool do_recovery = EnvU64("STRATA_BENCH_RECOVERY", 1) != 0 && Wanted("recovery");
  if (do_recovery) rec = MeasureRecovery();

  // ---- Report ----
  machine.PrintSection();
  std::printf("- Memory available at the end: %s MiB\n",
              Thousands(static_cast<double>(AvailableMemory() / kMiB)).c_str());
  std::printf("- Peak RSS of this process: %s MiB\n", Thousands(static_cast<double>(PeakRssBytes() / kMiB)).c_str());

  if (!fsyncs.empty()) {
    std::printf("\n## 1. fsync latency (%d writes of each kind, interleaved; syncs/s = 1 / mean latency)\n\n", n_fsync);
    std::printf("| when | what | median us | p99 us | max us | syncs/s |\n|---|---|---:|---:|---:|---:|\n");
  }
  for (const auto* set : {&fsyncs, &fsyncs_again}) {
    for (const auto& f : *set) {
      std::printf("| %s | %s | %s | %s | %s | %s |\n", set == &fsyncs ? "first" : "after section 2", f.what.c_str(),
                  Thousands(f.median_us).c_str(), Thousands(f.p99_us).c_str(), Thousands(f.max_us).c_str(),
                  Thousands(f.per_second).c_str());
    }
  }

  if (!commits.empty()) {
    std::printf(
        "\n## 2. Commits (one Table::Insert of a ~140-byte row each into one shared table; a fresh database per "
        "line)\n\n");
    std::printf(
        "| flush_log_at_trx_commit | threads | group commit | commits | seconds | commits/s | log fsyncs | "
        "fsyncs/commit | commits/s ÷ raw fsyncs/s | p50 us | p99 us |\n");
    std::printf("|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
  }
  for (const auto& r : commits) {
    const double cps = static_cast<double>(r.commits) / r.seconds;
    std::printf("| %d | %d | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", r.cfg.flush_mode, r.cfg.threads,
                r.cfg.group_commit ? "on" : "off", Thousands(static_cast<double>(r.commits)).c_str(),
                Fixed(r.seconds, 2).c_str(), Thousands(cps).c_str(),
                Thousands(static_cast<double>(r.redo.fsyncs)).c_str(),
                Fixed(static_cast<double>(r.redo.fsyncs) / static_cast<double>(r.commits), 3).c_str(),
                fsync_rate > 0 ? Fixed(cps / fsync_rate, 2).c_str() : "-", Thousands(r.p50_us).c_str(),
                Thousands(r.p99_us).c_str());
  }

  if (!bulk.empty()) {
    std::printf(
        "\n## 3. Bulk load, sbtest rows, sequential keys, one thread (buffer pool %s MiB, redo log %s MiB unless "
        "said)\n\n",
        Thousands(static_cast<double>(bulk_pool / kMiB)).c_str(),
        Thousands(static_cast<double>(bulk_log / kMiB)).c_str());
    std::printf(
        "| variant | rows | insert s | total s | rows/s (total) | vs redo off | redo MiB | log fsyncs | checkpoints | "
        "page writes |\n");
    std::printf("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
  }
  const double off_rate = bulk.empty() ? 1 : static_cast<double>(bulk[0].rows) / bulk[0].total_seconds;
  for (const auto& r : bulk) {
    const double rate = static_cast<double>(r.rows) / r.total_seconds;
    std::printf("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", r.what.c_str(),
                Thousands(static_cast<double>(r.rows)).c_str(), Fixed(r.insert_seconds, 2).c_str(),
                Fixed(r.total_seconds, 2).c_str(), Thousands(rate).c_str(), (Fixed(rate / off_rate, 3) + "x").c_str(),
                Fixed(static_cast<double>(r.redo.bytes) / kMiB, 0).c_str(),
                Thousands(static_cast<double>(r.redo.fsyncs)).c_str(),
                Thousands(static_cast<double>(r.redo.checkpoints)).c_str(),
                Thousands(static_cast<double>(r.pool_writes)).c_str());
  }

  if (do_recovery) {
    const auto& c = rec.child;
    std::printf("\n## 4. Crash recovery\n\n");
    std::printf(
        "Load (forked child, buffer pool %s MiB, redo log %s MiB, page_cleaner=false, flush_log_at_trx_commit=0): "
        "%s rows inserted + %s random updates, %s MiB of redo records in %s mini-transactions, %s s; "
        "%s log syncs in the 2.5 s after the last commit; %s dirty pages, %s pages written before the crash; "
        "%s checkpoints during the load; data directory %s MiB allocated.\n\n",
        Thousands(static_cast<double>(rec.pool_bytes / kMiB)).c_str(),
        Thousands(static_cast<double>(rec.log_bytes / kMiB)).c_str(), Thousands(static_cast<double>(c.rows)).c_str(),
        Thousands(static_cast<double>(c.updates)).c_str(), Fixed(static_cast<double>(c.redo.bytes) / kMiB, 0).c_str(),
        Thousands(static_cast<double>(c.redo.appends)).c_str(), Fixed(c.load_seconds, 1).c_str(),
        Thousands(static_cast<double>(c.fsyncs_after)).c_str(), Thousands(static_cast<double>(c.dirty_pages)).c_str(),
        Thousands(static_cast<double>(c.pool_writes)).c_str(),
        Thousands(static_cast<double>(c.redo.checkpoints)).c_str(),
        Thousands(static_cast<double>(rec.dir_bytes / kMiB)).c_str());
    std::printf(
        "| page cache | Open s | groups | records | applied | skipped | pages | replay threads | GiB/s of redo | peak "
        "RSS growth in Open MiB | check s | close s | verified |\n");
    std::printf("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
    for (const auto& r : rec.runs) {
      std::printf("| %s | %s | %s | %s | %s | %s | %s | %zu | %s | %s | %s | %s | %s |\n", r.cache,
                  Fixed(r.open_seconds, 2).c_str(), Thousands(static_cast<double>(r.stats.groups)).c_str(),
                  Thousands(static_cast<double>(r.stats.records)).c_str(),
                  Thousands(static_cast<double>(r.stats.applied)).c_str(),
                  Thousands(static_cast<double>(r.stats.skipped)).c_str(),
                  Thousands(static_cast<double>(r.stats.pages)).c_str(), r.stats.threads,
                  Fixed(static_cast<double>(c.redo.bytes) / kGiB / r.open_seconds, 3).c_str(),
                  Thousands(static_cast<double>((r.rss_peak - std::min(r.rss_peak, r.rss_before)) / kMiB)).c_str(),
                  Fixed(r.check_seconds, 2).c_str(), Fixed(r.close_seconds, 2).c_str(), r.verify_note);
    }
  }
  std::fflush(stdout);
  return 0;
}
