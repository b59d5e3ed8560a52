// Feeds one untrusted page through every ondisk decoder. Shared by the libFuzzer target and
// the corpus replay test, so both exercise the same code.
#pragma once

#include <cstddef>
#include <cstdint>

namespace strata::fuzz {

// Input: one selector byte (bits 0-2: page size 4/8/16/32/64 KiB; bit 3: full_crc32; bit 7:
// a ROW_FORMAT=COMPRESSED page of 1 << (10 + bits 4-6) bytes, at most 16 KiB, unpacked to 16
// KiB), then the page bytes, zero-padded or cut to the page size. Never crashes on any input.
void DecodeEverything(const std::uint8_t* data, std::size_t size);

}  // namespace strata::fuzz
