// The windows of strata-viz, each drawn from AppState once per frame.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <utility>

#include "inspect/compare.h"
#include "viz/app/app_state.h"

namespace strata::viz {

// Leaf pages per tenth of fill as bars over a 0-100% axis, with the counts; `top` is the bar
// height the plot's top stands for (0: the tallest bar), so two plots can share a scale.
void LeafFillHistogram(const std::string& label, const std::array<std::uint64_t, 10>& pages, std::uint64_t top = 0,
                       float width = 220);

// The page maps, side by side on one scale; hover for a page's header, click to open it.
struct MapPanel {
  void Draw(AppState& app);
};

// Per file: flavour, sizes, page types, and a leaf-fill histogram per index.
struct SummaryPanel {
  void Draw(AppState& app, bool* open);
};

// Per index: levels with pages, records and fill; leaf-chain order.
struct BtreePanel {
  void Draw(AppState& app, bool* open);
};

// History list length per rollback segment, when a system tablespace is open.
struct UndoPanel {
  void Draw(AppState& app, bool* open);
};

// Two files of the same rows side by side (strata-viz --compare): their figures index by
// index with B against A, and each shared index's leaf fill in two histograms on one scale.
struct ComparePanel {
  void Draw(AppState& app, bool* open);

 private:
  std::pair<std::size_t, std::size_t> shown_{~std::size_t{0}, 0};
  inspect::SpaceComparison comparison_;  // computed once per pair of files
};

// The selected page: its regions as bands across its bytes, every header field, its records.
struct PagePanel {
  void Draw(AppState& app, bool* open);

 private:
  std::pair<std::size_t, std::uint32_t> shown_{~std::size_t{0}, 0};
  std::string text_;  // decoded once per selection, not every frame
};

}  // namespace strata::viz
