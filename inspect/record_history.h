// The older versions of a clustered index record, rebuilt from the undo logs on disk, as
// MVCC reads them: the record names the transaction that wrote it (DB_TRX_ID) and the undo
// record that holds what it overwrote (DB_ROLL_PTR); that undo record gives the version
// before, with its own DB_TRX_ID and DB_ROLL_PTR, and so on until a version was inserted or
// its undo record is gone (purged).
//
// Each step is checked before it is believed: the undo record must be in an undo log a
// rollback segment still holds (UndoLocator), that log must be the transaction's that wrote
// the newer version, and the record must be an update of the same key. Where a check fails
// the chain stops there, and the reason is given instead of a version.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "inspect/rows.h"
#include "inspect/schema.h"
#include "inspect/space_file.h"
#include "inspect/undo_locator.h"

namespace strata::inspect {

struct RecordVersion {
  std::uint64_t trx_id = 0;  // DB_TRX_ID: the transaction that wrote this version
  // What that transaction did: "insert", "update", "delete" (delete-marked the row), or
  // empty with `unknown` saying why it cannot be told (and no older version follows).
  std::string change;
  std::string unknown;
  bool purged = false;        // the undo records that would tell were purged, as purge does
  bool damaged = false;       // an undo record on the way could not be read
  bool committed = true;      // false: its transaction was active (or prepared) when the files were
                              // written; no other transaction's read view sees this version
  bool intermediate = false;  // the same transaction changed it again: no other view saw it
  Row row;                    // its values; row.deleted: the version is delete-marked
  // The undo record the version before was rebuilt from.
  std::optional<UndoRecordAt> undo;
};

class RecordHistory {
 public:
  // `table`'s clustered index is read from `file` (off-page values of old versions too).
  RecordHistory(const SpaceFile& file, const TableDef& table, const IndexDef& clustered, const UndoLocator& undo);

  // Why no record's history can be followed (a table altered instantly), or empty.
  const std::string& refused() const { return refused_; }

  // `row`'s versions, newest (the record itself) first; call while ScanRows gives the row.
  std::vector<RecordVersion> Versions(const Row& row) const;

 private:
  // A version's fields, in the clustered index's leaf order.
  struct Field {
    std::string bytes;
    bool is_null = false;
    bool external = false;
    std::string unknown;  // why the value cannot be given
  };
  void Fill(RecordVersion& v, const std::vector<Field>& fields) const;
  struct Older {
    std::uint64_t roll_ptr = 0;
    bool deleted = false;
  };
  // The step from `v`, whose fields are `fields` and roll pointer `roll_ptr`, to the version
  // before: `v.change` set and `fields` rewound to it; nullopt when there is none, or
  // `v.unknown` says why it cannot be had.
  std::optional<Older> StepBack(RecordVersion& v, std::uint64_t roll_ptr, std::vector<Field>& fields) const;

  const SpaceFile& file_;
  const UndoLocator& undo_;
  std::vector<RowColumn> columns_;
  std::vector<int> field_of_;  // per table column: its leaf field, or -1
  std::size_t n_key_ = 0;      // DB_TRX_ID's field; DB_ROLL_PTR's is the next
  std::string refused_;
};

// What a read view that sees every committed transaction below `as_of`, and none from it on,
// sees of a row whose versions (newest first) are `versions`: nullopt when it sees no row (the
// row was inserted after the view, or the view saw it deleted). When what it saw cannot be
// rebuilt (purged, damaged), the row with its key and every other value unknown with the
// reason. `unknown_values` counts the values of older versions that could not be given.
std::optional<Row> VersionSeenBy(const std::vector<RecordVersion>& versions, std::uint64_t as_of,
                                 const std::vector<RowColumn>& columns, const IndexDef& index,
                                 std::uint64_t& unknown_values);

}  // namespace strata::inspect
