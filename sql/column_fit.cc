#include "sql/column_fit.h"

#include <fmt/format.h>

#include <cctype>
#include <cstdlib>
#include <limits>

#include "engine/elements.h"
#include "engine/time_value.h"
#include "engine/uuid_inet.h"
#include "ondisk/charsets.h"
#include "sql/session.h"

namespace strata::sql {

namespace {

bool Negative(const Value& v) {
  if (v.is_int()) return v.as_int() < 0;
  if (v.is_double()) return v.as_double() < 0;
  if (!v.is_string()) return false;
  const std::string& s = v.as_string();
  const auto first = s.find_first_not_of(" \t\n");
  return first != std::string::npos && s[first] == '-';
}

}  // namespace

Value ImplicitDefault(const Column& c) {
  if (c.is_integer()) return c.is_unsigned ? Value::UInt(0) : Value::Int(0);
  switch (c.type) {
    case ColumnType::kEnum:
      return Value::UInt(1);  // its first label
    case ColumnType::kSet:
    case ColumnType::kBit:
      return Value::UInt(0);  // the empty set, no bits
    case ColumnType::kDecimal:
      return Value::String("0");
    case ColumnType::kFloat:
    case ColumnType::kDouble:
      return Value::Double(0);
    case ColumnType::kDate:
      return Value::String("0000-00-00");
    case ColumnType::kTime:
      return Value::String("00:00:00");
    case ColumnType::kUuid:
      return Value::String("00000000-0000-0000-0000-000000000000");
    case ColumnType::kInet4:
      return Value::String("0.0.0.0");
    case ColumnType::kInet6:
      return Value::String("::");
    case ColumnType::kYear:
      return Value::String("0000");
    case ColumnType::kDatetime:
    case ColumnType::kTimestamp:
      return Value::String("0000-00-00 00:00:00");
    default:
      return Value::String("");
  }
}

namespace {

// The end of the column's range on the value's side.
Value Limit(const Column& c, bool negative) {
  if (c.is_integer()) return negative ? Value::Int(IntegerMin(c)) : Value::UInt(IntegerMax(c));
  if (c.type == ColumnType::kBit) return Value::UInt(c.length == 64 ? UINT64_MAX : (std::uint64_t{1} << c.length) - 1);
  switch (c.type) {
    case ColumnType::kDecimal: {
      std::string nines(c.length - c.scale, '9');
      if (nines.empty()) nines = "0";
      if (c.scale) nines += "." + std::string(c.scale, '9');
      if (c.is_unsigned && negative) return Value::String("0");
      return Value::String((negative ? "-" : "") + nines);
    }
    case ColumnType::kYear:  // past either end: 0000, as the server stores it
      return Value::String("0000");
    default: {
      const double m = FloatingMax(c);
      if (c.is_unsigned && negative) return Value::Double(0);
      return Value::Double(negative ? -m : m);
    }
  }
}

// The number a string starts with ('12abc' is 12), 0 when none.
Value LeadingNumber(const Value& v) {
  if (!v.is_string()) return Value::Int(0);
  const char* s = v.as_string().c_str();
  char* end = nullptr;
  const double d = std::strtod(s, &end);
  if (end == s) return Value::Int(0);
  std::string text(s, static_cast<std::size_t>(end - s));
  // An integer stays exact (strtod would round '99999999999999999999x').
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) text.erase(0, 1);
  if (!text.empty() && text.find_first_not_of("+-0123456789") == std::string::npos) return Value::String(text);
  return Value::Double(d);
}

// The longest start of `s` of at most `chars` characters (bytes when `bytes`).
std::string Cut(const std::string& s, std::size_t limit, bool bytes) {
  if (bytes) return s.substr(0, std::min(limit, s.size()));
  std::size_t at = 0, n = 0;
  while (at < s.size() && n < limit) {
    ++at;
    while (at < s.size() && (static_cast<unsigned char>(s[at]) & 0xC0) == 0x80) ++at;
    ++n;
  }
  return s.substr(0, at);
}

bool BinaryColumn(const Column& c) {
  return c.charset == Charset::kBinary || c.type == ColumnType::kBinary || c.type == ColumnType::kVarbinary ||
         (c.is_lob() && !c.is_string());
}

std::size_t TextLimit(const Column& c) { return c.is_lob() ? c.lob_max_bytes() : c.length; }

// `s` with a '?' for each byte that is not UTF-8 and, in a latin1 column, for each
// character latin1 lacks, as the server stores them.
std::string Questioned(const Column& c, std::string_view s) {
  std::string out;
  while (!s.empty()) {
    const std::size_t bad = FirstInvalidUtf8(s);
    std::string_view good = s.substr(0, std::min(bad, s.size()));
    s.remove_prefix(good.size());
    while (!good.empty()) {
      std::size_t n = 1;
      while (n < good.size() && (static_cast<unsigned char>(good[n]) & 0xC0) == 0x80) ++n;
      const bool kept = c.charset != Charset::kLatin1 || ondisk::Utf8ToLatin1(good.substr(0, n)).ok();
      out += kept ? good.substr(0, n) : "?";
      good.remove_prefix(n);
    }
    if (!s.empty()) {
      out += '?';
      s.remove_prefix(1);
    }
  }
  return out;
}

// What an ENUM or SET stores for a value naming no label: an ENUM '' (number 0), a SET the
// members that were named.
Value NearestElements(const Column& c, const Value& v) {
  if (c.type == ColumnType::kEnum) return Value::UInt(0);
  std::uint64_t n = 0;
  if (v.is_uint()) {
    n = v.as_uint();
  } else if (v.is_int()) {
    n = static_cast<std::uint64_t>(v.as_int());  // -2 is every member but the first
  } else if (v.is_double()) {
    if (v.as_double() >= 1 && v.as_double() < 18446744073709551616.0) n = static_cast<std::uint64_t>(v.as_double());
  } else if (auto number = engine::ElementsNumberText(v.as_string())) {
    n = *number;
  } else {
    return Value::UInt(engine::MatchElements(c, v.as_string()).number);
  }
  return Value::UInt(n & engine::ElementsMax(c));  // the members it names (9 of a 3-member SET is the first)
}

// A time past 838:59:59 is the nearest end of the range; what is not a time, 00:00:00.
Value NearestTime(const Column& c, const Value& v) {
  const auto t = engine::ParseTime(v);
  return Value::String(t ? engine::TimeText(engine::ClampTime(*t, c.scale), c.scale) : "00:00:00");
}

// Whether `v` is a time out of TIME's range (mended to its end, "out of range"), not no time.
bool TimeOutOfRange(const Column& c, const Value& v) {
  if (c.type != ColumnType::kTime) return false;
  const auto t = engine::ParseTime(v);
  return t && !engine::TimeInRange(*t);
}

// The value stored instead of `v`, which `c` refused with `why`; nullopt when nothing is.
std::optional<Value> Nearest(const Column& c, const Value& v, const Status& why) {
  if (c.type == ColumnType::kGeometry || c.type == ColumnType::kJson) return std::nullopt;  // nor does the server
  if (c.has_elements() && why.reason() == Status::Reason::kDataTruncated) return NearestElements(c, v);
  if (c.type == ColumnType::kTime && why.reason() == Status::Reason::kIncorrectDatetime) return NearestTime(c, v);
  if (engine::IsUuidOrInet(c.type) &&
      why.reason() == Status::Reason::kIncorrectDatetime)  // NULL where it may be, as the server has it
    return c.nullable ? Value::Null() : ImplicitDefault(c);
  // Too many bits, or below 0: all ones, as the server stores it.
  if (c.type == ColumnType::kBit && why.reason() == Status::Reason::kDataTooLong) return Limit(c, false);
  switch (why.reason()) {
    case Status::Reason::kNullNotAllowed:
      return ImplicitDefault(c);
    case Status::Reason::kOutOfRange:
      return Limit(c, Negative(v));
    case Status::Reason::kDataTruncated:
      return LeadingNumber(v);
    case Status::Reason::kIncorrectDatetime:
      return ImplicitDefault(c);
    case Status::Reason::kDataTooLong: {
      const std::string s = v.is_string() ? v.as_string() : v.ToString();
      if (c.is_lob()) {  // a byte limit: cut at a character boundary
        std::string cut = s.substr(0, TextLimit(c));
        if (!BinaryColumn(c)) {
          while (!cut.empty() && FirstInvalidUtf8(cut) != std::string::npos) cut.pop_back();
        }
        return Value::String(cut);
      }
      return Value::String(Cut(s, TextLimit(c), BinaryColumn(c)));
    }
    case Status::Reason::kIncorrectValue: {
      if (!c.is_string()) return ImplicitDefault(c);  // 'abc' as a number is 0
      return Value::String(Questioned(c, v.as_string()));
    }
    default:
      return std::nullopt;
  }
}

// The warning for `v` mended: MySQL calls a cut string or a date it could not read truncated
// data (1265), whatever refused it, and too many bits or a time past 838 hours out of range
// (1264).
SqlWarning WarningFor(const Column& c, const Value& v, const Status& why, std::size_t row_number) {
  SqlError e = FromStatus(why);
  if ((c.type == ColumnType::kBit && why.reason() == Status::Reason::kDataTooLong) || TimeOutOfRange(c, v))
    e = {1264, "22003", fmt::format("Out of range value for column '{}'", c.name)};
  else if (why.reason() == Status::Reason::kDataTooLong ||
           (why.reason() == Status::Reason::kIncorrectDatetime && !engine::IsUuidOrInet(c.type)))
    e = {1265, "01000", fmt::format("Data truncated for column '{}'", c.name)};
  e = AtRow(std::move(e), row_number);
  return {SqlWarning::Level::kWarning, e.code, e.message};
}

}  // namespace

