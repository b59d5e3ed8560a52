// Strata's engine against SQLite, in one binary on one machine: point inserts (sequential and
// shuffled keys), point lookups and full scans of a sysbench-style table
//
//   sbtest1(id BIGINT PRIMARY KEY, k INT UNSIGNED, c CHAR(120), pad CHAR(60))
//
// in two settings: "in_memory" (Strata buffer pool 256 MiB, SQLite page cache 256 MiB) and
// "small_pool" (8 MiB each), where the table (N = 200,000 rows, about 50 MB) does not fit in
// the cache. Both read and write through the OS page cache; nothing here drops it.
//
// Fairness notes:
//   - Strata writes redo but has no undo yet, and runs with flush_log_at_trx_commit=0 (the log
//     synced once a second); SQLite runs without its journal and without syncs (PRAGMA
//     journal_mode=OFF; PRAGMA synchronous=OFF). SQLite commits one transaction per 1000 rows
//     through a prepared statement; Strata inserts one row per Table::Insert call.
//   - SQLite runs with PRAGMA locking_mode=EXCLUSIVE: Strata holds its data directory
//     (strata.lock) for as long as it is open, and without it SQLite takes and drops a file
//     lock and rereads the file header around every statement (a lookup costs ~10x more).
//   - An insert run ends with Database::Flush() for Strata (writes every dirty page and syncs
//     the files) and with the last COMMIT plus one fsync of the database file for SQLite, so
//     both have their pages in the files, synced, when the clock stops.
//   - Lookups and scans read every column of the row (Strata materializes a Row; SQLite reads
//     each column of the current row).
//
// N is STRATA_BENCH_ROWS (default 200000). Run through tests/bench/engine_bench.sh for a table.
#include <benchmark/benchmark.h>
#include <fcntl.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "bench_util.h"
#include "sqlite_util.h"
#include "engine/db.h"
#include "experiments/sbtest.h"

