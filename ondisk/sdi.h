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

}  // namespace strata::ondisk