bool IsValueError(const Status& s) {
  switch (s.reason()) {
    case Status::Reason::kNullNotAllowed:
    case Status::Reason::kOutOfRange:
    case Status::Reason::kDataTruncated:
    case Status::Reason::kIncorrectValue:
    case Status::Reason::kIncorrectDatetime:
    case Status::Reason::kDataTooLong:
      return true;
    default:
      return false;
  }
}

SqlError AtRow(SqlError e, std::size_t row_number) {
  switch (e.code) {
    case 167:
    case 1264:
    case 1265:
    case 1292:
    case 1366:
    case 1406:
      e.message += fmt::format(" at row {}", row_number);
      break;
    default:
      break;
  }
  return e;
}

SqlError ValueError(const TableSpec& spec, const std::vector<Row>& rows, const Status& failed, std::size_t first_row) {
  for (std::size_t r = 0; r < rows.size(); ++r) {
    for (std::size_t i = 0; i < spec.columns.size() && i < rows[r].size(); ++i) {
      if (spec.columns[i].auto_increment && rows[r][i].is_null()) continue;
      Status s = CheckValue(spec.columns[i], rows[r][i]);
      if (!s.ok() && s.reason() == failed.reason()) return AtRow(FromStatus(s), first_row + r);
    }
  }
  return AtRow(FromStatus(failed), first_row);
}

