// The `strata` command tree: groups (inspect, render, ...) holding commands. Each command
// parses its own options; this layer only finds it and reports usage errors.
#pragma once

#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

namespace strata::cli {

// Exit codes, the same for every command.
enum ExitCode : int {
  kExitOk = 0,       // did what was asked; for checks: found nothing wrong
  kExitFailure = 1,  // could not finish (unreadable file, ...) or a check found damage
  kExitUsage = 2,    // unknown command or option, missing argument
};

struct Command {
  std::string name;
  std::string summary;
  // Receives the arguments after the command name; returns an ExitCode.
  std::function<int(const std::vector<std::string>& args)> run;
};

struct CommandGroup {
  std::string name;
  std::string summary;
  std::string planned;  // what the group will hold, shown while it has no commands yet
  std::vector<Command> commands;
  // A command of its own (`strata status --datadir D`): gets every argument after the name.
  std::function<int(const std::vector<std::string>& args)> run = nullptr;
};

// Every group, in the order `strata --help` lists them.
const std::vector<CommandGroup>& CommandGroups();

void PrintGroupUsage(std::ostream& out, const CommandGroup& group);

// Runs `strata <group> args...`.
int RunGroup(const CommandGroup& group, const std::vector<std::string>& args);

}  // namespace strata::cli
