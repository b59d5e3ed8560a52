#include "sql/expr_type.h"

#include <algorithm>
#include <string_view>

#include "sql/eval.h"
#include "sql/session_context.h"

namespace strata::sql {

namespace {

using engine::Column;

// What the server knows of a value's type while it derives an expression's: the kind, and for
// numbers the digits before and after the point (integers: also the characters they print in,
// sign included, which decide INT or BIGINT), for strings their characters.
struct Shape {
  enum class Kind : std::uint8_t { kInteger, kDecimal, kDouble, kString, kExact };
  Kind kind = Kind::kExact;
  std::uint32_t length = 0;  // integers: printed width; strings: characters
  std::uint32_t digits = 0;  // integers and DECIMAL: digits before the point
  std::uint32_t scale = 0;   // DECIMAL: digits after it
  bool is_unsigned = false;
  bool nullable = true;
  // A column's own integer type (kept when values are only chosen between, as IFNULL does);
  // none for arithmetic, whose type its width decides.
  std::optional<ColumnType> integer_type;
  Column exact;  // kExact: the type itself (a date, a time); kString: the charset and collation
};

using Kind = Shape::Kind;

Shape Integer(std::uint32_t length, bool is_unsigned, bool nullable) {
  Shape s;
  s.kind = Kind::kInteger;
  s.length = length;
  s.digits = is_unsigned ? length : length - 1;
  s.is_unsigned = is_unsigned;
  s.nullable = nullable;
  return s;
}

Shape Decimal(std::uint32_t digits, std::uint32_t scale, bool nullable) {
  Shape s;
  s.kind = Kind::kDecimal;
  s.digits = digits;
  s.scale = scale;
  s.nullable = nullable;
  return s;
}

Shape Double(bool nullable) {
  Shape s;
  s.kind = Kind::kDouble;
  s.nullable = nullable;
  return s;
}

Shape Exact(Column c, bool nullable) {
  Shape s;
  s.exact = std::move(c);
  s.nullable = nullable;
  return s;
}

// The width the server prints an integer type in (INT is int(11), INT UNSIGNED int(10)).
std::uint32_t IntegerWidth(ColumnType t, bool is_unsigned) {
  switch (t) {
    case ColumnType::kTinyInt:
      return is_unsigned ? 3 : 4;
    case ColumnType::kSmallInt:
      return is_unsigned ? 5 : 6;
    case ColumnType::kMediumInt:
      return is_unsigned ? 8 : 9;
    case ColumnType::kInt:
      return is_unsigned ? 10 : 11;
    default:
      return 20;
  }
}

Shape OfColumn(const Column& c) {
  if (c.is_integer() && c.type != ColumnType::kBigInt) {
    Shape s = Integer(IntegerWidth(c.type, c.is_unsigned), c.is_unsigned, c.nullable);
    s.integer_type = c.type;
    return s;
  }
  if (c.type == ColumnType::kBigInt) {  // 19 digits signed, 20 unsigned: 20 characters either way
    Shape s = Integer(20, c.is_unsigned, c.nullable);
    s.digits = c.is_unsigned ? 20 : 19;
    s.integer_type = c.type;
    return s;
  }
  if (c.type == ColumnType::kDecimal) return Decimal(c.length - c.scale, c.scale, c.nullable);
  if (c.type == ColumnType::kFloat || c.type == ColumnType::kDouble) return Double(c.nullable);
  if ((c.type == ColumnType::kVarchar || c.type == ColumnType::kChar) && c.is_string()) {
    Shape s = Exact(c, c.nullable);
    s.kind = Kind::kString;
    s.length = c.length;
    return s;
  }
  return Exact(c, c.nullable);
}

std::optional<Shape> OfLiteral(const Expr& e) {
  const Value& v = e.value;
  if (v.is_null()) return Exact(engine::Col("", ColumnType::kBinary, 0), true);  // as the server: binary(0)
  if (e.literal_kind == LiteralKind::kBinary) return std::nullopt;
  if (v.is_int() || v.is_uint()) {
    const std::string text = v.is_int() ? std::to_string(v.as_int()) : std::to_string(v.as_uint());
    Shape s = Integer(static_cast<std::uint32_t>(text.size()), v.is_uint(), false);
    s.digits = static_cast<std::uint32_t>(text.size()) - (text[0] == '-' ? 1 : 0);
    const bool fits_int = v.is_int() && v.as_int() >= INT32_MIN && v.as_int() <= INT32_MAX;
    s.integer_type = fits_int ? ColumnType::kInt : ColumnType::kBigInt;
    return s;
  }
  if (v.is_double()) return Double(false);
  const std::string& text = v.as_string();
  if (e.literal_kind == LiteralKind::kDecimal) {
    const std::string_view digits(text.data() + (text[0] == '-' ? 1 : 0));
    const std::size_t point = digits.find('.');
    if (point == std::string_view::npos) return Decimal(static_cast<std::uint32_t>(digits.size()), 0, false);
    return Decimal(static_cast<std::uint32_t>(point), static_cast<std::uint32_t>(digits.size() - point - 1), false);
  }
  Shape s = Exact(engine::Col("", ColumnType::kVarchar), false);
  s.kind = Kind::kString;
  s.length = static_cast<std::uint32_t>(
      std::count_if(text.begin(), text.end(), [](char b) { return (static_cast<unsigned char>(b) & 0xC0) != 0x80; }));
  return s;
}

bool Numeric(const Shape& s) { return s.kind == Kind::kInteger || s.kind == Kind::kDecimal || s.kind == Kind::kDouble; }

// + - * / DIV % of two numbers, as the server widens them.
std::optional<Shape> Arithmetic(const std::string& op, const Shape& a, const Shape& b) {
  const bool nullable = a.nullable || b.nullable || op == "/" || op == "DIV" || op == "%";
  if (!Numeric(a) || !Numeric(b)) return std::nullopt;
  if (op == "DIV") return Integer(20, false, nullable);
  if (a.kind == Kind::kDouble || b.kind == Kind::kDouble) return Double(nullable);
  if (op == "/") return Decimal(a.digits + b.scale, a.scale + 4, nullable);  // div_precision_increment
  if (a.kind == Kind::kDecimal || b.kind == Kind::kDecimal) {
    if (op == "*") return Decimal(a.digits + b.digits, a.scale + b.scale, nullable);
    if (op == "%") return Decimal(std::max(a.digits, b.digits), std::max(a.scale, b.scale), nullable);
    return Decimal(std::max(a.digits, b.digits) + 1, std::max(a.scale, b.scale), nullable);
  }
  if (op == "*") return Integer(a.length + b.length, a.is_unsigned || b.is_unsigned, nullable);
  if (op == "%") return Integer(std::max(a.length, b.length), a.is_unsigned, nullable);
  return Integer(std::max(a.length, b.length) + 1, a.is_unsigned || b.is_unsigned, nullable);
}

// One type for values chosen among (IFNULL, COALESCE, IF): the widest of the same kind.
std::optional<Shape> Aggregate(const std::vector<Shape>& shapes) {
  Shape out = shapes.front();
  for (const Shape& s : shapes) {
    out.nullable = out.nullable || s.nullable;
    if (s.kind == Kind::kDouble || out.kind == Kind::kDouble) {
      if (!Numeric(s) || !Numeric(out)) return std::nullopt;
      out = Double(out.nullable);
    } else if (s.kind == Kind::kString && out.kind == Kind::kString) {
      out.length = std::max(out.length, s.length);
    } else if (s.kind == Kind::kInteger && out.kind == Kind::kInteger) {
      out.length = std::max(out.length, s.length);
      out.digits = std::max(out.digits, s.digits);
      out.is_unsigned = out.is_unsigned && s.is_unsigned;
      out.integer_type = s.integer_type && out.integer_type
                             ? std::optional(std::max(*s.integer_type, *out.integer_type))
                             : std::nullopt;
    } else if (Numeric(s) && Numeric(out)) {
      out = Decimal(std::max(out.digits, s.digits), std::max(out.scale, s.scale), out.nullable);
    } else {
      return std::nullopt;
    }
  }
  return out;
}

class Deriver {
 public:
  explicit Deriver(const TableSpec* from) : from_(from) {}

