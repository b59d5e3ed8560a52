// The server's column type codes (MYSQL_TYPE_* of include/field_types.h). They are on disk
// twice: in a .frm file's column records, and in the low byte of PRTYPE in InnoDB's
// SYS_COLUMNS (and in a MySQL 8.0 .cfg file). Frozen: the values are the server's.
#pragma once

#include <cstdint>

namespace strata::ondisk::mysql_type {

// Unscoped on purpose: the readers compare these with the raw byte they decoded.
enum Code : std::uint8_t {
  kDecimal = 0,  // the old DECIMAL, before 5.0
  kTiny = 1,
  kShort = 2,
  kLong = 3,
  kFloat = 4,
  kDouble = 5,
  kTimestamp = 7,
  kLongLong = 8,
  kInt24 = 9,
  kDate = 10,
  kTime = 11,
  kDatetime = 12,
  kYear = 13,
  kNewDate = 14,
  kVarchar = 15,  // MYSQL_TYPE_VARCHAR, "true VARCHAR" (5.0+)
  kBit = 16,
  kTimestamp2 = 17,
  kDatetime2 = 18,
  kTime2 = 19,
  kJson = 245,
  kNewDecimal = 246,
  kEnum = 247,
  kSet = 248,
  kTinyBlob = 249,
  kMediumBlob = 250,
  kLongBlob = 251,
  kBlob = 252,
  kVarString = 253,
  kString = 254,
  kGeometry = 255,
};

}  // namespace strata::ondisk::mysql_type