namespace {

namespace fs = std::filesystem;
using strata::bench::DirBytes;
using strata::bench::SqlExec;
using strata::bench::Stmt;
using strata::bench::TempDir;
using strata::engine::Charset;
using strata::engine::Column;
using strata::engine::ColumnType;
using strata::engine::Database;
using strata::engine::DatabaseOptions;
using strata::engine::Row;
using strata::engine::ScanOptions;
using strata::engine::Table;
using strata::engine::TableSpec;
using strata::engine::Value;

// ---------------------------------------------------------------------------------------------
// The data set, generated once: the same rows for both engines.

struct Dataset {
  std::size_t n = 0;
  std::vector<std::int64_t> shuffled;  // the keys 1..n in a fixed pseudo-random order
  std::vector<std::uint32_t> k;        // k of row id, at k[id - 1]
  std::vector<std::string> c, pad;     // likewise
};

std::size_t RowCount() {
  const char* s = std::getenv("STRATA_BENCH_ROWS");
  if (s == nullptr || *s == '\0') return 200000;
  char* end = nullptr;
  unsigned long long v = std::strtoull(s, &end, 10);
  if (*end != '\0' || v == 0) {
    std::fprintf(stderr, "engine_bench: STRATA_BENCH_ROWS must be a positive integer, not '%s'\n", s);
    std::exit(2);
  }
  return static_cast<std::size_t>(v);
}

// sysbench's c and pad: groups of 11 random digits joined by '-' (119 and 59 characters).
std::string DigitGroups(std::mt19937_64& rng, int groups) {
  std::string s;
  for (int g = 0; g < groups; ++g) {
    if (g > 0) s += '-';
    for (int i = 0; i < 11; ++i) s += static_cast<char>('0' + rng() % 10);
  }
  return s;
}

const Dataset& Data() {
  static const Dataset data = [] {
    Dataset d;
    d.n = RowCount();
    std::mt19937_64 rng(20240131);  // fixed seed; mt19937_64 is the same everywhere
    d.k.reserve(d.n);
    d.c.reserve(d.n);
    d.pad.reserve(d.n);
    for (std::size_t i = 0; i < d.n; ++i) {
      d.k.push_back(static_cast<std::uint32_t>(1 + rng() % d.n));
      d.c.push_back(DigitGroups(rng, 10));
      d.pad.push_back(DigitGroups(rng, 5));
    }
    // Fisher-Yates by hand: std::shuffle's order differs between standard libraries.
    d.shuffled.resize(d.n);
    for (std::size_t i = 0; i < d.n; ++i) d.shuffled[i] = static_cast<std::int64_t>(i + 1);
    for (std::size_t i = d.n - 1; i > 0; --i) std::swap(d.shuffled[i], d.shuffled[rng() % (i + 1)]);
    return d;
  }();
  return data;
}

enum class Setting { kInMemory, kSmallPool };
constexpr std::size_t kBigCacheBytes = 256u << 20;
constexpr std::size_t kSmallCacheBytes = 8u << 20;
std::size_t CacheBytes(Setting s) { return s == Setting::kInMemory ? kBigCacheBytes : kSmallCacheBytes; }
const char* SettingName(Setting s) { return s == Setting::kInMemory ? "in_memory" : "small_pool"; }

enum class Order { kSequential, kRandom };
std::int64_t KeyAt(const Dataset& d, Order o, std::size_t i) {
  return o == Order::kSequential ? static_cast<std::int64_t>(i + 1) : d.shuffled[i];
}

// The timed part common to both peers: each iteration opens a fresh database and inserts every
// row; `after` adds a peer's own counters (and may close it) before its size is taken.
template <class Db>
void TimedInserts(benchmark::State& state, Setting setting, Order order, const char* tag,
                  std::string (*open)(Setting, const std::string&, Db&),
                  std::string (*insert_all)(const Dataset&, Order, Db&), const std::function<void(Db&)>& after) {
  const Dataset& d = Data();
  std::uintmax_t bytes = 0;
  for (auto _ : state) {
    Db s;
    if (auto err = open(setting, tag, s); !err.empty()) {
      state.SkipWithError(err.c_str());
      break;
    }
    auto t0 = std::chrono::steady_clock::now();
    auto err = insert_all(d, order, s);
    auto t1 = std::chrono::steady_clock::now();
    if (!err.empty()) {
      state.SkipWithError(err.c_str());
      break;
    }
    state.SetIterationTime(std::chrono::duration<double>(t1 - t0).count());
    if (after) after(s);
    bytes = DirBytes(s.dir->path());
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * d.n));
  state.counters["file_MB"] = static_cast<double>(bytes) / 1e6;
}

// One database per peer and setting, built once (sequential inserts) for the lookup and scan
// runs. Null when there is none, with `state` skipped and saying why (a skipped benchmark may
// return without entering its loop).
template <class Db>
Db* SharedDb(benchmark::State& state, Setting setting, const char* peer,
             std::string (*open)(Setting, const std::string&, Db&),
             std::string (*insert_all)(const Dataset&, Order, Db&)) {
  static std::unique_ptr<Db> dbs[2];
  static std::string errors[2];
  const int i = static_cast<int>(setting);
  if (!dbs[i] && errors[i].empty()) {
    auto s = std::make_unique<Db>();
    errors[i] = open(setting, std::string(peer) + "-shared-" + SettingName(setting), *s);
    if (errors[i].empty()) errors[i] = insert_all(Data(), Order::kSequential, *s);
    if (errors[i].empty()) dbs[i] = std::move(s);
  }
  if (!errors[i].empty()) state.SkipWithError(errors[i].c_str());
  return dbs[i].get();
}

// ---------------------------------------------------------------------------------------------
// Strata

// sysbench's sbtest1 with its BIGINT id, without the index on k.
TableSpec SbtestSpec() {
  strata::experiments::SbtestShape shape;
  shape.bigint_id = true;
  shape.k_index = false;
  return strata::experiments::SbtestSpec("bench", "sbtest1", shape);
}

struct StrataDb {
  std::unique_ptr<TempDir> dir;
  std::unique_ptr<Database> db;
  Table* table = nullptr;
};

