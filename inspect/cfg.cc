#include "inspect/cfg.h"

#include <fstream>
#include <iterator>
#include <string>

#include <fmt/format.h>

#include "inspect/rows.h"
#include "inspect/sys_columns.h"
#include "ondisk/endian.h"

namespace strata::inspect {

using namespace strata::ondisk;

namespace {

constexpr std::uint32_t kDataSys = 8;  // mtype of DB_ROW_ID, DB_TRX_ID, DB_ROLL_PTR

// Reads the .cfg front to back; the first read past the end (or a name longer than the file)
// makes every later read fail and is reported once, with its offset.
class CfgReader {
 public:
  explicit CfgReader(ConstBytes b) : b_(b) {}

  std::uint64_t Number(std::size_t bytes) {
    if (!Has(bytes)) return 0;
    const std::uint64_t v = LoadBe(b_, at_, bytes);
    at_ += bytes;
    return v;
  }
  std::uint32_t U32() { return static_cast<std::uint32_t>(Number(4)); }

  std::string Name() {
    const std::uint32_t n = U32();
    if (n == 0 || !Has(n)) return Fail(n ? "a name runs past the end" : "a name of length 0"), "";
    std::string s(reinterpret_cast<const char*>(b_.data()) + at_, n - 1);  // without its NUL
    at_ += n;
    return s;
  }
  // A count of things each at least `min_bytes` long: more than the rest of the file holds is damage.
  std::uint32_t Count(std::size_t min_bytes) {
    const std::uint32_t n = U32();
    if (ok() && std::uint64_t{n} * min_bytes > b_.size() - at_)
      Fail(fmt::format("a count of {} is more than the file holds", n));
    return ok() ? n : 0;
  }

  bool ok() const { return error_.empty(); }
  Status status() const { return Status::Corruption(error_); }

 private:
  bool Has(std::size_t n) {
    if (ok() && n <= b_.size() - at_) return true;
    Fail("the file ends");
    return false;
  }
  void Fail(const std::string& what) {
    if (ok()) error_ = fmt::format(".cfg offset {}: {}", at_, what);
  }

  ConstBytes b_;
  std::size_t at_ = 0;
  std::string error_;
};

}  // namespace

Result<TableDef> TableFromCfg(ConstBytes cfg, Flavor flavor) {
  CfgReader r(cfg);
  const std::uint32_t version = r.U32();
  if (!r.ok()) return r.status();
  if (version != 1)
    return Status::NotSupported(
        fmt::format(".cfg format version {} (only version 1, of MariaDB and MySQL 5.6/5.7, is read)", version));
  r.Name();  // the exporting server's host name
  const std::string full = r.Name();
  r.Number(8);  // autoinc
  r.U32();      // page size
  r.U32();      // table flags
  TableDef table;
  SetSysTableName(table, full);

  std::vector<SysColumn> columns;
  const std::uint32_t n_cols = r.Count(32);
  for (std::uint32_t i = 0; i < n_cols && r.ok(); ++i) {
    SysColumn c;
    c.prtype = r.U32();
    c.mtype = r.U32();
    c.len = r.U32();
    r.U32();  // mbminmaxlen
    c.pos = r.U32();
    r.U32();  // ord_part
    r.U32();  // max_prefix
    c.name = r.Name();
    if (c.mtype != kDataSys) columns.push_back(std::move(c));  // InnoDB's own: laid out anew
  }

  IndexFields fields;
  const std::uint32_t n_indexes = r.Count(48);
  for (std::uint32_t i = 0; i < n_indexes && r.ok(); ++i) {
    IndexDef ix;
    ix.id = r.Number(8);
    r.U32();  // space id
    ix.root_page = r.U32();
    const std::uint32_t type = r.U32();
    r.U32();  // trx_id_offset
    const std::uint32_t user_fields = r.U32();
    r.U32();  // n_uniq
    r.U32();  // n_nullable
    const std::uint32_t n_fields = r.Count(12);
    ix.name = r.Name();
    SetSysIndexKind(ix, table, type);
    auto& parts = fields[ix.id];
    for (std::uint32_t f = 0; f < n_fields && r.ok(); ++f) {
      const std::uint32_t prefix = r.U32();
      r.U32();  // fixed_len
      std::string name = r.Name();
      if (f < user_fields) parts.push_back({std::move(name), prefix});  // the key parts as declared
    }
    table.indexes.push_back(std::move(ix));
  }
  if (!r.ok()) return r.status();
  if (!table.Clustered()) return Status::Corruption(".cfg of " + full + ": no clustered index");
  return TableFromSys(table, std::move(columns), fields, flavor);
}

std::optional<std::filesystem::path> CfgBeside(const std::filesystem::path& ibd) {
  std::error_code ec;
  auto cfg = ibd;
  cfg.replace_extension(".cfg");
  if (std::filesystem::is_regular_file(cfg, ec)) return cfg;
  return std::nullopt;
}

Result<TableDef> TableFromCfgBeside(const SpaceFile& file) {
  const auto path = CfgBeside(file.path());
  if (!path) return Status::NotFound("no .cfg beside " + file.path().string());
  std::ifstream in(*path, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  auto def = TableFromCfg({reinterpret_cast<const std::byte*>(bytes.data()), bytes.size()}, file.flavor());
  if (!def.ok()) return def.status().WithContext(path->string());
  if (!RootedIn(*def, file)) {
    return Status::InvalidArgument(path->string() + " describes another table: its clustered index is not rooted in " +
                                   file.path().string());
  }
  return def;
}

}  // namespace strata::inspect
