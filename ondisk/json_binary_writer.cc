#include "ondisk/json_binary_writer.h"

#include <algorithm>
#include <cstring>
#include <vector>

namespace strata::ondisk {

namespace {

enum : std::uint8_t {
  kSmallObject = 0x00,
  kLargeObject = 0x01,
  kSmallArray = 0x02,
  kLargeArray = 0x03,
  kLiteral = 0x04,
  kInt16 = 0x05,
  kUInt16 = 0x06,
  kInt32 = 0x07,
  kUInt32 = 0x08,
  kInt64 = 0x09,
  kUInt64 = 0x0a,
  kDouble = 0x0b,
  kString = 0x0c,
};

void Put(std::string& out, std::uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) out += static_cast<char>(v >> (8 * i) & 0xFF);
}

void PutAt(std::string& out, std::size_t at, std::uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) out[at + static_cast<std::size_t>(i)] = static_cast<char>(v >> (8 * i) & 0xFF);
}

bool IsContainer(const JsonNode& n) { return n.kind == JsonNode::Kind::kArray || n.kind == JsonNode::Kind::kObject; }

std::uint8_t ScalarType(const JsonNode& n) {
  using K = JsonNode::Kind;
  switch (n.kind) {
    case K::kInt:
      return n.i >= INT16_MIN && n.i <= INT16_MAX ? kInt16 : n.i >= INT32_MIN && n.i <= INT32_MAX ? kInt32 : kInt64;
    case K::kUInt:
      return n.u <= UINT16_MAX ? kUInt16 : n.u <= UINT32_MAX ? kUInt32 : kUInt64;
    case K::kDouble:
      return kDouble;
    case K::kString:
      return kString;
    default:
      return kLiteral;
  }
}

// Whether a value of `type` is kept in its entry rather than after the keys.
bool Inlined(std::uint8_t type, bool large) {
  return type == kLiteral || type == kInt16 || type == kUInt16 || (large && (type == kInt32 || type == kUInt32));
}

std::uint64_t ScalarBits(const JsonNode& n) {
  using K = JsonNode::Kind;
  if (n.kind == K::kNull) return 0;
  if (n.kind == K::kTrue) return 1;
  if (n.kind == K::kFalse) return 2;
  if (n.kind == K::kUInt) return n.u;
  return static_cast<std::uint64_t>(n.i);
}

void AppendScalar(std::string& out, const JsonNode& n, std::uint8_t type) {
  switch (type) {
    case kLiteral:
      Put(out, ScalarBits(n), 1);
      break;
    case kInt16:
    case kUInt16:
      Put(out, ScalarBits(n), 2);
      break;
    case kInt32:
    case kUInt32:
      Put(out, ScalarBits(n), 4);
      break;
    case kInt64:
    case kUInt64:
      Put(out, ScalarBits(n), 8);
      break;
    case kDouble: {
      std::uint64_t bits = 0;
      std::memcpy(&bits, &n.d, 8);
      Put(out, bits, 8);
      break;
    }
    default: {  // a string: its length in 7-bit groups, low group first, then its bytes
      std::size_t len = n.s.size();
      do {
        const auto group = static_cast<std::uint8_t>(len & 0x7F);
        len >>= 7;
        out += static_cast<char>(len ? group | 0x80 : group);
      } while (len);
      out += n.s;
      break;
    }
  }
}

bool AppendContainer(std::string& out, const JsonNode& n, bool large);

// A container as small if it fits, else large; its type, or nullopt when neither can hold it.
std::optional<std::uint8_t> AppendAnyContainer(std::string& out, const JsonNode& n) {
  const bool object = n.kind == JsonNode::Kind::kObject;
  const std::size_t before = out.size();
  if (AppendContainer(out, n, false)) return object ? kSmallObject : kSmallArray;
  out.resize(before);
  if (!AppendContainer(out, n, true)) return std::nullopt;
  return object ? kLargeObject : kLargeArray;
}

// Count, size, key entries (objects), value entries, keys, then the values not inlined; false
// when a small container would need an offset or size past 65,535.
bool AppendContainer(std::string& out, const JsonNode& n, bool large) {
  const bool object = n.kind == JsonNode::Kind::kObject;
  const int width = large ? 4 : 2;
  const std::uint64_t limit = large ? UINT32_MAX : UINT16_MAX;
  std::vector<std::size_t> order(n.items.size());  // an object's members by key length, then bytes
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  if (object) {
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
      const std::string &x = n.keys[a], &y = n.keys[b];
      return x.size() != y.size() ? x.size() < y.size() : x < y;
    });
  }
  const std::size_t count = n.items.size();
  const std::size_t start = out.size();
  Put(out, count, width);
  Put(out, 0, width);  // the size, once known
  const std::size_t value_entry = 1 + static_cast<std::size_t>(width);
  std::size_t key_at =
      2 * static_cast<std::size_t>(width) + count * ((object ? static_cast<std::size_t>(width) + 2 : 0) + value_entry);
  for (std::size_t i = 0; object && i < count; ++i) {
    const std::string& key = n.keys[order[i]];
    if (key_at > limit || key.size() > UINT16_MAX) return false;
    Put(out, key_at, width);
    Put(out, key.size(), 2);
    key_at += key.size();
  }
  const std::size_t entries = out.size();
  out.append(count * value_entry, '\0');
  for (std::size_t i = 0; object && i < count; ++i) out += n.keys[order[i]];
  for (std::size_t i = 0; i < count; ++i) {
    const JsonNode& v = n.items[order[i]];
    const std::size_t entry = entries + i * value_entry;
    if (!IsContainer(v) && Inlined(ScalarType(v), large)) {
      out[entry] = static_cast<char>(ScalarType(v));
      PutAt(out, entry + 1, ScalarBits(v), ScalarType(v) == kLiteral ? 1 : ScalarType(v) <= kUInt16 ? 2 : 4);
      continue;
    }
    const std::size_t offset = out.size() - start;
    if (offset > limit) return false;
    PutAt(out, entry + 1, offset, width);
    if (IsContainer(v)) {
      const auto type = AppendAnyContainer(out, v);
      if (!type) return false;
      out[entry] = static_cast<char>(*type);
    } else {
      out[entry] = static_cast<char>(ScalarType(v));
      AppendScalar(out, v, ScalarType(v));
    }
  }
  const std::size_t size = out.size() - start;
  if (size > limit) return false;
  PutAt(out, start + static_cast<std::size_t>(width), size, width);
  return true;
}

}  // namespace

std::optional<std::string> JsonToBinary(const JsonNode& document) {
  std::string out(1, '\0');
  if (IsContainer(document)) {
    const auto type = AppendAnyContainer(out, document);
    if (!type) return std::nullopt;
    out[0] = static_cast<char>(*type);
  } else {
    out[0] = static_cast<char>(ScalarType(document));
    AppendScalar(out, document, ScalarType(document));
  }
  return out;
}

}  // namespace strata::ondisk
