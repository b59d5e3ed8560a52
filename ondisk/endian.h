// Big-endian load/store helpers over byte spans.
//
// InnoDB stores every integer in headers, lists and records big-endian and unaligned, so
// page views never overlay structs: they read and write fields through these helpers at
// named offsets. The helpers assert the access lies inside the span; callers that handle
// untrusted offsets check them first (see Bytes::Fits) and return Corruption instead.
#pragma once

#include <cassert>
#include <cstddef>
#include <cstdint>
#include <span>

namespace strata::ondisk {

using ConstBytes = std::span<const std::byte>;
using MutableBytes = std::span<std::byte>;

// True when [offset, offset + size) lies inside a buffer of `length` bytes, without overflow.
constexpr bool Fits(std::size_t length, std::size_t offset, std::size_t size) {
  return offset <= length && size <= length - offset;
}

// Reads an N-byte (1..8) unsigned big-endian integer.
inline std::uint64_t LoadBe(ConstBytes b, std::size_t offset, std::size_t n) {
  assert(n >= 1 && n <= 8 && Fits(b.size(), offset, n));
  std::uint64_t v = 0;
  for (std::size_t i = 0; i < n; ++i) v = (v << 8) | static_cast<std::uint8_t>(b[offset + i]);
  return v;
}
inline std::uint8_t Load8(ConstBytes b, std::size_t o) { return static_cast<std::uint8_t>(LoadBe(b, o, 1)); }
inline std::uint16_t Load16(ConstBytes b, std::size_t o) { return static_cast<std::uint16_t>(LoadBe(b, o, 2)); }
inline std::uint32_t Load24(ConstBytes b, std::size_t o) { return static_cast<std::uint32_t>(LoadBe(b, o, 3)); }
inline std::uint32_t Load32(ConstBytes b, std::size_t o) { return static_cast<std::uint32_t>(LoadBe(b, o, 4)); }
inline std::uint64_t Load48(ConstBytes b, std::size_t o) { return LoadBe(b, o, 6); }
inline std::uint64_t Load56(ConstBytes b, std::size_t o) { return LoadBe(b, o, 7); }
inline std::uint64_t Load64(ConstBytes b, std::size_t o) { return LoadBe(b, o, 8); }

// Writes the low N bytes (1..8) of `v` big-endian. Asserts that `v` fits in N bytes.
inline void StoreBe(MutableBytes b, std::size_t offset, std::size_t n, std::uint64_t v) {
  assert(n >= 1 && n <= 8 && Fits(b.size(), offset, n));
  assert(n == 8 || (v >> (8 * n)) == 0);
  for (std::size_t i = n; i-- > 0;) {
    b[offset + i] = static_cast<std::byte>(v & 0xFF);
    v >>= 8;
  }
}
inline void Store8(MutableBytes b, std::size_t o, std::uint8_t v) { StoreBe(b, o, 1, v); }
inline void Store16(MutableBytes b, std::size_t o, std::uint16_t v) { StoreBe(b, o, 2, v); }
inline void Store24(MutableBytes b, std::size_t o, std::uint32_t v) { StoreBe(b, o, 3, v); }
inline void Store32(MutableBytes b, std::size_t o, std::uint32_t v) { StoreBe(b, o, 4, v); }
inline void Store48(MutableBytes b, std::size_t o, std::uint64_t v) { StoreBe(b, o, 6, v); }
inline void Store56(MutableBytes b, std::size_t o, std::uint64_t v) { StoreBe(b, o, 7, v); }
inline void Store64(MutableBytes b, std::size_t o, std::uint64_t v) { StoreBe(b, o, 8, v); }

// Little-endian 32-bit load, for the few fields InnoDB stores that way (FLOAT/DOUBLE values).
inline std::uint32_t LoadLe32(ConstBytes b, std::size_t o) {
  assert(Fits(b.size(), o, 4));
  std::uint32_t v = 0;
  for (std::size_t i = 4; i-- > 0;) v = (v << 8) | static_cast<std::uint8_t>(b[o + i]);
  return v;
}

// Views of raw characters, for tests and text fields.
inline ConstBytes AsBytes(const void* p, std::size_t n) { return {static_cast<const std::byte*>(p), n}; }

}  // namespace strata::ondisk
