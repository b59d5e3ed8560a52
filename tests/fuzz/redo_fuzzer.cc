// libFuzzer entry point for redo replay at recovery (built with -DSTRATA_FUZZ=ON).
#include <cstddef>
#include <cstdint>

#include "tests/fuzz/redo_recovery.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  strata::fuzz::ReplayRedo(data, size);
  return 0;
}
