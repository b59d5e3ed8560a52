// What a map shows, before it is drawn: for each tablespace a grid of cells (one page each,
// or several when a file is too tall), their colours, and a legend with page counts. The PNG
// and SVG writers and the viewer draw from this one model.
//
// Maps:  extents  B-tree pages as bars of their fill in their index's colour
//        lsn      page age on a perceptual scale (the LSN between the file's oldest and newest
//                 page; on a range shared by all files with shared_scale; the page's rank
//                 by LSN with rank_within_file), never-written and free pages apart
//        types    page type per page
//        index    which index owns each page
// Every panel uses the same pages per row (an extent) and the same pages per cell.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "inspect/colors.h"
#include "inspect/schema.h"
#include "inspect/space_file.h"
#include "inspect/space_map.h"
#include "inspect/thousands.h"
#include "ondisk/status.h"

namespace strata::viz {

using inspect::Rgb;

enum class MapKind { kExtents, kLsn, kTypes, kIndex };
ondisk::Result<MapKind> ParseMapKind(const std::string& name);
std::string ToString(MapKind k);
using inspect::Thousands;  // how every count in a picture is written

struct LegendEntry {
  Rgb color;
  std::string label;
  std::uint64_t pages = 0;
  double percent = 0;
  bool lsn_scale = false;  // its pages take their colour from the LSN scale, not `color`
};

struct Panel {
  std::string title;     // file name
  std::string subtitle;  // size, pages, records, average leaf fill
  std::uint32_t pages = 0;
  std::uint32_t damaged_pages = 0;  // fail their checksum: drawn as damaged, whatever they hold
  std::vector<Rgb> cells;           // row-major, cells_per_row per row
  std::vector<float> bar_height;    // extents map: fraction of the cell filled with its colour
  std::vector<Rgb> bar_background;
  std::vector<LegendEntry> legend;
  std::vector<std::uint64_t> histogram;  // lsn map: written pages per bucket over [lsn_min, lsn_max]
  std::uint64_t lsn_min = 0, lsn_max = 0;
};

struct MapModel {
  MapKind kind = MapKind::kExtents;
  std::string title;
  std::uint32_t pages_per_row = 64;  // pages across one row (an extent at 16 KiB)
  std::uint32_t pages_per_cell = 1;  // > 1 when rows were merged to fit
  std::uint32_t cells_per_row = 64;  // pages_per_row, or fewer when every file is smaller
  std::uint32_t rows = 0;            // of the tallest panel
  bool shared_scale = false;
  bool rank_within_file = false;
  std::vector<Panel> panels;

  std::uint32_t RowsOf(const Panel& p) const {
    return static_cast<std::uint32_t>((p.cells.size() + cells_per_row - 1) / cells_per_row);
  }
};

struct ModelOptions {
  MapKind kind = MapKind::kExtents;
  bool shared_scale = false;
  std::uint32_t max_rows = 1024;  // taller files merge pages into cells
  std::string title;
  // Colour by the page's rank among the file's written pages by LSN (ties share a rank, as
  // `inspect lsn`'s age_rank) instead of by the LSN itself. Rank spreads any file over the
  // whole scale, so the colour no longer reads as an LSN: the colour bar is labelled by rank
  // and the histogram is left uncoloured. By default a file whose pages were all rewritten at
  // the end shows bright all over, as innodb_ruby's LSN-age picture does.
  bool rank_within_file = false;
};

struct MapInput {
  const inspect::SpaceFile* file;
  const inspect::Dictionary* names;  // may be null
};

MapModel BuildModel(const std::vector<MapInput>& inputs, const ModelOptions& options);

}  // namespace strata::viz
