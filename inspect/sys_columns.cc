#include "inspect/sys_columns.h"

#include <fmt/format.h>

#include "inspect/create_table.h"
#include "ondisk/charsets.h"
#include "ondisk/mysql_type.h"

namespace strata::inspect {

using namespace strata::ondisk;
using namespace strata::ondisk::mysql_type;  // the server's types, in PRTYPE's low byte
using M = MainType;                          // InnoDB's, in MTYPE

CharWidth WidthOfCollation(int id) {
  if (id >= 1024 && id < 2048) id -= 1024;         // MariaDB's NO PAD collations: their PAD twin's width
  if (id >= 2048 && id < 2304) return {3, false};  // MariaDB utf8mb3 UCA 14.0
  if (id >= 2304 && id < 2560) return {4, false};  // MariaDB utf8mb4 UCA 14.0
  if (id == 11 || id == 65) return {1, true};      // ascii (printed as UTF-8, of which it is a subset)
  switch (CharsetOfCollation(id)) {
    case Charset::kBinary:
    case Charset::kLatin1:
      return {1, true};
    case Charset::kUtf8: {
      const bool mb3 = id == 33 || id == 83 || id == 76 || (id >= 192 && id <= 223);
      return {mb3 ? 3u : 4u, false};
    }
    case Charset::kOther: {
      const CharsetInfo cs = OtherCharsetOfCollation(id);
      return {cs.mbmaxlen, cs.fixed};
    }
  }
  return {};
}

Result<ColumnDef> ColumnFromSys(const SysColumn& s, Flavor flavor) {
  ColumnDef c;
  c.name = s.name;
  c.nullable = !s.not_null();
  c.is_unsigned = s.prtype & Prtype::kUnsigned;
  c.is_virtual = s.is_virtual();
  ColumnFormat& f = c.format;
  f.is_unsigned = c.is_unsigned;
  const std::uint32_t type = Prtype::Type(s.prtype);
  const int collation = Prtype::Collation(s.prtype);
  const bool n = c.nullable;
  auto unknown = [&](const std::string& what, const std::string& why) {
    f.type = ColumnType::kUnknown;
    f.name = what + " (" + why + ")";
  };
  const std::string give = "; --create-table with the table's CREATE TABLE gives it";
  auto refuse = [&](const std::string& what) {
    return Status::InvalidArgument(fmt::format("column {}: {} (SYS_COLUMNS MTYPE {} PRTYPE {:#x} LEN {})", s.name, what,
                                               s.mtype, s.prtype, s.len));
  };
  const std::uint32_t len = s.len;
  const auto mtype = static_cast<M>(s.mtype);
  switch (mtype) {
    case M::kInt:
      c.field = FieldDef::Fixed(c.name, len, n);
      if (type == kYear && len == 1)
        f.type = ColumnType::kYear;
      else if ((type == kDate || type == kNewDate) && len == 3)
        f.type = ColumnType::kDate;
      else if (type == kEnum || type == kSet || type == kString)
        unknown("ENUM or SET", "SYS_COLUMNS does not keep the labels" + give);
      else if (type == kDatetime || type == kTimestamp || type == kTime)
        unknown("DATETIME, TIMESTAMP or TIME in MySQL 5.5's format", "that format is not decoded yet");
      else if ((type == kTiny || type == kShort || type == kInt24 || type == kLong || type == kLongLong || type == 0) &&
               (len == 1 || len == 2 || len == 3 || len == 4 || len == 8))
        f.type = ColumnType::kInt, f.length = len;
      else
        unknown("type " + std::to_string(type) + " stored as a " + std::to_string(len) + "-byte integer",
                "not decoded");
      break;
    case M::kFloat:
    case M::kDouble:
      c.field = FieldDef::Fixed(c.name, mtype == M::kFloat ? 4 : 8, n);
      unknown(mtype == M::kFloat ? "FLOAT" : "DOUBLE",
              "SYS_COLUMNS does not say whether it prints a fixed number of decimals, as FLOAT(M,D) does" + give);
      break;
    case M::kFixBinary:
      c.field = FieldDef::Fixed(c.name, len, n);
      if (type == kNewDecimal) {
        unknown("DECIMAL", "SYS_COLUMNS keeps its width, not its precision and scale" + give);
      } else if (type == kDatetime || type == kTimestamp || type == kTime) {
        const std::uint32_t base = type == kDatetime ? 5 : type == kTimestamp ? 4 : 3;
        f.type = type == kDatetime    ? ColumnType::kDatetime
                 : type == kTimestamp ? ColumnType::kTimestamp
                                      : ColumnType::kTime;
        if (len < base || len > base + 3) return refuse("a temporal value of " + std::to_string(len) + " bytes");
        // Two digits of fraction per byte: the width tells 0 digits apart, not 1 from 2 (and so on).
        if (len != base)
          unknown(type == kDatetime    ? "DATETIME"
                  : type == kTimestamp ? "TIMESTAMP"
                                       : "TIME",
                  "SYS_COLUMNS gives the digits of its fraction of a second only in pairs" + give);
      } else if (type == kBit) {
        unknown("BIT", "SYS_COLUMNS keeps its bytes, not its bits" + give);
      } else if (flavor != Flavor::kMySql && (len == 16 || len == 4)) {
        unknown("BINARY(" + std::to_string(len) + ")",
                "MariaDB's UUID, INET6 and INET4 are stored the same way and SYS_COLUMNS does not say which" + give);
      } else {
        f.type = ColumnType::kChar;  // BINARY(n)
        f.length = len;
        f.collation = 63;
      }
      break;
    case M::kChar:
    case M::kMysql:
    case M::kVarchar:
    case M::kVarMysql:
    case M::kBinary: {
      const int coll = mtype == M::kBinary ? 63 : collation ? collation : mtype <= M::kChar ? 8 : 0;
      const CharWidth w = WidthOfCollation(coll);
      if (!w.mbmaxlen)
        return refuse("collation " + std::to_string(coll) + " is not one this reader knows the width of");
      f.collation = coll;
      f.length = len / w.mbmaxlen;
      if (mtype == M::kChar || mtype == M::kMysql) {
        f.type = ColumnType::kChar;
        // CHAR in a character set of varying width is stored with a length, like VARCHAR.
        c.field = w.fixed ? FieldDef::Fixed(c.name, len, n) : FieldDef::Variable(c.name, len, n);
      } else {
        f.type = ColumnType::kVarchar;
        c.field = FieldDef::Variable(c.name, len, n);
      }
      break;
    }
    case M::kBlob:
      c.field = FieldDef::Variable(c.name, len == 9 ? 255 : 0xFFFFFFFF, n, true);  // LEN: length bytes + 8
      if (type == kJson && flavor != Flavor::kMariaDb) {                           // MariaDB's JSON is LONGTEXT
        f.type = ColumnType::kJson;
      } else {
        f.type = ColumnType::kVarchar;
        f.collation = collation ? collation : 63;
        if (!WidthOfCollation(f.collation).mbmaxlen)
          unknown("TEXT", "collation " + std::to_string(f.collation) + " is not converted to UTF-8 yet");
      }
      break;
    case M::kGeometry:
      c.field = FieldDef::Variable(c.name, 0xFFFFFFFF, n, true);
      f.type = ColumnType::kGeometry;
      break;
    default:
      return refuse("main type " + std::to_string(s.mtype) + " is not one this reader knows");
  }
  if (f.name.empty()) f.name = "SYS_COLUMNS type " + std::to_string(type);
  return c;
}

void SetSysTableName(TableDef& t, const std::string& full) {
  const auto slash = full.find('/');
  t.schema = slash == std::string::npos ? "" : full.substr(0, slash);
  t.name = slash == std::string::npos ? full : full.substr(slash + 1);
}

void SetSysIndexKind(IndexDef& ix, const TableDef& table, std::uint32_t type) {
  ix.table = table.schema.empty() ? table.name : table.schema + "." + table.name;
  ix.clustered = type & IndexType::kClustered;
  ix.unique = type & IndexType::kUnique;
  ix.spatial = type & IndexType::kSpatial;
}

Result<TableDef> TableFromSys(const TableDef& table, std::vector<SysColumn> sys, const IndexFields& fields,
                              Flavor flavor) {
  std::stable_sort(sys.begin(), sys.end(), [](const SysColumn& a, const SysColumn& b) { return a.pos < b.pos; });
  TableDef t;
  t.schema = table.schema;
  t.name = table.name;
  t.space_id = table.space_id;
  for (const auto& s : sys) {
    auto c = ColumnFromSys(s, flavor);
    if (!c.ok()) return c.status();
    t.columns.push_back(std::move(*c));
  }
  // The FTS_DOC_ID InnoDB adds to a table with a FULLTEXT index (and no such column of its
  // own) is its last stored column; the server does not list it in SELECT *.
  for (auto c = t.columns.rbegin(); c != t.columns.rend(); ++c) {
    if (c->is_virtual) continue;
    c->hidden = c->name == "FTS_DOC_ID";
    break;
  }
  std::vector<IndexSpec> specs;
  for (const auto& ix : table.indexes) {
    auto f = fields.find(ix.id);
    const bool rows = ix.root_page != kFilNull && !ix.spatial;  // FULLTEXT has no tree, SPATIAL an R-tree
    if (ix.clustered && ix.name != "GEN_CLUST_INDEX")
      specs.push_back({ix.name, true, true, false, f == fields.end() ? decltype(f->second){} : f->second});
    else if (!ix.clustered && f != fields.end())
      specs.push_back({ix.name, false, ix.unique, !rows, f->second});
  }
  auto laid = LayOutTable(std::move(t), specs);
  if (!laid.ok()) return laid.status();
  // SYS_INDEXES' names, ids and roots on the laid-out indexes (the clustered one first).
  for (auto& ix : laid->indexes) {
    for (const auto& sys_ix : table.indexes) {
      if (sys_ix.clustered != ix.clustered || (!ix.clustered && sys_ix.name != ix.name)) continue;
      ix.id = sys_ix.id;
      ix.name = sys_ix.name;
      ix.table = sys_ix.table;
      ix.root_page = sys_ix.root_page;
    }
  }
  return laid;
}

}  // namespace strata::inspect
