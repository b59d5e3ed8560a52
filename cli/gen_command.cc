#include "cli/gen_command.h"

#include <fmt/format.h>
#include <zlib.h>

#include <boost/program_options.hpp>
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <iostream>

#include "cli/options.h"
#include "cli/progress.h"
#include "datasets/dump_writer.h"
#include "engine/schema.h"

namespace strata::cli {

namespace po = boost::program_options;
using namespace strata::datasets;

namespace {

// A file written plainly, or gzip-compressed when its name ends in ".gz"; "-" is stdout.
class OutputFile {
 public:
  static std::optional<OutputFile> Open(const std::string& path, std::string* error) {
    OutputFile f;
    f.path_ = path;
    if (path == "-") {
      f.plain_ = stdout;
    } else if (path.size() > 3 && path.ends_with(".gz")) {
      f.gz_ = gzopen(path.c_str(), "wb6");
      if (!f.gz_) *error = fmt::format("cannot write {}: {}", path, std::strerror(errno));
    } else {
      f.plain_ = std::fopen(path.c_str(), "wb");
      if (!f.plain_) *error = fmt::format("cannot write {}: {}", path, std::strerror(errno));
    }
    if (!f.gz_ && !f.plain_) return std::nullopt;
    return f;
  }
  OutputFile() = default;
  OutputFile(OutputFile&& o) noexcept : path_(std::move(o.path_)), plain_(o.plain_), gz_(o.gz_) {
    o.plain_ = nullptr, o.gz_ = nullptr;
  }
  ~OutputFile() { (void)Close(); }

  bool Write(std::string_view bytes) {
    if (gz_)
      return bytes.empty() ||
             gzwrite(gz_, bytes.data(), static_cast<unsigned>(bytes.size())) == static_cast<int>(bytes.size());
    return std::fwrite(bytes.data(), 1, bytes.size(), plain_) == bytes.size();
  }
  // False when the data did not all reach the file (a full disk shows here at the latest).
  bool Close() {
    bool ok = true;
    if (gz_) ok = gzclose(gz_) == Z_OK;
    if (plain_) ok = plain_ == stdout ? std::fflush(stdout) == 0 : std::fclose(plain_) == 0;
    gz_ = nullptr;
    plain_ = nullptr;
    return ok;
  }

