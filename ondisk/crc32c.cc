#include "ondisk/crc32c.h"

#include <array>
#include <cstring>

#if defined(__x86_64__)
#include <nmmintrin.h>
#endif

namespace strata::ondisk {

namespace {

constexpr std::uint32_t kPoly = 0x82F63B78;

// tables[k][b]: CRC of byte b followed by k zero bytes, for slice-by-8.
constexpr std::array<std::array<std::uint32_t, 256>, 8> MakeTables() {
  std::array<std::array<std::uint32_t, 256>, 8> t{};
  for (std::uint32_t b = 0; b < 256; ++b) {
    std::uint32_t c = b;
    for (int i = 0; i < 8; ++i) c = (c >> 1) ^ ((c & 1) ? kPoly : 0);
    t[0][b] = c;
  }
  for (std::size_t k = 1; k < 8; ++k) {
    for (std::size_t b = 0; b < 256; ++b) t[k][b] = (t[k - 1][b] >> 8) ^ t[0][t[k - 1][b] & 0xFF];
  }
  return t;
}
constexpr auto kTables = MakeTables();

std::uint64_t LoadLe64(const std::byte* p) {
  std::uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | static_cast<std::uint8_t>(p[i]);
  return v;
}

// GF(2) arithmetic modulo the (reflected) polynomial, to join CRCs computed side by side:
// the register after A||B is Shift(register after A, |B|) ^ (register after B from 0).
std::uint32_t MultModP(std::uint32_t a, std::uint32_t b) {
  std::uint32_t m = 1u << 31, product = 0;
  for (;;) {
    if (a & m) {
      product ^= b;
      if ((a & (m - 1)) == 0) break;
    }
    m >>= 1;
    b = (b & 1) ? (b >> 1) ^ kPoly : b >> 1;
  }
  return product;
}

// x^(2^k) mod P for k = 0..31.
std::array<std::uint32_t, 32> MakePowers() {
  std::array<std::uint32_t, 32> t{};
  std::uint32_t p = 1u << 30;  // x^1
  t[0] = p;
  for (int k = 1; k < 32; ++k) t[k] = p = MultModP(p, p);
  return t;
}

// x^(8n) mod P: the operator that appends n zero bytes.
std::uint32_t ZerosOperator(std::size_t n) {
  static const std::array<std::uint32_t, 32> powers = MakePowers();
  std::uint32_t xp = 1u << 31;  // x^0
  for (int k = 3; n; n >>= 1, ++k) {
    if (n & 1) xp = MultModP(powers[k & 31], xp);
  }
  return xp;
}

#if defined(__x86_64__)
__attribute__((target("sse4.2"))) std::uint32_t HardwareSerial(std::uint32_t crc, const std::byte* p, std::size_t n) {
  std::uint64_t c = crc;
  for (; n >= 8; n -= 8, p += 8) {
    std::uint64_t v;
    std::memcpy(&v, p, 8);  // x86 is little-endian, as the instruction expects
    c = _mm_crc32_u64(c, v);
  }
  auto c32 = static_cast<std::uint32_t>(c);
  for (; n > 0; --n, ++p) c32 = _mm_crc32_u8(c32, static_cast<std::uint8_t>(*p));
  return c32;
}

// The crc32 instruction has a latency of three cycles and a throughput of one, so three
// independent lanes run about three times faster than one; the lanes are then joined.
__attribute__((target("sse4.2"))) std::uint32_t HardwareUpdate(std::uint32_t crc, const std::byte* p, std::size_t n) {
  constexpr std::size_t kMinParallel = 3 * 256;
  if (n < kMinParallel) return HardwareSerial(crc, p, n);
  const std::size_t lane = (n / 3) & ~std::size_t{7};
  std::uint64_t c0 = crc, c1 = 0, c2 = 0;
  const std::byte* a = p;
  const std::byte* b = p + lane;
  const std::byte* c = p + 2 * lane;
  for (std::size_t i = 0; i < lane; i += 8) {
    std::uint64_t va, vb, vc;
    std::memcpy(&va, a + i, 8);
    std::memcpy(&vb, b + i, 8);
    std::memcpy(&vc, c + i, 8);
    c0 = _mm_crc32_u64(c0, va);
    c1 = _mm_crc32_u64(c1, vb);
    c2 = _mm_crc32_u64(c2, vc);
  }
  // Pages come in a few fixed sizes: remember the last operator per thread.
  thread_local std::size_t cached_lane = 0;
  thread_local std::uint32_t cached_op = 0;
  if (cached_lane != lane) cached_lane = lane, cached_op = ZerosOperator(lane);
  std::uint32_t r = MultModP(cached_op, static_cast<std::uint32_t>(c0)) ^ static_cast<std::uint32_t>(c1);
  r = MultModP(cached_op, r) ^ static_cast<std::uint32_t>(c2);
  return HardwareSerial(r, p + 3 * lane, n - 3 * lane);
}
#endif

std::uint32_t PortableUpdate(std::uint32_t crc, const std::byte* p, std::size_t n) {
  for (; n >= 8; n -= 8, p += 8) {
    std::uint64_t v = LoadLe64(p) ^ crc;
    crc = kTables[7][v & 0xFF] ^ kTables[6][(v >> 8) & 0xFF] ^ kTables[5][(v >> 16) & 0xFF] ^
          kTables[4][(v >> 24) & 0xFF] ^ kTables[3][(v >> 32) & 0xFF] ^ kTables[2][(v >> 40) & 0xFF] ^
          kTables[1][(v >> 48) & 0xFF] ^ kTables[0][v >> 56];
  }
  for (; n > 0; --n, ++p) crc = (crc >> 8) ^ kTables[0][(crc ^ static_cast<std::uint8_t>(*p)) & 0xFF];
  return crc;
}

bool DetectHardware() {
#if defined(__x86_64__)
  return __builtin_cpu_supports("sse4.2");
#else
  return false;
#endif
}

}  // namespace

bool HasHardwareCrc32c() {
  static const bool hardware = DetectHardware();  // function-local: safe during static init
  return hardware;
}

std::uint32_t Crc32cPortable(std::uint32_t crc, ConstBytes data) {
  return ~PortableUpdate(~crc, data.data(), data.size());
}

std::uint32_t Crc32cHardware(std::uint32_t crc, ConstBytes data) {
#if defined(__x86_64__)
  return ~HardwareUpdate(~crc, data.data(), data.size());
#else
  return Crc32cPortable(crc, data);
#endif
}

std::uint32_t Crc32cExtend(std::uint32_t crc, ConstBytes data) {
  return HasHardwareCrc32c() ? Crc32cHardware(crc, data) : Crc32cPortable(crc, data);
}

std::uint32_t Crc32c(ConstBytes data) { return Crc32cExtend(0, data); }

}  // namespace strata::ondisk
