#include "inspect/sys_columns.h"

#include <fmt/format.h>

#include "inspect/table_layout.h"
#include "ondisk/charsets.h"
#include "ondisk/mysql_type.h"

namespace strata::inspect {

using namespace strata::ondisk;
using namespace strata::ondisk::mysql_type;  // the server's types, in PRTYPE's low byte
using M = MainType;                          // InnoDB's, in MTYPE

namespace {

// One SYS_COLUMNS column as the definition rows decode with, by its main type's family.
class SysColumnReader {
 public:
  SysColumnReader(const SysColumn& s, Flavor flavor)
      : s_(s), flavor_(flavor), mtype_(static_cast<M>(s.mtype)), f_(c_.format) {
    c_.name = s.name;
    c_.nullable = n_ = !s.not_null();
    c_.is_unsigned = f_.is_unsigned = s.prtype & Prtype::kUnsigned;
    c_.is_virtual = s.is_virtual();
  }

  Result<ColumnDef> Read() {
    Status st;
    switch (mtype_) {
      case M::kInt:
        st = Int();
        break;
      case M::kFloat:
      case M::kDouble:
        c_.field = FieldDef::Fixed(c_.name, mtype_ == M::kFloat ? 4 : 8, n_);
        Unknown(mtype_ == M::kFloat ? "FLOAT" : "DOUBLE",
                "SYS_COLUMNS does not say whether it prints a fixed number of decimals, as FLOAT(M,D) does" + kGive);
        break;
      case M::kFixBinary:
        st = FixBinary();
        break;
      case M::kChar:
      case M::kMysql:
      case M::kVarchar:
      case M::kVarMysql:
      case M::kBinary:
        st = Text();
        break;
      case M::kBlob:
        st = Blob();
        break;
      case M::kGeometry:
        c_.field = FieldDef::Variable(c_.name, 0xFFFFFFFF, n_, true);
        f_.type = ColumnType::kGeometry;
        break;
      default:
        st = Refuse("main type " + std::to_string(s_.mtype) + " is not one this reader knows");
    }
    if (!st.ok()) return st;
    if (f_.name.empty()) f_.name = "SYS_COLUMNS type " + std::to_string(type_);
    return std::move(c_);
  }

 private:
  static inline const std::string kGive = "; --create-table with the table's CREATE TABLE gives it";

  void Unknown(const std::string& what, const std::string& why) {
    f_.type = ColumnType::kUnknown;
    f_.name = what + " (" + why + ")";
  }
  Status Refuse(const std::string& what) const {
    return Status::InvalidArgument(fmt::format("column {}: {} (SYS_COLUMNS MTYPE {} PRTYPE {:#x} LEN {})", s_.name,
                                               what, s_.mtype, s_.prtype, s_.len));
  }

  Status Int() {
    c_.field = FieldDef::Fixed(c_.name, len_, n_);
    if (type_ == kYear && len_ == 1)
      f_.type = ColumnType::kYear;
    else if ((type_ == kDate || type_ == kNewDate) && len_ == 3)
      f_.type = ColumnType::kDate;
    else if (type_ == kEnum || type_ == kSet || type_ == kString)
      Unknown("ENUM or SET", "SYS_COLUMNS does not keep the labels" + kGive);
    else if (type_ == kDatetime || type_ == kTimestamp || type_ == kTime)
      Unknown("DATETIME, TIMESTAMP or TIME in MySQL 5.5's format", "that format is not decoded yet");
    else if ((type_ == kTiny || type_ == kShort || type_ == kInt24 || type_ == kLong || type_ == kLongLong ||
              type_ == 0) &&
             (len_ == 1 || len_ == 2 || len_ == 3 || len_ == 4 || len_ == 8))
      f_.type = ColumnType::kInt, f_.length = len_;
    else
      Unknown("type " + std::to_string(type_) + " stored as a " + std::to_string(len_) + "-byte integer",
              "not decoded");
    return Status::Ok();
  }

