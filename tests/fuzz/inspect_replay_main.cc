// Runs every inspector analyzer over real files and deterministic mutants of them: bursts of
// random bytes in page headers and bodies, zeroed pages, truncation. A regression test in
// every build, and under ASan/UBSan in CI.
//   inspect_replay FILE_OR_DIR...       (.ibd files; .ibd.gz, .frm.gz, .cfg.gz and ibdata1.gz unpacked first)
#include <zlib.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <vector>

#include "tests/fuzz/inspect_readers.h"

namespace fs = std::filesystem;

namespace {

std::vector<std::uint8_t> Read(const fs::path& path) {
  std::vector<std::uint8_t> bytes;
  if (path.extension() != ".gz") {
    std::ifstream in(path, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    return bytes;
  }
  gzFile gz = gzopen(path.c_str(), "rb");
  if (!gz) return bytes;
  char buf[1 << 16];
  for (int n; (n = gzread(gz, buf, sizeof buf)) > 0;) bytes.insert(bytes.end(), buf, buf + n);
  gzclose(gz);
  return bytes;
}

}  // namespace

int main(int argc, char** argv) {
  std::mt19937 rng(1130);
  std::size_t inputs = 0;
  // Mutants per file: bursts of byte writes, then one zeroed page, then one truncation.
  int mutants = 6;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--mutants") == 0 && i + 1 < argc) {
      mutants = std::max(2, std::atoi(argv[++i]));
      continue;
    }
    std::vector<fs::path> files;
    if (fs::is_directory(argv[i])) {
      for (const auto& e : fs::recursive_directory_iterator(argv[i])) {
        const std::string name = e.path().filename().string();
        if (e.is_regular_file() && (name.ends_with(".ibd") || name.ends_with(".ibd.gz") || name.ends_with(".frm.gz") ||
                                    name.ends_with(".cfg.gz") || name == "ibdata1.gz")) {
          files.push_back(e.path());
        }
      }
    } else {
      files.emplace_back(argv[i]);
    }
    for (const auto& path : files) {
      std::vector<std::uint8_t> bytes = Read(path);
      strata::fuzz::InspectEverything(bytes.data(), bytes.size());
      ++inputs;
      for (int m = 0; m < mutants; ++m, ++inputs) {
        auto mutant = bytes;
        const std::size_t pages = mutant.size() / 16384;
        for (int k = 0; k < 40 && pages; ++k) {
          const std::size_t page = rng() % pages;
          const std::size_t at = page * 16384 + (rng() % 3 ? rng() % 160 : rng() % 16384);
          mutant[at] = static_cast<std::uint8_t>(rng());
        }
        if (m == mutants - 2 && pages) std::fill_n(mutant.begin() + (rng() % pages) * 16384, 16384, 0);
        if (m == mutants - 1) mutant.resize(rng() % (mutant.size() + 1));
        strata::fuzz::InspectEverything(mutant.data(), mutant.size());
      }
    }
  }
  std::printf("inspected %zu files and mutants\n", inputs);
  return inputs > 0 ? 0 : 1;
}
