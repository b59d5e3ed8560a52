// How much of the running thread's stack is left, for the recursive parts of SQL (the
// expression evaluator) to stop with MySQL's error 1436 before the stack runs out, as the
// server's check_stack_overrun does. The expression depth limit (kMaxExpressionDepth) bounds
// the recursion, but not the bytes each level takes: a sanitizer build's frames are several
// times larger, and 527 nested ABS() calls overflowed one.
#pragma once

#include "sql/engine_api.h"

#include <cstddef>
#include <optional>

#include "sql/parser.h"

namespace strata::sql {

// Bytes of the calling thread's stack below the caller's frame (the stack grows down).
std::size_t StackLeft();

// Error 1436 when less than `needed` bytes of stack are left, else nullopt.
std::optional<SqlError> CheckStack(std::size_t needed);

}  // namespace strata::sql
