// MariaDB's UUID, INET4 and INET6 types: their text as the server reads it, and the bytes it
// stores, which is how their values sort. A UUID of RFC 4122 version 1-5 is stored with its
// fields last-first (node, clock sequence, time high, mid, low), so time-based ones sort by
// time; INET4 and INET6 in network order.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "engine/schema.h"

namespace strata::engine {

inline bool IsUuidOrInet(ColumnType t) {
  return t == ColumnType::kUuid || t == ColumnType::kInet4 || t == ColumnType::kInet6;
}

// 32 hex digits, '-' anywhere but at either end: the 16 bytes stored.
std::optional<std::string> UuidBytes(std::string_view text);
// Dotted IPv4 (leading zeros allowed, as the server reads them): 4 bytes.
std::optional<std::string> Inet4Bytes(std::string_view text);
// IPv6 as inet_pton reads it ('::ffff:1.2.3.4' too, a bare IPv4 address not): 16 bytes.
std::optional<std::string> Inet6Bytes(std::string_view text);
// The stored bytes of `text` in a column of type `type` (kUuid, kInet4, kInet6).
std::optional<std::string> TypedBytes(ColumnType type, std::string_view text);
// The text of `bytes` given as a binary string (0x... in text order), for any of the three.
std::optional<std::string> TypedTextOfBinary(ColumnType type, std::string_view bytes);

}  // namespace strata::engine
