// The windows of strata-viz, each drawn from AppState once per frame.
#pragma once

#include "viz/app/app_state.h"

namespace strata::viz {

void DrawMapWindow(AppState& app);      // the page maps, side by side; hover and click
void DrawSummaryPanel(AppState& app, bool* open);
void DrawBtreePanel(AppState& app, bool* open);
void DrawUndoPanel(AppState& app, bool* open);
void DrawPagePanel(AppState& app, bool* open);

}  // namespace strata::viz