// Opens a fresh database with the table; an error message on failure.
std::string OpenStrata(Setting setting, const std::string& tag, StrataDb& out) {
  out.dir = std::make_unique<TempDir>(tag);
  DatabaseOptions opts;
  opts.buffer_pool_bytes = CacheBytes(setting);
  opts.flush_log_at_trx_commit = 0;  // redo written and synced once a second, as SQLite's synchronous=OFF
  auto db = Database::Open(out.dir->path(), opts);
  if (!db.ok()) return "Database::Open: " + db.status().ToString();
  out.db = std::move(*db);
  if (auto st = out.db->CreateDatabase("bench"); !st.ok()) return "CreateDatabase: " + st.ToString();
  auto t = out.db->CreateTable(SbtestSpec());
  if (!t.ok()) return "CreateTable: " + t.status().ToString();
  out.table = *t;
  return {};
}

void FillRow(const Dataset& d, std::int64_t id, Row& row) {
  const std::size_t i = static_cast<std::size_t>(id - 1);
  row[0] = Value::Int(id);
  row[1] = Value::UInt(d.k[i]);
  row[2] = Value::String(d.c[i]);
  row[3] = Value::String(d.pad[i]);
}

// Inserts every row in `order` and flushes; an error message on failure.
std::string StrataInsertAll(const Dataset& d, Order order, StrataDb& s) {
  Row row(4);
  for (std::size_t i = 0; i < d.n; ++i) {
    FillRow(d, KeyAt(d, order, i), row);
    auto st = s.table->Insert(row);
    if (!st.ok()) return "Insert row " + std::to_string(i) + ": " + st.ToString();
  }
  auto st = s.db->Flush();
  if (!st.ok()) return "Flush: " + st.ToString();
  return {};
}

void AddPoolCounters(benchmark::State& state, Database& db) {
  auto ps = db.buffer_pool_stats();
  state.counters["pool_reads"] = static_cast<double>(ps.reads);
  state.counters["pool_writes"] = static_cast<double>(ps.writes);
  state.counters["pool_evictions"] = static_cast<double>(ps.evictions);
}

void StrataInsert(benchmark::State& state, Setting setting, Order order) {
  TimedInserts<StrataDb>(state, setting, order, "strata-insert", OpenStrata, StrataInsertAll, [&](StrataDb& s) {
    AddPoolCounters(state, *s.db);
    state.counters["page_splits"] = static_cast<double>(s.table->stats().page_splits);
    s.db.reset();  // closes (nothing dirty after Flush)
  });
}

StrataDb* SharedStrata(benchmark::State& state, Setting setting) {
  return SharedDb<StrataDb>(state, setting, "strata", OpenStrata, StrataInsertAll);
}

void StrataLookup(benchmark::State& state, Setting setting) {
  const Dataset& d = Data();
  StrataDb* s = SharedStrata(state, setting);
  if (s == nullptr) return;
  auto before = s->db->buffer_pool_stats();
  std::vector<Value> key(1);
  std::size_t i = 0;
  for (auto _ : state) {
    key[0] = Value::Int(d.shuffled[i]);
    if (++i == d.n) i = 0;
    auto r = s->table->Get(key);
    if (!r.ok() || !r->has_value()) {
      state.SkipWithError(r.ok() ? "Get: a key that was inserted is missing" : r.status().ToString().c_str());
      break;
    }
    benchmark::DoNotOptimize((**r)[1].as_uint());
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
  auto after = s->db->buffer_pool_stats();
  state.counters["pool_reads"] = static_cast<double>(after.reads - before.reads);
  state.counters["pool_evictions"] = static_cast<double>(after.evictions - before.evictions);
}

void StrataScan(benchmark::State& state, Setting setting) {
  const Dataset& d = Data();
  StrataDb* s = SharedStrata(state, setting);
  if (s == nullptr) return;
  for (auto _ : state) {
    std::size_t rows = 0;
    std::uint64_t sum = 0;
    auto st = s->table->Scan(ScanOptions{}, [&](const Row& row) {
      ++rows;
      sum += row[1].as_uint() + row[2].as_string().size() + row[3].as_string().size();
      return true;
    });
    benchmark::DoNotOptimize(sum);
    if (!st.ok() || rows != d.n) {
      state.SkipWithError(!st.ok() ? st.ToString().c_str() : "Scan: wrong row count");
      break;
    }
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * d.n));
}

