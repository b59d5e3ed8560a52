// libFuzzer entry point for the inspector's readers over whole files (STRATA_FUZZ=ON).
#include <cstddef>
#include <cstdint>

#include "tests/fuzz/inspect_readers.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  strata::fuzz::InspectEverything(data, size);
  return 0;
}
