#include "sqltext/cursor.h"

#include <cctype>
#include <charconv>

namespace strata::sqltext {

bool Reserved(const Token& t) {
  static constexpr std::string_view kWords[] = {
      "FROM",   "WHERE", "ORDER",   "LIMIT", "FOR",  "LOCK", "GROUP", "HAVING", "AND",    "OR",     "XOR",
      "NOT",    "IN",    "BETWEEN", "LIKE",  "IS",   "AS",   "ON",    "SET",    "VALUES", "SELECT", "UNION",
      "OFFSET", "DIV",   "MOD",     "ASC",   "DESC", "INTO", "USING", "WITH",   "ESCAPE"};
  if (t.kind != TokenKind::kWord) return false;
  for (std::string_view w : kWords) {
    if (t.IsWord(w)) return true;
  }
  return false;
}

bool Cursor::AcceptWord(std::string_view w) {
  if (!Peek().IsWord(w)) return false;
  ++i_;
  return true;
}

bool Cursor::AcceptPunct(std::string_view p) {
  if (!Peek().IsPunct(p)) return false;
  ++i_;
  return true;
}

bool Cursor::AcceptWords(std::initializer_list<std::string_view> words) {
  std::size_t k = 0;
  for (std::string_view w : words) {
    if (!Peek(k).IsWord(w)) return false;
    ++k;
  }
  i_ += k;
  return true;
}

std::string Cursor::Name() {
  const Token& t = Peek();
  if (t.kind == TokenKind::kQuotedName || (t.kind == TokenKind::kWord && !Reserved(t))) return Take().text;
  Syntax();
}

std::uint64_t Cursor::Unsigned() {
  const Token& t = Peek();
  if (!t.Is(TokenKind::kInteger)) Syntax();
  std::uint64_t v = 0;
  auto [p, ec] = std::from_chars(t.text.data(), t.text.data() + t.text.size(), v);
  if (ec != std::errc()) Syntax();
  ++i_;
  return v;
}

std::string Cursor::StringLiteral() {
  if (!Peek().Is(TokenKind::kString)) Syntax();
  return Take().text;
}

std::string Cursor::OptionValue() {
  const Token& t = Peek();
  if (t.kind == TokenKind::kEnd || t.kind == TokenKind::kPunct) Syntax();
  return Take().text;
}

void Cursor::SkipBalanced() {
  int depth = 0;
  while (!AtEnd()) {
    if (Peek().IsPunct("(")) {
      ++depth;
    } else if (Peek().IsPunct(")")) {
      if (depth == 0) return;
      --depth;
    } else if (Peek().IsPunct(",") && depth == 0) {
      return;
    }
    ++i_;
  }
}

void Cursor::SkipGroup() {
  ExpectPunct("(");
  SkipBalanced();
  while (AcceptPunct(",")) SkipBalanced();
  ExpectPunct(")");
}

std::string Cursor::Trimmed(std::size_t from, std::size_t to) const {
  std::string_view v = text_.substr(from, to > from ? to - from : 0);
  while (!v.empty() && std::isspace(static_cast<unsigned char>(v.back()))) v.remove_suffix(1);
  return std::string(v);
}

}  // namespace strata::sqltext