// ---------------------------------------------------------------------------------------------
// SQLite

struct SqliteDb {
  std::unique_ptr<TempDir> dir;
  sqlite3* db = nullptr;
  ~SqliteDb() {
    if (db != nullptr) sqlite3_close_v2(db);
  }
  fs::path file() const { return dir->path() / "bench.db"; }
};

std::string OpenSqlite(Setting setting, const std::string& tag, SqliteDb& out) {
  out.dir = std::make_unique<TempDir>(tag);
  if (sqlite3_open(out.file().c_str(), &out.db) != SQLITE_OK)
    return std::string("sqlite3_open: ") + sqlite3_errmsg(out.db);
  const long cache_kib = static_cast<long>(CacheBytes(setting) / 1024);
  // No journal and no syncs: Strata has no redo or undo yet (see the top of this file).
  for (const std::string& sql :
       {std::string("PRAGMA journal_mode=OFF"), std::string("PRAGMA synchronous=OFF"),
        std::string("PRAGMA locking_mode=EXCLUSIVE"), "PRAGMA cache_size=-" + std::to_string(cache_kib),
        std::string("CREATE TABLE t(id INTEGER PRIMARY KEY, k INTEGER, c TEXT, pad TEXT)")}) {
    if (auto err = SqlExec(out.db, sql); !err.empty()) return err;
  }
  return {};
}

std::string SqliteInsertAll(const Dataset& d, Order order, SqliteDb& s) {
  Stmt ins(s.db, "INSERT INTO t(id, k, c, pad) VALUES (?, ?, ?, ?)");
  if (!ins.ok()) return std::string("prepare INSERT: ") + sqlite3_errmsg(s.db);
  constexpr std::size_t kRowsPerTransaction = 1000;
  for (std::size_t i = 0; i < d.n; ++i) {
    if (i % kRowsPerTransaction == 0) {
      if (i > 0)
        if (auto err = SqlExec(s.db, "COMMIT"); !err.empty()) return err;
      if (auto err = SqlExec(s.db, "BEGIN"); !err.empty()) return err;
    }
    const std::int64_t id = KeyAt(d, order, i);
    const std::size_t r = static_cast<std::size_t>(id - 1);
    sqlite3_stmt* st = ins.get();
    sqlite3_bind_int64(st, 1, id);
    sqlite3_bind_int64(st, 2, d.k[r]);
    sqlite3_bind_text(st, 3, d.c[r].data(), static_cast<int>(d.c[r].size()), SQLITE_STATIC);
    sqlite3_bind_text(st, 4, d.pad[r].data(), static_cast<int>(d.pad[r].size()), SQLITE_STATIC);
    if (sqlite3_step(st) != SQLITE_DONE) return "INSERT row " + std::to_string(i) + ": " + sqlite3_errmsg(s.db);
    sqlite3_reset(st);
  }
  if (auto err = SqlExec(s.db, "COMMIT"); !err.empty()) return err;
  // One sync at the end, as Strata's Flush() syncs its files.
  int fd = ::open(s.file().c_str(), O_RDONLY);
  if (fd < 0 || ::fsync(fd) != 0) {
    if (fd >= 0) ::close(fd);
    return "fsync " + s.file().string();
  }
  ::close(fd);
  return {};
}

void SqliteInsert(benchmark::State& state, Setting setting, Order order) {
  TimedInserts<SqliteDb>(state, setting, order, "sqlite-insert", OpenSqlite, SqliteInsertAll, {});
}

SqliteDb* SharedSqlite(benchmark::State& state, Setting setting) {
  return SharedDb<SqliteDb>(state, setting, "sqlite", OpenSqlite, SqliteInsertAll);
}

