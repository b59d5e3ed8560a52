#include "engine/row_codec.h"

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <cstring>
#include <ctime>
#include <limits>

#include "engine/elements.h"
#include "engine/time_value.h"
#include "engine/uuid_inet.h"
#include "ondisk/charsets.h"
#include "ondisk/geometry.h"
#include "ondisk/json_binary_writer.h"
#include "ondisk/column_format.h"
#include "ondisk/value.h"

namespace strata::engine {

using namespace strata::ondisk;

namespace {

std::uint32_t IntWidth(ColumnType t) {
  switch (t) {
    case ColumnType::kTinyInt:
      return 1;
    case ColumnType::kSmallInt:
      return 2;
    case ColumnType::kMediumInt:
      return 3;
    case ColumnType::kInt:
      return 4;
    default:
      return 8;
  }
}

}  // namespace

std::int64_t IntegerMin(const Column& c) { return c.is_unsigned ? 0 : -static_cast<std::int64_t>(IntegerMax(c)) - 1; }

double FloatingMax(const Column& c) {
  if (c.length > 0) return std::pow(10.0, c.length - c.scale) - std::pow(10.0, -static_cast<double>(c.scale));
  return c.type == ColumnType::kFloat ? std::numeric_limits<float>::max() : std::numeric_limits<double>::max();
}

std::size_t DisplayWidth(const Column& c) {
  switch (c.type) {
    case ColumnType::kTinyInt:
      return c.length ? c.length : 3;
    case ColumnType::kSmallInt:
      return c.length ? c.length : 5;
    case ColumnType::kMediumInt:
      return c.length ? c.length : 8;
    case ColumnType::kInt:
      return c.length ? c.length : 10;
    case ColumnType::kBigInt:
      return c.length ? c.length : 20;
    case ColumnType::kDecimal:
      return c.length + (c.scale > 0);
    case ColumnType::kFloat:
      return c.length ? c.length : 12;
    case ColumnType::kDouble:
      return c.length ? c.length : 22;
    default:
      return 0;
  }
}

std::uint64_t IntegerMax(const Column& c) {
  const std::uint32_t bits = 8 * IntWidth(c.type) - (c.is_unsigned ? 0 : 1);
  return bits == 64 ? UINT64_MAX : (std::uint64_t{1} << bits) - 1;
}

namespace {

std::size_t Utf8Chars(const std::string& s) {
  std::size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

// MySQL's words for a value its column refuses, without the "at row N" that the statement
// running the insert adds: "Out of range value for column 'c'", and with the value for those
// that show it: "Incorrect integer value: 'abc' for column 'c'".
Status Bad(const Column& c, Status::Reason why, const std::string& what) {
  return Status::InvalidArgument(fmt::format("{} for column '{}'", what, c.name)).Because(why);
}
Status Bad(const Column& c, Status::Reason why, const std::string& what, const Value& v) {
  return Status::InvalidArgument(fmt::format("{}: '{}' for column '{}'", what, v.ToString(), c.name)).Because(why);
}

// The bytes of a string from `from` on as MySQL shows ones it could not store: \xC3( for C3 28.
std::string ShownBytes(const std::string& s, std::size_t from) {
  std::string shown;
  for (std::size_t i = from; i < s.size() && i < from + 6; ++i) {
    const auto b = static_cast<unsigned char>(s[i]);
    shown += b >= 0x80 || b < 0x20 ? fmt::format("\\x{:02X}", b) : std::string(1, s[i]);
  }
  return shown;
}

// An integer given as a string ('42', '-7', ' 42 ', '2.5', '1e2'), as MySQL reads one: an
// integer too large for the type is out of range, not an incorrect value; a number with text
// after it ('12abc') is truncated data, and no number at all ('abc', '') incorrect.
template <class T>
Result<T> ParseInteger(const Column& c, const Value& v, Result<T> (*from_double)(const Column&, const Value&)) {
  std::string_view s = v.as_string();
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  if (!s.empty() && s.front() == '+') s.remove_prefix(1);
  T out = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  if (ec == std::errc() && p == s.data() + s.size()) return out;
  if (ec == std::errc::result_out_of_range) return Bad(c, Status::Reason::kOutOfRange, "Out of range value");
  const std::string text(s);
  char* end = nullptr;
  const double d = std::strtod(text.c_str(), &end);
  if (end == text.c_str()) return Bad(c, Status::Reason::kIncorrectValue, "Incorrect integer value", v);
  if (*end != '\0') return Bad(c, Status::Reason::kDataTruncated, "Data truncated");
  return from_double(c, Value::Double(d));
}

Result<std::int64_t> ToSigned(const Column& c, const Value& v) {
  if (v.is_int()) return v.as_int();
  if (v.is_uint()) {
    if (v.as_uint() > static_cast<std::uint64_t>(INT64_MAX))
      return Bad(c, Status::Reason::kOutOfRange, "Out of range value");
    return static_cast<std::int64_t>(v.as_uint());
  }
  if (v.is_double()) {
    // Rounded half away from zero; 2^63 and past (and NaN) do not fit.
    const double r = std::round(v.as_double());
    if (!(r >= -9223372036854775808.0 && r < 9223372036854775808.0))
      return Bad(c, Status::Reason::kOutOfRange, "Out of range value");
    return static_cast<std::int64_t>(r);
  }
  return ParseInteger<std::int64_t>(c, v, &ToSigned);
}

Result<std::uint64_t> ToUnsigned(const Column& c, const Value& v) {
  if (v.is_uint()) return v.as_uint();
  if (v.is_int()) {
    if (v.as_int() < 0) return Bad(c, Status::Reason::kOutOfRange, "Out of range value");
    return static_cast<std::uint64_t>(v.as_int());
  }
  if (v.is_double()) {
    // Any negative number is out of range, also one that would round to 0 (MySQL's -0.4).
    const double r = std::round(v.as_double());
    if (!(v.as_double() >= 0 && r < 18446744073709551616.0))
      return Bad(c, Status::Reason::kOutOfRange, "Out of range value");
    return static_cast<std::uint64_t>(r);
  }
  return ParseInteger<std::uint64_t>(c, v, &ToUnsigned);
}

std::string Str(const std::vector<std::byte>& b) { return {reinterpret_cast<const char*>(b.data()), b.size()}; }

// "[-]digits[.digits]" into MySQL's binary DECIMAL(p, s).
Result<std::string> EncodeDecimal(const Column& c, const Value& v) {
  std::string text = v.is_string()   ? v.as_string()
                     : v.is_double() ? fmt::format("{:.{}f}", v.as_double(), c.scale)
                                     : v.ToString();
  bool negative = !text.empty() && text[0] == '-';
  if (negative || (!text.empty() && text[0] == '+')) text.erase(0, 1);
  const auto dot = text.find('.');
  std::string ip = text.substr(0, dot), fp = dot == std::string::npos ? "" : text.substr(dot + 1);
  auto digits = [](const std::string& s) { return s.find_first_not_of("0123456789") == std::string::npos; };
  if ((ip.empty() && fp.empty()) || !digits(ip) || !digits(fp))
    return Bad(c, Status::Reason::kIncorrectValue, "Incorrect decimal value", v);
  ip.erase(0, std::min(ip.find_first_not_of('0'), ip.size()));
  // Below zero is out of an UNSIGNED column's range even where rounding would make it 0.
  if (negative && c.is_unsigned && (ip + fp).find_first_not_of('0') != std::string::npos)
    return Bad(c, Status::Reason::kOutOfRange, "Out of range value");
  const std::uint32_t intg = c.length - c.scale, frac = c.scale;
  if (ip.size() > intg) return Bad(c, Status::Reason::kOutOfRange, "Out of range value");
  if (fp.size() > frac) {  // round half up on the dropped digits, as MySQL does
    const bool up = fp[frac] >= '5';
    fp.resize(frac);
    if (up) {
      std::string all = ip + fp;
      int i = static_cast<int>(all.size()) - 1;
      for (; i >= 0 && all[static_cast<std::size_t>(i)] == '9'; --i) all[static_cast<std::size_t>(i)] = '0';
      if (i < 0)
        all.insert(all.begin(), '1');
      else
        ++all[static_cast<std::size_t>(i)];
      ip = all.substr(0, all.size() - frac);
      fp = all.substr(all.size() - frac);
      if (ip.size() > intg) return Bad(c, Status::Reason::kOutOfRange, "Out of range value");
    }
  }
  return ondisk::EncodeDecimal(negative, ip, fp, c.length, c.scale);
}

using DateTime = ondisk::DateTimeParts;

// "YYYY-MM-DD[ HH:MM:SS[.ffffff]]" (also with 'T'), validated.
std::optional<DateTime> ParseDateTime(const std::string& s) {
  DateTime t;
  char sep = ' ';
  int n = 0;
  char frac[8] = {};
  const int got = std::sscanf(s.c_str(), "%4d-%2d-%2d%c%2d:%2d:%2d%n", &t.year, &t.month, &t.day, &sep, &t.hour,
                              &t.minute, &t.second, &n);
  if (got == 3) {
    if (s.size() != 10) return std::nullopt;
  } else if (got == 7 && (sep == ' ' || sep == 'T')) {
    std::string rest = s.substr(static_cast<std::size_t>(n));
    if (!rest.empty()) {
      if (rest[0] != '.' || rest.size() > 7 || rest.size() < 2 ||
          rest.find_first_not_of("0123456789", 1) != std::string::npos) {
        return std::nullopt;
      }
      std::snprintf(frac, sizeof frac, "%-6s", rest.c_str() + 1);
      for (char& ch : frac) ch = ch == ' ' ? '0' : ch;
      t.micro = static_cast<std::uint32_t>(std::stoul(std::string(frac, 6)));
    }
  } else {
    return std::nullopt;
  }
  static constexpr int kDays[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool zero_date = t.year == 0 && t.month == 0 && t.day == 0;
  if (!zero_date && (t.month < 1 || t.month > 12 || t.day < 1 || t.day > kDays[t.month - 1])) return std::nullopt;
  if (t.hour > 23 || t.minute > 59 || t.second > 59) return std::nullopt;
  return t;
}

}  // namespace

FieldDef StorageOf(const Column& c) {
  const bool n = c.nullable;
  if (c.is_integer()) return FieldDef::Fixed(c.name, IntWidth(c.type), n);
  switch (c.type) {
    case ColumnType::kDecimal:
      return FieldDef::Fixed(c.name, DecimalBytes(c.length, c.scale), n);
    case ColumnType::kFloat:
      return FieldDef::Fixed(c.name, 4, n);
    case ColumnType::kDouble:
      return FieldDef::Fixed(c.name, 8, n);
    case ColumnType::kChar:
      if (c.charset == Charset::kUtf8mb4) return FieldDef::Variable(c.name, 4 * c.length, n);
      return FieldDef::Fixed(c.name, c.length, n);
    case ColumnType::kBinary:
      return FieldDef::Fixed(c.name, c.length, n);
    case ColumnType::kVarchar:
      return FieldDef::Variable(c.name, c.charset == Charset::kUtf8mb4 ? 4 * c.length : c.length, n);
    case ColumnType::kVarbinary:
      return FieldDef::Variable(c.name, c.length, n);
    case ColumnType::kDate:
      return FieldDef::Fixed(c.name, 3, n);
    case ColumnType::kYear:
      return FieldDef::Fixed(c.name, 1, n);
    case ColumnType::kEnum:
    case ColumnType::kSet:
      return FieldDef::Fixed(c.name, ElementsBytes(c), n);
    case ColumnType::kBit:
      return FieldDef::Fixed(c.name, (c.length + 7) / 8, n);
    case ColumnType::kTime:
      return FieldDef::Fixed(c.name, 3 + (c.scale + 1) / 2, n);
    case ColumnType::kUuid:
    case ColumnType::kInet6:
      return FieldDef::Fixed(c.name, 16, n);
    case ColumnType::kInet4:
      return FieldDef::Fixed(c.name, 4, n);
    case ColumnType::kDatetime:
      return FieldDef::Fixed(c.name, 5 + (c.scale + 1) / 2, n);
    case ColumnType::kTimestamp:
      return FieldDef::Fixed(c.name, 4 + (c.scale + 1) / 2, n);
    default:
      return FieldDef::Variable(c.name, c.lob_max_bytes(), n, true);
  }
}

ColumnFormat FormatOf(const Column& c) {
  ColumnFormat f;
  f.name = c.SqlType();
  f.is_unsigned = c.is_unsigned;
  f.collation = CollationOf(c);
  f.length = c.length;
  if (c.is_integer()) {
    f.type = ondisk::ColumnType::kInt;
    f.length = IntWidth(c.type);
    return f;
  }
  switch (c.type) {
    case ColumnType::kDecimal:
      f.type = ondisk::ColumnType::kDecimal;
      f.precision = c.length;
      f.scale = c.scale;
      break;
    case ColumnType::kFloat:
      f.type = ondisk::ColumnType::kFloat;
      break;
    case ColumnType::kDouble:
      f.type = ondisk::ColumnType::kDouble;
      break;
    case ColumnType::kDate:
      f.type = ondisk::ColumnType::kDate;
      break;
    case ColumnType::kYear:
      f.type = ondisk::ColumnType::kYear;
      break;
    case ColumnType::kEnum:
    case ColumnType::kSet:
      f.type = c.type == ColumnType::kEnum ? ondisk::ColumnType::kEnum : ondisk::ColumnType::kSet;
      f.elements = c.elements;
      break;
    case ColumnType::kBit:
      f.type = ondisk::ColumnType::kBit;
      break;
    case ColumnType::kTime:
      f.type = ondisk::ColumnType::kTime;
      f.fsp = c.scale;
      break;
    case ColumnType::kJson:
      f.type = ondisk::ColumnType::kJson;
      break;
    case ColumnType::kUuid:
      f.type = ondisk::ColumnType::kUuid;
      break;
    case ColumnType::kInet4:
      f.type = ondisk::ColumnType::kInet4;
      break;
    case ColumnType::kInet6:
      f.type = ondisk::ColumnType::kInet6;
      break;
    case ColumnType::kDatetime:
      f.type = ondisk::ColumnType::kDatetime;
      f.fsp = c.scale;
      break;
    case ColumnType::kTimestamp:
      f.type = ondisk::ColumnType::kTimestamp;
      f.fsp = c.scale;
      break;
    case ColumnType::kChar:
    case ColumnType::kBinary:
      f.type = ondisk::ColumnType::kChar;
      break;
    default:
      f.type = ondisk::ColumnType::kVarchar;
      break;
  }
  return f;
}

int CollationOf(const Column& c) {
  if (!c.has_collation() || c.charset == Charset::kBinary) return 63;
  if (c.collation_id != 0) return c.collation_id;
  if (c.charset == Charset::kUtf8mb4) return c.binary_collation ? 46 : 45;
  if (c.charset == Charset::kLatin1) return c.binary_collation ? 47 : 8;
  return 63;
}

TextRule TextRuleOf(const Column& c) {
  if (!c.has_collation() || c.charset == Charset::kBinary) return TextRule::kBytes;
  if (c.binary_collation) return TextRule::kBin;
  if (auto info = CollationById(static_cast<std::uint16_t>(CollationOf(c)))) return info->rule;
  return DefaultCollation(c.charset == Charset::kLatin1).rule;
}

CompareKind CompareKindOf(const Column& c) {
  if (c.type == ColumnType::kFloat) return CompareKind::kFloat;
  if (c.type == ColumnType::kDouble) return CompareKind::kDouble;
  if (!c.is_string()) return CompareKind::kBinary;
  switch (TextRuleOf(c)) {
    case TextRule::kBytes:
    case TextRule::kBin:
      return CompareKind::kPadSpace;
    case TextRule::kGeneralCi:
      return CompareKind::kGeneralCi;
    case TextRule::kLatin1SwedishCi:
      return CompareKind::kLatin1SwedishCi;
    case TextRule::kUca400:
      return CompareKind::kUca400;
    case TextRule::kUca400NoPad:
      return CompareKind::kUca400NoPad;
    case TextRule::kUca520:
      return CompareKind::kUca520;
    case TextRule::kUca520NoPad:
      return CompareKind::kUca520NoPad;
    case TextRule::kUca1400:
      return CompareKind::kUca1400;
    case TextRule::kUca1400NoPad:
      return CompareKind::kUca1400NoPad;
  }
  return CompareKind::kBinary;
}

namespace {

Result<Datum> EncodeInteger(const Column& c, const Value& v) {
  const std::uint32_t w = IntWidth(c.type);
  if (c.is_unsigned) {
    auto u = ToUnsigned(c, v);
    if (!u.ok()) return u.status();
    if (*u > IntegerMax(c)) return Bad(c, Status::Reason::kOutOfRange, "Out of range value");
    return Datum::Of(Str(EncodeUnsigned(*u, w)));
  }
  auto s = ToSigned(c, v);
  if (!s.ok()) return s.status();
  if (*s < IntegerMin(c) || (*s > 0 && static_cast<std::uint64_t>(*s) > IntegerMax(c))) {
    return Bad(c, Status::Reason::kOutOfRange, "Out of range value");
  }
  return Datum::Of(Str(EncodeSigned(*s, w)));
}

// FLOAT and DOUBLE (M,D too): never infinity or NaN, rounded to D decimals as the server does.
Result<Datum> EncodeFloating(const Column& c, const Value& v) {
  double d = 0;
  if (v.is_double())
    d = v.as_double();
  else if (v.is_int())
    d = static_cast<double>(v.as_int());
  else if (v.is_uint())
    d = static_cast<double>(v.as_uint());
  else {
    const std::string& s = v.as_string();
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), d);
    if (ec == std::errc::result_out_of_range && p == s.data() + s.size())
      d = std::strtod(s.c_str(), nullptr);  // too large: infinity, refused below; too small: 0
    else if (ec != std::errc() && p == s.data())
      return Bad(c, Status::Reason::kIncorrectValue, "Incorrect double value", v);
    else if (p != s.data() + s.size())
      return Bad(c, Status::Reason::kDataTruncated, "Data truncated");  // '3x'
    else if (ec != std::errc())
      return Bad(c, Status::Reason::kIncorrectValue, "Incorrect double value", v);
  }
  // Below zero is out of an UNSIGNED column's range even where rounding would make it 0.
  if (c.is_unsigned && d < 0) return Bad(c, Status::Reason::kOutOfRange, "Out of range value");
  // FLOAT(M,D) and DOUBLE(M,D) keep D decimals, rounded as the server rounds them.
  if (c.length > 0 && std::isfinite(d)) {
    const double unit = std::pow(10.0, c.scale);
    d = std::floor(d) + std::nearbyint((d - std::floor(d)) * unit) / unit;
  }
  // Never infinity or NaN, and only what the column holds (a FLOAT's 1e300 became inf). A
  // FLOAT(M,D) limit a float cannot hold (FLOAT(8,0)'s 99999999 is stored as 1e8) is
  // compared as the float it is stored as, or the row could never be written again.
  const double max = FloatingMax(c);
  const bool over = c.type == ColumnType::kFloat && c.length > 0
                        ? static_cast<float>(std::abs(d)) > static_cast<float>(max)
                        : std::abs(d) > max;
  if (!std::isfinite(d) || over) return Bad(c, Status::Reason::kOutOfRange, "Out of range value");
  std::string out(c.type == ColumnType::kFloat ? 4 : 8, '\0');
  if (c.type == ColumnType::kFloat) {
    const float f = static_cast<float>(d);
    std::memcpy(out.data(), &f, 4);
  } else {
    std::memcpy(out.data(), &d, 8);
  }
  return Datum::Of(std::move(out));
}

// DATE, DATETIME and TIMESTAMP from their text.
Result<Datum> EncodeTemporal(const Column& c, const Value& v) {
  auto t = v.is_string() ? ParseDateTime(v.as_string()) : std::nullopt;
  if (!t)
    return Bad(c, Status::Reason::kIncorrectDatetime,
               c.type == ColumnType::kDate ? "Incorrect date value" : "Incorrect datetime value", v);
  if (c.type == ColumnType::kDate) return Datum::Of(Str(EncodeSigned(t->day + 32 * t->month + 512 * t->year, 3)));
  std::string out;
  if (c.type == ColumnType::kDatetime) {
    out = Str(EncodeUnsigned(ondisk::PackDatetime(*t) + 0x8000000000ull, 5));
  } else {
    std::tm tm{};
    tm.tm_year = t->year - 1900;
    tm.tm_mon = t->month - 1;
    tm.tm_mday = t->day;
    tm.tm_hour = t->hour;
    tm.tm_min = t->minute;
    tm.tm_sec = t->second;
    // The zero date is TIMESTAMP 0, as in MySQL; every other value must be in its range.
    const bool zero = t->year == 0 && t->month == 0 && t->day == 0 && t->hour == 0 && t->minute == 0 && t->second == 0;
    const std::int64_t secs = zero ? 0 : timegm(&tm);
    if ((!zero && secs < 1) || secs > 2147483647)
      return Bad(c, Status::Reason::kIncorrectDatetime, "Incorrect datetime value", v);
    out = Str(EncodeUnsigned(static_cast<std::uint64_t>(secs), 4));
  }
  ondisk::AppendFraction(out, t->micro, c.scale);
  return Datum::Of(std::move(out));
}

// YEAR: 1901-2155 as one byte, the year less 1900, and 0 for 0000; two digits read by YearOf.
Result<Datum> EncodeYear(const Column& c, const Value& v) {
  auto n = ToSigned(c, v);
  if (!n.ok()) return n.status();
  const std::int64_t year = YearOf(*n, v.is_string() ? std::optional<std::string_view>(v.as_string()) : std::nullopt);
  if (year != 0 && (year < 1901 || year > 2155)) return Bad(c, Status::Reason::kOutOfRange, "Out of range value");
  return Datum::Of(std::string(1, static_cast<char>(year == 0 ? 0 : year - 1900)));
}

// ENUM and SET: the number stored (DecodeValue's UInt, 0 included), a number a statement gave
// (an Int or a Double, truncated as the server does: 2.6 is the second label), which for an
// ENUM must name a label, or text: labels, else an integer written as text ('2').
Result<Datum> EncodeElements(const Column& c, const Value& v) {
  const bool is_enum = c.type == ColumnType::kEnum;
  std::optional<std::uint64_t> n;
  if (v.is_uint()) {
    n = v.as_uint();
  } else if (v.is_int() && !is_enum) {
    n = static_cast<std::uint64_t>(v.as_int());  // -1 is every member, as the server reads it
  } else if (v.is_int() || v.is_double()) {
    const double d = v.is_int() ? static_cast<double>(v.as_int()) : std::trunc(v.as_double());
    if (d >= (is_enum ? 1 : 0) && d < 18446744073709551616.0)
      n = v.is_int() ? static_cast<std::uint64_t>(v.as_int()) : static_cast<std::uint64_t>(d);
  } else {
    const std::string& s = v.as_string();
    if (const ElementMatch m = MatchElements(c, s); m.complete) {
      n = m.number;
    } else if (auto number = ElementsNumberText(s); number && (*number > 0 || !is_enum)) {
      n = number;
    }
  }
  if (!n || *n > ElementsMax(c)) return Bad(c, Status::Reason::kDataTruncated, "Data truncated");
  return Datum::Of(Str(EncodeUnsigned(*n, ElementsBytes(c))));
}

// BIT(M): a number of at most M bits, given as a number (a double rounded) or as the bytes of
// one, big-endian ('a' is 97, as the server reads text); more is too long, as MySQL says, and
// a number past 64 bits out of range.
Result<Datum> EncodeBit(const Column& c, const Value& v) {
  std::optional<std::uint64_t> n;
  if (v.is_uint()) {
    n = v.as_uint();
  } else if (v.is_int()) {
    n = static_cast<std::uint64_t>(v.as_int());  // -1 is all ones: a BIT(64)'s, too long for a shorter one
  } else if (v.is_double()) {
    const double r = std::round(v.as_double());
    if (r >= 18446744073709551616.0) return Bad(c, Status::Reason::kOutOfRange, "Out of range value");  // past 64 bits
    if (r >= 0) n = static_cast<std::uint64_t>(r);
  } else if (v.as_string().size() <= 8) {
    n = 0;
    for (unsigned char b : v.as_string()) *n = *n << 8 | b;
  }
  if (!n || (c.length < 64 && *n >> c.length)) return Bad(c, Status::Reason::kDataTooLong, "Data too long");
  return Datum::Of(Str(EncodeUnsigned(*n, (c.length + 7) / 8)));
}

// TIME from text or a number in any of MySQL's forms (engine/time_value.h); past 838:59:59 is
// an incorrect time, as the server says in strict mode.
Result<Datum> EncodeTime(const Column& c, const Value& v) {
  const auto t = ParseTime(v);
  if (!t || !TimeInRange(*t)) return Bad(c, Status::Reason::kIncorrectDatetime, "Incorrect time value", v);
  return Datum::Of(ondisk::EncodeTime(*t, c.scale));
}

// UUID, INET4, INET6 from their text, as MariaDB reads it.
Result<Datum> EncodeTyped(const Column& c, const Value& v) {
  auto bytes = v.is_string() ? TypedBytes(c.type, v.as_string()) : std::nullopt;
  if (!bytes) {
    const char* name = c.type == ColumnType::kUuid ? "uuid" : c.type == ColumnType::kInet4 ? "inet4" : "inet6";
    return Bad(c, Status::Reason::kIncorrectDatetime, fmt::format("Incorrect {} value", name), v);
  }
  return Datum::Of(std::move(*bytes));
}

// A spatial value: SRID and WKB of the column's type, as the server checks.
Result<Datum> EncodeGeometry(const Column& c, const Value& v) {
  const std::string bytes = v.is_string() ? v.as_string() : v.ToString();
  const auto shape = ondisk::ReadGeometry(ondisk::AsBytes(bytes.data(), bytes.size()));
  if (!shape)
    return Status::InvalidArgument("Cannot get geometry object from data you send to the GEOMETRY field")
        .Because(Status::Reason::kNotGeometry);
  const auto wanted = static_cast<ondisk::GeometryType>(c.length);
  // A GEOMETRYCOLLECTION column takes any shape, as MariaDB's does.
  if (wanted != ondisk::GeometryType::kGeometry && wanted != ondisk::GeometryType::kGeometryCollection &&
      *shape != wanted) {
    auto text = ondisk::GeometryText(ondisk::AsBytes(bytes.data(), bytes.size()));
    return Bad(c, Status::Reason::kIncorrectValue, fmt::format("Incorrect {} value", ondisk::GeometryTypeName(wanted)),
               Value::String(text.ok() ? *text : std::string()));
  }
  return Datum::Of(bytes);
}

// A JSON document from its text, in MySQL's binary form; text that is none (or a number) is
// 3140, naming what the parser found and where, as MySQL does.
Result<Datum> EncodeJson(const Column& c, const Value& v) {
  const auto invalid = [&](const std::string& what, std::size_t at) {
    return Status::InvalidArgument(
               fmt::format("Invalid JSON text: \"{}\" at position {} in value for column '{}'.", what, at, c.name))
        .Because(Status::Reason::kInvalidJson);
  };
  if (!v.is_string()) return invalid("not a JSON text, may need CAST", 0);  // a number, as MySQL refuses it
  auto document = ondisk::ReadJsonText(v.as_string());
  if (auto* error = std::get_if<ondisk::JsonTextError>(&document)) return invalid(error->what, error->at);
  auto binary = ondisk::JsonToBinary(std::get<ondisk::JsonNode>(document));
  if (!binary)
    return Status::InvalidArgument("The JSON object contains a key name that is too long.")
        .Because(Status::Reason::kInvalidJson);
  return Datum::Of(std::move(*binary));
}

// Strings and binary strings.
Result<Datum> EncodeString(const Column& c, const Value& v) {
  std::string s = v.is_string() ? v.as_string() : v.ToString();
  const bool binary = c.charset == Charset::kBinary || c.type == ColumnType::kBinary ||
                      c.type == ColumnType::kVarbinary || (c.is_lob() && !c.is_string());
  const std::size_t len = binary ? s.size() : Utf8Chars(s);
  // CHAR and VARCHAR hold so many characters, BLOB and TEXT so many bytes.
  const std::size_t limit = c.is_lob() ? c.lob_max_bytes() : c.length;
  if ((c.is_lob() ? s.size() : len) > limit) return Bad(c, Status::Reason::kDataTooLong, "Data too long");
  // Strict mode: bytes that are not utf8mb4 do not go into a utf8mb4 column, nor characters
  // latin1 lacks into a latin1 one (MySQL's 1366). Values are UTF-8 everywhere above the
  // bytes: a latin1 column stores each character as its one latin1 byte.
  if (!binary && c.charset == Charset::kUtf8mb4) {
    if (const std::size_t bad = FirstInvalidUtf8(s); bad != std::string::npos)
      return Bad(c, Status::Reason::kIncorrectValue, "Incorrect string value", Value::String(ShownBytes(s, bad)));
  } else if (!binary && c.charset == Charset::kLatin1) {
    std::size_t bad = 0;
    auto latin1 = ondisk::Utf8ToLatin1(s, &bad);
    if (!latin1.ok())
      return Bad(c, Status::Reason::kIncorrectValue, "Incorrect string value", Value::String(ShownBytes(s, bad)));
    s = std::move(*latin1);
  }
  if (c.type == ColumnType::kChar) {  // CHARACTER SET binary is BINARY: zero bytes pad it
    const std::size_t min_bytes = c.length;
    if (s.size() < min_bytes) s.append(min_bytes - s.size(), c.charset == Charset::kBinary ? '\0' : ' ');
  } else if (c.type == ColumnType::kBinary) {
    s.append(c.length - s.size(), '\0');
  }
  return Datum::Of(std::move(s));
}

}  // namespace

Result<Datum> EncodeValue(const Column& c, const Value& v) {
  if (v.is_null()) {
    if (!c.nullable)
      return Status::InvalidArgument(fmt::format("Column '{}' cannot be null", c.name))
          .Because(Status::Reason::kNullNotAllowed);
    return Datum::Null();
  }
  switch (c.type) {
    case ColumnType::kTinyInt:
    case ColumnType::kSmallInt:
    case ColumnType::kMediumInt:
    case ColumnType::kInt:
    case ColumnType::kBigInt:
      return EncodeInteger(c, v);
    case ColumnType::kDecimal: {
      auto d = EncodeDecimal(c, v);
      if (!d.ok()) return d.status();
      return Datum::Of(std::move(*d));
    }
    case ColumnType::kFloat:
    case ColumnType::kDouble:
      return EncodeFloating(c, v);
    case ColumnType::kDate:
    case ColumnType::kDatetime:
    case ColumnType::kTimestamp:
      return EncodeTemporal(c, v);
    case ColumnType::kYear:
      return EncodeYear(c, v);
    case ColumnType::kEnum:
    case ColumnType::kSet:
      return EncodeElements(c, v);
    case ColumnType::kBit:
      return EncodeBit(c, v);
    case ColumnType::kTime:
      return EncodeTime(c, v);
    case ColumnType::kUuid:
    case ColumnType::kInet4:
    case ColumnType::kInet6:
      return EncodeTyped(c, v);
    case ColumnType::kGeometry:
      return EncodeGeometry(c, v);
    case ColumnType::kJson:
      return EncodeJson(c, v);
    default:
      return EncodeString(c, v);
  }
}

Result<Value> DecodeValue(const Column& c, const Datum& d) {
  if (d.null) return Value::Null();
  const ConstBytes b = d.span();
  switch (c.type) {
    case ColumnType::kTinyInt:
    case ColumnType::kSmallInt:
    case ColumnType::kMediumInt:
    case ColumnType::kInt:
    case ColumnType::kBigInt: {
      if (c.is_unsigned) {
        auto u = DecodeUnsigned(b);
        if (!u.ok()) return u.status();
        return Value::UInt(*u);
      }
      auto s = DecodeSigned(b);
      if (!s.ok()) return s.status();
      return Value::Int(*s);
    }
    case ColumnType::kFloat: {
      float f = 0;
      std::memcpy(&f, d.bytes.data(), std::min<std::size_t>(4, d.bytes.size()));
      return Value::Double(f);
    }
    case ColumnType::kDouble: {
      double f = 0;
      std::memcpy(&f, d.bytes.data(), std::min<std::size_t>(8, d.bytes.size()));
      return Value::Double(f);
    }
    case ColumnType::kEnum:  // the number stored; sql/ shows its label (a BIT's, its bytes)
    case ColumnType::kSet:
    case ColumnType::kBit: {
      auto u = DecodeUnsigned(b);
      if (!u.ok()) return u.status();
      return Value::UInt(*u);
    }
    case ColumnType::kYear:  // a number (MIN() of one is 0, not 0000); a column of them prints four digits
      return Value::UInt(b.empty() || b[0] == std::byte{0} ? 0 : 1900 + std::to_integer<unsigned>(b[0]));
    case ColumnType::kDecimal:
    case ColumnType::kDate:
    case ColumnType::kTime:
    case ColumnType::kJson:
    case ColumnType::kUuid:
    case ColumnType::kInet4:
    case ColumnType::kInet6:
    case ColumnType::kDatetime:
    case ColumnType::kTimestamp:
    case ColumnType::kChar: {
      auto text = ColumnText(FormatOf(c), b);
      if (!text.ok()) return text.status().WithContext("column '" + c.name + "'");
      return Value::String(std::move(*text));
    }
    default:
      if (c.is_string() && c.charset == Charset::kLatin1) {
        std::string text;
        ondisk::AppendLatin1AsUtf8(text, b);
        return Value::String(std::move(text));
      }
      return Value::String(d.bytes);
  }
}

}  // namespace strata::engine
