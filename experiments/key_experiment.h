// The key-strategy experiment: the same N rows inserted, as an application would (autocommit
// INSERT statements of B rows, keys in the order they are made), into one table per key
// strategy, each in a fresh data directory; then what each table became on disk.
//
// It repeats the study that put 75 M rows in tables keyed by auto-increment int, plain int,
// UUIDv4 char(36) and ULID and found the UUID table 3.8x larger, half-filled and slow to
// count: random keys split pages in the middle, so leaves stay about 69% full (a random
// B-tree's expected fill), and every page is touched again and again (hot LSNs across the
// file), while ascending keys fill pages to the brim in order (an LSN gradient).
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "datasets/dump_writer.h"
#include "datasets/keys.h"
#include "ondisk/status.h"

namespace strata::experiments {

// The key strategies, table shapes and generators the experiments run are datasets'.
using namespace strata::datasets;

struct KeyExperimentOptions {
  std::uint64_t rows = 100000;
  std::vector<KeyStrategy> strategies;  // empty: StudyStrategies()
  std::uint64_t batch = 100;            // rows per INSERT statement, each one autocommitted
  std::size_t buffer_pool_bytes = 32u << 20;
  TableShape shape = TableShape::kKeyOnly;
  std::uint64_t seed = 1;
  int flush_log_at_trx_commit = 1;
  std::uint32_t samples = 20;  // cumulative insert time every rows/samples rows
  std::string database = "test";
};

// The study's four: auto-increment int, plain int, UUIDv4 char(36), ULID char(26).
std::vector<KeyStrategy> StudyStrategies();

struct TimeSample {
  std::uint64_t rows = 0;
  double seconds = 0;  // since the first insert
};

// One table after its load. Page figures are read from the .ibd file once the server that
// wrote it has stopped (inspect::Summarize), the same way `strata inspect summary` reads them.
struct KeyRunResult {
  std::string engine;  // "strata" or "mariadb"
  KeyStrategy strategy = KeyStrategy::kAutoinc;
  std::string table;
  std::filesystem::path file;  // the table's .ibd
  std::vector<TimeSample> samples;
  double insert_seconds = 0;
  std::uint64_t file_bytes = 0;
  std::uint64_t pages = 0;        // whole pages in the file
  std::uint64_t data_pages = 0;   // the clustered index (SHOW TABLE STATUS's Data_length)
  std::uint64_t index_pages = 0;  // secondary indexes (Index_length)
  std::uint64_t leaf_pages = 0;   // of the clustered index
  std::uint64_t levels = 0;
  std::uint64_t records = 0;
  double avg_leaf_fill = 0;                        // of the clustered index's leaves, 0..1
  std::optional<std::uint64_t> page_splits;        // as counted by the engine while inserting
  std::optional<std::uint64_t> server_leaf_pages;  // MariaDB: n_leaf_pages in mysql.innodb_index_stats
  std::uint64_t count = 0;                         // what SELECT COUNT(*) returned
  double count_cold_seconds = 0;                   // fresh buffer pool, file evicted from the OS cache
  double count_warm_seconds = 0;                   // the same query again
};

struct KeyExperimentProgress {
  KeyStrategy strategy;
  std::string engine;
  std::string phase;  // "insert", "count", "done"
  std::uint64_t rows_done = 0;
};
using KeyProgressFn = std::function<void(const KeyExperimentProgress&)>;

// The experiment's table for `strategy`: its CREATE TABLE, as the study created it.
std::string CreateTableFor(const KeyExperimentOptions& options, KeyStrategy strategy);

// The load, the same on every engine: autocommit INSERTs of up to `batch` rows of `table`, in
// generation order, none straddling a sample point (every rows/samples rows), so samples fall
// on exact row counts. `fn(statement, rows done after it, whether that is a sample point)`
// returns false to stop.
void ForEachInsert(const KeyExperimentOptions& options, KeyStrategy strategy, const std::string& table,
                   const std::function<bool(const std::string& statement, std::uint64_t rows_done, bool sample)>& fn);

// Runs one strategy on Strata in `datadir` (which must not hold a database yet).
ondisk::Result<KeyRunResult> RunStrataKeys(const std::filesystem::path& datadir, KeyStrategy strategy,
                                           const KeyExperimentOptions& options, const KeyProgressFn& progress = {});

struct MariadbOptions {
  std::filesystem::path script;  // scripts/mariadb/server.sh
  int port = 33281;
};

// Runs one strategy on a private MariaDB server in `workdir` (replaced): the statements
// RunStrataKeys runs, timed by the server's clock; the file's figures read after its slow
// shutdown. `version` receives "MariaDB 10.11.x-...".
ondisk::Result<KeyRunResult> RunMariadbKeys(const std::filesystem::path& workdir, KeyStrategy strategy,
                                            const KeyExperimentOptions& options, const MariadbOptions& server,
                                            const KeyProgressFn& progress = {}, std::string* version = nullptr);

// Reads the page figures of `r.file` into `r` (file size, pages, clustered-index leaves,
// levels, records, fill, secondary-index pages). `server_dictionary`: index names come from
// the ibdata1 beside the file (MariaDB's files carry no SDI).
ondisk::Status ReadPageFigures(KeyRunResult& r, bool server_dictionary = false);

// Drops a file's pages from the OS page cache (so that the next read goes to the device).
void EvictFromPageCache(const std::filesystem::path& file);

}  // namespace strata::experiments
