// `strata gen`: generated keys and dump files for the key-strategy experiments.
#pragma once

#include <vector>

#include "cli/command.h"

namespace strata::cli {

std::vector<Command> GenCommands();

}  // namespace strata::cli
