// The one table of character-set facts: every set by collation id and by name, how wide its
// characters are (InnoDB stores CHAR in a set whose characters all take the same bytes at
// fixed width) and how its bytes become the UTF-8 the client prints (latin1 and UTF-8 here,
// the others through glibc's iconv).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "ondisk/endian.h"
#include "ondisk/status.h"

namespace strata::ondisk {

struct CharsetInfo {
  const char* name = nullptr;   // the server's name ("cp1251", "utf8mb4"); null: not known here
  const char* iconv = nullptr;  // iconv's name for it (null for binary)
  std::uint32_t mbmaxlen = 0;
  bool fixed = false;  // every character takes mbmaxlen bytes
};

// The character set of collation `id` (MySQL's and MariaDB's ids, NO PAD and UCA 14.0 ones
// included); a default CharsetInfo when unknown.
CharsetInfo CharsetOfCollationId(int id);

// The character set named `name` ("koi8r", case-insensitive; utf8 is utf8mb3), with one of
// its collations' ids in `collation` when given; a default CharsetInfo when there is none.
CharsetInfo CharsetNamed(std::string_view name, int* collation = nullptr);
// The character set of the collation named `collation` ("utf8mb4_0900_ai_ci", "binary").
CharsetInfo CharsetOfCollationNamed(std::string_view collation, int* id = nullptr);

// The code point of the UTF-8 character at s[i], advancing i past it; U+FFFD for a byte that
// does not start a well-formed sequence (advancing one byte).
char32_t NextUtf8(std::string_view s, std::size_t& i);
// `cp` as UTF-8, appended to `out`.
void AppendUtf8(std::string& out, char32_t cp);

// MySQL's latin1 (which is Windows-1252) as UTF-8, appended to `out`.
void AppendLatin1AsUtf8(std::string& out, ConstBytes latin1);
// UTF-8 text as latin1 bytes; the byte offset of the first character latin1 has no byte for
// (or of the first byte that is not UTF-8) when there is one.
Result<std::string> Utf8ToLatin1(std::string_view utf8, std::size_t* bad_at = nullptr);

// `bytes` of that character set as UTF-8. InvalidArgument when they are not valid in it.
Result<std::string> ToUtf8(const CharsetInfo& cs, ConstBytes bytes);

}  // namespace strata::ondisk
