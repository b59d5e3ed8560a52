// Record bodies: splitting COMPACT/DYNAMIC and REDUNDANT records into fields, and building
// them (innodb-format.md §9.1-9.6).
//
// COMPACT, read backwards from the origin:
//
//   ... [lengths of non-NULL variable fields, field 0 nearest] [NULL bitmap] [5-byte header] | data
//                                                                                         origin
//   NULL bitmap: one bit per nullable field, byte rec-6 bit 0 = nullable field 0, growing down;
//                ceil(n_nullable / 8) bytes, absent when nothing is nullable.
//   length:      1 byte, or 2 bytes when the field may exceed 255 bytes (or is a BLOB) and
//                this value is >= 128: first byte 1 E hhhhhh (E = stored externally), then the
//                low 8 bits below it.
//   MySQL instant (info bit 0x80): the field count, 1 or 2 bytes at rec-6, before the bitmap.
//
// REDUNDANT: one end offset per field below the 6-byte header, field 0 nearest; 1 byte
// (bit 7 = NULL) or 2 bytes (bit 15 = NULL, bit 14 = external), relative to the origin.
//
// Which fields are fixed, variable or nullable is not stored in COMPACT records; decoding
// them needs a RecordLayout (from SDI, the SYS_* tables or our catalog). REDUNDANT records
// carry every field boundary and decode without one.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <span>
#include <vector>

#include "ondisk/endian.h"
#include "ondisk/record_header.h"
#include "ondisk/status.h"

namespace strata::ondisk {

inline constexpr std::size_t kExternRefSize = 20;  // BTR_EXTERN_FIELD_REF_SIZE

// One field of an index's physical record, in on-page order (key fields, then DB_TRX_ID and
// DB_ROLL_PTR on clustered leaves, then the rest; node pointers end in a 4-byte child).
struct FieldDef {
  std::string name;
  std::uint32_t fixed_length = 0;  // > 0: always this many bytes, no length entry
  std::uint32_t max_length = 0;    // variable fields: declared maximum in bytes
  bool nullable = false;
  bool blob = false;  // BLOB/TEXT/JSON/GEOMETRY: lengths may use 2 bytes at any size
  // Not stored by the records of this layout's row version (a column added after it, or
  // dropped by it): no bytes, no NULL bit, no length entry; a reader takes the column's
  // instant default (FieldSlice::missing).
  bool absent = false;

  static FieldDef Fixed(std::string name, std::uint32_t length, bool nullable = false) {
    return {std::move(name), length, length, nullable, false};
  }
  static FieldDef Variable(std::string name, std::uint32_t max_length, bool nullable = false, bool blob = false) {
    return {std::move(name), 0, max_length, nullable, blob};
  }
  bool is_variable() const { return fixed_length == 0; }
  // Whether a length entry may take two bytes.
  bool big() const { return blob || max_length > 255; }
};

struct RecordLayout {
  RecordLayout() = default;
  RecordLayout(std::vector<FieldDef> f) : fields(std::move(f)) {}  // NOLINT: {{...}} reads well

  std::vector<FieldDef> fields;
  // Bits in the NULL bitmap when it is not simply the nullable fields listed: node pointers
  // keep the whole index's bitmap width although they hold only the key (InnoDB sizes the
  // bitmap from index->n_nullable for every record of the index).
  std::optional<std::size_t> null_bitmap_bits;
  // Fields stored by records without the instant flag, in a table that gained columns by
  // MySQL's instant ADD COLUMN (the dictionary's instant_col); 0 means all of them.
  std::size_t core_fields = 0;
  // MySQL 8.0.29+ row versions: the version whose fields these are. A record that carries a
  // version byte decodes only with the layout of that version (RecordRowVersion says which).
  // Encoding with a row_version above 0 writes that byte (and the record takes kInfoVersion).
  std::uint8_t row_version = 0;
  // A clustered index altered by instant ADD/DROP COLUMN, as a writer holds it: the layout of
  // every row version, by version, each listing every field ever stored (absent where that
  // version stores none); this layout is the newest. Records without kInfoVersion are version 0.
  std::shared_ptr<const std::vector<RecordLayout>> versions;

