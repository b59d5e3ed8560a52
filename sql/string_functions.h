// The string functions of the library (functions.h lists them by name): characters counted as
// UTF-8 characters (bytes for a binary string), text compared by its collation where the
// server compares so (LOCATE, INSTR, FIELD, FIND_IN_SET, STRCMP) and byte for byte where it
// does not (REPLACE, SUBSTRING_INDEX), and the picks between values (NULLIF, GREATEST, LEAST).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sql/eval.h"

namespace strata::sql {

// Characters [from, from + count) of `s` (bytes for a binary string), clamped to those it has.
std::string Characters(const std::string& s, bool bytes, std::int64_t from, std::int64_t count);
std::int64_t CharacterCount(const std::string& s, bool bytes);

// TRIM's third argument (the parser gives it for TRIM(LEADING 'x' FROM s)): which ends.
enum class TrimEnds : std::int64_t { kBoth = 1, kLeading = 2, kTrailing = 3 };

SqlResult<SqlValue> ConcatWs(const std::string& name, std::vector<SqlValue>& args);
SqlResult<SqlValue> Replace(const std::string& name, std::vector<SqlValue>& args);
SqlResult<SqlValue> Trim(const std::string& name, std::vector<SqlValue>& args);    // TRIM, LTRIM, RTRIM
SqlResult<SqlValue> Pad(const std::string& name, std::vector<SqlValue>& args);     // LPAD, RPAD
SqlResult<SqlValue> Locate(const std::string& name, std::vector<SqlValue>& args);  // LOCATE, INSTR, POSITION
SqlResult<SqlValue> SubstringIndex(const std::string& name, std::vector<SqlValue>& args);
SqlResult<SqlValue> Reverse(const std::string& name, std::vector<SqlValue>& args);
SqlResult<SqlValue> Space(const std::string& name, std::vector<SqlValue>& args);
SqlResult<SqlValue> Ascii(const std::string& name, std::vector<SqlValue>& args);
SqlResult<SqlValue> Field(const std::string& name, std::vector<SqlValue>& args);
SqlResult<SqlValue> FindInSet(const std::string& name, std::vector<SqlValue>& args);
SqlResult<SqlValue> Elt(const std::string& name, std::vector<SqlValue>& args);
SqlResult<SqlValue> Strcmp(const std::string& name, std::vector<SqlValue>& args);
SqlResult<SqlValue> NullIf(const std::string& name, std::vector<SqlValue>& args);
SqlResult<SqlValue> Extreme(const std::string& name, std::vector<SqlValue>& args);  // GREATEST, LEAST

}  // namespace strata::sql
