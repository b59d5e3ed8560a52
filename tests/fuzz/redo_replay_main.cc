// Runs the redo fuzz target's harness without libFuzzer: the seeds, then deterministic
// mutants of them (random bytes written over, cut short, records repeated), so that recovery's
// handling of damaged records is a regression test in every build and under ASan/UBSan.
//   redo_replay                  replay
//   redo_replay --seeds DIR      write the seeds to DIR (tests/fuzz/run.sh's corpus) instead
#include <cstdio>
#include <cstring>
#include <fstream>
#include <random>
#include <string>

#include "tests/fuzz/redo_recovery.h"

int main(int argc, char** argv) {
  if (argc == 3 && std::strcmp(argv[1], "--seeds") == 0) {
    int n = 0;
    for (const auto& seed : strata::fuzz::RedoSeeds()) {
      std::ofstream out(std::string(argv[2]) + "/seed-" + std::to_string(n++), std::ios::binary);
      out.write(reinterpret_cast<const char*>(seed.data()), static_cast<std::streamsize>(seed.size()));
    }
    return 0;
  }
  std::mt19937 rng(19);
  std::size_t inputs = 0;
  for (const auto& seed : strata::fuzz::RedoSeeds()) {
    strata::fuzz::ReplayRedo(seed.data(), seed.size());
    ++inputs;
    for (int m = 0; m < 300; ++m) {
      std::vector<std::uint8_t> mutant = seed;
      switch (m % 3) {
        case 0:
          for (int f = 1 + static_cast<int>(rng() % 6); f > 0; --f)
            mutant[rng() % mutant.size()] = static_cast<std::uint8_t>(rng());
          break;
        case 1:
          mutant.resize(rng() % (mutant.size() + 1));
          break;
        default:
          mutant.insert(mutant.end(), seed.begin(), seed.end());
          mutant[rng() % mutant.size()] ^= static_cast<std::uint8_t>(1u << (rng() % 8));
      }
      strata::fuzz::ReplayRedo(mutant.data(), mutant.size());
      ++inputs;
    }
  }
  std::printf("redo_replay: %zu inputs replayed\n", inputs);
  return 0;
}
