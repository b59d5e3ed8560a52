// The `strata inspect` commands: option parsing and output only; the work is in inspect/.
#pragma once

#include <vector>

#include "cli/command.h"

namespace strata::cli {

std::vector<Command> InspectCommands();

}  // namespace strata::cli
