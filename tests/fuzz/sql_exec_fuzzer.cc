// libFuzzer entry point that runs SQL statements (built with -DSTRATA_FUZZ=ON). Three
// mutations in four are SQL-shaped (tests/fuzz/sql_mutator.h), the rest libFuzzer's own bytes.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>

#include "tests/fuzz/sql_exec.h"
#include "tests/fuzz/sql_mutator.h"

extern "C" std::size_t LLVMFuzzerMutate(std::uint8_t* data, std::size_t size, std::size_t max_size);

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  strata::fuzz::RunSqlStatements(data, size);
  return 0;
}

extern "C" std::size_t LLVMFuzzerCustomMutator(std::uint8_t* data, std::size_t size, std::size_t max_size,
                                               unsigned int seed) {
  std::mt19937_64 rng(seed);
  if (rng() % 4 != 0) {
    std::string text(reinterpret_cast<const char*>(data), size);
    if (strata::fuzz::MutateSql(text, rng, max_size)) {
      std::memcpy(data, text.data(), text.size());
      return text.size();
    }
  }
  return LLVMFuzzerMutate(data, size, max_size);
}
