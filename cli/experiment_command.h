// `strata experiment ...`: reproducible experiments run as a user would run them.
#pragma once

#include <vector>

#include "cli/command.h"

namespace strata::cli {

std::vector<Command> ExperimentCommands();

}  // namespace strata::cli
