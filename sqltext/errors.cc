#include "sqltext/errors.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

namespace strata::sqltext {

std::size_t LineAt(std::string_view text, std::size_t offset) {
  offset = std::min(offset, text.size());
  return 1 +
         static_cast<std::size_t>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(offset), '\n'));
}

SqlError SyntaxError(std::string_view text, std::size_t offset) {
  offset = std::min(offset, text.size());
  const std::size_t line = LineAt(text, offset);
  if (offset < text.size() && text[offset] == '\0') {
    // Printed, the byte would vanish and the message would point at the text after it.
    return {1064, "42000",
            fmt::format("You have an error in your SQL syntax: a NUL byte (ASCII '\\0') at line {}, offset {} of "
                        "the statement, outside any quoted string",
                        line, offset)};
  }
  std::string near(text.substr(offset, 80));
  while (!near.empty() && (near.back() == ';' || std::isspace(static_cast<unsigned char>(near.back()))))
    near.pop_back();
  return {1064, "42000",
          fmt::format("You have an error in your SQL syntax; check the manual that corresponds to your MySQL server "
                      "version for the right syntax to use near '{}' at line {}",
                      near, line)};
}

SqlError NotSupported(std::string_view what) {
  return {1235, "42000", fmt::format("This version of Strata doesn't yet support '{}'", what)};
}

}  // namespace strata::sqltext
