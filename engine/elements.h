// ENUM and SET columns: the numbers stored for their labels. An ENUM stores its label's
// 1-based position (0 for the '' an invalid value became outside strict mode), a SET the bit
// mask of its members (bit 0 the first label), as MySQL does; so an index on one orders by
// that number, not by the labels' text.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "engine/schema.h"

namespace strata::engine {

struct ElementMatch {
  std::uint64_t number = 0;
  bool complete = true;  // every part of the text named a label
};

// The number `text` stands for in column `c`, labels compared by the column's collation
// (trailing spaces aside): an ENUM's one label; a SET's comma-separated members in any order,
// case or repetition ('' is the empty set). When a part names no label `complete` is false,
// and `number` is 0 for an ENUM and the members that did match for a SET.
ElementMatch MatchElements(const Column& c, std::string_view text);

// Text that is wholly an integer (' 2', '+2', '-1'), as an ENUM or SET reads a number given
// as text (a negative one as its two's complement: -1 is every member of a SET); else nullopt.
std::optional<std::uint64_t> ElementsNumberText(std::string_view s);

// The text of `number`: an ENUM's label ('' for 0), a SET's members joined by commas in the
// order the column lists them.
std::string ElementsText(const Column& c, std::uint64_t number);

// The bytes the number takes on disk.
std::uint32_t ElementsBytes(const Column& c);

// The largest number `c` stores: an ENUM's count of labels, a SET's mask of them all.
std::uint64_t ElementsMax(const Column& c);

// `enum('a','it''s')` and `set(...)` as SHOW CREATE TABLE writes the type.
std::string ElementsSqlType(const Column& c);

}  // namespace strata::engine
