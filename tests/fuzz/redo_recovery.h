// Feeds untrusted redo records to recovery (engine::ApplyRedo): the input is one group of
// records, replayed onto a small tablespace of 8 pages in a temporary file. Shared by the
// libFuzzer target and the replay test. Never crashes, never grows the file without bound.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace strata::fuzz {

void ReplayRedo(const std::uint8_t* data, std::size_t size);

// Seeds: groups as the engine logs them (page inits and writes, a growth, a record cut short).
std::vector<std::vector<std::uint8_t>> RedoSeeds();

}  // namespace strata::fuzz
