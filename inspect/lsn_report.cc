#include "inspect/lsn_report.h"

#include <fmt/format.h>

#include <algorithm>
#include <numeric>

namespace strata::inspect {

const char* ToString(LsnState s) {
  switch (s) {
    case LsnState::kWritten:
      return "written";
    case LsnState::kNeverWritten:
      return "never_written";
    case LsnState::kFree:
      return "free";
    case LsnState::kDamaged:
      return "damaged";
  }
  return "?";
}

LsnReport AnalyzeLsn(const SpaceFile& f, const SpaceMap& m, std::size_t buckets) {
  LsnReport r;
  r.file = f.path().string();
  r.histogram.assign(buckets, 0);
  std::vector<std::uint32_t> written;
  for (std::uint32_t n = 0; n < m.pages.size(); ++n) {
    const PageCell& c = m.pages[n];
    LsnPage p{n, c.lsn, LsnState::kWritten, 0};
    // Free by its extent descriptor first (a free page is often all zeros too): "never
    // written" is kept for allocated pages that are all zeros, as the maps say.
    if (c.free()) {
      p.state = LsnState::kFree;
      ++r.free;
    } else if (c.never_written()) {
      p.state = LsnState::kNeverWritten;
      ++r.never_written;
    } else if (c.bad_checksum()) {
      p.state = LsnState::kDamaged;
      ++r.damaged;
    } else {
      ++r.written;
      written.push_back(n);
      r.min_lsn = r.written == 1 ? c.lsn : std::min(r.min_lsn, c.lsn);
      r.max_lsn = std::max(r.max_lsn, c.lsn);
    }
    r.pages.push_back(p);
  }
  // Rank by LSN: ties share the rank of their first member.
  std::stable_sort(written.begin(), written.end(), [&](auto a, auto b) { return m.pages[a].lsn < m.pages[b].lsn; });
  std::size_t first = 0;
  for (std::size_t i = 0; i < written.size(); ++i) {
    if (i > 0 && m.pages[written[i - 1]].lsn != m.pages[written[i]].lsn) first = i;
    r.pages[written[i]].age_rank = written.size() > 1 ? static_cast<double>(first) / (written.size() - 1) : 1.0;
    const double span = static_cast<double>(r.max_lsn - r.min_lsn);
    std::size_t b =
        span > 0 ? static_cast<std::size_t>((m.pages[written[i]].lsn - r.min_lsn) / span * buckets) : buckets - 1;
    r.histogram[std::min(b, buckets - 1)]++;
  }
  return r;
}

nlohmann::json ToJson(const LsnReport& r) {
  nlohmann::json pages = nlohmann::json::array();
  for (const auto& p : r.pages) {
    pages.push_back(
        {{"page", p.page},
         {"lsn", p.lsn},
         {"state", ToString(p.state)},
         {"age_rank", p.state == LsnState::kWritten ? nlohmann::json(p.age_rank) : nlohmann::json(nullptr)}});
  }
  return {{"file", r.file},
          {"min_lsn", r.min_lsn},
          {"max_lsn", r.max_lsn},
          {"written_pages", r.written},
          {"never_written_pages", r.never_written},
          {"free_pages", r.free},
          {"damaged_pages", r.damaged},
          {"histogram", r.histogram},
          {"pages", pages}};
}

std::string ToText(const LsnReport& r) {
  std::string out =
      fmt::format("{}\n  LSN {} .. {} over {} written pages; {} never written, {} free{}\n\n", r.file, r.min_lsn,
                  r.max_lsn, r.written, r.never_written, r.free,
                  r.damaged ? fmt::format(", {} damaged (checksum fails: LSN not trusted)", r.damaged) : "");
  const std::uint64_t peak = r.histogram.empty() ? 0 : *std::max_element(r.histogram.begin(), r.histogram.end());
  const double width = static_cast<double>(r.max_lsn - r.min_lsn) / std::max<std::size_t>(1, r.histogram.size());
  out += "  LSN from             pages\n";
  for (std::size_t b = 0; b < r.histogram.size(); ++b) {
    const int bar = peak ? static_cast<int>(50.0 * r.histogram[b] / peak + 0.5) : 0;
    out += fmt::format("  {:>16} {:>8} {}\n", r.min_lsn + static_cast<std::uint64_t>(b * width), r.histogram[b],
                       std::string(bar, '#'));
  }
  return out;
}

}  // namespace strata::inspect
