// A recursive-descent parser for the MySQL statements dumps and everyday inspection use
// (the list is in ast.h). One call parses one statement's text.
#pragma once

#include "sql/engine_api.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sql/ast.h"
#include "sqltext/errors.h"

namespace strata::sql {

// A note or warning a statement leaves behind, as SHOW WARNINGS lists it (Level, Code, Message).
struct SqlWarning {
  enum class Level : std::uint8_t { kNote, kWarning, kError };
  Level level = Level::kWarning;
  unsigned code = 0;
  std::string message;
};
const char* LevelName(SqlWarning::Level level);

struct Parsed {
  std::optional<Statement> statement;  // nullopt: the text held only comments
  std::vector<std::string> hints;      // optimizer hints /*+ ... */
  std::optional<SqlError> error;
  // The text started with a versioned comment (/*!50001 CREATE ... VIEW */): a dump's way of
  // saying "only if you support it", so an unsupported one may be skipped.
  bool versioned = false;
  std::string object;  // of a versioned statement: the view, trigger or routine it names ("VIEW `v`")
};

Parsed Parse(std::string_view text);

}  // namespace strata::sql
