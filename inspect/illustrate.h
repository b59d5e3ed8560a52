// Terminal pictures: one 1 MiB extent per row, one cell per page, with Unicode block glyphs
// and 256-colour or true-colour ANSI escapes, and a legend with counts and percentages so the
// picture is never the only output.
//
//   extents   cell height = B-tree page fill, colour = index; free pages '·', allocated but
//             never written '░', other page types '▒'
//   lsn       cell colour = the page's LSN age rank, oldest (dark blue) to newest (yellow);
//             never written '░', free '·'; the LSN histogram follows the map
#pragma once

#include <string>

#include "inspect/extents.h"
#include "inspect/lsn_report.h"
#include "inspect/schema.h"
#include "inspect/space_map.h"

namespace strata::inspect {

struct IllustrateOptions {
  bool color = true;      // ANSI escapes at all
  bool truecolor = true;  // 24-bit colours (else the 256-colour palette)
};

std::string IllustrateExtents(const ExtentsReport& extents, const Dictionary& names, const IllustrateOptions& opt);
std::string IllustrateLsn(const LsnReport& lsn, std::uint32_t pages_per_extent, const IllustrateOptions& opt);

}  // namespace strata::inspect
