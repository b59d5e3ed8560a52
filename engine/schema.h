// Table definitions as users give them: columns with MySQL types, a primary key, secondary
// indexes. The catalog (catalog.h) stores them as MySQL 8.0 SDI JSON in each .ibd file.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/collation.h"
#include "engine/value.h"

namespace strata::engine {

enum class ColumnType : std::uint8_t {
  kTinyInt,
  kSmallInt,
  kMediumInt,
  kInt,
  kBigInt,
  kDecimal,
  kFloat,
  kDouble,
  kChar,
  kVarchar,
  kBinary,
  kVarbinary,
  kDate,
  kDatetime,
  kTimestamp,
  kTinyText,
  kText,
  kMediumText,
  kLongText,
  kTinyBlob,
  kBlob,
  kMediumBlob,
  kLongBlob,
  // Types added later come here: the catalog keeps these numbers (SDI's strata_type).
  kYear,  // 1901-2155 and 0000, one byte
  kEnum,  // one of `elements`: its 1-based number in 1 or 2 bytes (0: the '' of an invalid value)
  kSet,   // any of `elements`: a bit mask in 1, 2, 3, 4 or 8 bytes (bit 0: the first)
  kBit,   // BIT(length): an unsigned number of `length` bits, big-endian in (length + 7) / 8 bytes
  kTime,  // TIME(scale): a signed duration up to 838:59:59.999999
  kUuid,  // MariaDB's UUID, INET4 and INET6 (engine/uuid_inet.h): 16, 4 and 16 bytes
  kInet4,
  kInet6,
  kGeometry,  // SRID and WKB (ondisk/geometry.h), stored as a LONGBLOB; `length` is the
              // ondisk::GeometryType the column takes (0: any)
  kJson,      // MySQL's binary JSON (ondisk/json_binary_writer.h), stored as a LONGBLOB
};

enum class Charset : std::uint8_t { kUtf8mb4, kLatin1, kBinary };

struct Column {
  std::string name;
  ColumnType type = ColumnType::kInt;
  // CHAR/VARCHAR/TEXT: characters; BINARY/VARBINARY: bytes; BIT: bits; DECIMAL, FLOAT(M,D), DOUBLE(M,D):
  // precision (digits; 0 for a FLOAT or DOUBLE without (M,D)); integers: the display width
  // ZEROFILL pads to.
  std::uint32_t length = 0;
  // DECIMAL, FLOAT(M,D), DOUBLE(M,D): digits after the point; TIME/DATETIME/TIMESTAMP: fractional digits.
  std::uint32_t scale = 0;
  bool is_unsigned = false;
  bool zerofill = false;  // ZEROFILL (implies UNSIGNED): printed padded with zeros to DisplayWidth
  bool nullable = true;
  bool auto_increment = false;
  Charset charset = Charset::kUtf8mb4;
  // utf8mb4_bin / latin1_bin: text compares byte for byte (trailing spaces aside), not with
  // the charset's default case-insensitive collation; 'a' and 'A' are two keys.
  bool binary_collation = false;
  // Text: the server's id of the collation (engine/collation.h), 0 for the charset's default
  // (utf8mb4_general_ci, latin1_swedish_ci) or, with binary_collation, its _bin one.
  std::uint16_t collation_id = 0;
  std::optional<Value> default_value;
  // ENUM and SET: the labels, in order (UTF-8, trailing spaces gone, as the server keeps them).
  std::vector<std::string> elements;
  // MySQL 8.0.29+ instant ADD/DROP COLUMN, in a table with row versions (TableSpec::row_version
  // above 0): the field's place in the clustered record, counting every field ever stored
  // (DB_TRX_ID, DB_ROLL_PTR and dropped columns too); the row version that added the column
  // (0: it was there before the first instant ALTER) or dropped it; and the stored bytes that
  // rows written before it was added read as (nullopt: NULL).
  std::uint32_t physical_pos = 0;
  std::uint8_t version_added = 0, version_dropped = 0;
  std::optional<std::string> instant_default;

