// Reads the rows of an extended INSERT (`VALUES (1,'a',NULL),(2,'b',0x00),...`) straight
// from the statement's text, without tokens or expression trees: a dump's INSERTs hold
// literals only, and this is where an import spends its parsing time. Anything that is not
// a literal (an expression, a function call) makes it give up, and the statement goes
// through the full parser instead.
#pragma once

#include "sql/engine_api.h"

#include <functional>
#include <optional>
#include <string_view>
#include <vector>

#include "sql/eval.h"
#include "sql/parser.h"
#include "sql/row_builder.h"

namespace strata::sql {

struct ValuesRead {
  enum class Outcome : std::uint8_t { kOk, kNotLiteral, kSyntax };
  Outcome outcome = Outcome::kOk;
  std::size_t offset = 0;  // where it stopped, for kNotLiteral and kSyntax
};

// Reads from `at` (just after VALUES) to the end of `text`. `row` gets each row's values
// (nullopt for DEFAULT) and returns false to stop.
using ValuesRow = std::function<bool(std::vector<std::optional<SqlValue>>& values)>;
ValuesRead ReadValues(std::string_view text, std::size_t at, const ValuesRow& row);

// The offset just past the VALUES (or VALUE) keyword of an INSERT/REPLACE, found without
// reading the rows; npos when there is none before the first quote or parenthesis of a row.
std::size_t FindValuesKeyword(std::string_view text);

// The head of an INSERT or REPLACE ("INSERT INTO `t` (`a`,`b`) VALUES"), parsed on its own,
// and where its rows start; nullopt when the text is something else (INSERT ... SELECT, a
// syntax error: the full parser's business).
struct InsertHead {
  Insert statement;  // without rows
  std::size_t values_at = 0;
};
std::optional<InsertHead> ReadInsertHead(std::string_view text);

// The INSERT's rows as the table stores them; nullopt when a value is not a literal. A
// malformed list is MySQL's 1064 for the statement text.
std::optional<SqlResult<std::vector<Row>>> ReadRows(std::string_view text, std::size_t values_at,
                                                    const RowBuilder& builder);

}  // namespace strata::sql
