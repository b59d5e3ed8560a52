// A table, column or database name as the server and its dump tools write it in SQL text:
// in backticks, with a backtick inside doubled (`a``b`). The dictionary stores names bare;
// whatever writes them back into a statement quotes them here.
#pragma once

#include <string>
#include <string_view>

namespace strata::ondisk {

inline std::string QuoteIdentifier(std::string_view name) {
  std::string out = "`";
  for (char c : name) {
    out += c;
    if (c == '`') out += '`';
  }
  return out + "`";
}

}  // namespace strata::ondisk
