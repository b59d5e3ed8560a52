#include "cli/options.h"

#include <cctype>
#include <charconv>
#include <iostream>
#include <limits>

#include "cli/command.h"

namespace po = boost::program_options;

namespace strata::cli {

namespace {

template <typename T>
bool Holds(const po::value_semantic* semantic) {
  return dynamic_cast<const po::typed_value<T>*>(semantic) != nullptr;
}

// Boost converts "-5" for an unsigned option by wrapping it round to a huge number (18446744073709551611
// rows, threads or MiB); such a value is refused by name instead.
std::optional<std::string> NegativeUnsignedValue(const po::parsed_options& parsed) {
  for (const po::option& o : parsed.options) {
    if (o.string_key.empty() || o.value.empty()) continue;
    const po::option_description* d = parsed.description->find_nothrow(o.string_key, false);
    if (!d) continue;
    const po::value_semantic* v = d->semantic().get();
    if (!Holds<unsigned>(v) && !Holds<unsigned long>(v) && !Holds<unsigned long long>(v)) continue;
    for (const std::string& token : o.value) {
      const auto first = token.find_first_not_of(" \t");
      if (first != std::string::npos && token[first] == '-') {
        return "the argument ('" + token + "') for option '--" + o.string_key + "' is invalid: it cannot be negative";
      }
    }
  }
  return std::nullopt;
}

}  // namespace

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
    po::parsed_options parsed = po::command_line_parser(args).options(options).positional(positional).run();
    if (auto negative = NegativeUnsignedValue(parsed)) return fail(*negative);
    po::store(parsed, vm);
    po::notify(vm);
  } catch (const po::error& e) {
    return fail(e.what());
  }
  if (vm.count("help")) {
    usage(std::cout);
    return kExitOk;
  }
  for (const auto& name : required) {
    if (vm.count(name)) continue;
    const bool is_positional = positional.max_total_count() > 0 && positional.name_for_position(0) == name;
    std::string upper = name;
    for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return fail(is_positional ? "missing " + upper : "missing --" + name);
  }
  return std::nullopt;
}

std::optional<std::uint32_t> ParseUint32(const std::string& text) {
  std::uint32_t v = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return v;
}

std::optional<std::size_t> ParseSize(const std::string& text) {
  if (text.empty() || !std::isdigit(static_cast<unsigned char>(text[0]))) return std::nullopt;  // stoull takes "-1"
  std::size_t end = 0;
  unsigned long long v = 0;
  try {
    v = std::stoull(text, &end);
  } catch (const std::exception&) {
    return std::nullopt;
  }
  const std::string unit = text.substr(end);
  if (unit.empty()) return v;
  int shift = 0;
  if (unit == "K" || unit == "k")
    shift = 10;
  else if (unit == "M" || unit == "m")
    shift = 20;
  else if (unit == "G" || unit == "g")
    shift = 30;
  else
    return std::nullopt;
  if (v > (std::numeric_limits<std::size_t>::max() >> shift)) return std::nullopt;
  return v << shift;
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
  options.read_only = vm.count("read-only") > 0;
  if (vm.count("buffer-pool")) {
    // In MiB, as --buffer-pool of sql and import takes it; the engine's smallest pool is 16 pages.
    const std::size_t mib = vm["buffer-pool"].as<std::size_t>();
    if (mib == 0 || mib > (std::numeric_limits<std::size_t>::max() >> 20)) {
      std::cerr << "strata " << command << ": --buffer-pool takes a size in MiB from 1, not " << mib << "\n";
      exit_code = kExitUsage;
      return nullptr;
    }
    options.buffer_pool_bytes = mib << 20;
  }
  if (vm.count("open-files")) {
    options.open_files = vm["open-files"].as<std::size_t>();
    if (options.open_files == 0) {
      std::cerr << "strata " << command << ": --open-files takes a count from 1\n";
      exit_code = kExitUsage;
      return nullptr;
    }
  }
  auto db = engine::Database::Open(vm["datadir"].as<std::string>(), options);
  if (!db.ok()) {
    std::cerr << "strata " << command << ": " << db.status().ToString() << "\n";
    const bool has_read_only = command == "sql" || command == "status";  // the commands that only read
    if (has_read_only && !options.read_only && options.force_recovery < 6 &&
        db.status().message().find("Read-only file system") != std::string::npos)
      std::cerr << "strata " << command
                << ": the directory is on a read-only file system: --read-only opens it without writing\n";
    exit_code = kExitFailure;
    return nullptr;
  }
  // The rest opened; these are refused by name until their files are restored (or dropped).
  for (const std::string& table : (*db)->recovery().unavailable_tables)
    std::cerr << "strata " << command << ": warning: " << table << "\n";
  return std::move(*db);
}

}  // namespace strata::cli
