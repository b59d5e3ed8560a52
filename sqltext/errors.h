// Errors as MySQL reports them, for everything that reads SQL text: the statement parser
// (sql/) and the readers of table definitions (inspect/'s --create-table).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace strata::sqltext {

// An error as MySQL reports it: number, SQLSTATE and message.
struct SqlError {
  unsigned code = 0;
  std::string sqlstate;
  std::string message;
};

// ER_PARSE_ERROR (1064) for `text` at `offset`, in MySQL's words (the text near it, its line).
SqlError SyntaxError(std::string_view text, std::size_t offset);
// ER_NOT_SUPPORTED_YET (1235).
SqlError NotSupported(std::string_view what);

// The line (from 1) that `offset` of `text` is on.
std::size_t LineAt(std::string_view text, std::size_t offset);

}  // namespace strata::sqltext
