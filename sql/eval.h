// Expression evaluation with MySQL's rules: NULL propagation and three-valued logic, numbers
// against strings compared as numbers, strings compared by collation (case-insensitively,
// trailing spaces ignored) unless one side is binary, and the functions users reach for.
#pragma once

#include "sql/engine_api.h"

#include <optional>
#include <string>
#include <variant>

#include "engine/schema.h"
#include "sql/ast.h"
#include "sql/parser.h"

namespace strata::sql {

// A value in flight: how it compares and converts depends on where it came from.
struct SqlValue {
  SqlValue() = default;
  SqlValue(Value v, LiteralKind k = LiteralKind::kPlain) : value(std::move(v)), kind(k) {}  // NOLINT: implicit

  Value value;
  LiteralKind kind = LiteralKind::kPlain;  // kBinary: bytes; kDecimal: exact digits in text
  // Text read from a column: its collation, which decides against a literal's (the session's
  // utf8mb4_general_ci), as the server's coercibility rules have it.
  std::optional<engine::TextRule> collation;
  // A DECIMAL computed with more digits than it shows (a quotient keeps nine digits per
  // nine, as the server's do): the digits after the point it is printed with; -1: all it has.
  int decimals = -1;
  // Read from a YEAR column: a constant compared with it is read as a YEAR (24 is 2024), as
  // the server converts it.
  bool year = false;
  // A 0x... literal: its bytes as a string, and the unsigned number they spell big-endian in
  // arithmetic, beside a number and into a numeric column, as the server reads it.
  bool hex_number = false;
  // Read from an ENUM, SET or BIT column (`value` is what it shows: the label text, the bits'
  // bytes): the number stored, which arithmetic, numeric functions, a comparison with a
  // number, ORDER BY and SUM use.
  std::optional<std::uint64_t> stored_number;
  // Read from a TIME column ("-838:59:59.5"): compared with text as a duration, read as the
  // number HHMMSS.f where one is wanted, as the server does.
  bool time = false;
  // Read from a UUID, INET4 or INET6 column: compared by the bytes that type stores (a
  // time-based UUID by its time), text beside it read as one.
  std::optional<engine::ColumnType> compares_as;

  // Read as another number where one is wanted (NumberOf).
  bool has_number() const { return stored_number || time; }
  // Read from a BIT column: its bytes, compared and aggregated as the number.
  bool is_bit() const { return stored_number && kind == LiteralKind::kBinary; }
};

// `v` as a number where one is wanted: an ENUM's, SET's or BIT's number, a TIME's HHMMSS.f, a
// 0x.. or b'..' literal's, else `v` itself.
SqlValue NumberOf(const SqlValue& v);

template <typename T>
class SqlResult {
 public:
  SqlResult(T v) : v_(std::move(v)) {}         // NOLINT: implicit, as Result<T> is
  SqlResult(SqlError e) : v_(std::move(e)) {}  // NOLINT
  bool ok() const { return v_.index() == 0; }
  T& operator*() { return std::get<0>(v_); }
  T* operator->() { return &std::get<0>(v_); }
  const SqlError& error() const { return std::get<1>(v_); }

 private:
  std::variant<T, SqlError> v_;
};

// What an expression can refer to besides literals.
class EvalContext {
 public:
  virtual ~EvalContext() = default;
  virtual SqlResult<SqlValue> Column(const Expr& column) const;  // ER_BAD_FIELD_ERROR by default
  virtual SqlResult<SqlValue> UserVariable(const std::string& name) const;
  virtual SqlResult<SqlValue> SystemVariable(const std::string& name) const;
  // DATABASE(), LAST_INSERT_ID(), CONNECTION_ID(), VERSION(): nullopt when unknown here.
  virtual std::optional<SqlValue> SessionFunction(const std::string& name) const;
  // The value of an aggregate (COUNT, SUM, ...) computed over the rows already.
  virtual const SqlValue* Aggregate(const Expr& call) const;
  // What x / 0, x DIV 0 and x % 0 give: NULL here; in a session, as its sql_mode says (a
  // warning, or in strict mode an error for INSERT and UPDATE).
  virtual SqlResult<SqlValue> DivisionByZero() const;
  // A warning for the statement (SHOW WARNINGS); dropped outside a session.
  virtual void Warn(const SqlWarning& w) const;
  // A stored routine's variable (Expr::Kind::kLocalVar), while the routine runs.
  virtual SqlResult<SqlValue> LocalVariable(const Expr& variable) const;
  // A trigger's NEW.c or OLD.c (Expr::Kind::kTriggerField), while the trigger runs.
  virtual SqlResult<SqlValue> TriggerField(const Expr& field) const;
  // A stored function of that name called with `args`; nullopt when there is none.
  virtual std::optional<SqlResult<SqlValue>> StoredFunction(const std::string& name, std::vector<SqlValue>& args) const;

  // GROUP BY ... WITH ROLLUP's total rows: the grouping expressions they total over, which read
  // as NULL there.
  std::vector<const Expr*> rolled_up;
};

SqlResult<SqlValue> Eval(const Expr& e, const EvalContext& ctx);

// <0, 0, >0; nullopt when either side is NULL.
std::optional<int> Compare(const SqlValue& a, const SqlValue& b);
// A WHERE condition's value: nullopt for NULL (which does not match).
std::optional<bool> Truth(const SqlValue& v);

bool IsAggregate(const Expr& e);
bool HasAggregate(const Expr& e);

// As the mysql client shows a value: NULL as nullopt, a float column's value in float
// precision, doubles in MySQL's shortest form ("1e20", "0.1"), an ENUM's or SET's number as
// its label text.
std::optional<std::string> Format(const Value& v, const Column* column = nullptr);
// A BIT(M) column's value as the client is sent it: (M + 7) / 8 bytes, big-endian.
std::string BitBytes(const Column& c, std::uint64_t n);

// The text a non-NULL value reads as where a string is wanted (CONCAT, LIKE): a YEAR column's
// value with its four digits, 0000 as the server has it.
std::string TextOf(const SqlValue& v);
// The year a YEAR column reads a number or numeric string as, rounded to an integer first
// (engine::YearOf); nullopt for what is not wholly a number.
std::optional<std::int64_t> YearConstant(const SqlValue& constant);

// As the client is sent an expression's value: Format, a DECIMAL rounded to the digits it shows.
std::optional<std::string> FormatResult(const SqlValue& v);

// A FLOAT(M,D) or DOUBLE(M,D) value with its D decimals, as the server prints it ("1.500").
std::string FixedDecimals(double v, std::uint32_t decimals);

// The value handed to a column for `v` (a DOUBLE into a text column as MySQL prints it); the
// engine converts the rest (a DECIMAL literal into an integer column is rounded there, exactly).
Value ToColumn(SqlValue v, const Column& c);

// MySQL's UUID(): a version-1 UUID, as text.
std::string NewUuid();

}  // namespace strata::sql
