// InnoDB's own data dictionary in MySQL 5.x and MariaDB: SYS_TABLES, SYS_COLUMNS, SYS_INDEXES and
// SYS_FIELDS, REDUNDANT-format B-trees in the system tablespace whose roots the dictionary header
// names (innodb-format.md §12.2). This header says where each fact is in their records and what
// the type bits mean; walking the trees is the reader's job. A .cfg (cfg.h) carries the same
// PRTYPE/MTYPE and index TYPE values.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ondisk/endian.h"

namespace strata::ondisk {

// The dictionary header: page 7 of the system tablespace, type SYS.
struct DictHeader {
  static constexpr std::uint32_t kPage = 7;
  static constexpr std::size_t kBase = 38;  // after the FIL header
  static constexpr std::size_t kRowId = kBase + 0;
  static constexpr std::size_t kTableId = kBase + 8;
  static constexpr std::size_t kIndexId = kBase + 16;
  static constexpr std::size_t kMaxSpaceId = kBase + 24;
  static constexpr std::size_t kMixIdLow = kBase + 28;
  static constexpr std::size_t kTablesRoot = kBase + 32;  // SYS_TABLES, clustered on NAME
  static constexpr std::size_t kTableIdsRoot = kBase + 36;
  static constexpr std::size_t kColumnsRoot = kBase + 40;
  static constexpr std::size_t kIndexesRoot = kBase + 44;
  static constexpr std::size_t kFieldsRoot = kBase + 48;
  static constexpr std::size_t kFseg = kBase + 56;  // the FSEG header of the dictionary's segment
};
static_assert(DictHeader::kTablesRoot == 70 && DictHeader::kFieldsRoot == 86);

// SYS_COLUMNS.MTYPE: how InnoDB stores a value (DATA_* of data0type.h).
enum class MainType : std::uint32_t {
  kVarchar = 1,  // latin1 VARCHAR
  kChar = 2,     // latin1 CHAR
  kFixBinary = 3,
  kBinary = 4,
  kBlob = 5,
  kInt = 6,
  kSys = 8,  // DB_ROW_ID, DB_TRX_ID, DB_ROLL_PTR
  kFloat = 9,
  kDouble = 10,
  kVarMysql = 12,  // VARCHAR in other character sets
  kMysql = 13,     // CHAR in other character sets
  kGeometry = 14,
};

// SYS_COLUMNS.PRTYPE: the server's type code (mysql_type.h; DATETIME for DATETIME2 too) in the
// low byte, flags above it, the collation id in bits 16-30.
struct Prtype {
  static constexpr std::uint32_t kTypeMask = 0xFF;
  static constexpr std::uint32_t kNotNull = 0x100;
  static constexpr std::uint32_t kUnsigned = 0x200;
  static constexpr std::uint32_t kLongTrueVarchar = 0x1000;  // two length bytes
  static constexpr std::uint32_t kVirtual = 0x2000;
  static constexpr int kCollationShift = 16;
  static constexpr std::uint32_t kCollationMask = 0x7FFF;

  static std::uint32_t Type(std::uint32_t prtype) { return prtype & kTypeMask; }
  static int Collation(std::uint32_t prtype) { return static_cast<int>((prtype >> kCollationShift) & kCollationMask); }
};

// SYS_INDEXES.TYPE.
struct IndexType {
  static constexpr std::uint32_t kClustered = 1;
  static constexpr std::uint32_t kUnique = 2;
  static constexpr std::uint32_t kFulltext = 32;
  static constexpr std::uint32_t kSpatial = 64;
};

// A being-built index's name starts with this byte (TEMP_INDEX_PREFIX).
inline constexpr char kTempIndexPrefix = '\xFF';

// The records, each from the fields of a REDUNDANT leaf record (NULL fields empty); nullopt
// when a field the record must have is missing or of the wrong width.
//
//   SYS_TABLES   NAME, DB_TRX_ID, DB_ROLL_PTR, ID, N_COLS, TYPE, MIX_ID, MIX_LEN, CLUSTER_NAME, SPACE
//   SYS_COLUMNS  TABLE_ID, POS, DB_TRX_ID, DB_ROLL_PTR, NAME, MTYPE, PRTYPE, LEN, PREC
//   SYS_INDEXES  TABLE_ID, ID, DB_TRX_ID, DB_ROLL_PTR, NAME, N_FIELDS, TYPE, SPACE, PAGE_NO
//   SYS_FIELDS   INDEX_ID, POS, DB_TRX_ID, DB_ROLL_PTR, COL_NAME
using SysFields = std::vector<ConstBytes>;

struct SysTablesRow {
  std::string name;  // "database/table"
  std::uint64_t id = 0;
  std::optional<std::uint32_t> space;
};
std::optional<SysTablesRow> DecodeSysTables(const SysFields& r);

// A column as SYS_COLUMNS (or a .cfg) records it.
struct SysColumn {
  std::string name;
  std::uint32_t pos = 0;
  std::uint32_t mtype = 0;
  std::uint32_t prtype = 0;
  std::uint32_t len = 0;

  bool is_virtual() const { return prtype & Prtype::kVirtual; }
  bool not_null() const { return prtype & Prtype::kNotNull; }
};
struct SysColumnsRow {
  std::uint64_t table_id = 0;
  SysColumn column;
};
std::optional<SysColumnsRow> DecodeSysColumns(const SysFields& r);

struct SysIndexesRow {
  std::uint64_t table_id = 0;
  std::uint64_t id = 0;
  std::string name;
  std::uint32_t type = 0;  // IndexType bits
  std::uint32_t root_page = 0;
};
std::optional<SysIndexesRow> DecodeSysIndexes(const SysFields& r);

// SYS_FIELDS.POS is the field's number, or, when some field of the index is a prefix,
// number << 16 | prefix bytes; the first field's number is 0, so then only its prefix shows.
// MariaDB 10.8+ marks a descending field with 0x8000 in the prefix half.
struct SysFieldsRow {
  std::uint64_t index_id = 0;
  std::uint32_t pos = 0;
  std::string column;

  // The prefix bytes, given whether this is its index's first field.
  std::uint32_t PrefixBytes(bool first) const { return first || pos > 0xFFFF ? pos & 0x7FFF : 0; }
};
std::optional<SysFieldsRow> DecodeSysFields(const SysFields& r);

}  // namespace strata::ondisk
