#include "inspect/space_shape.h"

#include <algorithm>
#include <map>
#include <regex>

#include "ondisk/checksum.h"
#include "ondisk/fil_header.h"

namespace strata::inspect {

using namespace strata::ondisk;

std::string ToString(SpaceKind k) {
  switch (k) {
    case SpaceKind::kFilePerTable:
      return "file-per-table";
    case SpaceKind::kSystem:
      return "system";
    case SpaceKind::kUndo:
      return "undo";
    case SpaceKind::kDictionary:
      return "dictionary";
    case SpaceKind::kTemporary:
      return "temporary";
    case SpaceKind::kOther:
      return "other";
  }
  return "?";
}

SpaceKind KindFromName(const std::filesystem::path& p) {
  const std::string name = p.filename().string();
  static const std::regex system_re("ibdata[0-9]+");
  static const std::regex undo_re("undo_?[0-9]+|.*\\.ibu");
  if (std::regex_match(name, system_re)) return SpaceKind::kSystem;
  if (std::regex_match(name, undo_re)) return SpaceKind::kUndo;
  if (name == "mysql.ibd") return SpaceKind::kDictionary;
  if (p.extension() == ".ibd") return SpaceKind::kFilePerTable;
  if (name == "ibtmp1" || p.extension() == ".ibt") return SpaceKind::kTemporary;
  return SpaceKind::kOther;
}

namespace {

// With page 0 unreadable, the space id is the one most of the next pages that carry their own
// page number name (zeroed or misplaced pages among them cannot outvote the rest). None when
// they disagree: where encryption or compression hides the field, every page names another.
std::optional<SpaceId> SpaceIdOfMostPages(ConstBytes file, std::size_t page_size) {
  std::map<std::uint32_t, int> votes;
  int all = 0;
  for (std::uint32_t n = 1; n < 64 && (n + 1) * page_size <= file.size(); ++n) {
    const ConstBytes p = file.subspan(n * page_size, page_size);
    if (!AllZero(p) && Load32(p, FilHeader::kPageNo) == n) ++votes[Load32(p, FilHeader::kSpaceId)], ++all;
  }
  auto most = std::max_element(votes.begin(), votes.end(), [](auto& a, auto& b) { return a.second < b.second; });
  if (most == votes.end() || most->second < 2 || 2 * most->second <= all) return std::nullopt;
  return SpaceId(most->first);
}

// The page size and what page 0 says, or what the other pages vote for when it is unreadable.
void DetectPageSize(SpaceShape& s, ConstBytes file, const std::string& name, std::vector<Finding>& findings_) {
  const std::uint64_t size_ = file.size();
  const std::byte* data_ = file.data();
  ConstBytes head(data_, std::min<std::uint64_t>(size_, kMaxPageSize));
  auto flags = FspFlags::Decode(Load32(head, FspHeader::kFlags));
  // Page 0 is trusted only when it passes its own checksum: zeroed or damaged, its flags
  // would mislead every later step. (A compressed tablespace's pages are its KEY_BLOCK_SIZE
  // on disk, each with the compressed-page checksum.)
  std::string why;
  if (!flags.ok()) {
    why = flags.status().message();
  } else if (flags->physical_page_size > size_) {
    why = "flags name a page larger than the file";
  } else {
    const ConstBytes p0(data_, flags->physical_page_size);
    PageCheck c =
        !flags->full_crc32 && flags->zip_ssize ? ValidateCompressedPage(p0) : ValidatePage(p0, flags->full_crc32);
    if (c.all_zero)
      why = "page 0 is all zeros";
    else if (!c.valid)
      why = c.lsn_mismatch ? "page 0 is torn" : "page 0 fails its checksum";
  }
  if (why.empty()) {
    s.page_size = flags->physical_page_size;
    s.flags = *flags;
  } else {
    // Page 0 is unreadable: pick the page size under which the next pages carry their own
    // page numbers.
    std::size_t best = kDefaultPageSize;
    int best_hits = -1;
    for (std::size_t s : {16384u, 4096u, 8192u, 32768u, 65536u}) {
      int hits = 0;
      for (std::uint32_t n = 1; n <= 8 && (n + 1) * s <= size_; ++n) {
        hits += Load32(ConstBytes(data_ + n * s, s), FilHeader::kPageNo) == n;
      }
      if (hits > best_hits) best = s, best_hits = hits;
    }
    s.page_size = best;
    // Which checksum format the other pages use tells full_crc32 apart.
    int full = 0, normal = 0;
    for (std::uint32_t n = 1; n <= 8 && (n + 1) * best <= size_; ++n) {
      ConstBytes p(data_ + n * best, best);
      full += ValidatePage(p, true).valid && !ValidatePage(p, true).all_zero;
      normal += ValidatePage(p, false).valid && !ValidatePage(p, false).all_zero;
    }
    s.full_crc32 = full > normal;
    const std::optional<SpaceId> voted = SpaceIdOfMostPages(file, best);
    s.space_id = voted.value_or(SpaceId(0));
    s.space_id_known = voted.has_value();
    findings_.push_back({Severity::kError, name, 0, std::size_t{0}, "page 0 unreadable",
                         why + "; page size " + std::to_string(best) + " inferred from page numbers" +
                             (s.full_crc32 ? ", full_crc32 from the other pages' checksums" : "") +
                             (voted ? ", space id " + std::to_string(voted->value()) + " from the other pages' headers"
                                    : ", space id unknown (the other pages' headers disagree)")});
  }
  s.n_pages = static_cast<std::uint32_t>(size_ / s.page_size);
  if (size_ % s.page_size) {
    findings_.push_back({Severity::kError, name, std::nullopt, std::size_t{s.n_pages} * s.page_size, "truncated file",
                         "ends with " + std::to_string(size_ % s.page_size) + " bytes of a partial page"});
  }
  const ConstBytes p0 = file.first(s.page_size);
  if (s.flags) {
    s.space_id = FilHeader(p0).space_id();
    s.full_crc32 = s.flags->full_crc32;
    s.fsp_size = Load32(p0, FspHeader::kSize);
    s.free_limit = Load32(p0, FspHeader::kFreeLimit);
    if (Load32(p0, FspHeader::kSpaceId) != s.space_id.value()) {
      findings_.push_back({Severity::kError, name, 0, FspHeader::kSpaceId, "space id mismatch",
                           "FSP header says " + std::to_string(Load32(p0, FspHeader::kSpaceId)) + ", FIL header says " +
                               std::to_string(s.space_id.value())});
    }
    // The system tablespace may span several files; its size covers them all.
    // A file longer than its FSP size is not damage: the file grows before the change to
    // FSP_SIZE is durable, so a crash in between leaves unused pages at its end (InnoDB
    // allocates within FSP_SIZE and grows over them later).
    if (s.fsp_size > s.n_pages && s.kind != SpaceKind::kSystem) {
      findings_.push_back(
          {Severity::kError, name, 0, FspHeader::kSize, "size mismatch",
           "FSP header says " + std::to_string(s.fsp_size) + " pages, the file holds " + std::to_string(s.n_pages)});
    } else if (s.fsp_size < s.n_pages) {
      findings_.push_back({Severity::kInfo, name, 0, FspHeader::kSize, "pages past the FSP size",
                           "FSP header says " + std::to_string(s.fsp_size) + " pages, the file holds " +
                               std::to_string(s.n_pages) +
                               "; the rest are unused (a crash while the file grew leaves them)"});
    }
  }
}

// Which server wrote the file: full_crc32 is MariaDB's, a server version on page 0 MySQL 8.0's.
void DetectFlavor(SpaceShape& s, ConstBytes page0) {
  if (!s.flags) {
    if (s.full_crc32) s.flavor = Flavor::kMariaDb;  // inferred from the other pages' checksums
    return;
  }
  if (s.flags->full_crc32) {
    s.flavor = Flavor::kMariaDb;
    return;
  }
  // MySQL 8.0 stamps page 0's FIL prev field with the server version that made the file.
  const std::uint32_t v = Load32(page0, FilHeader::kPrev);
  if (v == kStrataServerVersion) {
    s.flavor = Flavor::kStrata;
  } else if (v >= 80000 && v < 1000000) {
    s.server_version = v;
    s.flavor = Flavor::kMySql;
  } else if (s.flags->sdi) {
    s.flavor = Flavor::kMySql;
  }
}

}  // namespace

std::string SpaceShape::flavor_name() const {
  switch (flavor) {
    case Flavor::kMariaDb:
      return "MariaDB (full_crc32)";
    case Flavor::kStrata:
      return "Strata";
    case Flavor::kMySql:
      if (server_version) {
        return "MySQL " + std::to_string(server_version / 10000) + "." + std::to_string(server_version / 100 % 100) +
               "." + std::to_string(server_version % 100);
      }
      return "MySQL 8.0";
    case Flavor::kUnknown:
      break;
  }
  return flags ? "MySQL 5.x or MariaDB (not full_crc32)" : "unknown";
}

void SpaceShape::RereadHeader(ConstBytes page0) {
  if (!flags) return;
  fsp_size = Load32(page0, FspHeader::kSize);
  free_limit = Load32(page0, FspHeader::kFreeLimit);
}

SpaceShape DetectShape(const std::filesystem::path& path, ConstBytes file, std::vector<Finding>& findings) {
  SpaceShape s;
  s.kind = KindFromName(path);
  DetectPageSize(s, file, path.filename().string(), findings);
  DetectFlavor(s, s.flags ? file.first(s.page_size) : ConstBytes());
  return s;
}

}  // namespace strata::inspect