std::uint64_t ReadColumns(sqlite3_stmt* st) {
  std::uint64_t sum = static_cast<std::uint64_t>(sqlite3_column_int64(st, 0));
  sum += static_cast<std::uint64_t>(sqlite3_column_int64(st, 1));
  for (int col = 2; col < 4; ++col) {
    const unsigned char* text = sqlite3_column_text(st, col);
    benchmark::DoNotOptimize(text);
    sum += static_cast<std::uint64_t>(sqlite3_column_bytes(st, col));
  }
  return sum;
}

void SqliteLookup(benchmark::State& state, Setting setting) {
  const Dataset& d = Data();
  SqliteDb* s = SharedSqlite(state, setting);
  if (s == nullptr) return;
  Stmt sel(s->db, "SELECT id, k, c, pad FROM t WHERE id = ?");
  if (!sel.ok()) {
    state.SkipWithError(sqlite3_errmsg(s->db));
    return;
  }
  sqlite3_stmt* st = sel.get();
  std::size_t i = 0;
  for (auto _ : state) {
    sqlite3_bind_int64(st, 1, d.shuffled[i]);
    if (++i == d.n) i = 0;
    if (sqlite3_step(st) != SQLITE_ROW) {
      state.SkipWithError("SELECT: a key that was inserted is missing");
      break;
    }
    benchmark::DoNotOptimize(ReadColumns(st));
    sqlite3_reset(st);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}

void SqliteScan(benchmark::State& state, Setting setting) {
  const Dataset& d = Data();
  SqliteDb* s = SharedSqlite(state, setting);
  if (s == nullptr) return;
  Stmt sel(s->db, "SELECT * FROM t");
  if (!sel.ok()) {
    state.SkipWithError(sqlite3_errmsg(s->db));
    return;
  }
  sqlite3_stmt* st = sel.get();
  for (auto _ : state) {
    std::size_t rows = 0;
    std::uint64_t sum = 0;
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
      ++rows;
      sum += ReadColumns(st);
    }
    sqlite3_reset(st);
    benchmark::DoNotOptimize(sum);
    if (rc != SQLITE_DONE || rows != d.n) {
      state.SkipWithError(rc != SQLITE_DONE ? sqlite3_errmsg(s->db) : "SELECT *: wrong row count");
      break;
    }
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * d.n));
}

// ---------------------------------------------------------------------------------------------

void RegisterAll() {
  // Names are engine/operation/setting; engine_bench.sh pairs them up by operation/setting.
  for (Setting setting : {Setting::kInMemory, Setting::kSmallPool}) {
    const std::string suffix = std::string("/") + SettingName(setting);
    for (Order order : {Order::kSequential, Order::kRandom}) {
      const std::string op = order == Order::kSequential ? "insert_seq" : "insert_random";
      benchmark::RegisterBenchmark(("strata/" + op + suffix).c_str(), StrataInsert, setting, order)
          ->UseManualTime()
          ->Unit(benchmark::kMillisecond);
      benchmark::RegisterBenchmark(("sqlite/" + op + suffix).c_str(), SqliteInsert, setting, order)
          ->UseManualTime()
          ->Unit(benchmark::kMillisecond);
    }
    benchmark::RegisterBenchmark(("strata/lookup" + suffix).c_str(), StrataLookup, setting);
    benchmark::RegisterBenchmark(("sqlite/lookup" + suffix).c_str(), SqliteLookup, setting);
    benchmark::RegisterBenchmark(("strata/scan" + suffix).c_str(), StrataScan, setting)->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(("sqlite/scan" + suffix).c_str(), SqliteScan, setting)->Unit(benchmark::kMillisecond);
  }
}

}  // namespace

int main(int argc, char** argv) {
  strata::bench::ProgramName() = "engine_bench";
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::AddCustomContext("rows", std::to_string(RowCount()));
  benchmark::AddCustomContext("sqlite", sqlite3_libversion());
  RegisterAll();
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  // The shared databases close and their directories go when the statics are destroyed.
  return 0;
}
