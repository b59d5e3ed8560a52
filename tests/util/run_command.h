// Running a program as a user would, for tests of the `strata` binary.
#pragma once

#include <string>

namespace strata::testing {

struct CommandResult {
  int exit_code = -1;
  std::string out;  // stdout
  std::string err;  // stderr
};

// Runs `command` through the shell and collects both streams and the exit code.
CommandResult RunCommand(const std::string& command);

#ifdef STRATA_BINARY
// Runs the `strata` binary this build made with `args` (tests that link it define STRATA_BINARY).
inline CommandResult Strata(const std::string& args) { return RunCommand(std::string(STRATA_BINARY) + " " + args); }
#endif

}  // namespace strata::testing