 private:
  std::string path_;
  std::FILE* plain_ = nullptr;
  gzFile gz_ = nullptr;
};

int GenDump(const std::vector<std::string>& args) {
  po::options_description options("Options");
  options.add_options()("rows", po::value<std::uint64_t>(), "rows to write")(
      "keys", po::value<std::string>(), ("key strategy: " + KeyStrategyNames()).c_str())(
      "shape", po::value<std::string>()->default_value("key-only"),
      "key-only (the key column alone) or sbtest (the key, then sysbench's k, c, pad and KEY k_1)")(
      "table", po::value<std::string>(), "table name (default innodb_<strategy>)")(
      "database", po::value<std::string>()->default_value("test"), "the database named in the header")(
      "seed", po::value<std::uint64_t>()->default_value(1), "seed of the random keys and rows")(
      "net-buffer-length", po::value<std::size_t>()->default_value(DumpOptions{}.net_buffer_length),
      "split INSERTs below this many bytes, as mariadb-dump does (4096 to 16777216, rounded down to a "
      "multiple of 1024 as it rounds them)")("output,o", po::value<std::string>(),
                                             "the file to write (.gz: gzip-compressed; -: stdout)")("help,h",
                                                                                                    "show this help");
  auto usage = [&](std::ostream& out) {
    out << "Usage: strata gen dump --rows N --keys STRATEGY [--shape key-only|sbtest] [--table T] -o FILE[.gz]\n\n"
        << "Writes a generated table as mariadb-dump would dump it, keys in the order the strategy\n"
        << "produces them; load it with `mariadb DB < FILE` or `strata import FILE`.\n\n"
        << options << "\n";
  };
  po::variables_map vm;
  if (auto done = ParseOptions("gen dump", args, options, {}, usage, vm, {"rows", "keys", "output"})) return *done;
  auto fail_usage = [&](const std::string& what) {
    std::cerr << "strata gen dump: " << what << "\n";
    usage(std::cerr);
    return kExitUsage;
  };
  DumpOptions o;
  o.rows = vm["rows"].as<std::uint64_t>();
  const auto keys = ParseKeyStrategy(vm["keys"].as<std::string>());
  if (!keys)
    return fail_usage("unknown key strategy '" + vm["keys"].as<std::string>() + "' (" + KeyStrategyNames() + ")");
  o.keys = *keys;
  const auto shape = ParseTableShape(vm["shape"].as<std::string>());
  if (!shape) return fail_usage("unknown --shape '" + vm["shape"].as<std::string>() + "' (key-only, sbtest)");
  o.shape = *shape;
  if (vm.count("table")) o.table = vm["table"].as<std::string>();
  o.database = vm["database"].as<std::string>();
  // Names the dump's statements can hold and both servers and Strata load: no control
  // characters either, which would break out of the header's comment lines.
  for (const auto& [option, name] : {std::pair{"--table", o.table}, std::pair{"--database", o.database}}) {
    if (name.empty() && std::string_view(option) == "--table") continue;  // the default
    const bool control =
        std::any_of(name.begin(), name.end(), [](char c) { return static_cast<unsigned char>(c) < 0x20; });
    if (!engine::CheckTableOrDatabaseName(name).ok() || !engine::CheckIdentifier(name).ok() || control)
      return fail_usage(std::string(option) + " '" + name +
                        "' cannot name a table or database: it must be 1 to 64 characters of UTF-8 without '/', '\\', "
                        "'.' or control characters, not ending in a space");
  }
  o.seed = vm["seed"].as<std::uint64_t>();
  o.net_buffer_length = vm["net-buffer-length"].as<std::size_t>() / 1024 * 1024;
  if (o.net_buffer_length < 4096 || o.net_buffer_length > 16777216)
    return fail_usage("--net-buffer-length must be from 4096 to 16777216, as mariadb-dump takes it");
  const std::string path = vm["output"].as<std::string>();
  std::string error;
  auto out = OutputFile::Open(path, &error);
  if (!out) {
    std::cerr << "strata gen dump: " << error << "\n";
    return kExitFailure;
  }
  ProgressBar progress("gen dump " + ToString(o.keys), o.rows);
  const bool written = WriteDump(
      o, [&](std::string_view bytes) { return out->Write(bytes); }, [&](std::uint64_t done) { progress.Update(done); });
  progress.Finish();
  if (!written || !out->Close()) {
    std::cerr << "strata gen dump: writing " << path << " failed: " << std::strerror(errno) << "\n";
    return kExitFailure;
  }
  if (path != "-") {
    std::cerr << fmt::format("wrote {} rows of {} keys to {}\n", o.rows, ToString(o.keys), path);
  }
  return kExitOk;
}

int GenKeys(const std::vector<std::string>& args) {
  po::options_description options("Options");
  options.add_options()("keys", po::value<std::string>(), ("key strategy: " + KeyStrategyNames()).c_str())(
      "count,n", po::value<std::uint64_t>()->default_value(10), "keys to print")(
      "seed", po::value<std::uint64_t>()->default_value(1), "seed of the random keys")("help,h", "show this help");
  auto usage = [&](std::ostream& out) {
    out << "Usage: strata gen keys --keys STRATEGY [-n N]\n\n"
        << "Prints keys one per line in the order the strategy produces them (binary keys in hex).\n\n"
        << options << "\n";
  };
  po::variables_map vm;
  if (auto done = ParseOptions("gen keys", args, options, {}, usage, vm, {"keys"})) return *done;
  const auto keys = ParseKeyStrategy(vm["keys"].as<std::string>());
  if (!keys) {
    std::cerr << "strata gen keys: unknown key strategy '" << vm["keys"].as<std::string>() << "' ("
              << KeyStrategyNames() << ")\n";
    return kExitUsage;
  }
  KeyGenerator g(*keys, vm["seed"].as<std::uint64_t>());
  for (std::uint64_t i = 0; i < vm["count"].as<std::uint64_t>(); ++i) {
    std::string k = g.Next();
    if (*keys == KeyStrategy::kAutoinc) k = std::to_string(i + 1);
    if (KeyGenerator::IsBinary(*keys)) k = ToHex(k);
    std::cout << k << "\n";
  }
  return kExitOk;
}

}  // namespace

std::vector<Command> GenCommands() {
  return {{"dump", "write a generated table as a mariadb-dump file (plain or .gz)", GenDump},
          {"keys", "print keys as a strategy produces them", GenKeys}};
}

}  // namespace strata::cli