void FitRow(const TableSpec& spec, Row& row, std::size_t row_number, std::vector<SqlWarning>& warnings) {
  for (std::size_t i = 0; i < spec.columns.size() && i < row.size(); ++i) {
    const Column& c = spec.columns[i];
    if (c.auto_increment && row[i].is_null()) continue;  // the engine hands it a value
    // A mended value may itself need mending ('999x' into a TINYINT: truncated, then out of
    // range); each step warns, as the server's do. Three steps reach a value that fits.
    for (int step = 0; step < 3; ++step) {
      Status s = CheckValue(c, row[i]);
      if (s.ok()) break;
      auto nearest = Nearest(c, row[i], s);
      if (!nearest) break;
      warnings.push_back(WarningFor(c, row[i], s, row_number));
      row[i] = std::move(*nearest);
    }
  }
}

std::optional<SqlError> InsertFitted(Table& t, const std::vector<Row>& rows, Transaction* trx, InsertOptions options,
                                     bool strict, std::vector<SqlWarning>& warnings, std::size_t first_row) {
  const TableSpec& spec = t.spec();
  Status st = t.InsertBatch(rows, trx, options);
  if (st.ok()) return std::nullopt;
  if (!IsValueError(st)) return FromStatus(st);
  if (strict || (rows.size() == 1 && st.reason() == Status::Reason::kNullNotAllowed))
    return ValueError(spec, rows, st, first_row);
  std::vector<Row> fitted = rows;
  for (std::size_t r = 0; r < fitted.size(); ++r) FitRow(spec, fitted[r], r + first_row, warnings);
  st = t.InsertBatch(fitted, trx, options);
  if (st.ok()) return std::nullopt;
  return IsValueError(st) ? ValueError(spec, fitted, st, first_row) : FromStatus(st);
}

}  // namespace strata::sql
