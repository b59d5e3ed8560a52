#include "cli/options.h"

#include <iostream>

#include "cli/command.h"

namespace po = boost::program_options;

namespace strata::cli {

std::optional<int> ParseOptions(const std::string& command, const std::vector<std::string>& args,
                                const po::options_description& options,
                                const po::positional_options_description& positional,
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

std::optional<std::size_t> ParseSize(const std::string& text) {
  std::size_t end = 0;
  unsigned long long v = 0;
  try {
    v = std::stoull(text, &end);
  } catch (const std::exception&) {
    return std::nullopt;
  }
  const std::string unit = text.substr(end);
  if (unit.empty()) return v;
  if (unit == "K" || unit == "k") return v << 10;
  if (unit == "M" || unit == "m") return v << 20;
  if (unit == "G" || unit == "g") return v << 30;
  return std::nullopt;
}

std::unique_ptr<engine::Database> OpenDataDirectory(const std::string& command, const po::variables_map& vm,
                                                    engine::DatabaseOptions options, int& exit_code) {
  const int level = vm["force-recovery"].as<int>();
  if (level < 0 || level > 6) {
    std::cerr << "strata " << command << ": --force-recovery takes a level from 0 to 6, not " << level << "\n";
    exit_code = kExitUsage;
    return nullptr;
  }
  options.force_recovery = level;
  auto db = engine::Database::Open(vm["datadir"].as<std::string>(), options);
  if (!db.ok()) {
    std::cerr << "strata " << command << ": " << db.status().ToString() << "\n";
    exit_code = kExitFailure;
    return nullptr;
  }
  return std::move(*db);
}

}  // namespace strata::cli
