// The function library: each SQL function a named entry with its arity and whether a NULL
// argument makes it NULL, applied to arguments already evaluated. Adding a function is adding
// an entry (and its code) here; CallFunction (eval.cc) finds it by name.
#pragma once

#include <cstddef>
#include <limits>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "sql/eval.h"

namespace strata::sql {

struct FunctionDef {
  static constexpr std::size_t kAny = std::numeric_limits<std::size_t>::max();
  using Apply = SqlResult<SqlValue> (*)(const std::string& name, std::vector<SqlValue>& args);

  std::string_view name;
  std::size_t min_args = 0, max_args = kAny;
  bool null_gives_null = true;  // a NULL argument makes the result NULL, before the function runs
  Apply apply = nullptr;
  bool numbers = false;  // takes numbers: an ENUM or SET argument comes as its number (ABS(e))
};

// Every function, in name order.
std::span<const FunctionDef> AllFunctions();

// The function `name` (upper case, as the parser gives it), or null.
const FunctionDef* FindFunction(std::string_view name);

// `name` applied to `args`: 1582 for a wrong number of them, 1305 for no such function.
SqlResult<SqlValue> ApplyFunction(const std::string& name, std::vector<SqlValue>& args);

}  // namespace strata::sql