  bool is_integer() const { return type <= ColumnType::kBigInt; }
  bool is_string() const;  // CHAR, VARCHAR, TEXT family (not binary types)
  bool has_elements() const { return type == ColumnType::kEnum || type == ColumnType::kSet; }
  // Text with a character set and collation: the strings, and ENUM and SET (their labels).
  bool has_collation() const { return is_string() || has_elements(); }
  bool is_lob() const {
    return (type >= ColumnType::kTinyText && type <= ColumnType::kLongBlob) || type == ColumnType::kGeometry ||
           type == ColumnType::kJson;
  }
  // BLOB and TEXT: the most bytes a value holds (TINY 255, plain 65,535, MEDIUM 16 MiB - 1,
  // LONG 4 GiB - 1).
  std::uint32_t lob_max_bytes() const;
  // "int unsigned", "varchar(45)", "decimal(10,2)", ... as SHOW CREATE TABLE prints them.
  std::string SqlType() const;
};

// The year a YEAR column reads `n` as, written as a number or, when `text`, as that string:
// 1-69 are 2001-2069 and 70-99 1970-1999; 0 is 0000 as a number or as the four characters
// '0000', and 2000 as any other string ('0', '00', '000'), as MariaDB reads them. Other
// numbers are themselves.
std::int64_t YearOf(std::int64_t n, std::optional<std::string_view> text = std::nullopt);

// A column written as short as CREATE TABLE writes it:
//   TableSpec{"shop", "t", {NotNull(Col("id", ColumnType::kBigInt)), Col("v", ColumnType::kVarchar, 200)}, {"id"}, {}}
inline Column Col(std::string name, ColumnType type, std::uint32_t length = 0, bool nullable = true) {
  Column c;
  c.name = std::move(name);
  c.type = type;
  c.length = length;
  c.nullable = nullable;
  return c;
}

inline Column NotNull(Column c) {
  c.nullable = false;
  return c;
}

struct IndexSpec {
  std::string name;
  std::vector<std::string> columns;
  bool unique = false;
};

// InvalidArgument ("Invalid utf8mb4 character string: 'FF'", MySQL's words) unless `name` is
// well-formed UTF-8: a database, table, column or index name.
Status CheckIdentifier(const std::string& name);
// InvalidArgument naming it unless `name` can name a database or table: not empty, at most 64
// characters, no '/', '\\' or '.' (each is a file or folder of the data directory), not ending
// in a space (the server refuses those too).
Status CheckTableOrDatabaseName(const std::string& name);
// Where `s` stops being well-formed UTF-8 (an overlong form, a surrogate, a code point past
// U+10FFFF, a cut sequence): the offset of the first bad byte, or npos when it is all valid.
std::size_t FirstInvalidUtf8(std::string_view s);
// Ok when column `c` holds `v` as it is, else the error storing it gives (InvalidArgument with
// its Status::Reason: out of range, truncated, too long, not a number, not a date...).
Status CheckValue(const Column& c, const Value& v);
// `v` as column `c` gives it back once stored ('a' in a BIT(8) is 97, 'b,a' in a SET the
// number of 'a,b'), or the error storing it gives.
Result<Value> StoredValue(const Column& c, const Value& v);
// The values an integer column holds: [IntegerMin, IntegerMax].
std::int64_t IntegerMin(const Column& c);
std::uint64_t IntegerMax(const Column& c);
// How the column's text compares (kBytes for what is not text).
TextRule TextRuleOf(const Column& c);
// The largest magnitude a FLOAT or DOUBLE column holds (FLOAT(7,3): 9999.999).
double FloatingMax(const Column& c);
// The characters a ZEROFILL column's values are padded to: an integer's display width (INT
// UNSIGNED's 10 unless given), DECIMAL(M,D)'s M digits and point.
std::size_t DisplayWidth(const Column& c);

// What a foreign key does to the rows referencing a parent row that is deleted or whose
// referenced columns change (MySQL's data dictionary numbers, as the SDI keeps them).
enum class ForeignKeyAction : std::uint8_t {
  kNoAction = 1,
  kRestrict = 2,
  kCascade = 3,
  kSetNull = 4,
  kSetDefault = 5
};

// FOREIGN KEY (columns) REFERENCES ref_database.ref_table (ref_columns): the engine keeps it in
// the table's definition; the SQL layer enforces it.
struct ForeignKeySpec {
  std::string name;  // the constraint's: `t_ibfk_1` unless one was given
  std::vector<std::string> columns;
  std::string ref_database, ref_table;
  std::vector<std::string> ref_columns;
  ForeignKeyAction on_delete = ForeignKeyAction::kRestrict, on_update = ForeignKeyAction::kRestrict;
};

struct TableSpec {
  std::string database;
  std::string name;
  std::vector<Column> columns;
  std::vector<std::string> primary_key;           // empty: a hidden 6-byte DB_ROW_ID orders the rows
  std::vector<IndexSpec> indexes;                 // secondary indexes
  std::vector<ForeignKeySpec> foreign_keys = {};  // (initialised: specs written as {db, name, ...} need not name it)
  std::uint64_t auto_increment = 0;               // table option AUTO_INCREMENT=N: the first value handed out (0: 1)
  // Instant ADD/DROP COLUMNs so far (MySQL's current_row_version, at most kMaxRowVersion): 0
  // for a table never altered instantly, whose records carry no version.
  std::uint8_t row_version = 0;
  // Columns an instant DROP COLUMN took away, which rows written before it still store:
  // named as MySQL's dictionary names them (!hidden!_dropped_v<V>_p<P>_<name>), physical_pos
  // and version_dropped set.
  std::vector<Column> dropped_columns = {};

  // InvalidArgument naming the problem: unknown or duplicate columns, a nullable primary key
  // column, more than one AUTO_INCREMENT column or one that is not an integer leading a key,
  // lengths out of MySQL's ranges, names that are not UTF-8.
  Status Validate() const;
  std::optional<std::size_t> ColumnIndex(const std::string& name) const;
  // The same table never altered instantly (a new or rebuilt table starts so).
  void ClearRowVersions();
};

// MySQL's MAX_ROW_VERSION: instant ADD/DROP COLUMN statements a table takes before it must be
// rebuilt.
inline constexpr std::uint8_t kMaxRowVersion = 64;

}  // namespace strata::engine
