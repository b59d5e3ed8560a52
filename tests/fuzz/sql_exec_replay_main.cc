// Runs the executing SQL fuzz target's harness without libFuzzer, so that what it checks is a
// regression test in every build and under ASan/UBSan:
//   sql_exec_replay [--mutants N]   the seed scripts, then N chains of SQL-shaped mutations
//                                   of each (deterministic; 150 by default)
//   sql_exec_replay --seeds DIR     write the seed scripts to DIR (tests/fuzz/run.sh's corpus)
//   sql_exec_replay FILE...         run these inputs (a fuzzer's crash file, say)
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <random>
#include <string>

#include "tests/fuzz/sql_exec.h"
#include "tests/fuzz/sql_mutator.h"

namespace {

void Run(const std::string& text) {
  strata::fuzz::RunSqlStatements(reinterpret_cast<const std::uint8_t*>(text.data()), text.size());
}

}  // namespace

int main(int argc, char** argv) {
  using namespace strata::fuzz;
  if (argc == 3 && std::strcmp(argv[1], "--seeds") == 0) {
    for (std::size_t k = 0; k < SqlSeedScripts(); ++k) {
      std::ofstream out(std::string(argv[2]) + "/seed-" + std::to_string(k) + ".sql", std::ios::binary);
      out << SqlSeedScript(k);
    }
    return 0;
  }
  long mutants = 150;
  if (argc == 3 && std::strcmp(argv[1], "--mutants") == 0) {
    mutants = std::atol(argv[2]);
  } else if (argc > 1) {
    for (int a = 1; a < argc; ++a) {
      std::ifstream in(argv[a], std::ios::binary);
      if (!in) {
        std::fprintf(stderr, "sql_exec_replay: cannot read %s\n", argv[a]);
        return 1;
      }
      Run(std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>()));
    }
    std::printf("sql_exec_replay: %d inputs ran, every table checked clean\n", argc - 1);
    return 0;
  }
  std::mt19937_64 rng(20261202);
  std::size_t inputs = 0;
  for (std::size_t k = 0; k < SqlSeedScripts(); ++k) {
    std::string text = SqlSeedScript(k);
    Run(text);
    ++inputs;
    for (long m = 0; m < mutants; ++m) {
      // Each mutant builds on the last (deeper nesting accumulates), restarting now and then.
      if (m % 10 == 0) text = SqlSeedScript(k);
      for (int e = 1 + static_cast<int>(rng() % 3); e > 0; --e) (void)MutateSql(text, rng, 1u << 16);
      Run(text);
      ++inputs;
    }
  }
  std::printf("sql_exec_replay: %zu inputs ran, every table checked clean\n", inputs);
  return 0;
}
