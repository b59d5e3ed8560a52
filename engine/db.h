// The engine's public API (architecture layer 12): a data directory holding InnoDB-layout
// files, tables in it, and row operations on them.
//
//   auto db = Database::Open("/data/strata", {});
//   TableSpec spec{"shop", "orders", {{"id", ColumnType::kBigInt, ...}, ...}, {"id"}, {}};
//   auto t = (*db)->CreateTable(spec);
//   (*t)->Insert({Value::Int(1), Value::String("first")});
//
// The data directory (architecture.md §2): `ibdata1` (the system tablespace, with the
// engine's catalog of tables), `<database>/<table>.ibd` per table, and `strata.lock`, held
// while the directory is open so that a second process gets a clear error.
//
// Each operation runs on its own, without undo or redo: the durability and transaction
// issues add those beneath this API. Operations on one Database are safe from many threads
// (writes run one at a time). Pages reach the files when the page cleaner or eviction writes
// them, on Flush(), and when the database closes.
#pragma once

#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <shared_mutex>
#include <string>
#include <vector>

#include "engine/buffer_pool.h"
#include "engine/env.h"
#include "engine/schema.h"

namespace strata::engine {

using Row = std::vector<Value>;  // one value per column, in the table's column order

struct DatabaseOptions {
  std::size_t buffer_pool_bytes = 128u << 20;  // innodb_buffer_pool_size
  bool create_if_missing = true;
  bool page_cleaner = true;
  Env* env = nullptr;  // Env::Default() when null
};

struct ScanOptions {
  std::string index = "PRIMARY";  // or a secondary index's name
  std::vector<Value> from;        // a key prefix to start at; empty: from an end
  bool forward = true;            // ascending from the first key >= from, or descending from the last <= from
};

struct TableStats {
  std::uint64_t rows_inserted = 0, rows_updated = 0, rows_deleted = 0;
  std::uint64_t page_splits = 0, page_merges = 0;
};

class Database;
class TableImpl;

class Table {
 public:
  ~Table();
  const TableSpec& spec() const;

  // AlreadyExists for a duplicate primary or unique key (nothing is changed then).
  // An AUTO_INCREMENT column given NULL or 0 gets the next value.
  Status Insert(const Row& row);
  // Inserts rows in order; stops at the first failure, which names the row's position.
  Status InsertBatch(const std::vector<Row>& rows);
  // The row with this primary key (values of the primary key columns, or the hidden row id).
  Result<std::optional<Row>> Get(const std::vector<Value>& primary_key);
  // Replaces the row that has the same primary key; NotFound when there is none.
  Status Update(const Row& row);
  Status Delete(const std::vector<Value>& primary_key);
  // Visits rows in index order while `fn` returns true.
  Status Scan(const ScanOptions& options, const std::function<bool(const Row&)>& fn);

  std::uint64_t last_insert_id() const;
  TableStats stats() const;
  // Structural check of every index of the table (see Btree::Check).
  Status Check();
  const std::filesystem::path& path() const;

 private:
  friend class Database;
  explicit Table(std::unique_ptr<TableImpl> impl);
  std::unique_ptr<TableImpl> impl_;
};

class Database {
 public:
  // Creates (when allowed and missing) or opens a data directory. Busy when another process
  // holds it; Corruption naming the file when a file is damaged.
  static Result<std::unique_ptr<Database>> Open(const std::filesystem::path& dir, DatabaseOptions options);
  ~Database();  // writes every dirty page

  Status CreateDatabase(const std::string& name);
  std::vector<std::string> ListDatabases() const;
  // AlreadyExists when the table exists.
  Result<Table*> CreateTable(const TableSpec& spec);
  // NotFound when there is no such table.
  Result<Table*> GetTable(const std::string& database, const std::string& name);
  Status DropTable(const std::string& database, const std::string& name);
  std::vector<std::string> ListTables(const std::string& database) const;
  // Adds a secondary index and fills it from the table's rows.
  Status CreateIndex(const std::string& database, const std::string& table, const IndexSpec& index);

  // Writes every dirty page and syncs the files.
  Status Flush();
  BufferPoolStats buffer_pool_stats();
  const std::filesystem::path& dir() const { return dir_; }

 private:
  Database() = default;
  Status Load();
  Status SaveCatalog();
  Result<std::unique_ptr<Table>> OpenTableFile(const std::string& database, const std::string& name,
                                               std::uint32_t space_id);

  std::filesystem::path dir_;
  DatabaseOptions options_;
  Env* env_ = nullptr;
  std::unique_ptr<FileLock> lock_;
  std::unique_ptr<BufferPool> pool_;
  std::unique_ptr<Tablespace> system_;
  mutable std::shared_mutex mu_;  // writers exclusive, readers shared
  std::map<std::string, std::unique_ptr<Table>> tables_;  // "db/table"
  std::vector<std::string> databases_;
  std::uint32_t next_space_id_ = 1;
  std::uint64_t next_index_id_ = 1;
  std::uint64_t next_table_id_ = 1;
  friend class TableImpl;
};

}  // namespace strata::engine
