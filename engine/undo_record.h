// Undo records as the engine writes and reads them, in InnoDB's layout (trx0rec.cc; the
// shared header is ondisk::UndoRecordHeader, the body is read by ondisk::DecodeUndoRecordBody):
//
//   next (2) | type_cmpl (1) | undo_no (much compressed) | table_id (much compressed)
//   [update types: info bits (1) | old DB_TRX_ID (compressed) | old DB_ROLL_PTR (compressed)]
//   clustered key: per key field, length (compressed) and bytes
//   [types 12, 13: n updated (compressed), then per field: position, length, old bytes]
//   [types 13, 14, and 12 when an indexed column changed: total length (2), then per column
//    used by a secondary index: position, length, bytes of the version before the change]
//   own start offset (2)
//
// A length is UNIV_SQL_NULL (0xFFFFFFFF) for NULL; a field stored off-page carries its local
// prefix and 20-byte reference, with the length offset by UNIV_EXTERN_STORAGE_FIELD.
// Positions count fields of the clustered record (DB_TRX_ID and DB_ROLL_PTR included).
#pragma once

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "engine/key.h"
#include "ondisk/undo.h"

namespace strata::engine {

using ondisk::Result;
using ondisk::Status;

struct UndoRecord {
  ondisk::UndoRecordType type = ondisk::UndoRecordType::kInsert;
  std::uint64_t undo_no = 0;
  std::uint64_t table_id = 0;
  // Update types (12-14): the clustered record as it was before this change.
  std::uint8_t info_bits = 0;
  std::uint64_t old_trx_id = 0;
  std::uint64_t old_roll_ptr = 0;
  Tuple key;  // the clustered key
  // Types 12 and 13: the fields this change overwrote, with their old values.
  std::vector<std::pair<std::uint32_t, Datum>> updated;
  // The old values of every column a secondary index uses (purge and rollback find the
  // secondary entries of the old version with them).
  std::optional<std::vector<std::pair<std::uint32_t, Datum>>> indexed;

  bool is_update() const { return type != ondisk::UndoRecordType::kInsert; }
  // The record's bytes from its next-offset to its own-start trailer, for a record that
  // will sit at page offset `start`.
  std::vector<std::byte> Encode(std::uint16_t start) const;
  // `n_key` is the number of key fields of the table the record's table_id names (read the
  // table id first with ondisk::UndoRecordHeader::Decode).
  static Result<UndoRecord> Decode(ondisk::ConstBytes page, std::size_t start, std::size_t n_key);
};

}  // namespace strata::engine