  std::optional<Shape> Of(const Expr& e) {
    switch (e.kind) {
      case Expr::Kind::kColumn: {
        auto i = from_ ? FindColumn(*from_, e.name) : std::nullopt;
        if (!i) return std::nullopt;
        return OfColumn(from_->columns[*i]);
      }
      case Expr::Kind::kLiteral:
        return OfLiteral(e);
      case Expr::Kind::kBinary:
        return Binary(e);
      case Expr::Kind::kUnary: {
        auto a = Of(*e.args[0]);
        if (!a) return std::nullopt;
        if (e.op == "NOT") return Truth(a->nullable);
        if (e.op == "~") return Integer(20, true, a->nullable);
        if (a->kind == Kind::kInteger) return Integer(a->length + 1, false, a->nullable);
        return Numeric(*a) ? a : std::nullopt;
      }
      case Expr::Kind::kIsNull:
        return Truth(false);
      case Expr::Kind::kIn:
      case Expr::Kind::kBetween:
      case Expr::Kind::kLike:
        return Truth(AnyNullable(e.args));
      case Expr::Kind::kFunction:
        return Function(e);
      default:
        return std::nullopt;
    }
  }

 private:
  static Shape Truth(bool nullable) {
    Shape s = Integer(1, false, nullable);
    s.integer_type = ColumnType::kInt;
    return s;
  }

