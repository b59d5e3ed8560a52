#include "sql/values_reader.h"

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>

#include "sqltext/lexer.h"

namespace strata::sql {

namespace {

bool Space(char c) { return c == ' ' || c == '\n' || c == '\t' || c == '\r'; }
bool WordChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$'; }

class Reader {
 public:
  Reader(std::string_view s, std::size_t at) : s_(s), i_(at) {}

  ValuesRead Run(const ValuesRow& row) {
    std::vector<std::optional<SqlValue>> values;
    while (true) {
      SkipSpace();
      if (!Accept('(')) return Stop(ValuesRead::Outcome::kSyntax);
      values.clear();
      SkipSpace();
      if (!Accept(')')) {
        while (true) {
          SkipSpace();
          auto v = Literal();
          if (outcome_ != ValuesRead::Outcome::kOk) return Stop(outcome_);
          values.push_back(std::move(v));
          SkipSpace();
          if (Accept(',')) continue;
          if (Accept(')')) break;
          return Stop(NextIsExpression() ? ValuesRead::Outcome::kNotLiteral : ValuesRead::Outcome::kSyntax);
        }
      }
      if (!row(values)) return {};
      SkipSpace();
      if (Accept(',')) continue;
      if (Accept(';')) SkipSpace();
      if (i_ >= s_.size()) return {};
      // ON DUPLICATE KEY UPDATE and the like: the parser's business.
      return Stop(ValuesRead::Outcome::kNotLiteral);
    }
  }

 private:
  ValuesRead Stop(ValuesRead::Outcome o) { return {o, i_}; }
  void SkipSpace() {
    while (i_ < s_.size()) {
      if (Space(s_[i_])) {
        ++i_;
      } else if (s_[i_] == '/' && i_ + 1 < s_.size() && s_[i_ + 1] == '*') {
        const std::size_t end = s_.find("*/", i_ + 2);
        if (end == std::string_view::npos || (i_ + 2 < s_.size() && s_[i_ + 2] == '!')) return;
        i_ = end + 2;
      } else {
        return;
      }
    }
  }
  bool Accept(char c) {
    if (i_ < s_.size() && s_[i_] == c) {
      ++i_;
      return true;
    }
    return false;
  }
  bool NextIsExpression() const {
    return i_ < s_.size() && std::string_view("+-*/%<>=!&|^").find(s_[i_]) != std::string_view::npos;
  }
  bool Word(std::string_view w) {
    if (s_.size() - i_ < w.size() || !EqualsIgnoreCase(s_.substr(i_, w.size()), w)) return false;
    if (i_ + w.size() < s_.size() && WordChar(s_[i_ + w.size()])) return false;
    i_ += w.size();
    return true;
  }

  std::optional<SqlValue> Literal() {
    if (i_ >= s_.size()) {
      outcome_ = ValuesRead::Outcome::kSyntax;
      return std::nullopt;
    }
    const char c = s_[i_];
    if (c == '\'' || c == '"') return QuotedString(LiteralKind::kPlain);
    if (c == '-' || c == '+' || c == '.' || std::isdigit(static_cast<unsigned char>(c))) {
      if (c == '0' && i_ + 1 < s_.size() && (s_[i_ + 1] == 'x' || s_[i_ + 1] == 'X')) return Hex(i_ + 2, false);
      if (c == '0' && i_ + 1 < s_.size() && s_[i_ + 1] == 'b') return Bits(i_ + 2, false);
      return Number();
    }
    if ((c == 'x' || c == 'X') && i_ + 1 < s_.size() && s_[i_ + 1] == '\'') return Hex(i_ + 2, true);
    if ((c == 'b' || c == 'B') && i_ + 1 < s_.size() && s_[i_ + 1] == '\'') return Bits(i_ + 2, true);
    if (Word("NULL")) return SqlValue{};
    if (Word("DEFAULT")) {
      return std::nullopt;  // nullopt with outcome kOk: DEFAULT
    }
    if (Word("TRUE")) return SqlValue{Value::Int(1)};
    if (Word("FALSE")) return SqlValue{Value::Int(0)};
    if (c == '_') {  // _binary '...', _utf8mb4 '...'
      std::size_t j = i_ + 1;
      while (j < s_.size() && WordChar(s_[j])) ++j;
      const bool binary = EqualsIgnoreCase(s_.substr(i_, j - i_), "_binary");
      i_ = j;
      SkipSpace();
      if (i_ < s_.size() && (s_[i_] == '\'' || s_[i_] == '"'))
        return QuotedString(binary ? LiteralKind::kBinary : LiteralKind::kPlain);
      if (i_ + 1 < s_.size() && s_[i_] == '0' && (s_[i_ + 1] == 'x' || s_[i_ + 1] == 'X')) return Hex(i_ + 2, false);
      if (i_ + 1 < s_.size() && (s_[i_] == 'x' || s_[i_] == 'X') && s_[i_ + 1] == '\'') return Hex(i_ + 2, true);
    }
    outcome_ = ValuesRead::Outcome::kNotLiteral;
    return std::nullopt;
  }

