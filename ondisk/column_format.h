// Column values: the bytes InnoDB keeps for each MySQL/MariaDB type, and the text the
// `mysql`/`mariadb` client prints for them (innodb-format.md §9.3). The engine encodes through
// the same functions that the inspector decodes with.
//
//   integers      big-endian, sign bit flipped when signed (so memcmp order = numeric order)
//   DECIMAL(p,s)  4 bytes per 9 digits on each side of the point (fewer for the leftovers),
//                 sign bit flipped, every bit inverted when negative
//   FLOAT/DOUBLE  IEEE 754, little-endian
//   BIT(n)        ceil(n/8) bytes, big-endian
//   YEAR          1 byte, years since 1900 (0 = 0000)
//   DATE          3 bytes, day + 32 * month + 512 * year, sign bit flipped
//   TIME(f)       3 bytes of hour << 12 | minute << 6 | second, offset by 0x800000, then the
//                 fraction in ceil(f/2) bytes; negative times count down from the offset
//   DATETIME(f)   5 bytes of (year * 13 + month) << 22 | day << 17 | hour << 12 | minute << 6 |
//                 second, offset by 0x8000000000, then the fraction
//   TIMESTAMP(f)  4 bytes of seconds since 1970-01-01 UTC (0 = the zero date), then the fraction
//   ENUM / SET    the 1-based index / the bit mask of the labels, as an unsigned integer
//   strings       the bytes (CHAR padded with spaces, BINARY with zero bytes)
//   JSON          MySQL's binary JSON (json_binary.h); MariaDB's JSON is LONGTEXT
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ondisk/endian.h"
#include "ondisk/status.h"

namespace strata::ondisk {

enum class ColumnType : std::uint8_t {
  kInt,      // TINYINT..BIGINT: `length` bytes
  kDecimal,  // `precision`, `scale`
  kFloat,
  kDouble,
  kBit,  // `length` bits
  kYear,
  kDate,
  kTime,
  kDatetime,
  kTimestamp,  // `fsp` fractional digits
  kChar,       // CHAR/BINARY: fixed width, CHAR's trailing spaces are not part of the value
  kVarchar,    // VARCHAR/VARBINARY and the TEXT/BLOB family: the bytes as they are
  kEnum,
  kSet,       // `elements` are the labels
  kJson,      // MySQL's binary JSON
  kGeometry,  // MySQL's internal geometry: 4-byte SRID, then WKB
  kVector,    // MySQL 9 VECTOR: little-endian floats
  kUuid,      // MariaDB UUID: 16 bytes, time fields stored last-first for RFC 4122 versions 1-5
  kInet6,     // MariaDB INET6: 16 bytes, network order
  kInet4,     // MariaDB INET4: 4 bytes, network order
  kSystem,    // DB_ROW_ID, DB_TRX_ID, DB_ROLL_PTR: unsigned big-endian
  kUnknown,   // a type this code does not decode: `name` says which
};

// The character set a collation id belongs to, as far as printing is concerned.
enum class Charset : std::uint8_t { kBinary, kUtf8, kLatin1, kOther };
Charset CharsetOfCollation(int collation_id);

struct ColumnFormat {
  ColumnType type = ColumnType::kUnknown;
  std::uint32_t length = 0;          // kInt: bytes; kBit: bits; kChar/kVarchar: declared characters
  std::uint32_t precision = 0;       // kDecimal
  std::uint32_t scale = 0;           // kDecimal; kFloat/kDouble when `fixed_decimals`
  bool fixed_decimals = false;       // FLOAT(M,D) / DOUBLE(M,D): printed with exactly D decimals
  std::uint32_t zerofill_width = 0;  // ZEROFILL: numbers padded with zeros to this many characters
  bool exact_float = false;          // FLOAT as the digits that read back exactly (SQL output), not the 6 shown
  std::uint32_t fsp = 0;             // kTime, kDatetime, kTimestamp
  bool is_unsigned = false;
  int collation = 63;                 // 63 = binary
  std::vector<std::string> elements;  // kEnum, kSet
  std::string name;                   // the SQL type as the server names it ("varchar(45)")

  bool binary() const { return CharsetOfCollation(collation) == Charset::kBinary; }
  // How many bytes the type always takes, or nullopt when it varies (strings, JSON, ...).
  std::optional<std::uint32_t> FixedBytes() const;
};

// The bytes an ENUM or SET column of `labels` labels stores its number in.
std::uint32_t EnumBytes(std::size_t labels);  // 1 or 2
std::uint32_t SetBytes(std::size_t labels);   // 1, 2, 3, 4 or 8

// The value of `stored` (a column's complete bytes, off-page parts included) as the client
// prints it, before its batch-mode escaping: "2024-06-15 14:30:00", "12345.67", "3.14", a
// string's characters in UTF-8. Corruption when the bytes cannot be a value of the type (a
// DATE with month 14, a DECIMAL group over 999999999, the wrong length); NotSupported when
// the type or character set is one this code does not decode, naming it.
Result<std::string> ColumnText(const ColumnFormat& f, ConstBytes stored);
// The same into `out` (replacing what it held, keeping its capacity): what a scan over
// millions of values calls, so that strings and integers cost no allocation.
Status ColumnTextTo(const ColumnFormat& f, ConstBytes stored, std::string& out);

// A DOUBLE (the fewest digits that read back), a FLOAT as the server shows it (6 significant
// digits) or a FLOAT exactly (the fewest digits that read back as the same float), in MySQL's
// notation: "3.14", "1e15", "-1.7976931348623157e308".
enum class FloatDigits { kDouble, kFloatShown, kFloatExact };
std::string DoubleText(double v, FloatDigits digits);

// Escapes a value as `mysql -B` / `mariadb -B` print it: tab, newline, backslash and NUL as
// \t, \n, \\ and \0.
void AppendBatchEscaped(std::string& out, std::string_view value);

// The character `\c` stands for inside an SQL string literal (\0 \b \n \r \t \Z; any other
// character stands for itself). \% and \_ keep their backslash, for LIKE: `keep_backslash`.
char UnescapeSqlChar(char c, bool* keep_backslash);

// The pieces other code encodes with (the engine's row codec).
std::uint32_t DecimalBytes(std::uint32_t precision, std::uint32_t scale);
// "[-]digits[.digits]", already fitted to DECIMAL(precision, scale), into MySQL's binary form.
std::string EncodeDecimal(bool negative, std::string_view int_digits, std::string_view frac_digits,
                          std::uint32_t precision, std::uint32_t scale);
Result<std::string> DecodeDecimal(ConstBytes b, std::uint32_t precision, std::uint32_t scale);

struct DateTimeParts {
  int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
  std::uint32_t micro = 0;
  bool negative = false;  // TIME only
};
std::uint64_t PackDatetime(const DateTimeParts& t);  // the 5-byte integer before its offset
void AppendFraction(std::string& out, std::uint32_t micro, std::uint32_t fsp);
// TIME(fsp): hours, minutes, seconds and the fraction's first `fsp` digits as one big-endian
// integer of 3 + ceil(fsp/2) bytes, offset by half its range (what TimeText reads).
std::string EncodeTime(const DateTimeParts& t, std::uint32_t fsp);
// "YYYY-MM-DD[ HH:MM:SS[.ffffff]]" with `fsp` fractional digits.
std::string FormatDateTime(const DateTimeParts& t, std::uint32_t fsp, bool with_time);

}  // namespace strata::ondisk
