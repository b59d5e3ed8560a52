// Runs the fuzz target's decoders without libFuzzer, so that they are a regression test in
// every build (and under ASan/UBSan in CI):
//   fuzz_replay INPUT...          each file (or every file under a directory) is one input
//   fuzz_replay --ibd PATH...     every page of every .ibd under PATH, as found and with
//                                 deterministic byte flips and truncations
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "tests/fuzz/page_decoders.h"

namespace fs = std::filesystem;

namespace {

std::vector<std::uint8_t> ReadFile(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::vector<fs::path> Files(const fs::path& p, const std::string& ext) {
  std::vector<fs::path> out;
  if (fs::is_directory(p)) {
    for (const auto& e : fs::recursive_directory_iterator(p)) {
      if (e.is_regular_file() && (ext.empty() || e.path().extension() == ext)) out.push_back(e.path());
    }
  } else if (fs::is_regular_file(p)) {
    out.push_back(p);
  }
  return out;
}

std::size_t inputs = 0;

void Run(const std::vector<std::uint8_t>& input) {
  strata::fuzz::DecodeEverything(input.data(), input.size());
  ++inputs;
}

// Each 16 KiB page, then 8 mutants: a burst of random byte writes (biased to the headers,
// where the pointers live), and a truncation.
void RunPages(const std::vector<std::uint8_t>& file, std::mt19937& rng) {
  constexpr std::size_t kPage = 16384;
  for (std::size_t off = 0; off + kPage <= file.size(); off += kPage) {
    std::vector<std::uint8_t> input(1 + kPage);
    input[0] = 2;  // 16 KiB, normal format
    std::memcpy(input.data() + 1, file.data() + off, kPage);
    Run(input);
    for (int m = 0; m < 8; ++m) {
      std::vector<std::uint8_t> mutant = input;
      const int flips = 1 + static_cast<int>(rng() % 16);
      for (int f = 0; f < flips; ++f) {
        std::size_t at = 1 + (rng() % 2 ? rng() % 200 : rng() % kPage);
        mutant[at] = static_cast<std::uint8_t>(rng());
      }
      if (m == 7) mutant.resize(1 + rng() % kPage);
      Run(mutant);
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  bool ibd = false;
  std::mt19937 rng(20261130);
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--ibd") == 0) {
      ibd = true;
      continue;
    }
    for (const auto& f : Files(argv[i], ibd ? ".ibd" : "")) {
      if (ibd) {
        RunPages(ReadFile(f), rng);
      } else {
        Run(ReadFile(f));
      }
    }
  }
  std::printf("replayed %zu inputs\n", inputs);
  return inputs > 0 ? 0 : 1;  // no input at all means a missing fixture, not a pass
}
