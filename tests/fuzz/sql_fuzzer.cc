// libFuzzer entry point for the SQL text readers (built with -DSTRATA_FUZZ=ON).
#include <cstddef>
#include <cstdint>

#include "tests/fuzz/sql_text.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  strata::fuzz::ReadSqlText(data, size);
  return 0;
}
