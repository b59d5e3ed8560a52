#include "sql/expr_text.h"

#include <fmt/format.h>

#include <algorithm>
#include <string_view>

#include "ondisk/identifier.h"
#include "sql/eval.h"
#include "sqltext/lexer.h"

namespace strata::sql {

namespace {

// Binding strength, as MariaDB's printer ranks operators: a weaker operand is parenthesised.
enum Precedence : int {
  kOr = 1,
  kXor,
  kAnd,
  kNot,
  kComparison,  // = <=> <> < <= > >= IS LIKE IN BETWEEN
  kAdditive,
  kMultiplicative,
  kUnary,
  kPrimary
};

bool IsComparison(std::string_view op) {
  return op == "=" || op == "<=>" || op == "<>" || op == "<" || op == "<=" || op == ">" || op == ">=";
}
bool IsLogical(std::string_view op) { return op == "AND" || op == "OR" || op == "XOR"; }

int NegatedPrecedence(const Expr& e);

int PrecedenceOf(const Expr& e) {
  switch (e.kind) {
    case Expr::Kind::kBinary:
      if (e.op == "OR") return kOr;
      if (e.op == "XOR") return kXor;
      if (e.op == "AND") return kAnd;
      if (IsComparison(e.op)) return kComparison;
      if (e.op == "+" || e.op == "-") return kAdditive;
      return kMultiplicative;
    case Expr::Kind::kUnary:
      return e.op == "NOT" ? NegatedPrecedence(*e.args[0]) : kUnary;
    case Expr::Kind::kIn:
    case Expr::Kind::kBetween:
    case Expr::Kind::kIsNull:
    case Expr::Kind::kLike:
      return kComparison;
    case Expr::Kind::kLiteral:
      // A negative number prints with its sign: beside a binary minus it is an operand, not an operator.
      return kPrimary;
    default:
      return kPrimary;
  }
}

// How NOT e binds as printed (Printer::Negated): NOT (a AND b) prints as an OR, NOT (a = b)
// as a comparison, what has no opposite as !(...).
int NegatedPrecedence(const Expr& e) {
  switch (e.kind) {
    case Expr::Kind::kBinary:
      if (e.op == "AND") return kOr;
      if (e.op == "OR") return kAnd;
      return IsComparison(e.op) && e.op != "<=>" ? kComparison : kPrimary;
    case Expr::Kind::kIn:
    case Expr::Kind::kBetween:
    case Expr::Kind::kIsNull:
    case Expr::Kind::kLike:
    case Expr::Kind::kColumn:
      return kComparison;
    case Expr::Kind::kUnary:
      return e.op == "NOT" ? std::min<int>(PrecedenceOf(*e.args[0]), kComparison) : kPrimary;
    default:
      return kPrimary;
  }
}

// Whether `e` is a truth value; other operands of AND and OR print as `e <> 0`, as the server
// turns them into one.
bool IsTruth(const Expr& e) {
  switch (e.kind) {
    case Expr::Kind::kBinary:
      return IsComparison(e.op) || IsLogical(e.op);
    case Expr::Kind::kUnary:
      return e.op == "NOT";
    case Expr::Kind::kIn:
    case Expr::Kind::kBetween:
    case Expr::Kind::kIsNull:
    case Expr::Kind::kLike:
    case Expr::Kind::kLiteral:
      return true;
    default:
      return false;
  }
}

std::string LiteralText(const Expr& e) {
  const Value& v = e.value;
  if (v.is_null()) return "NULL";
  if (v.is_double() && !e.written.empty()) return e.written;  // as written: 1e3, 1.5e-3
  if (v.is_int()) return std::to_string(v.as_int());
  if (v.is_uint()) return std::to_string(v.as_uint());
  if (v.is_double()) return fmt::format("{}", v.as_double());
  const std::string& s = v.as_string();
  if (e.literal_kind == LiteralKind::kDecimal) return s;
  if (e.literal_kind != LiteralKind::kBinary || e.written == "_binary") {
    std::string quoted = e.literal_kind == LiteralKind::kBinary ? "_binary" : "";
    AppendQuotedString(quoted, s);  // with the backslash escapes the server writes
    return quoted;
  }
  std::string hex;
  for (unsigned char b : s) hex += fmt::format("{:02x}", b);
  return e.hex_number ? "0x" + hex : "X'" + hex + "'";  // 0x.. and b'..' print as 0x..
}

// The name MariaDB prints a function under (UPPER is ucase, NOW current_timestamp, ...).
std::string FunctionName(const Expr& e) {
  static constexpr std::pair<std::string_view, std::string_view> kCanonical[] = {
      {"UPPER", "ucase"},
      {"LOWER", "lcase"},
      {"LENGTH", "octet_length"},
      {"CHARACTER_LENGTH", "char_length"},
      {"CEIL", "ceiling"},
      {"NOW", "current_timestamp"},
      {"CURRENT_TIMESTAMP", "current_timestamp"},
      {"LOCALTIME", "current_timestamp"},
      {"LOCALTIMESTAMP", "current_timestamp"},
      {"CURRENT_DATE", "curdate"},
      {"SUBSTRING", "substr"},
      {"ASTEXT", "st_astext"},
      {"ASWKT", "st_astext"},
      {"ST_ASWKT", "st_astext"},
      {"GEOMFROMTEXT", "st_geometryfromtext"},
      {"GEOMETRYFROMTEXT", "st_geometryfromtext"},
      {"ST_GEOMFROMTEXT", "st_geometryfromtext"},
      {"ST_ASWKB", "st_aswkb"},
      {"ST_ASBINARY", "st_aswkb"}};
  for (const auto& [from, to] : kCanonical) {
    if (e.name == from) return std::string(to);
  }
  std::string lower = e.name;
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  return lower;
}

class Printer {
 public:
  explicit Printer(const std::string& qualifier) : qualifier_(qualifier) {}
  // Names printed bare: the select list's aliases, where HAVING names them.
  void set_aliases(std::vector<std::string> aliases) { aliases_ = std::move(aliases); }

