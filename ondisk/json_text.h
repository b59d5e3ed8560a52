// JSON text read as MySQL reads it into a JSON column: RFC 8259, numbers typed as MySQL types
// them (an integer up to 2^32 - 1 or negative one that fits 64 bits is signed, a larger
// positive one unsigned, anything with a fraction or an exponent a double), an object's
// duplicate key keeping its last value. Errors say what the server's parser says, with the
// offset it gives.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace strata::ondisk {

struct JsonNode {
  enum class Kind : std::uint8_t { kNull, kTrue, kFalse, kInt, kUInt, kDouble, kString, kArray, kObject };
  Kind kind = Kind::kNull;
  std::int64_t i = 0;
  std::uint64_t u = 0;
  double d = 0;
  std::string s;                  // kString
  std::vector<JsonNode> items;    // kArray's elements; kObject's values
  std::vector<std::string> keys;  // kObject: keys[i] names items[i]; each key once
};

struct JsonTextError {
  std::string what;  // "Invalid value."
  std::size_t at = 0;
};

// The document `text` holds, or why it is none and where.
std::variant<JsonNode, JsonTextError> ReadJsonText(std::string_view text);

}  // namespace strata::ondisk
