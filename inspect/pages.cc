#include "inspect/pages.h"

#include <fmt/format.h>

namespace strata::inspect {

namespace {
std::string PageRef(std::uint32_t p) { return p == ondisk::kFilNull ? "-" : std::to_string(p); }
nlohmann::json PageRefJson(std::uint32_t p) {
  return p == ondisk::kFilNull ? nlohmann::json(nullptr) : nlohmann::json(p);
}
}  // namespace

std::string ChecksumText(const PageInfo& p) {
  if (p.all_zero) return "never written";
  if (p.unverifiable) return "encrypted";
  const std::string sealed = p.encrypted ? ", encrypted" : "";
  if (p.torn) return "torn" + sealed;
  if (!p.checksum_ok) return "BAD" + sealed;
  return (p.algorithm ? "ok (" + ondisk::ToString(*p.algorithm) + ")" : std::string("ok")) + sealed;
}

std::string PagesHeaderText(const SpaceFile& f) {
  return fmt::format("{}\n{:>8} {:<16} {:>14} {:>8} {:>8} {:>10} {:>5} {:>6} {:>9} {:>6} {:>6} {:>7}  {}\n",
                     f.path().string(), "page_no", "type", "lsn", "prev", "next", "index_id", "level", "n_recs",
                     "data_size", "used", "free", "garbage", "checksum");
}

std::string PageRowText(const SpaceFile& f, const PageInfo& p) {
  // Only B-tree pages link to neighbours; elsewhere the same bytes hold other things (page 0
  // of MySQL 8.0 keeps the server and space versions there).
  if (!p.is_btree) {
    return fmt::format("{:>8} {:<16} {:>14} {:>8} {:>8} {:>10} {:>5} {:>6} {:>9} {:>6} {:>6} {:>7}  {}\n", p.page_no,
                       PageTypeName(p, f.flavor()), p.lsn, "-", "-", "-", "-", "-", "-", "-", "-", "-",
                       ChecksumText(p));
  }
  return fmt::format("{:>8} {:<16} {:>14} {:>8} {:>8} {:>10} {:>5} {:>6} {:>9} {:>6} {:>6} {:>7}  {}\n", p.page_no,
                     PageTypeName(p, f.flavor()), p.lsn, PageRef(p.prev), PageRef(p.next), p.index_id, p.level,
                     p.n_recs, p.data_size, p.used_bytes, p.free_bytes, p.garbage_bytes, ChecksumText(p));
}

nlohmann::json PageRowJson(const SpaceFile& f, const PageInfo& p) {
  nlohmann::json j = {
      {"page_no", p.page_no},
      {"type", PageTypeName(p, f.flavor())},
      {"type_code", p.type},
      {"lsn", p.lsn},
      {"prev", p.is_btree ? PageRefJson(p.prev) : nlohmann::json(nullptr)},
      {"next", p.is_btree ? PageRefJson(p.next) : nlohmann::json(nullptr)},
      {"checksum", p.all_zero       ? "never_written"
                   : p.unverifiable ? "encrypted"
                   : p.torn         ? "torn"
                   : p.checksum_ok  ? "ok"
                                    : "bad"},
      {"checksum_algorithm", p.algorithm ? nlohmann::json(ondisk::ToString(*p.algorithm)) : nlohmann::json(nullptr)},
      {"encrypted", p.encrypted},
      {"misplaced", p.misplaced}};
  auto btree = [&](auto v) { return p.is_btree ? nlohmann::json(v) : nlohmann::json(nullptr); };
  j["index_id"] = btree(p.index_id);
  j["level"] = btree(p.level);
  j["n_recs"] = btree(p.n_recs);
  j["data_size"] = btree(p.data_size);
  j["used_bytes"] = btree(p.used_bytes);
  j["free_bytes"] = btree(p.free_bytes);
  j["garbage_bytes"] = btree(p.garbage_bytes);
  return j;
}

}  // namespace strata::inspect
