// How a table's rows and its index records correspond (InnoDB's row0row: an index entry built
// from a row, a clustered record's key, its system fields): per index, which column each
// field holds and the record shape its B-tree stores. Built from the definition, and again
// when an index is added; it reads and builds records, and touches no page. Off-page columns
// are the table's business (TableImpl::RowOf, Externalize): here a field is the bytes it holds.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "engine/btree.h"
#include "engine/catalog.h"
#include "engine/row.h"
#include "engine/undo_record.h"

namespace strata::engine {

// DB_ROLL_PTR of a record no undo precedes: the insert flag alone.
inline constexpr std::uint64_t kInsertRollPtr = std::uint64_t{1} << 55;

// A number as the big-endian bytes of a stored field (DB_TRX_ID, DB_ROLL_PTR, row ids).
std::string BigEndianField(std::uint64_t v, std::size_t width);

// Whether the first n fields of a and b are equal in the index's order.
bool SameKey(const IndexShape& shape, const Tuple& a, const Tuple& b, std::size_t n);

class TableRecords {
 public:
  TableRecords() = default;
  // `spec` must outlive this (the table's own definition).
  TableRecords(const TableSpec& spec, const std::vector<IndexMeta>& indexes);

  std::size_t n_indexes() const { return shapes_.size(); }
  const IndexShape& shape(std::size_t index) const { return shapes_[index]; }
  const std::vector<IndexField>& fields(std::size_t index) const { return fields_[index]; }
  // Which field of the index holds the column (a kRowIdColumn, ... for system columns);
  // fields(index).size() when it holds none.
  std::size_t FieldOfColumn(std::size_t index, int column) const;
  // The index a scan names: PRIMARY (or GEN_CLUST_INDEX) or a secondary index's name;
  // n_indexes() when there is none.
  std::size_t IndexByName(const std::string& name) const;

  // The clustered record of a row (DB_ROW_ID, DB_TRX_ID and DB_ROLL_PTR included; the
  // statement that writes it sets the last two).
  Result<Tuple> ClusteredRecord(const Row& row, std::uint64_t row_id) const;
  // Index `index`'s entry for a clustered record.
  Tuple SecondaryRecord(std::size_t index, const Tuple& clustered) const;
  // The clustered key of primary key values (a row id where the table has no primary key).
  Result<Tuple> PrimaryKey(const std::vector<Value>& values) const;
  // The leading key fields of index `index` from values, for a scan's start.
  Result<Tuple> KeyPrefix(std::size_t index, const std::vector<Value>& values) const;
  Tuple KeyOf(const Tuple& clustered) const;
  // The clustered key inside a secondary entry (InnoDB appends it).
  Tuple ClusteredKeyOfEntry(std::size_t index, const Tuple& entry) const;

  std::uint64_t TrxIdOf(const Tuple& clustered) const;
  std::uint64_t RollPtrOf(const Tuple& clustered) const;
  void SetSystemFields(Tuple& clustered, std::uint64_t trx_id, std::uint64_t roll_ptr) const;

  // The fields an update changes, as an undo record keeps them: positions past the key, with
  // their values in `before` (system fields aside).
  std::vector<std::pair<std::uint32_t, Datum>> ChangedFields(const Tuple& before, const Tuple& after) const;
  // The non-key fields some secondary index holds, with their values: what purge and MVCC need
  // to find an old version's entries.
  std::vector<std::pair<std::uint32_t, Datum>> IndexedValues(const Tuple& clustered) const;
  // A clustered record with only the fields an undo record carries (key and indexed columns).
  Tuple PartialRecord(const UndoRecord& rec) const;

  // The row lock's name for the record in index `index`.
  std::string RecordKey(std::size_t index, const Tuple& record) const;
  // MySQL's ER_DUP_ENTRY text for a record that collides in index `index`.
  std::string DuplicateMessage(std::size_t index, const Tuple& record) const;

 private:
  void AddRowVersions(IndexShape& clustered) const;

  const TableSpec* spec_ = nullptr;
  std::vector<std::vector<IndexField>> fields_;  // per index, clustered first
  std::vector<IndexShape> shapes_;
  std::size_t trx_pos_ = 0, roll_pos_ = 0;  // DB_TRX_ID and DB_ROLL_PTR in the clustered record
};

}  // namespace strata::engine
