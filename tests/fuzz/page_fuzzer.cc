// libFuzzer entry point for the page and record decoders (built with -DSTRATA_FUZZ=ON).
#include <cstddef>
#include <cstdint>

#include "tests/fuzz/page_decoders.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  strata::fuzz::DecodeEverything(data, size);
  return 0;
}
