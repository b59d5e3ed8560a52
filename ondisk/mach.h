// InnoDB's variable-length integer encodings (innodb-format.md §0.2), used by undo records
// and redo records.
//
//   32-bit "compressed" (1-5 bytes)          value range
//     0nnnnnnn                               < 0x80
//     10nnnnnn nnnnnnnn                      < 0x4000
//     110nnnnn nnnnnnnn nnnnnnnn             < 0x200000
//     1110nnnn + 3 bytes                     < 0x10000000
//     11110000 + 4 bytes                     otherwise
//   MySQL 8.0.19+ also reads three short forms for numbers close to 2^32:
//     111110nn + 1 byte   0xFFFFFC00 | 10 bits   111111 0n + 2 bytes   0xFFFE0000 | 17 bits
//     11111110 + 3 bytes  0xFF000000 | 24 bits
//   64-bit "much compressed": high half 0 -> the 32-bit form of the low half; otherwise
//     0xFF, high half (32-bit form), low half (32-bit form).
//   64-bit "compressed": high half in the 32-bit form, then the low half as 4 plain bytes.
#pragma once

#include <cstdint>
#include <vector>

#include "ondisk/endian.h"
#include "ondisk/status.h"

namespace strata::ondisk {

// A decoded number and how many bytes it took.
struct Decoded64 {
  std::uint64_t value;
  std::size_t size;
};

// Each decoder reads at `at` and returns Corruption (naming the offset) when the encoding
// runs past the end of `b` or uses an impossible first byte.
Result<Decoded64> ReadCompressed32(ConstBytes b, std::size_t at);
Result<Decoded64> ReadMuchCompressed64(ConstBytes b, std::size_t at);
Result<Decoded64> ReadCompressed64(ConstBytes b, std::size_t at);

// Encoders append to `out`.
void WriteCompressed32(std::vector<std::byte>& out, std::uint32_t v);
void WriteMuchCompressed64(std::vector<std::byte>& out, std::uint64_t v);
void WriteCompressed64(std::vector<std::byte>& out, std::uint64_t v);

std::size_t Compressed32Size(std::uint32_t v);

}  // namespace strata::ondisk
