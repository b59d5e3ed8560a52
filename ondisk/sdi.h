// SDI: MySQL 8.0's serialized dictionary, a B-tree (pages of type 17853, index id
// 0xFFFFFFFFFFFFFFFF) whose leaf records each hold one zlib-compressed JSON document
// (innodb-format.md §12.1).
//
// SDI leaf record (COMPACT, no NULL bitmap):
//   OFFSET SIZE FIELD (relative to the origin)
//   0      4    type: 1 table, 2 tablespace      (key part 1)
//   4      8    id: dictionary object id          (key part 2)
//   12     6    DB_TRX_ID
//   18     7    DB_ROLL_PTR
//   25     4    uncompressed length
//   29     4    compressed length
//   33     var  zlib stream (its length in the record's 1-2 byte length entry); when stored
//               externally, the local part is a 20-byte ExternRef to SDI BLOB pages.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "ondisk/endian.h"
#include "ondisk/record.h"
#include "ondisk/status.h"

namespace strata::ondisk {

// Frozen on disk.
enum class SdiType : std::uint32_t { kTable = 1, kTablespace = 2 };

// A column's "type" in the SDI's JSON: the data dictionary's column type codes
// (dd::enum_column_types). The engine writes them and the inspector reads them through this
// one list. Frozen on disk.
enum class DdColumnType : int {
  kDecimal = 1,  // pre-5.0 DECIMAL
  kTiny = 2,     // TINYINT
  kShort = 3,    // SMALLINT
  kLong = 4,     // INT
  kFloat = 5,
  kDouble = 6,
  kNull = 7,
  kTimestamp = 8,  // pre-5.6
  kLongLong = 9,   // BIGINT
  kInt24 = 10,     // MEDIUMINT
  kDate = 11,      // pre-5.0
  kTime = 12,      // pre-5.6
  kDatetime = 13,  // pre-5.6
  kYear = 14,
  kNewDate = 15,  // DATE
  kVarchar = 16,  // VARCHAR, VARBINARY
  kBit = 17,
  kTimestamp2 = 18,  // TIMESTAMP
  kDatetime2 = 19,   // DATETIME
  kTime2 = 20,       // TIME
  kNewDecimal = 21,  // DECIMAL
  kEnum = 22,
  kSet = 23,
  kTinyBlob = 24,  // TINYBLOB, TINYTEXT
  kMediumBlob = 25,
  kLongBlob = 26,
  kBlob = 27,  // BLOB, TEXT
  kVarString = 28,
  kString = 29,  // CHAR, BINARY
  kGeometry = 30,
  kJson = 31,
  kVector = 32,  // MySQL 9.0
};
std::string ToString(SdiType t);

struct SdiRecord {
  std::uint32_t type = 0;
  std::uint64_t id = 0;
  std::uint32_t uncompressed_len = 0;
  std::uint32_t compressed_len = 0;
  // Set when the compressed stream is in the page: its bytes.
  ConstBytes compressed;
  // Set when it is stored off-page instead.
  std::optional<ExternRef> external;
};

// The layout of SDI leaf records, for DecodeCompactFields.
const RecordLayout& SdiLayout();

// Decodes the SDI record at `origin` of an SDI leaf page.
Result<SdiRecord> DecodeSdiRecord(ConstBytes page, std::size_t origin);

// Inflates a zlib stream to exactly `uncompressed_len` bytes; Corruption otherwise.
Result<std::string> InflateSdi(ConstBytes compressed, std::uint32_t uncompressed_len);

// The JSON text of an in-page SDI record.
Result<std::string> SdiJson(const SdiRecord& record);

// Compresses a JSON document into the zlib stream an SDI record holds (for writers).
std::vector<std::byte> DeflateSdi(const std::string& json);

// One "key=value;" of a dictionary object's se_private_data (nullopt: the key is not there).
std::optional<std::string> SePrivateValue(const std::string& se_private_data, const std::string& key);
// An instant column's `default=` there: its stored bytes as lowercase hex, and back.
std::string InstantDefaultHex(const std::string& bytes);
std::string InstantDefaultBytes(const std::string& hex);

}  // namespace strata::ondisk
