// Tokens of MySQL's SQL, as dump files and the mysql client write it.
//
// The lexer works on one statement's text. Comments (`-- `, `#`, `/* */`) vanish; a versioned
// comment (`/*!40101 ... */`) is code when the server's version is at least its number, as
// MySQL treats it; MariaDB's `/*M!100101 ... */` is a comment to MySQL and code to MariaDB;
// an optimizer hint (`/*+ ... */`) is kept aside for the statement. Strings come out with
// their escapes decoded; hex literals (`0x4142`, `X'4142'`) come out as the bytes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace strata::sqltext {

enum class TokenKind : std::uint8_t {
  kWord,        // a keyword or unquoted identifier (the text as written)
  kQuotedName,  // `name` (text without the backticks)
  kString,      // '...' or "..." (text decoded)
  kHex,         // 0x.., X'..', b'..' or 0b.. (text: the bytes)
  kInteger,     // digits
  kDecimal,     // digits with a point, no exponent
  kFloat,       // with an exponent
  kUserVar,     // @name (text: name)
  kSystemVar,   // @@name, @@session.name, @@global.name (text: as written after @@)
  kPunct,       // ( ) , ; . = < > <= >= <> != <=> + - * / % ! ~ & | ^ : := && ||
  kEnd,
};

struct Token {
  TokenKind kind = TokenKind::kEnd;
  std::string text;
  std::size_t offset = 0;  // where it starts in the statement's text

  bool Is(TokenKind k) const { return kind == k; }
  bool IsPunct(std::string_view p) const { return kind == TokenKind::kPunct && text == p; }
  // A keyword, compared case-insensitively (quoted names never match).
  bool IsWord(std::string_view w) const;
};

// A DECIMAL literal as MySQL writes it back: ".5" is 0.5, "-.5" -0.5.
std::string DecimalText(std::string_view literal);

struct LexError {
  std::size_t offset = 0;
  std::string message;
};

struct Lexed {
  std::vector<Token> tokens;       // ends with kEnd
  std::vector<std::string> hints;  // the text of each /*+ ... */ hint
  bool ok = true;
  LexError error;
};

// The version versioned comments are compared with: MySQL 8.0.40, the server Strata answers as.
inline constexpr unsigned long long kServerVersion = 80040;

// Whose versioned comments are code: Strata's own (MySQL 8.0), or a MariaDB's whose dump a
// reader of table definitions takes as that server would.
struct Dialect {
  unsigned long long version = kServerVersion;
  bool mariadb = false;  // /*M!NNNNNN ... */ is code too
};

Lexed Lex(std::string_view text, Dialect dialect = {});

// Decodes the quoted string starting at s[start] (its quote character) into `out`, with
// MySQL's backslash escapes and doubled quotes; the offset just past the closing quote, or
// npos when it does not close.
std::size_t ScanString(std::string_view s, std::size_t start, std::string* out);
// `value` as a quoted string literal appended to `out`, with mysqldump's escapes (\0 \n \r
// \\ \' \Z): what ScanString reads back to the same bytes.
void AppendQuotedString(std::string& out, std::string_view value);
// Hex digits to bytes (an odd count gets a leading zero); false on a non-hex character.
bool DecodeHex(std::string_view digits, std::string* out);
// Binary digits (b'0101', 0b101) to the bytes of the number they spell, big-endian, as few as
// hold it ('' for none); false on a character that is not 0 or 1.
bool DecodeBits(std::string_view digits, std::string* out);

// Case-insensitive ASCII equality.
bool EqualsIgnoreCase(std::string_view a, std::string_view b);
// ASCII upper and lower case (keywords, type names).
std::string Upper(std::string_view s);
std::string Lower(std::string_view s);

}  // namespace strata::sqltext
