// The `strata render` commands: maps of tablespaces as PNG or SVG images.
#pragma once

#include <vector>

#include "cli/command.h"

namespace strata::cli {

std::vector<Command> RenderCommands();

}  // namespace strata::cli
