// The parser's class, shared by the files that define its parts, each with one job:
//   parser.cc       Parse(), the error texts, and the dispatch on a statement's first word
//   parser_ddl.cc   CREATE (DATABASE, TABLE, INDEX), ALTER, DROP
//   parser_dml.cc   INSERT, UPDATE, DELETE, SELECT, SET, SHOW
//   parser_expr.cc  expressions, lowest precedence first
// Internal to sql/parser*.cc; everyone else calls Parse() (parser.h).
#pragma once

#include "sql/engine_api.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sql/ast.h"
#include "sql/lexer.h"
#include "sql/parser.h"
#include "sql/stack_guard.h"
#include "ondisk/identifier.h"

namespace strata::sql::parser_internal {

// Stack a level of the parser may not cut into: what one level and the error path below it need.
constexpr std::size_t kParserStackReserve = 128 * 1024;

inline std::string Upper(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

inline std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// Parsing stops at the first error; unwinding by exception keeps the descent readable. It
// never leaves the parser: Parse() turns it into Parsed::error.
struct Failure {
  SqlError error;
};

// Words that end an expression or a name list rather than being names themselves.
inline bool Reserved(const Token& t) {
  static constexpr std::string_view kWords[] = {
      "FROM",  "WHERE",  "ORDER",   "LIMIT", "FOR", "LOCK", "GROUP", "HAVING", "AND",    "OR",    "XOR",
      "NOT",   "IN",     "BETWEEN", "LIKE",  "IS",  "AS",   "ON",    "SET",    "VALUES", "VALUE", "SELECT",
      "UNION", "OFFSET", "DIV",     "MOD",   "ASC", "DESC", "INTO",  "USING",  "WITH",   "ESCAPE"};
  if (t.kind != TokenKind::kWord) return false;
  for (std::string_view w : kWords) {
    if (t.IsWord(w)) return true;
  }
  return false;
}

class Parser {
 public:
  Parser(std::string_view text, std::vector<Token> tokens) : text_(text), t_(std::move(tokens)) {}

  std::optional<sql::Statement> Top() {
    if (Peek().Is(TokenKind::kEnd)) return std::nullopt;
    auto s = ParseStatement();
    AcceptPunct(";");
    if (!Peek().Is(TokenKind::kEnd)) Syntax();
    return s;
  }

 private:
  // ---- token helpers ----
  const Token& Peek(std::size_t ahead = 0) const { return t_[std::min(i_ + ahead, t_.size() - 1)]; }
  const Token& Take() { return t_[std::min(i_++, t_.size() - 1)]; }
  [[noreturn]] void Syntax() { throw Failure{SyntaxError(text_, Peek().offset)}; }
  [[noreturn]] void Unsupported(std::string_view what) { throw Failure{NotSupported(what)}; }
  // MySQL stops a statement whose expressions nest too deep for its thread stack (error 1436);
  // here the limit is a number of levels, checked as the tree is built.
  [[noreturn]] void TooDeep() {
    SqlError e = SyntaxError(text_, Peek().offset);
    const std::size_t near = e.message.find("near '");
    throw Failure{{1436, "HY000",
                   fmt::format("Thread stack overrun: expressions nest deeper than {} levels {}", kMaxExpressionDepth,
                               near == std::string::npos ? "" : e.message.substr(near))}};
  }
  void Adopt(Expr& parent, ExprPtr child) {
    parent.height = std::max(parent.height, child->height + 1);
    parent.args.push_back(std::move(child));
    if (parent.height > kMaxExpressionDepth) TooDeep();
  }
  // Counts the parser's own recursion (parentheses, unary operators, NOT): a limit on the
  // tree alone would come too late, after the stack had overflowed while parsing.
  // The stack is checked too, for a thread whose stack is small.
  struct Nesting {
    explicit Nesting(Parser& p) : p_(p) {
      if (auto overrun = CheckStack(kParserStackReserve)) throw Failure{*overrun};
      if (++p_.nesting_ > kMaxExpressionDepth) {
        --p_.nesting_;
        p_.TooDeep();
      }
    }
    ~Nesting() { --p_.nesting_; }
    Parser& p_;
  };
  bool AcceptWord(std::string_view w) {
    if (!Peek().IsWord(w)) return false;
    ++i_;
    return true;
  }
  bool AcceptPunct(std::string_view p) {
    if (!Peek().IsPunct(p)) return false;
    ++i_;
    return true;
  }
  void ExpectWord(std::string_view w) {
    if (!AcceptWord(w)) Syntax();
  }
  void ExpectPunct(std::string_view p) {
    if (!AcceptPunct(p)) Syntax();
  }
  bool AcceptWords(std::initializer_list<std::string_view> words) {
    std::size_t k = 0;
    for (std::string_view w : words) {
      if (!Peek(k).IsWord(w)) return false;
      ++k;
    }
    i_ += k;
    return true;
  }

  std::string Name() {
    const Token& t = Peek();
    if (t.kind == TokenKind::kQuotedName || (t.kind == TokenKind::kWord && !Reserved(t))) return Take().text;
    Syntax();
  }

  TableName QualifiedName() {
    TableName n;
    n.name = Name();
    if (AcceptPunct(".")) {
      n.database = std::move(n.name);
      n.name = Name();
    }
    return n;
  }

  std::uint64_t Unsigned() {
    const Token& t = Peek();
    if (!t.Is(TokenKind::kInteger)) Syntax();
    std::uint64_t v = 0;
    auto [p, ec] = std::from_chars(t.text.data(), t.text.data() + t.text.size(), v);
    if (ec != std::errc()) Syntax();
    ++i_;
    return v;
  }

  std::string StringLiteral() {
    if (!Peek().Is(TokenKind::kString)) Syntax();
    return Take().text;
  }

  // A value after `=` in options: a word, a name, a string or a number.
  std::string OptionValue() {
    const Token& t = Peek();
    if (t.kind == TokenKind::kEnd || t.kind == TokenKind::kPunct) Syntax();
    return Take().text;
  }

  // ---- statements ----
  sql::Statement ParseStatement();
  void SkipToEnd();
  sql::Statement ParseAlter();
  sql::Statement ParseDrop();
  sql::Statement ParseCreate();
  std::vector<std::string> KeyColumns(bool* prefixed = nullptr);
  void IndexOptions();
  static std::optional<Charset> CharsetNamed(const std::string& name);
  Charset CharsetName();
  struct Collation {
    Charset charset;
    bool binary;       // a *_bin collation (Column::binary_collation)
    std::uint16_t id;  // the server's id (Column::collation_id)
  };
  // COLLATE's name: a collation Strata compares by, else error 1273 (or 1253 when it is not one
  // of `charset`'s).
  Collation CollationName(std::optional<Charset> charset);
  // CHARACTER SET / CHARSET [=] x or COLLATE [=] y, as CREATE DATABASE and CREATE TABLE take
  // them for their default: true when one was read into `charset` and `binary` (a _bin one).
  bool CharsetOrCollateOption(std::optional<Charset>& charset, bool& binary, std::uint16_t* collation_id = nullptr);
  sql::Statement ParseCreateTable();
  void SkipBalanced();
  Column ColumnDefinition(CreateTable& c, bool* has_charset, bool* default_now);
  static Value Negate(const Value& v);
  sql::Statement ParseInsert();
  ExprPtr ValueExpr();
  void OrderLimit(std::vector<OrderItem>* order, std::optional<std::uint64_t>* limit, std::uint64_t* offset);
  sql::Statement ParseUpdate();
  sql::Statement ParseDelete();
  sql::Statement ParseSelect();

  std::string Trimmed(std::size_t from, std::size_t to) const;

  static std::optional<Isolation> IsolationFromWords(const std::string& level);
  sql::Statement ParseSet();
  sql::Statement ParseShow();

  // ---- expressions, lowest precedence first ----
  ExprPtr Expression();
  ExprPtr MakeBinary(std::string op, ExprPtr a, ExprPtr b);
  ExprPtr Balanced(const std::string& op, std::vector<ExprPtr>& terms, std::size_t from, std::size_t to);
  ExprPtr Chain(const std::string& op, ExprPtr (Parser::*term)(), const std::function<bool()>& accept);
  ExprPtr Or();
  ExprPtr Xor();
  ExprPtr And();
  ExprPtr Not();
  ExprPtr Predicate();
  ExprPtr Additive();
  ExprPtr Multiplicative();
  ExprPtr Unary();
  ExprPtr Literal(Value v, LiteralKind kind, std::size_t offset);
  ExprPtr Primary();
  ExprPtr ColumnRef();
  ExprPtr Function();

  std::string_view text_;
  std::vector<Token> t_;
  std::size_t i_ = 0;
  std::uint32_t nesting_ = 0;  // Nesting levels open
};

}  // namespace strata::sql::parser_internal