  bool AnyNullable(const std::vector<ExprPtr>& args) {
    return std::any_of(args.begin(), args.end(), [&](const ExprPtr& a) {
      auto s = Of(*a);
      return !s || s->nullable;
    });
  }

  std::optional<Shape> Binary(const Expr& e) {
    if (e.op == "=" || e.op == "<>" || e.op == "<" || e.op == "<=" || e.op == ">" || e.op == ">=" || e.op == "AND" ||
        e.op == "OR" || e.op == "XOR")
      return Truth(AnyNullable(e.args));
    if (e.op == "<=>") return Truth(false);
    auto a = Of(*e.args[0]);
    auto b = Of(*e.args[1]);
    if (!a || !b) return std::nullopt;
    return Arithmetic(e.op, *a, *b);
  }

  std::optional<std::vector<Shape>> Args(const Expr& e, std::size_t from = 0) {
    std::vector<Shape> out;
    for (std::size_t i = from; i < e.args.size(); ++i) {
      auto s = Of(*e.args[i]);
      if (!s) return std::nullopt;
      out.push_back(std::move(*s));
    }
    if (out.empty()) return std::nullopt;
    return out;
  }

  std::optional<Shape> Function(const Expr& e) {
    const std::string& f = e.name;
    if (f == "COUNT") return Integer(21, false, false);
    if (f == "NOW" || f == "CURRENT_TIMESTAMP" || f == "LOCALTIME" || f == "LOCALTIMESTAMP" || f == "SYSDATE")
      return Exact(engine::Col("", ColumnType::kDatetime), false);
    if (f == "CURDATE" || f == "CURRENT_DATE") return Exact(engine::Col("", ColumnType::kDate), false);
    auto args = Args(e);
    if (!args) return std::nullopt;
    const Shape& first = args->front();
    if (f == "MIN" || f == "MAX") {
      Shape s = first;
      s.nullable = true;
      return s;
    }
    if (f == "SUM" || f == "AVG") {
      if (first.kind == Kind::kDouble) return Double(true);
      if (!Numeric(first)) return std::nullopt;
      const std::uint32_t scale = first.kind == Kind::kDecimal ? first.scale : 0;
      if (f == "SUM") return Decimal(first.digits + 22, scale, true);
      return Decimal(first.digits, scale + 4, true);
    }
    if (f == "IFNULL" || f == "COALESCE") {
      auto s = Aggregate(*args);
      if (s)
        s->nullable = f == "IFNULL" ? args->back().nullable
                                    : std::all_of(args->begin(), args->end(), [](auto& a) { return a.nullable; });
      return s;
    }
    if (f == "IF" && args->size() == 3) {
      auto s = Aggregate({(*args)[1], (*args)[2]});
      if (s) s->nullable = true;
      return s;
    }
    if ((f == "UPPER" || f == "LOWER" || f == "UCASE" || f == "LCASE") && first.kind == Kind::kString) {
      Shape s = first;
      s.nullable = true;
      return s;
    }
    if (f == "LENGTH" || f == "OCTET_LENGTH" || f == "CHAR_LENGTH" || f == "CHARACTER_LENGTH") {
      Shape s = Integer(10, false, first.nullable);
      s.integer_type = ColumnType::kInt;
      return s;
    }
    if (f == "ABS" && Numeric(first)) {  // arithmetic: its width, not its column's type, decides
      Shape s = first;
      s.integer_type.reset();
      return s;
    }
    if (f == "CONCAT") return Concat(*args);
    return std::nullopt;
  }

