// The text LOAD DATA INFILE reads, split into rows of fields as the server splits it: fields
// and lines ended by their terminators, a field ENCLOSED BY a character (the character twice
// inside is itself), escapes (\0 \b \n \r \t \Z, any other character as itself) and \N for NULL
// (so is an unenclosed NULL when ENCLOSED BY is given), LINES STARTING BY skipping up to its
// prefix.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sql/ast.h"

namespace strata::sql {

using LoadedRow = std::vector<std::optional<std::string>>;  // nullopt: NULL

// Every line of `text` after the first `l.ignore_lines`, as fields.
std::vector<LoadedRow> SplitLoadData(std::string_view text, const LoadData& l);

}  // namespace strata::sql
