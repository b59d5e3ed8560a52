// The isolation levels a transaction runs at (SET TRANSACTION ISOLATION LEVEL).
#pragma once

#include <cstdint>
#include <string>

namespace strata::engine {

enum class Isolation : std::uint8_t { kReadUncommitted, kReadCommitted, kRepeatableRead, kSerializable };
std::string ToString(Isolation i);  // "REPEATABLE READ"

}  // namespace strata::engine
