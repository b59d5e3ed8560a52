// The body of an undo record (innodb-format.md §10): what follows the header every record
// shares (ondisk::UndoRecordHeader), as InnoDB's trx0rec.cc writes it.
//
//   clustered key: per key field, a length (compressed) and the bytes
//   types 12, 13 (update of an existing / of a delete-marked record): the update vector,
//     n (compressed), then per field: its position (compressed) and its old value
//   the old values of the columns secondary indexes use (types 13, 14, and 12 when an
//     indexed column changed): total length (2, counting itself), then per column: position
//     and value
//
// A value's length is UNIV_SQL_NULL (0xFFFFFFFF) for NULL. A value stored off-page is the
// record's local part (its last 20 bytes the reference to the rest), the length raised by
// UNIV_EXTERN_STORAGE_FIELD; bits 12-13 of such a length are a spatial index's status, not
// bytes. When an index needs a longer prefix of it, the length UNIV_EXTERN_STORAGE_FIELD
// itself comes first, then the local part's length, then the usual form holding the longer
// prefix and the reference.
//
// Positions count the fields of the clustered index record (DB_TRX_ID and DB_ROLL_PTR are
// never among them); MySQL 8.0.29+ tables with row versions number them physically. A
// position at or above REC_MAX_N_FIELDS (1023) is a virtual column's: in the update vector
// it carries the old and the new value, and, from MySQL 5.7.9 and MariaDB 10.2 on, the
// indexes using it before them (0xF1 before a section's first one, then a block whose 2-byte
// length counts itself). MySQL 8.0's multi-valued columns store a value as 0xFF, a 2-byte
// length T counting itself, and T - 2 bytes (T < 2: nothing more).
//
// MySQL 8.0 sets 0x40 in type_cmpl (TRX_UNDO_MODIFY_BLOB) and, when 0x80 (an off-page column
// changed) is set too, follows each off-page value of the update vector with an account of
// in-place LOB changes: a flag byte and a count N (compressed); when N > 0, the LOB's first
// page, version, last trx id and undo number, then per change its offset, length, old bytes
// and N' pairs of (trx id, undo number), every number compressed.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ondisk/status.h"
#include "ondisk/types.h"
#include "ondisk/undo.h"

namespace strata::ondisk {

inline constexpr std::uint32_t kUndoSqlNull = 0xFFFFFFFF;                  // UNIV_SQL_NULL
inline constexpr std::uint32_t kUndoExternStorage = kUndoSqlNull - 16384;  // UNIV_EXTERN_STORAGE_FIELD
inline constexpr std::uint32_t kRecMaxNFields = 1023;                      // REC_MAX_N_FIELDS

// One value as an undo record holds it.
struct UndoValue {
  std::size_t offset = 0;  // page offset of its bytes
  std::size_t length = 0;  // bytes stored, the 20-byte reference included when external
  bool is_null = false;
  bool external = false;
  // An off-page value stored with a longer prefix than its record holds: the record's local
  // part is the first `local_prefix` bytes and the reference.
  std::optional<std::size_t> local_prefix;
  // MySQL 8.0: the LOB the reference names was since changed in place (a small partial
  // update); it no longer holds this version's bytes.
  bool lob_changed_in_place = false;
  ConstBytes bytes(ConstBytes page) const { return page.subspan(offset, length); }
  // The value as the clustered record held it.
  std::string RecordBytes(ConstBytes page) const;
};

struct UndoField {
  std::uint32_t position = 0;  // in the clustered index record; virtual: kRecMaxNFields + n
  UndoValue value;
  bool is_virtual() const { return position >= kRecMaxNFields; }
};

struct UndoRecordBody {
  std::vector<UndoValue> key;
  std::vector<UndoField> updated;                 // types 12 and 13: old values of the fields the change wrote
  std::optional<std::vector<UndoField>> indexed;  // old values of the columns indexes use
};

// The body of the record `h` was decoded from, whose clustered key has `n_key` fields.
// Corruption naming the offset when a part runs past the record.
Result<UndoRecordBody> DecodeUndoRecordBody(ConstBytes page, const UndoRecordHeader& h, std::size_t n_key);

// Writes an undo record in the layout above, part after part in the order they are stored:
// the header, the clustered key's values, for types 12 and 13 the update vector (its count,
// then its fields), the indexed columns' section when there is one; then Finish. A value is
// given as the clustered record holds it (an off-page one: its local part and the 20-byte
// reference, `external` set), NULL when `bytes` is nullopt.
class UndoRecordWriter {
 public:
  explicit UndoRecordWriter(const UndoRecordHeader& h) : out_(h.Encode()) {}

  void Value(const std::optional<std::string_view>& bytes, bool external);
  void UpdateCount(std::uint32_t n);
  void Field(std::uint32_t position, const std::optional<std::string_view>& bytes, bool external);
  void BeginIndexed();  // the section's fields follow as Field()s
  void EndIndexed();
  // The record, to be written at page offset `start`: its `next` pointer set and the 2-byte
  // offset of its start appended, by which InnoDB walks the page's records backwards.
  std::vector<std::byte> Finish(std::uint16_t start) &&;

 private:
  std::vector<std::byte> out_;
  std::size_t indexed_at_ = 0;
};

}  // namespace strata::ondisk
