// A position in a statement's tokens and the small steps every reader of SQL takes there:
// accept a word, expect a punctuation mark, read a name or a number. A step that cannot be
// taken throws Failure with MySQL's error, which unwinds a recursive descent cleanly; readers
// catch it where they return (sql::Parse, inspect's --create-table reader).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sqltext/errors.h"
#include "sqltext/lexer.h"

namespace strata::sqltext {

struct Failure {
  SqlError error;
};

// Words that end an expression or a name list rather than being names themselves.
bool Reserved(const Token& t);

class Cursor {
 public:
  Cursor(std::string_view text, std::vector<Token> tokens) : text_(text), t_(std::move(tokens)) {}

  const Token& Peek(std::size_t ahead = 0) const { return t_[std::min(i_ + ahead, t_.size() - 1)]; }
  const Token& Take() { return t_[std::min(i_++, t_.size() - 1)]; }
  bool AtEnd() const { return Peek().Is(TokenKind::kEnd); }
  std::size_t position() const { return i_; }
  void Seek(std::size_t position) { i_ = position; }
  std::string_view text() const { return text_; }

  [[noreturn]] void Syntax() const { throw Failure{SyntaxError(text_, Peek().offset)}; }
  [[noreturn]] void Unsupported(std::string_view what) const { throw Failure{NotSupported(what)}; }

  bool AcceptWord(std::string_view w);
  bool AcceptPunct(std::string_view p);
  // All of `words` in a row (NOT NULL, IF EXISTS), or nothing taken.
  bool AcceptWords(std::initializer_list<std::string_view> words);
  void ExpectWord(std::string_view w) {
    if (!AcceptWord(w)) Syntax();
  }
  void ExpectPunct(std::string_view p) {
    if (!AcceptPunct(p)) Syntax();
  }

  // An identifier: `quoted`, or a word that is not reserved.
  std::string Name();
  std::uint64_t Unsigned();
  std::string StringLiteral();
  // A value after `=` in options: a word, a name, a string or a number.
  std::string OptionValue();
  // Moves to the next ',' or ')' outside parentheses opened from here (or the end).
  void SkipBalanced();
  // Moves past the parenthesised group starting at the current '('.
  void SkipGroup();
  // The statement's text from offset `from` to `to`, trailing space dropped.
  std::string Trimmed(std::size_t from, std::size_t to) const;

 protected:
  std::string_view text_;
  std::vector<Token> t_;
  std::size_t i_ = 0;
};

}  // namespace strata::sqltext
