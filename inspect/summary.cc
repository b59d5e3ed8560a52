#include "inspect/summary.h"

#include <fmt/format.h>

#include "inspect/page_info.h"
#include "inspect/schema.h"
#include "ondisk/index_page.h"

namespace strata::inspect {

SpaceSummary Summarize(const SpaceFile& file, const Dictionary* server) {
  SpaceSummary s;
  s.file = file.path().string();
  s.flavor = file.shape().flavor_name();
  s.full_crc32 = file.shape().full_crc32;
  s.page_size = file.page_size();
  if (file.shape().space_id_known) s.space_id = file.space_id().value();
  s.flags = file.shape().flags;
  s.page_compressed = file.unpacked().compressed_pages;
  s.decrypted_pages = file.unpacked().decrypted_pages;
  s.decrypted_with = file.unpacked().decrypted_with;
  s.fsp_size = file.shape().fsp_size;
  s.pages = file.n_pages();
  s.kind = ToString(file.kind());
  s.findings = file.findings();
  std::map<std::uint64_t, IndexSummary> indexes;
  // Pages per kind, keyed by type code and the flags that rename a type (names are made once
  // at the end, not per page).
  std::map<std::uint32_t, std::uint64_t> kinds;
  auto kind_of = [](const PageInfo& p) {
    return std::uint32_t{p.type} | (p.free ? 1u << 16 : 0) | (p.all_zero ? 1u << 17 : 0) |
           (p.doublewrite ? 1u << 18 : 0);
  };
  std::map<std::uint64_t, double> fill_sums;
  const std::string name = file.path().filename().string();
  ScanPages(file, [&](std::span<const PageInfo> batch) {
    for (const PageInfo& p : batch) {
      kinds[kind_of(p)]++;
      if (p.all_zero) ++s.never_written;
      if (p.encrypted) ++s.encrypted_pages;
      if (p.unverifiable) ++s.unverifiable_pages;
      if (p.algorithm) s.checksum_algorithms[ondisk::ToString(*p.algorithm)]++;
      if (p.checksum_failed()) {
        ++s.checksum_failures;
        s.findings.push_back({Severity::kError, name, p.page_no, std::size_t{0},
                              p.torn ? "torn page" : "checksum mismatch",
                              p.torn ? "header and trailer LSNs differ" : "no algorithm matches the stored checksum"});
      }
      if (p.torn) ++s.torn_pages;
      if (p.misplaced) ++s.misplaced_pages;
      if (!p.header_error.empty()) {
        s.findings.push_back({Severity::kError, name, p.page_no, std::nullopt, "B-tree page header", p.header_error});
      }
      if (!p.is_btree) continue;
      IndexSummary& ix = indexes[p.index_id];
      ix.index_id = p.index_id;
      ix.levels = std::max<std::uint16_t>(ix.levels, p.level + 1);
      if (p.is_root) ix.root_page = p.page_no;
      if (p.level == 0) {
        ++ix.leaf_pages;
        ix.records += p.n_recs;
        ix.leaf_data_bytes += p.data_size;
        fill_sums[p.index_id] += PageFill(p, file.shape().logical_page_size());
      } else {
        ++ix.nonleaf_pages;
      }
    }
  });
  for (const auto& [kind, n] : kinds) {
    PageInfo p;
    p.type = static_cast<std::uint16_t>(kind & 0xFFFF);
    p.free = kind & (1u << 16);
    p.all_zero = kind & (1u << 17);
    p.doublewrite = kind & (1u << 18);
    s.type_counts[PageTypeName(p, file.flavor())] += n;
  }
  if (s.misplaced_pages) {
    s.findings.push_back({Severity::kError, name, std::nullopt, std::nullopt, "misplaced pages",
                          std::to_string(s.misplaced_pages) + " pages carry another page number or space id"});
  }
  Dictionary dict = DictionaryFor(file, server);
  for (auto& [id, ix] : indexes) {
    if (ix.leaf_pages) ix.avg_leaf_fill = fill_sums[id] / static_cast<double>(ix.leaf_pages);
    if (id == ondisk::kSdiIndexId) ix.name = "SDI";
    if (const IndexDef* def = dict.FindIndex(id)) {
      ix.name = def->name;
      ix.table = def->table;
    }
    s.indexes.push_back(ix);
  }
  return s;
}

nlohmann::json ToJson(const SpaceSummary& s) {
  nlohmann::json j;
  j["file"] = s.file;
  j["kind"] = s.kind;
  j["flavor"] = s.flavor;
  j["full_crc32"] = s.full_crc32;
  j["page_size"] = s.page_size;
  j["space_id"] = s.space_id ? nlohmann::json(*s.space_id) : nlohmann::json(nullptr);
  j["flags"] = s.flags ? nlohmann::json(s.flags->raw) : nlohmann::json(nullptr);
  j["flags_text"] = s.flags ? nlohmann::json(s.flags->ToString()) : nlohmann::json(nullptr);
  j["page_compressed"] = s.page_compressed.empty() ? nlohmann::json(nullptr) : nlohmann::json(s.page_compressed);
  j["decrypted"] = s.decrypted_pages ? nlohmann::json{{"pages", s.decrypted_pages}, {"with", s.decrypted_with}}
                                     : nlohmann::json(nullptr);
  j["fsp_size_pages"] = s.fsp_size;
  j["pages"] = s.pages;
  nlohmann::json types = nlohmann::json::array();
  for (const auto& [name, n] : s.type_counts) {
    types.push_back({{"type", name}, {"pages", n}, {"percent", s.pages ? 100.0 * n / s.pages : 0.0}});
  }
  j["page_types"] = types;
  j["checksum_algorithms"] = s.checksum_algorithms;
  j["never_written_pages"] = s.never_written;
  j["checksum_failures"] = s.checksum_failures;
  j["encrypted_pages"] = s.encrypted_pages;
  j["unverifiable_pages"] = s.unverifiable_pages;
  j["torn_pages"] = s.torn_pages;
  j["misplaced_pages"] = s.misplaced_pages;
  nlohmann::json ixs = nlohmann::json::array();
  for (const auto& ix : s.indexes) {
    ixs.push_back(
        {{"index_id", ix.index_id},
         {"name", ix.name.empty() ? nlohmann::json(nullptr) : nlohmann::json(ix.name)},
         {"table", ix.table.empty() ? nlohmann::json(nullptr) : nlohmann::json(ix.table)},
         {"root_page", ix.root_page == ondisk::kFilNull ? nlohmann::json(nullptr) : nlohmann::json(ix.root_page)},
         {"levels", ix.levels},
         {"leaf_pages", ix.leaf_pages},
         {"nonleaf_pages", ix.nonleaf_pages},
         {"records", ix.records},
         {"avg_leaf_fill", ix.avg_leaf_fill}});
  }
  j["indexes"] = ixs;
  nlohmann::json findings = nlohmann::json::array();
  for (const auto& f : s.findings) findings.push_back(ToJson(f));
  j["findings"] = findings;
  return j;
}

std::string ToText(const SpaceSummary& s) {
  std::string out = fmt::format("{}\n", s.file);
  out += fmt::format("  flavor         {}{}\n", s.flavor, s.kind == "file-per-table" ? "" : " (" + s.kind + ")");
  out += fmt::format("  space id       {}\n", s.space_id ? std::to_string(*s.space_id) : "unknown");
  out += fmt::format("  page size      {} bytes\n", s.page_size);
  out += fmt::format("  flags          {}\n", s.flags ? s.flags->ToString() : "unreadable");
  if (!s.page_compressed.empty()) {
    std::string by;
    for (const auto& [algorithm, n] : s.page_compressed)
      by += fmt::format("{}{} {}", by.empty() ? "" : ", ", algorithm, n);
    out += fmt::format("  compressed     {} pages stored page-compressed (PAGE_COMPRESSED=1), read decompressed\n", by);
  }
  if (s.decrypted_pages) {
    out += fmt::format("  decrypted      {} pages, with {}\n", s.decrypted_pages, s.decrypted_with);
  }
  out += fmt::format("  size           {} pages ({:.1f} MiB); FSP header says {}\n", s.pages,
                     s.pages * static_cast<double>(s.page_size) / (1 << 20), s.fsp_size);
  std::string algos;
  for (const auto& [a, n] : s.checksum_algorithms) algos += fmt::format("{}{} {}", algos.empty() ? "" : ", ", n, a);
  if (s.unverifiable_pages) {
    algos +=
        fmt::format("{}{} encrypted (not verifiable without the key)", algos.empty() ? "" : ", ", s.unverifiable_pages);
  }
  if (s.encrypted_pages > s.unverifiable_pages) {
    algos += fmt::format("; {} of them encrypted (MariaDB: checksums checked, contents need the key)",
                         s.encrypted_pages - s.unverifiable_pages);
  }
  out += fmt::format("  checksums      {} failed; {} never written; {}\n", s.checksum_failures, s.never_written,
                     algos.empty() ? "no written pages" : algos);
  out += "\n  page type                      pages       %\n";
  for (const auto& [name, n] : s.type_counts) {
    out += fmt::format("  {:<28} {:>8} {:>6.1f}%\n", name, n, s.pages ? 100.0 * n / s.pages : 0.0);
  }
  if (!s.indexes.empty()) {
    out += "\n  index id  name                  root  levels  leaf pages  non-leaf     records  leaf fill\n";
    for (const auto& ix : s.indexes) {
      std::string name = ix.name.empty() ? "-" : ix.name;
      std::string root = ix.root_page == ondisk::kFilNull ? "?" : std::to_string(ix.root_page);
      std::string id = ix.index_id == ondisk::kSdiIndexId ? "sdi" : std::to_string(ix.index_id);
      out += fmt::format("  {:>8}  {:<20} {:>5} {:>7} {:>11} {:>9} {:>11} {:>9.1f}%\n", id, name, root, ix.levels,
                         ix.leaf_pages, ix.nonleaf_pages, ix.records, 100 * ix.avg_leaf_fill);
    }
  }
  if (!s.findings.empty()) {
    out += fmt::format("\n  {} finding{}:\n", s.findings.size(), s.findings.size() == 1 ? "" : "s");
    for (const auto& f : s.findings) out += "  - " + f.ToString() + "\n";
  }
  return out;
}

}  // namespace strata::inspect
