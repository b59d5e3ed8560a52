#include "engine/uuid_inet.h"

#include <arpa/inet.h>

#include <array>

#include "ondisk/column_format.h"

namespace strata::engine {

namespace {

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// A UUID's 16 bytes in text order to the order MariaDB stores them in (and back: the same
// permutation read the other way).
constexpr int kStoredFrom[16] = {10, 11, 12, 13, 14, 15, 8, 9, 6, 7, 4, 5, 0, 1, 2, 3};

bool TimeOrdered(const std::string& text_order) {
  const auto variant = static_cast<unsigned char>(text_order[8]), version = static_cast<unsigned char>(text_order[6]);
  return (variant & 0xC0) == 0x80 && (version >> 4) >= 1 && (version >> 4) <= 5;
}

std::string Stored(const std::string& text_order) {
  if (!TimeOrdered(text_order)) return text_order;
  std::string out(16, '\0');
  for (std::size_t i = 0; i < 16; ++i) out[i] = text_order[static_cast<std::size_t>(kStoredFrom[i])];
  return out;
}

std::optional<std::string> Text(ColumnType type, const std::string& stored) {
  ondisk::ColumnFormat f;
  f.type = type == ColumnType::kUuid    ? ondisk::ColumnType::kUuid
           : type == ColumnType::kInet4 ? ondisk::ColumnType::kInet4
                                        : ondisk::ColumnType::kInet6;
  auto text = ondisk::ColumnText(f, ondisk::AsBytes(stored.data(), stored.size()));
  if (!text.ok()) return std::nullopt;
  return *text;
}

}  // namespace

std::optional<std::string> UuidBytes(std::string_view text) {
  if (text.empty() || text.front() == '-' || text.back() == '-') return std::nullopt;
  std::string digits;
  for (char c : text) {
    if (c == '-') continue;  // anywhere between the ends, as MariaDB reads them
    if (HexValue(c) < 0 || digits.size() == 32) return std::nullopt;
    digits.push_back(c);
  }
  if (digits.size() != 32) return std::nullopt;
  std::string bytes;
  for (std::size_t i = 0; i < 32; i += 2)
    bytes.push_back(static_cast<char>(HexValue(digits[i]) << 4 | HexValue(digits[i + 1])));
  return Stored(bytes);
}

std::optional<std::string> Inet4Bytes(std::string_view text) {
  std::string bytes;
  for (std::size_t i = 0; bytes.size() < 4; ++i) {
    std::size_t digits = 0;
    unsigned value = 0;
    for (; i < text.size() && text[i] >= '0' && text[i] <= '9' && digits < 3; ++i, ++digits)
      value = value * 10 + static_cast<unsigned>(text[i] - '0');
    if (digits == 0 || value > 255) return std::nullopt;
    bytes.push_back(static_cast<char>(value));
    if (bytes.size() < 4 && (i >= text.size() || text[i] != '.')) return std::nullopt;
    if (bytes.size() == 4 && i != text.size()) return std::nullopt;
  }
  return bytes;
}

std::optional<std::string> Inet6Bytes(std::string_view text) {
  if (text.find(':') == std::string_view::npos || text.size() >= INET6_ADDRSTRLEN) return std::nullopt;
  const std::string z(text);
  std::array<unsigned char, 16> b{};
  if (inet_pton(AF_INET6, z.c_str(), b.data()) != 1) return std::nullopt;
  return std::string(reinterpret_cast<const char*>(b.data()), b.size());
}

std::optional<std::string> TypedBytes(ColumnType type, std::string_view text) {
  switch (type) {
    case ColumnType::kUuid:
      return UuidBytes(text);
    case ColumnType::kInet4:
      return Inet4Bytes(text);
    case ColumnType::kInet6:
      return Inet6Bytes(text);
    default:
      return std::nullopt;
  }
}

std::optional<std::string> TypedTextOfBinary(ColumnType type, std::string_view bytes) {
  if (bytes.size() != (type == ColumnType::kInet4 ? 4u : 16u)) return std::nullopt;
  const std::string b(bytes);
  return Text(type, type == ColumnType::kUuid ? Stored(b) : b);
}

}  // namespace strata::engine
