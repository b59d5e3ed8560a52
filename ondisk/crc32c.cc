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

#if defined(__x86_64__)
__attribute__((target("sse4.2"))) std::uint32_t HardwareUpdate(std::uint32_t crc, const std::byte* p,
                                                               std::size_t n) {
  std::uint64_t c = crc;
  for (; n >= 8; n -= 8, p += 8) c = _mm_crc32_u64(c, LoadLe64(p));
  auto c32 = static_cast<std::uint32_t>(c);
  for (; n > 0; --n, ++p) c32 = _mm_crc32_u8(c32, static_cast<std::uint8_t>(*p));
  return c32;
}
#endif

std::uint32_t PortableUpdate(std::uint32_t crc, const std::byte* p, std::size_t n) {
  for (; n >= 8; n -= 8, p += 8) {
    std::uint64_t v = LoadLe64(p) ^ crc;
    crc = kTables[7][v & 0xFF] ^ kTables[6][(v >> 8) & 0xFF] ^ kTables[5][(v >> 16) & 0xFF] ^
          kTables[4][(v >> 24) & 0xFF] ^ kTables[3][(v >> 32) & 0xFF] ^
          kTables[2][(v >> 40) & 0xFF] ^ kTables[1][(v >> 48) & 0xFF] ^ kTables[0][v >> 56];
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
