// Writes MySQL's binary JSON (the format ondisk/json_binary.h reads) as MySQL 8.0 writes it:
// an object's keys sorted by length, then bytewise; integers in the smallest of 16, 32 and 64
// bits their kind allows; literals and 16-bit integers (in a large container, 32-bit ones
// too) inside their value entry; each container small (2-byte offsets) unless it does not fit.
#pragma once

#include <optional>
#include <string>

#include "ondisk/json_text.h"

namespace strata::ondisk {

// The bytes of `document`: its type byte, then its value; nullopt when an object's key is over
// 65,535 bytes, which the format cannot hold (MySQL refuses it too).
std::optional<std::string> JsonToBinary(const JsonNode& document);

}  // namespace strata::ondisk
