#include "ondisk/mach.h"

#include <string>

namespace strata::ondisk {

namespace {
Status Truncated(std::size_t at, std::size_t need, std::size_t have) {
  return Status::CorruptionAt(
      at, "compressed number needs " + std::to_string(need) + " bytes, " + std::to_string(have) + " remain");
}
}  // namespace

std::size_t Compressed32Size(std::uint32_t v) {
  return v < 0x80 ? 1 : v < 0x4000 ? 2 : v < 0x200000 ? 3 : v < 0x10000000 ? 4 : 5;
}

Result<Decoded64> ReadCompressed32(ConstBytes b, std::size_t at) {
  if (at >= b.size()) return Truncated(at, 1, 0);
  const std::uint8_t first = Load8(b, at);
  std::size_t n;
  std::uint64_t mask;
  if (first < 0x80) {
    n = 1, mask = 0x7F;
  } else if (first < 0xC0) {
    n = 2, mask = 0x3FFF;
  } else if (first < 0xE0) {
    n = 3, mask = 0x1FFFFF;
  } else if (first < 0xF0) {
    n = 4, mask = 0xFFFFFFF;
  } else if (first == 0xF0) {
    if (!Fits(b.size(), at + 1, 4)) return Truncated(at, 5, b.size() - at);
    return Decoded64{Load32(b, at + 1), 5};
  } else if (first >= 0xF8) {
    // MySQL 8.0.19+: numbers just below 2^32 (the undo and system space ids) kept short.
    const std::size_t m = first < 0xFC ? 2 : first < 0xFE ? 3 : first == 0xFE ? 4 : 0;
    if (m == 0) return Status::CorruptionAt(at, "compressed number starts with impossible byte 255");
    if (!Fits(b.size(), at, m)) return Truncated(at, m, b.size() - at);
    const std::uint64_t high = m == 2 ? 0xFFFFFC00 : m == 3 ? 0xFFFE0000 : 0xFF000000;
    const std::uint64_t low = LoadBe(b, at, m) & (m == 2 ? 0x3FF : m == 3 ? 0x1FFFF : 0xFFFFFF);
    return Decoded64{high | low, m};
  } else {
    return Status::CorruptionAt(at, "compressed number starts with impossible byte " + std::to_string(first));
  }
  if (!Fits(b.size(), at, n)) return Truncated(at, n, b.size() - at);
  return Decoded64{LoadBe(b, at, n) & mask, n};
}

Result<Decoded64> ReadMuchCompressed64(ConstBytes b, std::size_t at) {
  if (at >= b.size()) return Truncated(at, 1, 0);
  if (Load8(b, at) != 0xFF) return ReadCompressed32(b, at);
  auto high = ReadCompressed32(b, at + 1);
  if (!high.ok()) return high.status();
  auto low = ReadCompressed32(b, at + 1 + high->size);
  if (!low.ok()) return low.status();
  return Decoded64{(high->value << 32) | low->value, 1 + high->size + low->size};
}

Result<Decoded64> ReadCompressed64(ConstBytes b, std::size_t at) {
  auto high = ReadCompressed32(b, at);
  if (!high.ok()) return high.status();
  if (!Fits(b.size(), at + high->size, 4)) return Truncated(at, high->size + 4, b.size() - at);
  return Decoded64{(high->value << 32) | Load32(b, at + high->size), high->size + 4};
}

void WriteCompressed32(std::vector<std::byte>& out, std::uint32_t v) {
  const std::size_t n = Compressed32Size(v);
  static constexpr std::uint32_t kMarks[] = {0, 0, 0x8000, 0xC00000, 0xE0000000};
  const std::size_t at = out.size();
  if (n == 5) {
    out.resize(at + 5);
    Store8(out, at, 0xF0);
    Store32(out, at + 1, v);
    return;
  }
  out.resize(at + n);
  StoreBe(out, at, n, v | kMarks[n]);
}

void WriteMuchCompressed64(std::vector<std::byte>& out, std::uint64_t v) {
  if ((v >> 32) == 0) return WriteCompressed32(out, static_cast<std::uint32_t>(v));
  out.push_back(std::byte{0xFF});
  WriteCompressed32(out, static_cast<std::uint32_t>(v >> 32));
  WriteCompressed32(out, static_cast<std::uint32_t>(v));
}

void WriteCompressed64(std::vector<std::byte>& out, std::uint64_t v) {
  WriteCompressed32(out, static_cast<std::uint32_t>(v >> 32));
  const std::size_t at = out.size();
  out.resize(at + 4);
  Store32(out, at, static_cast<std::uint32_t>(v));
}

}  // namespace strata::ondisk
