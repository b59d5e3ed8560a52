#include "engine/value.h"

#include <fmt/format.h>

namespace strata::engine {

std::string Value::ToString() const {
  if (is_null()) return "NULL";
  if (is_int()) return std::to_string(as_int());
  if (is_uint()) return std::to_string(as_uint());
  if (is_double()) return fmt::format("{}", as_double());
  return as_string();
}

}  // namespace strata::engine