  std::optional<SqlValue> QuotedString(LiteralKind kind) {
    std::string text;
    const std::size_t end = ScanString(s_, i_, &text);
    if (end == std::string_view::npos) {
      outcome_ = ValuesRead::Outcome::kSyntax;
      return std::nullopt;
    }
    i_ = end;
    // 'a' 'b' is 'ab'.
    SkipSpace();
    while (i_ < s_.size() && (s_[i_] == '\'' || s_[i_] == '"')) {
      const std::size_t e = ScanString(s_, i_, &text);
      if (e == std::string_view::npos) {
        outcome_ = ValuesRead::Outcome::kSyntax;
        return std::nullopt;
      }
      i_ = e;
      SkipSpace();
    }
    return SqlValue{Value::String(std::move(text)), kind};
  }

  std::optional<SqlValue> Hex(std::size_t digits_at, bool quoted) {
    std::size_t j = digits_at;
    while (j < s_.size() && std::isxdigit(static_cast<unsigned char>(s_[j]))) ++j;
    std::string bytes;
    const std::string_view digits = s_.substr(digits_at, j - digits_at);
    if ((quoted && (j >= s_.size() || s_[j] != '\'' || digits.size() % 2)) || !DecodeHex(digits, &bytes)) {
      outcome_ = ValuesRead::Outcome::kSyntax;
      return std::nullopt;
    }
    i_ = quoted ? j + 1 : j;
    SqlValue v{Value::String(std::move(bytes)), LiteralKind::kBinary};
    v.hex_number = !quoted;  // 0x...: a number into a numeric column; X'...': bytes
    return v;
  }

  // b'0101' and 0b101: bytes, and a number where one is wanted (a BIT column's value in a dump).
  std::optional<SqlValue> Bits(std::size_t digits_at, bool quoted) {
    std::size_t j = digits_at;
    while (j < s_.size() && (s_[j] == '0' || s_[j] == '1')) ++j;
    std::string bytes;
    const bool closed = quoted ? j < s_.size() && s_[j] == '\'' : j > digits_at && (j == s_.size() || !WordChar(s_[j]));
    if (!closed || !DecodeBits(s_.substr(digits_at, j - digits_at), &bytes)) {
      outcome_ = ValuesRead::Outcome::kNotLiteral;  // the full parser says what it is
      return std::nullopt;
    }
    i_ = quoted ? j + 1 : j;
    SqlValue v{Value::String(std::move(bytes)), LiteralKind::kBinary};
    v.hex_number = true;
    return v;
  }

