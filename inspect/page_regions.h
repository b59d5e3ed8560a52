// Where a page's bytes go, from its first byte to its last: the FIL header, the page's own
// header, the records, free space, the directory, the FIL trailer; a ROW_FORMAT=COMPRESSED
// page instead keeps a zlib stream, its modification log, off-page references, stored columns
// and a dense directory. `strata inspect page` prints them and the viewer draws them as
// bands, each in its colour: one computation for both.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "inspect/colors.h"
#include "inspect/space_file.h"

namespace strata::inspect {

struct PageRegion {
  std::string name;              // "FIL header", "records", "free space", ...
  std::size_t from = 0, to = 0;  // bytes [from, to) of the stored page
  Rgb color;
};

// Contiguous regions covering the whole stored page. A B-tree page that does not open (or
// unpack) is shown as header, body and trailer: what is known without trusting its pointers.
std::vector<PageRegion> PageRegions(const SpaceFile& f, ondisk::ConstBytes page);

}  // namespace strata::inspect
