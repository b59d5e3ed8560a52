#include "cli/command.h"

#include "cli/bench_command.h"
#include "cli/experiment_command.h"
#include "cli/gen_command.h"
#include "cli/import_command.h"
#include "cli/inspect_command.h"
#include "cli/render_command.h"
#include "cli/sql_command.h"
#include "cli/status_command.h"

#include <algorithm>
#include <iomanip>
#include <iostream>

namespace strata::cli {

const std::vector<CommandGroup>& CommandGroups() {
  static const std::vector<CommandGroup> groups = {
      {"inspect", "read InnoDB tablespaces offline (ours, MySQL 5.7/8.0, MariaDB 10.x)",
       "summary, regions, pages, page N, index, extents, lsn, undo, check, schema", InspectCommands()},
      {"render", "draw extent, LSN, page-type and index maps as PNG or SVG", "extents, lsn, types, index",
       RenderCommands()},
      {"sql", "an interactive SQL shell on a Strata data directory, and a script runner", "", {}, Sql},
      {"import", "load mysqldump files fast, optionally with redo logging disabled", "", {}, Import},
      {"bench", "workloads run in-process on a Strata data directory", "insert, import, hot-row", BenchCommands()},
      {"gen", "generate keys and dump files", "keys, dump", GenCommands()},
      {"status",
       "the transaction system of a data directory (SHOW ENGINE INNODB STATUS's TRANSACTIONS)",
       "",
       {},
       Status},
      {"experiment", "reproducible experiments", "keys (UUID vs ULID vs auto-increment)", ExperimentCommands()},
  };
  return groups;
}

void PrintGroupUsage(std::ostream& out, const CommandGroup& group) {
  out << "Usage: strata " << group.name << " <command> [options]\n\n" << group.summary << "\n\n";
  if (group.commands.empty()) {
    out << "No commands are available in this build yet. Planned: " << group.planned << ".\n";
    return;
  }
  out << "Commands:\n";
  std::size_t width = 10;
  for (const Command& c : group.commands) width = std::max(width, c.name.size() + 2);
  for (const Command& c : group.commands) {
    out << "  " << std::left << std::setw(static_cast<int>(width)) << c.name << c.summary << "\n";
  }
  out << "\nRun 'strata " << group.name << " <command> --help' for a command's options.\n";
}

int RunGroup(const CommandGroup& group, const std::vector<std::string>& args) {
  if (group.run) return group.run(args);
  if (!args.empty() && (args[0] == "--help" || args[0] == "-h" || args[0] == "help")) {
    PrintGroupUsage(std::cout, group);
    return kExitOk;
  }
  if (args.empty()) {
    std::cerr << "strata " << group.name << ": missing command\n";
    PrintGroupUsage(std::cerr, group);
    return kExitUsage;
  }
  for (const Command& c : group.commands) {
    if (c.name == args[0]) return c.run({args.begin() + 1, args.end()});
  }
  std::cerr << "strata " << group.name << ": unknown command '" << args[0] << "'\n";
  PrintGroupUsage(std::cerr, group);
  return kExitUsage;
}

}  // namespace strata::cli