  Status FixBinary() {
    c_.field = FieldDef::Fixed(c_.name, len_, n_);
    if (type_ == kNewDecimal) {
      Unknown("DECIMAL", "SYS_COLUMNS keeps its width, not its precision and scale" + kGive);
    } else if (type_ == kDatetime || type_ == kTimestamp || type_ == kTime) {
      const std::uint32_t base = type_ == kDatetime ? 5 : type_ == kTimestamp ? 4 : 3;
      f_.type = type_ == kDatetime    ? ColumnType::kDatetime
                : type_ == kTimestamp ? ColumnType::kTimestamp
                                      : ColumnType::kTime;
      if (len_ < base || len_ > base + 3) return Refuse("a temporal value of " + std::to_string(len_) + " bytes");
      // Two digits of fraction per byte: the width tells 0 digits apart, not 1 from 2 (and so on).
      if (len_ != base)
        Unknown(type_ == kDatetime    ? "DATETIME"
                : type_ == kTimestamp ? "TIMESTAMP"
                                      : "TIME",
                "SYS_COLUMNS gives the digits of its fraction of a second only in pairs" + kGive);
    } else if (type_ == kBit) {
      Unknown("BIT", "SYS_COLUMNS keeps its bytes, not its bits" + kGive);
    } else if (flavor_ != Flavor::kMySql && (len_ == 16 || len_ == 4)) {
      Unknown("BINARY(" + std::to_string(len_) + ")",
              "MariaDB's UUID, INET6 and INET4 are stored the same way and SYS_COLUMNS does not say which" + kGive);
    } else {
      f_.type = ColumnType::kChar;  // BINARY(n)
      f_.length = len_;
      f_.collation = 63;
    }
    return Status::Ok();
  }

  // CHAR and VARCHAR in any character set, and VARBINARY.
  Status Text() {
    const int coll = mtype_ == M::kBinary ? 63 : collation_ ? collation_ : mtype_ <= M::kChar ? 8 : 0;
    const CharsetInfo w = CharsetOfCollationId(coll);
    if (!w.mbmaxlen) return Refuse("collation " + std::to_string(coll) + " is not one this reader knows the width of");
    f_.collation = coll;
    f_.length = len_ / w.mbmaxlen;
    if (mtype_ == M::kChar || mtype_ == M::kMysql) {
      f_.type = ColumnType::kChar;
      // CHAR in a character set of varying width is stored with a length, like VARCHAR.
      c_.field = w.fixed ? FieldDef::Fixed(c_.name, len_, n_) : FieldDef::Variable(c_.name, len_, n_);
    } else {
      f_.type = ColumnType::kVarchar;
      c_.field = FieldDef::Variable(c_.name, len_, n_);
    }
    return Status::Ok();
  }

  Status Blob() {
    c_.field = FieldDef::Variable(c_.name, len_ == 9 ? 255 : 0xFFFFFFFF, n_, true);  // LEN: length bytes + 8
    if (type_ == kJson && flavor_ != Flavor::kMariaDb) {                             // MariaDB's JSON is LONGTEXT
      f_.type = ColumnType::kJson;
    } else {
      f_.type = ColumnType::kVarchar;
      f_.collation = collation_ ? collation_ : 63;
      if (!CharsetOfCollationId(f_.collation).mbmaxlen)
        Unknown("TEXT", "collation " + std::to_string(f_.collation) + " is not converted to UTF-8 yet");
    }
    return Status::Ok();
  }

  const SysColumn& s_;
  Flavor flavor_;
  M mtype_;
  ColumnDef c_;
  ColumnFormat& f_;
  bool n_ = false;
  const std::uint32_t type_ = Prtype::Type(s_.prtype);  // the server's type code
  const int collation_ = Prtype::Collation(s_.prtype);
  const std::uint32_t len_ = s_.len;
};

}  // namespace

Result<ColumnDef> ColumnFromSys(const SysColumn& s, Flavor flavor) { return SysColumnReader(s, flavor).Read(); }

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
