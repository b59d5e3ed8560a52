// CRC-32C (Castagnoli): reflected polynomial 0x82F63B78, initial value and final XOR
// 0xFFFFFFFF; Crc32c("123456789") == 0xE3069283.
//
// Uses the SSE4.2 crc32 instruction when the CPU has it (checked once, at run time) and a
// portable slice-by-8 table otherwise; both give identical results.
#pragma once

#include <cstdint>

#include "ondisk/endian.h"

namespace strata::ondisk {

// CRC-32C of `data`.
std::uint32_t Crc32c(ConstBytes data);
// Continues a CRC: Crc32cExtend(Crc32c(a), b) == Crc32c(a ++ b).
std::uint32_t Crc32cExtend(std::uint32_t crc, ConstBytes data);

// The two implementations, exposed so tests can check they agree.
std::uint32_t Crc32cPortable(std::uint32_t crc, ConstBytes data);
std::uint32_t Crc32cHardware(std::uint32_t crc, ConstBytes data);  // requires HasHardwareCrc32c()
bool HasHardwareCrc32c();

}  // namespace strata::ondisk