  std::string Print(const Expr& e) {
    switch (e.kind) {
      case Expr::Kind::kLiteral:
        return LiteralText(e);
      case Expr::Kind::kColumn: {
        const bool alias = std::any_of(aliases_.begin(), aliases_.end(),
                                       [&](const std::string& a) { return EqualsIgnoreCase(a, e.name); });
        return (qualifier_.empty() || alias ? "" : qualifier_ + ".") + ondisk::QuoteIdentifier(e.name);
      }
      case Expr::Kind::kUserVar:
        return "@" + ondisk::QuoteIdentifier(e.name);
      case Expr::Kind::kSystemVar:
        return "@@" + e.name;
      case Expr::Kind::kUnary:
        if (e.op == "NOT") return Negated(*e.args[0]);
        return e.op + Operand(*e.args[0], kUnary, false);
      case Expr::Kind::kBinary:
        return Binary(e);
      case Expr::Kind::kFunction:
        return Function(e);
      case Expr::Kind::kIn:
        return In(e, e.negated);
      case Expr::Kind::kBetween:
        return Between(e, e.negated);
      case Expr::Kind::kIsNull:
        return Operand(*e.args[0], kComparison, false) + (e.negated ? " is not null" : " is null");
      case Expr::Kind::kLike:
        return Like(e, e.negated);
      case Expr::Kind::kDefault:
        return "default";
      case Expr::Kind::kLocalVar:
      case Expr::Kind::kTriggerField:
        break;
    }
    return ondisk::QuoteIdentifier(e.name);
  }

  // As a truth value: what is not one compared with 0.
  std::string Truth(const Expr& e, int parent) {
    if (IsTruth(e)) return Operand(e, parent, false);
    return Operand(e, kAdditive, false) + " <> 0";
  }

 private:
  std::string Operand(const Expr& e, int parent, bool right) {
    const int mine = PrecedenceOf(e);
    const bool wrap = mine < parent || (right && mine == parent && !(e.kind == Expr::Kind::kBinary && IsLogical(e.op)));
    return wrap ? "(" + Print(e) + ")" : Print(e);
  }

  std::string Binary(const Expr& e) {
    const int mine = PrecedenceOf(e);
    if (e.op == "AND" || e.op == "OR") {
      const std::string op = e.op == "AND" ? " and " : " or ";
      return Truth(*e.args[0], mine) + op + Truth(*e.args[1], mine);
    }
    std::string op = e.op == "XOR" ? "xor" : e.op == "%" ? "MOD" : e.op;
    return Operand(*e.args[0], mine, false) + " " + op + " " + Operand(*e.args[1], mine, true);
  }

  std::string Function(const Expr& e) {
    const std::string name = FunctionName(e);
    if (e.star) return name + "(0)";  // COUNT(*) is count(0)
    if (e.name == "TRIM" && e.args.size() == 3) {
      const std::int64_t ends = e.args[2]->value.is_int() ? e.args[2]->value.as_int() : 1;
      return fmt::format("trim({} {} from {})",
                         ends == 2   ? "leading"
                         : ends == 3 ? "trailing"
                                     : "both",
                         Print(*e.args[1]), Print(*e.args[0]));
    }
    std::string out = name + (e.distinct ? "(distinct " : "(");
    for (std::size_t i = 0; i < e.args.size(); ++i) out += (i ? "," : "") + Print(*e.args[i]);
    if (e.name == "GROUP_CONCAT") {
      for (std::size_t i = 0; i < e.order.size(); ++i)
        out += (i ? "," : " order by ") + Print(*e.order[i].first) + (e.order[i].second ? " DESC" : " ASC");
      return out + " separator " + LiteralText(e) + ")";
    }
    if (e.name == "ROUND" && e.args.size() == 1) out += ",0";
    return out + ")";
  }

