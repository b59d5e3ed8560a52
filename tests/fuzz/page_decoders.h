// Feeds one untrusted page through every ondisk decoder. Shared by the libFuzzer target and
// the corpus replay test, so both exercise the same code.
#pragma once

#include <cstddef>
#include <cstdint>

namespace strata::fuzz {

// Input: one selector byte (bits 0-2: page size 4/8/16/32/64 KiB; bit 3: full_crc32), then
// the page bytes, zero-padded or cut to the page size. Never crashes on any input.
void DecodeEverything(const std::uint8_t* data, std::size_t size);

}  // namespace strata::fuzz
