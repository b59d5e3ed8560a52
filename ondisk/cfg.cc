#include "ondisk/cfg.h"

#include <string_view>

#include "ondisk/endian.h"

namespace strata::ondisk {

namespace {

// Sizes of the fixed parts, the least bytes one more column, index or field can take.
constexpr std::size_t kNameMinBytes = 4 + 1;                    // its length, then at least the NUL
constexpr std::size_t kColumnMinBytes = 7 * 4 + kNameMinBytes;  // seven u32, a name
constexpr std::size_t kIndexMinBytes = 8 + 8 * 4 + kNameMinBytes;
constexpr std::size_t kFieldMinBytes = 2 * 4 + kNameMinBytes;

// Reads front to back; the first read past the end (or a name longer than the file) makes every
// later read fail, and the first failure is the one reported, with its offset.
class CfgReader {
 public:
  explicit CfgReader(ConstBytes b) : b_(b) {}

  std::uint64_t U64() { return Number(8); }
  std::uint32_t U32() { return static_cast<std::uint32_t>(Number(4)); }

  std::string Name() {
    const std::size_t at = at_;
    const std::uint32_t n = U32();
    if (!ok()) return {};
    if (n == 0) return Fail(at, "a name of length 0 (it counts its NUL)"), "";
    if (!Has(n)) return {};
    std::string s(reinterpret_cast<const char*>(b_.data()) + at_, n - 1);  // without its NUL
    at_ += n;
    return s;
  }

  // A count of things each at least `min_bytes` long: more than the rest of the file holds is damage.
  std::uint32_t Count(std::size_t min_bytes, std::string_view what) {
    const std::size_t at = at_;
    const std::uint32_t n = U32();
    if (ok() && std::uint64_t{n} * min_bytes > b_.size() - at_)
      Fail(at, std::to_string(n) + " " + std::string(what) + " are more than the file holds");
    return ok() ? n : 0;
  }

  bool ok() const { return error_.ok(); }
  const Status& status() const { return error_; }

 private:
  std::uint64_t Number(std::size_t bytes) {
    if (!Has(bytes)) return 0;
    const std::uint64_t v = LoadBe(b_, at_, bytes);
    at_ += bytes;
    return v;
  }
  bool Has(std::size_t n) {
    if (!ok()) return false;
    if (n <= b_.size() - at_) return true;
    Fail(at_, "the .cfg ends");
    return false;
  }
  void Fail(std::size_t at, const std::string& what) {
    if (ok()) error_ = Status::Corruption(".cfg offset " + std::to_string(at) + ": " + what);
  }

  ConstBytes b_;
  std::size_t at_ = 0;
  Status error_;
};

class CfgWriter {
 public:
  void U64(std::uint64_t v) { Number(v, 8); }
  void U32(std::uint32_t v) { Number(v, 4); }
  void Name(const std::string& s) {
    U32(static_cast<std::uint32_t>(s.size() + 1));
    for (char c : s) out_.push_back(static_cast<std::byte>(c));
    out_.push_back(std::byte{0});
  }
  std::vector<std::byte> Take() { return std::move(out_); }

 private:
  void Number(std::uint64_t v, std::size_t bytes) {
    out_.resize(out_.size() + bytes);
    StoreBe(MutableBytes(out_).subspan(out_.size() - bytes), 0, bytes, v);
  }
  std::vector<std::byte> out_;
};

}  // namespace

Result<CfgFile> DecodeCfg(ConstBytes bytes) {
  CfgReader r(bytes);
  CfgFile cfg;
  cfg.version = r.U32();
  if (!r.ok()) return r.status();
  if (cfg.version != kCfgVersion1)
    return Status::NotSupported(".cfg format version " + std::to_string(cfg.version) +
                                " (only version 1, of MariaDB and MySQL 5.6/5.7, is read)");
  cfg.hostname = r.Name();
  cfg.table = r.Name();
  cfg.autoinc = r.U64();
  cfg.page_size = r.U32();
  cfg.table_flags = r.U32();
  cfg.columns.resize(r.Count(kColumnMinBytes, "columns"));
  for (CfgColumn& c : cfg.columns) {
    c.prtype = r.U32();
    c.mtype = r.U32();
    c.len = r.U32();
    c.mbminmaxlen = r.U32();
    c.ind = r.U32();
    c.ord_part = r.U32();
    c.max_prefix = r.U32();
    c.name = r.Name();
  }
  cfg.indexes.resize(r.Count(kIndexMinBytes, "indexes"));
  for (CfgIndex& ix : cfg.indexes) {
    ix.id = r.U64();
    ix.space = r.U32();
    ix.root_page = r.U32();
    ix.type = r.U32();
    ix.trx_id_offset = r.U32();
    ix.n_user_defined_cols = r.U32();
    ix.n_uniq = r.U32();
    ix.n_nullable = r.U32();
    ix.fields.resize(r.Count(kFieldMinBytes, "index fields"));
    ix.name = r.Name();
    for (CfgField& f : ix.fields) {
      f.prefix_len = r.U32();
      f.fixed_len = r.U32();
      f.name = r.Name();
    }
  }
  if (!r.ok()) return r.status();
  return cfg;
}

std::vector<std::byte> EncodeCfg(const CfgFile& cfg) {
  CfgWriter w;
  w.U32(cfg.version);
  w.Name(cfg.hostname);
  w.Name(cfg.table);
  w.U64(cfg.autoinc);
  w.U32(cfg.page_size);
  w.U32(cfg.table_flags);
  w.U32(static_cast<std::uint32_t>(cfg.columns.size()));
  for (const CfgColumn& c : cfg.columns) {
    for (std::uint32_t v : {c.prtype, c.mtype, c.len, c.mbminmaxlen, c.ind, c.ord_part, c.max_prefix}) w.U32(v);
    w.Name(c.name);
  }
  w.U32(static_cast<std::uint32_t>(cfg.indexes.size()));
  for (const CfgIndex& ix : cfg.indexes) {
    w.U64(ix.id);
    for (std::uint32_t v : {ix.space, ix.root_page, ix.type, ix.trx_id_offset, ix.n_user_defined_cols, ix.n_uniq,
                            ix.n_nullable, static_cast<std::uint32_t>(ix.fields.size())})
      w.U32(v);
    w.Name(ix.name);
    for (const CfgField& f : ix.fields) {
      w.U32(f.prefix_len);
      w.U32(f.fixed_len);
      w.Name(f.name);
    }
  }
  return w.Take();
}

}  // namespace strata::ondisk
