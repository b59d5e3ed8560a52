// A table's insides: its tablespace, one B-tree per index, the SDI tree at page 3, and the
// conversion between rows and index records. Internal to the engine; Table (db.h) is the face.
#pragma once

#include <atomic>
#include <memory>
#include <shared_mutex>

#include "engine/btree.h"
#include "engine/catalog.h"
#include "engine/db.h"
#include "engine/lob_store.h"

namespace strata::engine {

class TableImpl {
 public:
  // A new table in a new, empty tablespace registered with the pool: SDI tree at page 3,
  // clustered root at page 4, secondary roots after it.
  static Result<std::unique_ptr<TableImpl>> Create(BufferPool& pool, std::shared_mutex& mu,
                                                   std::unique_ptr<Tablespace> space, TableMeta meta,
                                                   std::uint64_t* next_index_id);
  // An existing tablespace: the definition comes from its SDI.
  static Result<std::unique_ptr<TableImpl>> Open(BufferPool& pool, std::shared_mutex& mu,
                                                 std::unique_ptr<Tablespace> space);

  Status Insert(const Row& row);
  Result<std::optional<Row>> Get(const std::vector<Value>& primary_key);
  Status Update(const Row& row);
  Status Delete(const std::vector<Value>& primary_key);
  Status Scan(const ScanOptions& options, const std::function<bool(const Row&)>& fn);
  Status Check();
  // Adds a secondary index (the caller holds the database's write lock).
  Status AddIndex(const IndexSpec& index, std::uint64_t index_id);

  // Called before each write (no page latched) and after it (the table lock released, so that
  // commits from many threads share one log flush).
  struct Hooks {
    std::function<Status()> before_write, after_write;
  };
  void set_hooks(Hooks h) { hooks_ = std::move(h); }

  const TableMeta& meta() const { return meta_; }
  Tablespace& space() { return *space_; }
  std::uint64_t last_insert_id() const { return last_insert_id_; }
  TableStats stats() const;

 private:
  TableImpl(BufferPool& pool, std::shared_mutex& mu, std::unique_ptr<Tablespace> space, TableMeta meta);
  void BuildShapes();
  Status WriteSdi();
  Status InsertLocked(const Row& row);
  Status UpdateLocked(const Row& row);
  Status DeleteLocked(const std::vector<Value>& primary_key);
  Status LoadCounters();
  // Encodes a row into the clustered record (DB_ROW_ID/DB_TRX_ID/DB_ROLL_PTR included).
  Result<Tuple> ClusteredRecord(const Row& row, std::uint64_t row_id);
  Tuple SecondaryRecord(std::size_t index, const Tuple& clustered) const;
  Result<Tuple> PrimaryKey(const std::vector<Value>& values) const;
  Result<Row> RowOf(const Tuple& clustered);
  // Moves the longest columns off-page until the record fits half a page (DYNAMIC rules).
  Status Externalize(Tuple& clustered);
  Status FreeExternal(const Tuple& clustered);
  Status CheckUnique(std::size_t index, const Tuple& secondary, const Tuple* own_key);
  std::string DuplicateMessage(std::size_t index, const Tuple& record) const;
  Status PersistAutoinc();
  // A write that failed on I/O or found damage part-way may have left an index half changed;
  // until redo exists (the durability issue) the table then refuses further writes.
  Status Guard(Status s);
  Status CheckWritable() const;
  std::size_t FieldOfColumn(std::size_t index, int column) const;
  std::size_t IndexByName(const std::string& name) const;  // indexes.size() when unknown

  BufferPool& pool_;
  std::shared_mutex& mu_;
  std::unique_ptr<Tablespace> space_;
  TableMeta meta_;
  std::vector<std::vector<IndexField>> fields_;  // per index
  std::vector<IndexShape> shapes_;
  std::vector<std::unique_ptr<Btree>> trees_;
  std::unique_ptr<Btree> sdi_;
  std::unique_ptr<LobStore> lobs_;
  std::uint64_t autoinc_ = 0;   // the last AUTO_INCREMENT value handed out or seen
  std::uint64_t persisted_autoinc_ = 0;
  std::uint64_t next_row_id_ = 1;
  std::uint64_t last_insert_id_ = 0;
  std::uint64_t trx_counter_ = 1;
  TableStats stats_;
  Status failed_;
  Hooks hooks_;
};

}  // namespace strata::engine