  std::size_t n_nullable() const;  // the NULL bitmap's bits: nullable fields not absent
  // The info bits a record encoded with this layout carries besides its own (kInfoVersion).
  std::uint8_t info_bits() const { return row_version ? kInfoVersion : std::uint8_t{0}; }
  // The node-pointer form of this (leaf) layout: the first `n_unique` fields, then the child.
  RecordLayout NodePointer(std::size_t n_unique) const;
};

// Hidden system columns (innodb-format.md §9.2), by their InnoDB names.
inline constexpr std::uint32_t kDbRowIdSize = 6;    // DB_ROW_ID: clustered key when there is no PK
inline constexpr std::uint32_t kDbTrxIdSize = 6;    // DB_TRX_ID: last transaction to change the row
inline constexpr std::uint32_t kDbRollPtrSize = 7;  // DB_ROLL_PTR: where the previous version is

// The leaf layout of a clustered index: the key fields, DB_TRX_ID, DB_ROLL_PTR, then the
// other columns. An empty key means the table has no primary key: DB_ROW_ID leads instead.
RecordLayout ClusteredLeafLayout(std::vector<FieldDef> key, std::vector<FieldDef> others);

// Where one field's bytes are on the page.
struct FieldSlice {
  std::size_t offset = 0;  // page offset of the first data byte
  std::size_t length = 0;  // local bytes (includes the 20-byte reference when external)
  bool is_null = false;
  bool external = false;  // the last 20 local bytes are an ExternRef
  bool missing = false;   // MySQL instant ADD COLUMN: not stored, the default applies
};

// Splits a COMPACT record. Corruption (naming the offset) when the record's extra bytes or
// data would leave the page body; NotSupported for a MySQL row version other than the
// layout's, and for MariaDB instant records (status 4) unless the layout gives core_fields
// (MariaDB's PAGE_INSTANT): those store a count of added fields below the header.
// `extent`, when given, receives the bytes the record takes as the layout reads it: from its
// lowest extra byte to one past its data. A page's records and its garbage fill exactly the
// heap between the supremum and PAGE_HEAP_TOP, so a layout that is not the page's shows.
struct RecordExtent {
  std::size_t start = 0, end = 0;
  std::size_t size() const { return end - start; }
};
Result<std::vector<FieldSlice>> DecodeCompactFields(ConstBytes page, std::size_t origin, const RecordLayout& layout,
                                                    RecordExtent* extent = nullptr);
// The row version a COMPACT record was written in (MySQL 8.0.29+ instant ADD/DROP COLUMN):
// the byte below its header when the version flag is set, else 0.
Result<std::uint8_t> RecordRowVersion(ConstBytes page, std::size_t origin);
// Splits a REDUNDANT record using its own field end offsets.
Result<std::vector<FieldSlice>> DecodeRedundantFields(ConstBytes page, std::size_t origin);

// A value to encode: nullopt is SQL NULL; `external` says the bytes end in a 20-byte
// ExternRef and the field is stored off-page.
struct FieldValue {
  std::optional<ConstBytes> bytes;
  bool external = false;
};

// A record ready for IndexPageWriter::Append: extra bytes (header left zero), then data.
struct EncodedRecord {
  std::vector<std::byte> bytes;
  std::size_t extra_size = 0;
  std::uint16_t n_fields = 0;  // REDUNDANT header fields
  bool short_offsets = false;
};
// Assert on values that do not fit the layout (wrong count, NULL in a NOT NULL field, a fixed
// field of the wrong size, a value over 16383 local bytes).
EncodedRecord EncodeCompactRecord(const RecordLayout& layout, const std::vector<FieldValue>& values);
// The same record appended to `out` (no allocation of its own, for loaders that keep many
// records in one buffer); returns its extra size.
std::size_t AppendCompactRecord(const RecordLayout& layout, std::span<const FieldValue> values,
                                std::vector<std::byte>& out);
EncodedRecord EncodeRedundantRecord(const std::vector<FieldValue>& values);

// The 20-byte reference to an off-page column (§9.6).
//   0 4 space id   4 4 first page   8 4 offset (old BLOB: 38) or LOB version (8.0)
//   12 8 length; byte 12 bits: 0x80 not owner, 0x40 inherited, 0x20 being modified (8.0)
struct ExternRef {
  std::uint32_t space_id = 0;
  std::uint32_t page_no = 0;
  std::uint32_t offset_or_version = 0;
  std::uint64_t length = 0;  // without the flag bits
  bool not_owner = false;
  bool inherited = false;
  bool being_modified = false;

  constexpr bool operator==(const ExternRef&) const = default;
  static ExternRef Decode(ConstBytes b, std::size_t at);
  void EncodeTo(MutableBytes b, std::size_t at) const;
};

}  // namespace strata::ondisk
