// The windows of strata-viz, each drawn from AppState once per frame.
#pragma once

#include <string>
#include <utility>

#include "viz/app/app_state.h"

namespace strata::viz {

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

// The selected page: its regions as bands across its bytes, every header field, its records.
struct PagePanel {
  void Draw(AppState& app, bool* open);

 private:
  std::pair<std::size_t, std::uint32_t> shown_{~std::size_t{0}, 0};
  std::string text_;  // decoded once per selection, not every frame
};

}  // namespace strata::viz