  // The characters each piece prints in, added up; the first string's character set. Nullable
  // always, as the server has it (a result past max_allowed_packet is NULL).
  static std::optional<Shape> Concat(const std::vector<Shape>& args) {
    Shape out = Exact(engine::Col("", ColumnType::kVarchar), true);
    out.kind = Kind::kString;
    bool charset_taken = false;
    for (const Shape& s : args) {
      out.nullable = out.nullable || s.nullable;
      if (s.kind == Kind::kString) {
        out.length += s.length;
        if (!charset_taken) out.exact = s.exact;
        charset_taken = true;
      } else if (s.kind == Kind::kInteger) {
        out.length += s.length;
      } else if (s.kind == Kind::kDecimal) {
        out.length += s.digits + s.scale + 2;  // sign and point
      } else {
        return std::nullopt;
      }
    }
    return out;
  }

  const TableSpec* from_;
};

std::optional<Column> ColumnOf(const Shape& s, const std::string& name) {
  Column c;
  switch (s.kind) {
    case Kind::kInteger:
      c = engine::Col(name, s.integer_type ? *s.integer_type : s.length <= 10 ? ColumnType::kInt : ColumnType::kBigInt);
      c.is_unsigned = s.is_unsigned;
      break;
    case Kind::kDecimal:
      c = engine::Col(name, ColumnType::kDecimal, std::clamp(s.digits + s.scale, 1u, 65u));
      c.scale = std::min(s.scale, 30u);
      break;
    case Kind::kDouble:
      c = engine::Col(name, ColumnType::kDouble);
      break;
    case Kind::kString:
      if (s.length > 16383) return std::nullopt;  // the server makes a TEXT of it
      c = s.exact;
      c.type = ColumnType::kVarchar;
      c.length = s.length;
      c.default_value.reset();
      break;
    case Kind::kExact:
      c = s.exact;
      break;
  }
  c.name = name;
  c.nullable = s.nullable;
  c.auto_increment = false;
  return c;
}

}  // namespace

std::optional<Column> ExprColumn(const std::string& name, const Expr& e, const TableSpec* from) {
  if (e.kind == Expr::Kind::kColumn) {  // the column itself, default and all
    auto i = from ? FindColumn(*from, e.name) : std::nullopt;
    if (!i) return std::nullopt;
    Column c = from->columns[*i];
    c.name = name;
    c.auto_increment = false;
    return c;
  }
  auto shape = Deriver(from).Of(e);
  if (!shape) return std::nullopt;
  return ColumnOf(*shape, name);
}

}  // namespace strata::sql
