// strata: the command-line front end. Parses global options, then hands the rest of the
// command line to the named group.
#include <boost/program_options.hpp>

#include <iomanip>
#include <iostream>
#include <string>
#include <vector>

#include "cli/command.h"

namespace po = boost::program_options;
using strata::cli::CommandGroups;

namespace {

void PrintUsage(std::ostream& out, const po::options_description& global) {
  out << "Usage: strata [--help] [--version] <group> <command> [options] [PATH...]\n\n"
         "Strata shows how an InnoDB-style storage engine lays data out on disk.\n\n"
         "Groups:\n";
  for (const auto& g : CommandGroups()) {
    out << "  " << std::left << std::setw(12) << g.name << g.summary << "\n";
  }
  out << "\n"
      << global << "\n"
      << "Exit codes: 0 success, 1 failure or damage found, 2 usage error.\n"
         "Run 'strata <group> --help' for a group's commands.\n";
}

}  // namespace

int main(int argc, char** argv) {
  po::options_description global("Options");
  global.add_options()("help,h", "show this help and exit")("version", "show the version and exit");

  // Global options come before the group name; everything after it belongs to the group.
  int first = 1;
  while (first < argc && argv[first][0] == '-') ++first;
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(first, argv).options(global).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    std::cerr << "strata: " << e.what() << "\n";
    PrintUsage(std::cerr, global);
    return strata::cli::kExitUsage;
  }
  if (vm.count("help")) {
    PrintUsage(std::cout, global);
    return strata::cli::kExitOk;
  }
  if (vm.count("version")) {
    std::cout << "strata " << STRATA_VERSION << "\n";
    return strata::cli::kExitOk;
  }
  if (first >= argc) {
    std::cerr << "strata: missing command group\n";
    PrintUsage(std::cerr, global);
    return strata::cli::kExitUsage;
  }
  const std::string name = argv[first];
  for (const auto& g : CommandGroups()) {
    if (g.name == name) return strata::cli::RunGroup(g, {argv + first + 1, argv + argc});
  }
  std::cerr << "strata: unknown command '" << name << "'\n";
  PrintUsage(std::cerr, global);
  return strata::cli::kExitUsage;
}
