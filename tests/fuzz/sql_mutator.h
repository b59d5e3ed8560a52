// A mutator that knows SQL's shape. Byte flips rarely get past the lexer and never build the
// 5,000-deep expression that once overflowed the parser's stack; these edits keep quotes
// closed and brackets balanced, so the mutant still parses and its statements run:
//   deepen   wrap an operand or a bracketed group in (…), -(…), NOT (…), ABS(…), IF(1, …, 0), n times;
//   swap     put one bracketed group or operand where another was;
//   widen    x  ->  x op x;
//   unwrap   (x)  ->  x;
//   literal  a number or string replaced by a boundary value (0, -1, 2^63, '', a long string);
//   statement  one added from a list that touches every index, transaction and setting path,
//            or one repeated or removed.
// Shared by the libFuzzer target (its custom mutator) and the replay test.
#pragma once

#include <cstddef>
#include <random>
#include <string>

namespace strata::fuzz {

// Edits `text` in place, growing it to at most `max_size` bytes. False when no edit applied
// (text without operands, or no room), and the caller mutates bytes instead.
bool MutateSql(std::string& text, std::mt19937_64& rng, std::size_t max_size);

}  // namespace strata::fuzz
