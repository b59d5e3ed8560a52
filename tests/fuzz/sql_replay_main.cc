// Runs the SQL text readers over real scripts and dumps, as they are and with deterministic
// byte flips, insertions and truncations, without libFuzzer: a regression test in every
// build (and under ASan/UBSan in CI).
//   sql_replay FILE...
#include <cstdio>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "tests/fuzz/sql_text.h"

int main(int argc, char** argv) {
  std::mt19937 rng(20261130);
  std::size_t inputs = 0;
  for (int a = 1; a < argc; ++a) {
    std::ifstream in(argv[a], std::ios::binary);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (text.empty()) {
      std::fprintf(stderr, "sql_replay: %s is empty or unreadable\n", argv[a]);
      return 1;
    }
    static constexpr char kBytes[] = "'\"`\\;()/*!-#\n\x00,0xX_";
    for (int m = 0; m < 300; ++m) {
      std::vector<std::uint8_t> input(1, static_cast<std::uint8_t>(m));
      std::string t = text;
      if (m > 0) {
        const int edits = 1 + static_cast<int>(rng() % 8);
        for (int e = 0; e < edits && !t.empty(); ++e) {
          const std::size_t at = rng() % t.size();
          switch (rng() % 3) {
            case 0:
              t[at] = kBytes[rng() % (sizeof kBytes - 1)];
              break;
            case 1:
              t.insert(at, 1, kBytes[rng() % (sizeof kBytes - 1)]);
              break;
            default:
              t.resize(at);
              break;
          }
        }
      }
      input.insert(input.end(), t.begin(), t.end());
      strata::fuzz::ReadSqlText(input.data(), input.size());
      ++inputs;
    }
  }
  std::printf("sql_replay: %zu inputs read\n", inputs);
  return 0;
}