  std::optional<SqlValue> Number() {
    const std::size_t start = i_;
    if (s_[i_] == '-' || s_[i_] == '+') ++i_;
    const std::size_t digits = i_;
    while (i_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[i_]))) ++i_;
    bool point = false, exponent = false;
    if (i_ < s_.size() && s_[i_] == '.') {
      point = true;
      ++i_;
      while (i_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[i_]))) ++i_;
    }
    if (i_ < s_.size() && (s_[i_] == 'e' || s_[i_] == 'E')) {
      exponent = true;
      ++i_;
      if (i_ < s_.size() && (s_[i_] == '+' || s_[i_] == '-')) ++i_;
      while (i_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[i_]))) ++i_;
    }
    if (i_ == digits || (i_ < s_.size() && WordChar(s_[i_]))) {
      outcome_ = ValuesRead::Outcome::kNotLiteral;  // "-col" or "1abc": leave it to the parser
      return std::nullopt;
    }
    std::string_view text = s_.substr(start, i_ - start);
    if (text[0] == '+') text.remove_prefix(1);
    if (exponent) {
      const double d = std::strtod(std::string(text).c_str(), nullptr);
      if (!std::isfinite(d)) {  // past DOUBLE: the parser's error 1367 says so
        outcome_ = ValuesRead::Outcome::kNotLiteral;
        return std::nullopt;
      }
      return SqlValue{Value::Double(d)};
    }
    if (point) return SqlValue{Value::String(DecimalText(text)), LiteralKind::kDecimal};
    std::int64_t v = 0;
    if (auto r = std::from_chars(text.data(), text.data() + text.size(), v); r.ec == std::errc())
      return SqlValue{Value::Int(v)};
    std::uint64_t u = 0;
    if (auto r = std::from_chars(text.data(), text.data() + text.size(), u); r.ec == std::errc())
      return SqlValue{Value::UInt(u)};
    return SqlValue{Value::String(std::string(text)), LiteralKind::kDecimal};
  }

  std::string_view s_;
  std::size_t i_;
  ValuesRead::Outcome outcome_ = ValuesRead::Outcome::kOk;
};

}  // namespace

ValuesRead ReadValues(std::string_view text, std::size_t at, const ValuesRow& row) { return Reader(text, at).Run(row); }

std::size_t FindValuesKeyword(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size()) {
    const char c = s[i];
    if (c == '`') {
      const std::size_t end = s.find('`', i + 1);
      if (end == std::string_view::npos) return std::string_view::npos;
      i = end + 1;
    } else if (c == '\'' || c == '"') {
      return std::string_view::npos;
    } else if (c == '(') {  // a column list "(a, b)" comes before VALUES
      const std::size_t end = s.find(')', i);
      if (end == std::string_view::npos) return std::string_view::npos;
      i = end + 1;
    } else if (WordChar(c)) {
      std::size_t j = i;
      while (j < s.size() && WordChar(s[j])) ++j;
      const std::string_view w = s.substr(i, j - i);
      if (EqualsIgnoreCase(w, "VALUES") || EqualsIgnoreCase(w, "VALUE")) return j;
      if (EqualsIgnoreCase(w, "SELECT") || EqualsIgnoreCase(w, "SET")) return std::string_view::npos;
      i = j;
    } else {
      ++i;
    }
  }
  return std::string_view::npos;
}

std::optional<InsertHead> ReadInsertHead(std::string_view text) {
  std::size_t i = 0;
  while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
  const std::string_view rest = text.substr(i);
  const bool insert = rest.size() > 7 && EqualsIgnoreCase(rest.substr(0, 6), "INSERT");
  const bool replace = rest.size() > 8 && EqualsIgnoreCase(rest.substr(0, 7), "REPLACE");
  if (!insert && !replace) return std::nullopt;
  const std::size_t values_at = FindValuesKeyword(text);
  if (values_at == std::string_view::npos) return std::nullopt;
  Parsed head = Parse(std::string(text.substr(0, values_at)) + " ()");
  if (!head.statement || !std::holds_alternative<Insert>(*head.statement)) return std::nullopt;
  InsertHead out{std::move(std::get<Insert>(*head.statement)), values_at};
  out.statement.rows.clear();
  return out;
}

std::optional<SqlResult<std::vector<Row>>> ReadRows(std::string_view text, std::size_t values_at,
                                                    const RowBuilder& builder) {
  std::vector<Row> rows;
  std::optional<SqlError> error;
  const ValuesRead r = ReadValues(text, values_at, [&](std::vector<std::optional<SqlValue>>& values) {
    auto row = builder.Build(values, rows.size() + 1);
    if (!row.ok()) {
      error = row.error();
      return false;
    }
    rows.push_back(std::move(*row));
    return true;
  });
  if (r.outcome == ValuesRead::Outcome::kNotLiteral) return std::nullopt;
  if (r.outcome == ValuesRead::Outcome::kSyntax) return SqlResult<std::vector<Row>>(SyntaxError(text, r.offset));
  if (error) return SqlResult<std::vector<Row>>(*error);
  return SqlResult<std::vector<Row>>(std::move(rows));
}

}  // namespace strata::sql