  std::string In(const Expr& e, bool negated) {
    if (e.args.size() == 2)  // IN (x) is = x
      return Operand(*e.args[0], kComparison, false) + (negated ? " <> " : " = ") +
             Operand(*e.args[1], kComparison, true);
    std::string out = Operand(*e.args[0], kComparison, false) + (negated ? " not in (" : " in (");
    for (std::size_t i = 1; i < e.args.size(); ++i) out += (i > 1 ? "," : "") + Print(*e.args[i]);
    return out + ")";
  }

  std::string Between(const Expr& e, bool negated) {
    return Operand(*e.args[0], kComparison, false) + (negated ? " not between " : " between ") +
           Operand(*e.args[1], kAdditive, false) + " and " + Operand(*e.args[2], kAdditive, false);
  }

  // (MariaDB writes two spaces before NOT LIKE.)
  std::string Like(const Expr& e, bool negated) {
    return Operand(*e.args[0], kComparison, false) + (negated ? "  not like " : " like ") +
           Operand(*e.args[1], kComparison, true);
  }

  // NOT e, as the server prints it once it has pushed the NOT inwards.
  std::string Negated(const Expr& e) {
    switch (e.kind) {
      case Expr::Kind::kBinary: {
        static constexpr std::pair<std::string_view, std::string_view> kInverse[] = {
            {"=", "<>"}, {"<>", "="}, {"<", ">="}, {">=", "<"}, {">", "<="}, {"<=", ">"}};
        for (const auto& [op, inverse] : kInverse) {
          if (e.op == op)
            return Operand(*e.args[0], kComparison, false) + " " + std::string(inverse) + " " +
                   Operand(*e.args[1], kComparison, true);
        }
        if (e.op == "AND" || e.op == "OR") {  // De Morgan
          const int flipped = e.op == "AND" ? kOr : kAnd;
          return NegatedOperand(*e.args[0], flipped) + (e.op == "AND" ? " or " : " and ") +
                 NegatedOperand(*e.args[1], flipped);
        }
        if (e.op == "XOR") break;
        break;
      }
      case Expr::Kind::kIn:
        return In(e, !e.negated);
      case Expr::Kind::kBetween:
        return Between(e, !e.negated);
      case Expr::Kind::kLike:
        return Like(e, !e.negated);
      case Expr::Kind::kIsNull:
        return Operand(*e.args[0], kComparison, false) + (e.negated ? " is null" : " is not null");
      case Expr::Kind::kUnary:
        if (e.op == "NOT") return Truth(*e.args[0], kNot);
        break;
      case Expr::Kind::kColumn:
        return Print(e) + " = 0";
      default:
        break;
    }
    return "!(" + Print(e) + ")";
  }

  std::string NegatedOperand(const Expr& e, int parent) {
    const std::string text = Negated(e);
    return NegatedPrecedence(e) < parent ? "(" + text + ")" : text;
  }

  const std::string& qualifier_;
  std::vector<std::string> aliases_;
};

}  // namespace

std::string ExprText(const Expr& e, const std::string& qualifier) { return Printer(qualifier).Print(e); }

std::string SelectText(const Select& s, const std::string& current, const std::string& home) {
  std::string qualifier;
  std::string from;
  if (s.from) {
    const std::string& database = s.from->database.empty() ? home : s.from->database;
    const bool elsewhere = !database.empty() && database != current;
    from = (elsewhere ? ondisk::QuoteIdentifier(database) + "." : "") + ondisk::QuoteIdentifier(s.from->name);
    qualifier = s.from_alias.empty() ? from : ondisk::QuoteIdentifier(s.from_alias);
    if (!s.from_alias.empty()) from += " " + qualifier;
  }
  Printer p(qualifier);
  std::string out = s.distinct ? "select distinct " : "select ";
  for (std::size_t i = 0; i < s.items.size(); ++i) {
    const SelectItem& item = s.items[i];  // (a view's has no `*` left; another SELECT may)
    out += (i ? "," : "") + (item.expr ? p.Print(*item.expr) + " AS " + ondisk::QuoteIdentifier(item.alias) : "*");
  }
  if (s.from) out += " from " + from;
  if (s.where) out += " where " + p.Truth(*s.where, 0);
  for (std::size_t i = 0; i < s.group_by.size(); ++i) {
    out += (i ? "," : " group by ") + p.Print(*s.group_by[i].expr) + (s.group_by[i].descending ? " desc" : "");
  }
  if (s.rollup) out += " with rollup";
  if (s.having) {
    std::vector<std::string> aliases;
    for (const SelectItem& item : s.items) {
      if (item.expr && !(item.expr->kind == Expr::Kind::kColumn && EqualsIgnoreCase(item.expr->name, item.alias)))
        aliases.push_back(item.alias);
    }
    p.set_aliases(std::move(aliases));
    out += " having " + p.Truth(*s.having, 0);
  }
  for (std::size_t i = 0; i < s.order_by.size(); ++i) {
    out += (i ? "," : " order by ") + p.Print(*s.order_by[i].expr) + (s.order_by[i].descending ? " desc" : "");
  }
  if (s.limit) out += s.offset ? fmt::format(" limit {},{}", s.offset, *s.limit) : fmt::format(" limit {}", *s.limit);
  return out;
}

}  // namespace strata::sql
