// The `strata bench` commands: workloads run in-process on a Strata data directory.
#pragma once

#include <vector>

#include "cli/command.h"

namespace strata::cli {

std::vector<Command> BenchCommands();

}  // namespace strata::cli
