// Expressions, lowest precedence first: OR, XOR, AND, NOT, predicates, arithmetic, unary, primaries.
#include "sql/parser_internal.h"

#include <cmath>
#include <cstdlib>

namespace strata::sql::parser_internal {

ExprPtr Parser::Expression() {
  Nesting n(*this);
  return Or();
}

ExprPtr Parser::MakeBinary(std::string op, ExprPtr a, ExprPtr b) {
  auto e = std::make_unique<Expr>();
  e->kind = Expr::Kind::kBinary;
  e->offset = a->offset;
  e->op = std::move(op);
  Adopt(*e, std::move(a));
  Adopt(*e, std::move(b));
  return e;
}

// A chain of one logical operator (a OR b OR c ...) as a balanced tree, not a left-deep one:
// generated queries OR together thousands of terms, which would pass the depth limit. AND,
// OR and XOR give the same result however their terms are grouped (NULLs included), and
// the terms are still evaluated left to right, stopping where AND and OR may.
ExprPtr Parser::Balanced(const std::string& op, std::vector<ExprPtr>& terms, std::size_t from, std::size_t to) {
  if (to - from == 1) return std::move(terms[from]);
  const std::size_t mid = from + (to - from) / 2;
  ExprPtr left = Balanced(op, terms, from, mid);
  return MakeBinary(op, std::move(left), Balanced(op, terms, mid, to));
}

ExprPtr Parser::Chain(const std::string& op, ExprPtr (Parser::*term)(), const std::function<bool()>& accept) {
  std::vector<ExprPtr> terms;
  terms.push_back((this->*term)());
  while (accept()) terms.push_back((this->*term)());
  return Balanced(op, terms, 0, terms.size());
}

ExprPtr Parser::Or() {
  return Chain("OR", &Parser::Xor, [this] { return AcceptWord("OR") || AcceptPunct("||"); });
}

ExprPtr Parser::Xor() {
  return Chain("XOR", &Parser::And, [this] { return AcceptWord("XOR"); });
}

ExprPtr Parser::And() {
  return Chain("AND", &Parser::Not, [this] { return AcceptWord("AND") || AcceptPunct("&&"); });
}

ExprPtr Parser::Not() {
  if (Peek().IsWord("NOT")) {
    Nesting n(*this);
    auto e = std::make_unique<Expr>();
    e->kind = Expr::Kind::kUnary;
    e->offset = Take().offset;
    e->op = "NOT";
    Adopt(*e, Not());
    return e;
  }
  return Predicate();
}

ExprPtr Parser::Predicate() {
  ExprPtr e = Additive();
  while (true) {
    const std::size_t at = i_;
    const bool negated = AcceptWord("NOT");
    if (AcceptWord("IN")) {
      auto in = std::make_unique<Expr>();
      in->kind = Expr::Kind::kIn;
      in->offset = e->offset;
      in->negated = negated;
      Adopt(*in, std::move(e));
      ExpectPunct("(");
      if (Peek().IsWord("SELECT")) Unsupported("subqueries");
      do Adopt(*in, Expression());
      while (AcceptPunct(","));
      ExpectPunct(")");
      e = std::move(in);
    } else if (AcceptWord("BETWEEN")) {
      auto b = std::make_unique<Expr>();
      b->kind = Expr::Kind::kBetween;
      b->offset = e->offset;
      b->negated = negated;
      Adopt(*b, std::move(e));
      Adopt(*b, Additive());
      ExpectWord("AND");
      Adopt(*b, Additive());
      e = std::move(b);
    } else if (AcceptWord("LIKE")) {
      auto l = std::make_unique<Expr>();
      l->kind = Expr::Kind::kLike;
      l->offset = e->offset;
      l->negated = negated;
      Adopt(*l, std::move(e));
      Adopt(*l, Additive());
      e = std::move(l);
    } else if (negated) {
      i_ = at;
      return e;
    } else if (AcceptWord("IS")) {
      auto n = std::make_unique<Expr>();
      n->kind = Expr::Kind::kIsNull;
      n->offset = e->offset;
      n->negated = AcceptWord("NOT");
      ExpectWord("NULL");
      Adopt(*n, std::move(e));
      e = std::move(n);
    } else {
      static constexpr std::string_view kCompare[] = {"=", "<=>", "<>", "!=", "<", "<=", ">", ">="};
      bool matched = false;
      for (std::string_view op : kCompare) {
        if (AcceptPunct(op)) {
          e = MakeBinary(op == "!=" ? "<>" : std::string(op), std::move(e), Additive());
          matched = true;
          break;
        }
      }
      if (!matched) return e;
    }
  }
}

ExprPtr Parser::Additive() {
  ExprPtr e = Multiplicative();
  while (true) {
    if (AcceptPunct("+"))
      e = MakeBinary("+", std::move(e), Multiplicative());
    else if (AcceptPunct("-"))
      e = MakeBinary("-", std::move(e), Multiplicative());
    else
      return e;
  }
}

ExprPtr Parser::Multiplicative() {
  ExprPtr e = Unary();
  while (true) {
    if (AcceptPunct("*"))
      e = MakeBinary("*", std::move(e), Unary());
    else if (AcceptPunct("/"))
      e = MakeBinary("/", std::move(e), Unary());
    else if (AcceptWord("DIV"))
      e = MakeBinary("DIV", std::move(e), Unary());
    else if (AcceptPunct("%") || AcceptWord("MOD"))
      e = MakeBinary("%", std::move(e), Unary());
    else
      return e;
  }
}

ExprPtr Parser::Unary() {
  if (Peek().IsPunct("-") || Peek().IsPunct("~") || Peek().IsPunct("!") || Peek().IsPunct("+")) {
    const Token& t = Take();
    Nesting n(*this);
    ExprPtr operand = Unary();
    if (t.text == "+") return operand;
    // A negative number literal stays a literal (dumps write -5, and DEFAULT needs it).
    if (t.text == "-" && operand->kind == Expr::Kind::kLiteral && !operand->value.is_null() &&
        operand->literal_kind != LiteralKind::kBinary && !operand->value.is_string()) {
      operand->value = Negate(operand->value);
      if (!operand->written.empty()) operand->written.insert(0, 1, '-');
      // Below BIGINT's range the negated number is exact digits, as a DECIMAL literal is.
      if (operand->value.is_string()) operand->literal_kind = LiteralKind::kDecimal;
      operand->offset = t.offset;
      return operand;
    }
    if (t.text == "-" && operand->kind == Expr::Kind::kLiteral && operand->literal_kind == LiteralKind::kDecimal) {
      operand->value = Negate(operand->value);
      operand->offset = t.offset;
      return operand;
    }
    auto e = std::make_unique<Expr>();
    e->kind = Expr::Kind::kUnary;
    e->offset = t.offset;
    e->op = t.text == "!" ? "NOT" : t.text;
    Adopt(*e, std::move(operand));
    return e;
  }
  return Primary();
}

ExprPtr Parser::Literal(Value v, LiteralKind kind, std::size_t offset) {
  auto e = std::make_unique<Expr>();
  e->kind = Expr::Kind::kLiteral;
  e->value = std::move(v);
  e->literal_kind = kind;
  e->offset = offset;
  return e;
}

ExprPtr Parser::Primary() {
  const Token& t = Peek();
  const std::size_t at = t.offset;
  switch (t.kind) {
    case TokenKind::kString: {
      std::string s = Take().text;
      while (Peek().Is(TokenKind::kString)) s += Take().text;  // 'a' 'b' is 'ab'
      return Literal(Value::String(std::move(s)), LiteralKind::kPlain, at);
    }
    case TokenKind::kHex: {
      const bool number = text_[at] != 'x' && text_[at] != 'X';  // 0x, b'' and 0b are numbers where one is wanted
      ExprPtr e = Literal(Value::String(Take().text), LiteralKind::kBinary, at);
      e->hex_number = number;
      return e;
    }
    case TokenKind::kInteger: {
      const std::string& s = Take().text;
      std::int64_t v = 0;
      auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
      if (ec == std::errc()) return Literal(Value::Int(v), LiteralKind::kPlain, at);
      std::uint64_t u = 0;
      auto [p2, ec2] = std::from_chars(s.data(), s.data() + s.size(), u);
      if (ec2 == std::errc()) return Literal(Value::UInt(u), LiteralKind::kPlain, at);
      return Literal(Value::String(s), LiteralKind::kDecimal, at);
    }
    case TokenKind::kDecimal:
      return Literal(Value::String(DecimalText(Take().text)), LiteralKind::kDecimal, at);
    case TokenKind::kFloat: {
      const std::string& s = Take().text;
      const double d = std::strtod(s.c_str(), nullptr);  // a number too small is 0, as in MySQL
      if (!std::isfinite(d))
        throw Failure{{1367, "22007", fmt::format("Illegal double '{}' value found during parsing", s)}};
      ExprPtr e = Literal(Value::Double(d), LiteralKind::kPlain, at);
      e->written = s;  // a view's definition shows it so
      return e;
    }
    case TokenKind::kUserVar: {
      auto e = std::make_unique<Expr>();
      e->kind = Expr::Kind::kUserVar;
      e->name = Take().text;
      e->offset = at;
      if (AcceptPunct(":=")) Unsupported("assignment inside an expression");
      return e;
    }
    case TokenKind::kSystemVar: {
      auto e = std::make_unique<Expr>();
      e->kind = Expr::Kind::kSystemVar;
      std::string name = Lower(Take().text);
      if (name.rfind("global.", 0) == 0 || name.rfind("session.", 0) == 0 || name.rfind("local.", 0) == 0) {
        name = name.substr(name.find('.') + 1);
      }
      e->name = name;
      e->offset = at;
      return e;
    }
    case TokenKind::kPunct:
      if (t.IsPunct("(")) {
        ++i_;
        if (Peek().IsWord("SELECT")) Unsupported("subqueries");
        ExprPtr e = Expression();
        if (Peek().IsPunct(",")) Unsupported("row constructors");
        ExpectPunct(")");
        return e;
      }
      Syntax();
    case TokenKind::kQuotedName:
      return ColumnRef();
    case TokenKind::kWord:
      break;
    default:
      Syntax();
  }
  if (t.IsWord("NULL")) {
    ++i_;
    return Literal(Value::Null(), LiteralKind::kPlain, at);
  }
  if (t.IsWord("TRUE") || t.IsWord("FALSE")) {
    return Literal(Value::Int(Take().IsWord("TRUE") ? 1 : 0), LiteralKind::kPlain, at);
  }
  // Character set introducers: _binary '...', _utf8mb4 '...', _latin1 0x...
  if (t.text.size() > 1 && t.text[0] == '_' && (Peek(1).Is(TokenKind::kString) || Peek(1).Is(TokenKind::kHex))) {
    const bool binary = EqualsIgnoreCase(t.text, "_binary");
    ++i_;
    ExprPtr e = Primary();
    e->literal_kind = binary ? LiteralKind::kBinary : LiteralKind::kPlain;
    if (binary && !e->hex_number && Peek(-1).Is(TokenKind::kString)) e->written = "_binary";
    e->offset = at;
    AcceptWord("COLLATE") && (Name(), true);
    return e;
  }
  if (t.IsWord("N") && Peek(1).Is(TokenKind::kString)) {  // N'...': a national string, utf8 here as all text
    ++i_;
    return Primary();
  }
  if (t.IsWord("CURRENT_TIMESTAMP") || t.IsWord("LOCALTIMESTAMP") || t.IsWord("LOCALTIME") ||
      t.IsWord("CURRENT_DATE")) {
    if (!Peek(1).IsPunct("(")) {
      auto e = std::make_unique<Expr>();
      e->kind = Expr::Kind::kFunction;
      e->name = t.IsWord("CURRENT_DATE") ? "CURDATE" : "NOW";
      e->offset = Take().offset;
      return e;
    }
  }
  if (t.IsWord("MOD") && Peek(1).IsPunct("(")) {  // MOD(a, b) is a % b
    i_ += 2;
    ExprPtr a = Expression();
    ExpectPunct(",");
    ExprPtr b = Expression();
    ExpectPunct(")");
    return MakeBinary("%", std::move(a), std::move(b));
  }
  if (Peek(1).IsPunct("(") && (!Reserved(t) || t.IsWord("VALUES"))) return Function();  // VALUES(c) of ON DUPLICATE
  if (Reserved(t)) Syntax();
  return ColumnRef();
}

ExprPtr Parser::ColumnRef() {
  auto e = std::make_unique<Expr>();
  e->kind = Expr::Kind::kColumn;
  e->offset = Peek().offset;
  e->name = Name();
  if (!Peek().IsPunct(".")) {
    if (auto slot = LocalSlot(e->name)) {  // a routine's variable comes before a column of its name
      e->kind = Expr::Kind::kLocalVar;
      e->slot = *slot;
      return e;
    }
  }
  if (AcceptPunct(".")) {
    e->table = std::move(e->name);
    e->name = Name();
    if (AcceptPunct(".")) {  // db.table.column: the database part is not needed
      e->table = std::move(e->name);
      e->name = Name();
    } else if (auto is_new = TriggerRow(e->table)) {  // a trigger's NEW.c or OLD.c
      e->kind = Expr::Kind::kTriggerField;
      e->table = *is_new ? "NEW" : "OLD";
    }
  }
  return e;
}

// GROUP_CONCAT(... [ORDER BY key [ASC | DESC], ...] [SEPARATOR 'text']): the separator ','
// unless given.
void Parser::GroupConcatTail(Expr& e) {
  e.value = Value::String(",");
  if (AcceptWords({"ORDER", "BY"})) {
    do {
      ExprPtr key = Expression();
      e.height = std::max(e.height, key->height + 1);
      const bool descending = AcceptWord("DESC");
      if (!descending) AcceptWord("ASC");
      e.order.emplace_back(std::move(key), descending);
    } while (AcceptPunct(","));
  }
  if (AcceptWord("SEPARATOR")) {
    if (!Peek().Is(TokenKind::kString)) Syntax();
    e.value = Value::String(Take().text);
  }
}

// TRIM([BOTH | LEADING | TRAILING] [remove] FROM s), or TRIM(s): the arguments s, remove
// (a space when not given) and which ends (string_functions.h TrimEnds), or s alone.
void Parser::TrimArguments(Expr& e) {
  std::int64_t ends = 0;
  if (AcceptWord("BOTH"))
    ends = 1;
  else if (AcceptWord("LEADING"))
    ends = 2;
  else if (AcceptWord("TRAILING"))
    ends = 3;
  ExprPtr first;
  if (!(ends && Peek().IsWord("FROM"))) first = Expression();
  if (!AcceptWord("FROM")) {
    if (ends) Syntax();
    Adopt(e, std::move(first));
    return;
  }
  auto literal = [](Value v) {
    auto l = std::make_unique<Expr>();
    l->value = std::move(v);
    return l;
  };
  Adopt(e, Expression());
  Adopt(e, first ? std::move(first) : literal(Value::String(" ")));
  Adopt(e, literal(Value::Int(ends ? ends : 1)));
}

ExprPtr Parser::Function() {
  auto e = std::make_unique<Expr>();
  e->kind = Expr::Kind::kFunction;
  e->offset = Peek().offset;
  e->written = Take().text;
  e->name = Upper(e->written);
  ExpectPunct("(");
  if (e->name == "TRIM") {
    TrimArguments(*e);
  } else if (e->name == "COUNT" && AcceptPunct("*")) {
    e->star = true;
  } else if (!Peek().IsPunct(")")) {
    if (IsAggregate(*e) && AcceptWord("DISTINCT")) {
      e->distinct = true;
    } else if (Peek().IsWord("DISTINCT")) {
      Syntax();
    }
    do Adopt(*e, Expression());
    while (AcceptPunct(","));
    if (e->name == "GROUP_CONCAT") GroupConcatTail(*e);
  } else if (IsAggregate(*e)) {
    Syntax();  // MAX(), COUNT(): an aggregate needs its argument, as the server's grammar says
  }
  ExpectPunct(")");
  if (e->name == "VALUES" && e->args.size() == 1 && e->args[0]->kind == Expr::Kind::kColumn) {
    ExprPtr column = std::move(e->args[0]);  // VALUES(c): the wanted row's c
    column->table = kInsertedRow;
    return column;
  }
  return e;
}

}  // namespace strata::sql::parser_internal
