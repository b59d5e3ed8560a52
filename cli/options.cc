#include "cli/options.h"

#include <iostream>

#include "cli/command.h"

namespace po = boost::program_options;

namespace strata::cli {

std::optional<int> ParseOptions(const std::string& command, const std::vector<std::string>& args,
                                const po::options_description& options, const po::positional_options_description& positional,
                                const std::function<void(std::ostream&)>& usage, po::variables_map& vm,
                                const std::vector<std::string>& required) {
  auto fail = [&](const std::string& what) {
    std::cerr << "strata " << command << ": " << what << "\n";
    usage(std::cerr);
    return kExitUsage;
  };
  try {
    po::store(po::command_line_parser(args).options(options).positional(positional).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    return fail(e.what());
  }
  if (vm.count("help")) {
    usage(std::cout);
    return kExitOk;
  }
  for (const auto& name : required) {
    if (!vm.count(name)) return fail("missing --" + name);
  }
  return std::nullopt;
}

}  // namespace strata::cli
