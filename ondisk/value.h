// Column values in InnoDB's memcmp-able forms (innodb-format.md §9.3), for the fixed-width
// types a reader needs most. Integers are big-endian; signed ones have the sign bit flipped
// so that unsigned byte comparison orders them: 0 -> 0x80.., -1 -> 0x7F.., 1 -> 0x80..01.
#pragma once

#include <cassert>
#include <cstdint>
#include <string>
#include <vector>

#include "ondisk/endian.h"
#include "ondisk/status.h"

namespace strata::ondisk {

// Field lengths come from disk (REDUNDANT records store them): anything but 1..8 bytes is
// Corruption rather than an assertion.
inline Status CheckIntegerWidth(ConstBytes v) {
  if (v.empty() || v.size() > 8) {
    return Status::Corruption("integer field of " + std::to_string(v.size()) + " bytes (expected 1 to 8)");
  }
  return Status::Ok();
}

inline Result<std::uint64_t> DecodeUnsigned(ConstBytes v) {
  STRATA_RETURN_IF_ERROR(CheckIntegerWidth(v));
  return LoadBe(v, 0, v.size());
}

inline Result<std::int64_t> DecodeSigned(ConstBytes v) {
  STRATA_RETURN_IF_ERROR(CheckIntegerWidth(v));
  const unsigned bits = static_cast<unsigned>(8 * v.size());
  std::uint64_t u = LoadBe(v, 0, v.size()) ^ (std::uint64_t{1} << (bits - 1));
  if (bits < 64 && (u >> (bits - 1)) & 1) u |= ~std::uint64_t{0} << bits;  // sign-extend
  return static_cast<std::int64_t>(u);  // converts through Result's implicit constructor
}

// `width` bytes (1..8); asserts the value fits.
inline std::vector<std::byte> EncodeSigned(std::int64_t v, std::size_t width) {
  assert(width >= 1 && width <= 8);
  const unsigned bits = static_cast<unsigned>(8 * width);
  assert(bits == 64 || (v >= -(std::int64_t{1} << (bits - 1)) && v < (std::int64_t{1} << (bits - 1))));
  std::uint64_t u = static_cast<std::uint64_t>(v) ^ (std::uint64_t{1} << (bits - 1));
  if (bits < 64) u &= (std::uint64_t{1} << bits) - 1;
  std::vector<std::byte> out(width);
  StoreBe(out, 0, width, u);
  return out;
}

inline std::vector<std::byte> EncodeUnsigned(std::uint64_t v, std::size_t width) {
  std::vector<std::byte> out(width);
  StoreBe(out, 0, width, v);
  return out;
}

}  // namespace strata::ondisk
