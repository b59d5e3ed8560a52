// Runs every inspector analyzer over one whole untrusted file. Shared by the libFuzzer target
// and the replay test, like page_decoders.h for single pages.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>

namespace strata::fuzz {

// Writes `data` to a memory-backed file and inspects it with every command's analyzer.
void InspectEverything(const std::uint8_t* data, std::size_t size);

// The same for a file on disk.
void InspectFile(const std::filesystem::path& path);

}  // namespace strata::fuzz
