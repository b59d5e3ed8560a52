// Text weighed by the Unicode Collation Algorithm as MariaDB's tables give it (uca_tables.h):
// each character's primary weights (none for an ignorable one, several for an expansion such
// as ß), a contraction's weights for the sequences a table joins, compared weight by weight.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "engine/uca_tables.h"

namespace strata::engine {

// The primary weights of UTF-8 text, in order.
std::vector<std::uint32_t> UcaWeights(const UcaTable& table, std::string_view utf8);

// <0, 0 or >0. With `pad` (PAD SPACE) the shorter text continues with the space's weight, so
// trailing spaces do not count; without it the longer text sorts after.
int UcaCompare(const UcaTable& table, std::string_view a, std::string_view b, bool pad);

}  // namespace strata::engine
