#include "sql/functions.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <ctime>
#include <random>

#include "engine/uuid_inet.h"
#include "sql/spatial_functions.h"
#include "sql/string_functions.h"
#include "sql/value_ops.h"

namespace strata::sql {

using namespace ops;

namespace {

std::string Hex(const std::string& s) {
  static constexpr char kDigits[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(s.size() * 2);
  for (unsigned char c : s) {
    out.push_back(kDigits[c >> 4]);
    out.push_back(kDigits[c & 15]);
  }
  return out;
}

std::optional<std::string> Unhex(std::string_view s) {
  auto digit = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  std::string out;
  std::size_t i = 0;
  if (s.size() % 2) {
    if (digit(s[0]) < 0) return std::nullopt;
    out.push_back(static_cast<char>(digit(s[0])));
    i = 1;
  }
  for (; i < s.size(); i += 2) {
    const int hi = digit(s[i]), lo = digit(s[i + 1]);
    if (hi < 0 || lo < 0) return std::nullopt;
    out.push_back(static_cast<char>(hi * 16 + lo));
  }
  return out;
}

std::string NowText(bool date_only) {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  localtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, date_only ? "%Y-%m-%d" : "%Y-%m-%d %H:%M:%S", &tm);
  return buf;
}

// UUID_TO_BIN's "swap" moves the time-high and time-mid groups first, so v1 UUIDs made
// one after another sort (and insert) in time order.
std::string SwapTimeFields(const std::string& b, bool to_bin) {
  std::string out(16, '\0');
  if (to_bin) {
    std::memcpy(&out[0], &b[6], 2);
    std::memcpy(&out[2], &b[4], 2);
    std::memcpy(&out[4], &b[0], 4);
  } else {
    std::memcpy(&out[0], &b[4], 4);
    std::memcpy(&out[4], &b[2], 2);
    std::memcpy(&out[6], &b[0], 2);
  }
  std::memcpy(&out[8], &b[8], 8);
  return out;
}

std::optional<std::string> UuidBytes(const std::string& text) {
  std::string digits;
  for (char c : text) {
    if (c == '-' || c == '{' || c == '}') continue;
    digits.push_back(c);
  }
  if (digits.size() != 32) return std::nullopt;
  return Unhex(digits);
}

std::string UuidText(const std::string& b) {
  std::string h = Hex(b);
  for (char& c : h) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return h.substr(0, 8) + "-" + h.substr(8, 4) + "-" + h.substr(12, 4) + "-" + h.substr(16, 4) + "-" + h.substr(20);
}

SqlError BadValue(const std::string& what, const std::string& value, const std::string& fn) {
  return {1411, "HY000", fmt::format("Incorrect {} value: '{}' for function {}", what, value, fn)};
}

// NOW(), CURRENT_TIMESTAMP, ...: the session's local time.
SqlResult<SqlValue> Now(const std::string&, std::vector<SqlValue>&) { return Str(NowText(false)); }
SqlResult<SqlValue> CurDate(const std::string&, std::vector<SqlValue>&) { return Str(NowText(true)); }
SqlResult<SqlValue> Uuid(const std::string&, std::vector<SqlValue>&) { return Str(NewUuid()); }

SqlResult<SqlValue> UuidToBin(const std::string&, std::vector<SqlValue>& args) {
  const bool swap = args.size() == 2 && Truth(args[1]).value_or(false);
  const std::string s = TextOf(args[0]);
  auto b = UuidBytes(s);
  if (!b) return BadValue("string", s, "uuid_to_bin");
  return Str(swap ? SwapTimeFields(*b, true) : *b, LiteralKind::kBinary);
}

SqlResult<SqlValue> BinToUuid(const std::string&, std::vector<SqlValue>& args) {
  const bool swap = args.size() == 2 && Truth(args[1]).value_or(false);
  const std::string s = TextOf(args[0]);
  if (s.size() != 16) return BadValue("string", Hex(s), "bin_to_uuid");
  return Str(UuidText(swap ? SwapTimeFields(s, false) : s));
}

SqlResult<SqlValue> Concat(const std::string&, std::vector<SqlValue>& args) {
  std::string out;
  LiteralKind order = LiteralKind::kPlain;
  for (const SqlValue& a : args) {
    out += TextOf(a);
    order = TextOrder(order, a.kind);
  }
  return Str(std::move(out), order);
}

// LENGTH and OCTET_LENGTH count bytes, CHAR_LENGTH and CHARACTER_LENGTH UTF-8 characters.
SqlResult<SqlValue> Length(const std::string& f, std::vector<SqlValue>& args) {
  const std::string s = TextOf(args[0]);
  if (f[0] == 'C')
    return Int(static_cast<std::int64_t>(
        std::count_if(s.begin(), s.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; })));
  return Int(static_cast<std::int64_t>(s.size()));
}

SqlResult<SqlValue> HexOf(const std::string&, std::vector<SqlValue>& args) {
  if (args[0].is_bit()) args[0] = NumberOf(args[0]);  // a BIT's number
  if (args[0].compares_as) {                          // a UUID's or INET's bytes, in the order its text writes them
    std::string text = TextOf(args[0]);
    if (*args[0].compares_as == ColumnType::kUuid) {
      std::erase(text, '-');
      std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::toupper(c); });
      return Str(std::move(text));
    }
    if (auto bytes = engine::TypedBytes(*args[0].compares_as, text)) return Str(Hex(*bytes));
  }
  if (Integral(args[0])) {
    return Str(fmt::format(
        "{:X}", args[0].value.is_int() ? static_cast<std::uint64_t>(args[0].value.as_int()) : args[0].value.as_uint()));
  }
  return Str(Hex(TextOf(args[0])));
}

SqlResult<SqlValue> UnhexOf(const std::string&, std::vector<SqlValue>& args) {
  auto b = Unhex(TextOf(args[0]));
  if (!b) return Null();
  return Str(std::move(*b), LiteralKind::kBinary);
}

// LOWER, LCASE, UPPER, UCASE.
SqlResult<SqlValue> ChangeCase(const std::string& f, std::vector<SqlValue>& args) {
  if (args[0].kind == LiteralKind::kBinary) return args[0];  // bytes have no case, as on the server
  const std::string s = TextOf(args[0]);
  return Str(f[0] == 'L' ? engine::LowerCase(s) : engine::UpperCase(s), args[0].kind);
}

// IFNULL, COALESCE: the first argument that is not NULL.
SqlResult<SqlValue> FirstNotNull(const std::string&, std::vector<SqlValue>& args) {
  for (SqlValue& a : args) {
    if (!a.value.is_null()) return std::move(a);
  }
  return Null();
}

SqlResult<SqlValue> If(const std::string&, std::vector<SqlValue>& args) {
  return Truth(args[0]).value_or(false) ? args[1] : args[2];
}

// BIN(n): n's binary digits; a fraction is dropped and a negative n taken as its 64-bit two's
// complement, as the server does.
SqlResult<SqlValue> Bin(const std::string&, std::vector<SqlValue>& args) {
  const Value& x = args[0].value;
  std::uint64_t n = x.is_uint()  ? x.as_uint()
                    : x.is_int() ? static_cast<std::uint64_t>(x.as_int())
                                 : static_cast<std::uint64_t>(ClampToInt64(std::trunc(ToDouble(x))));
  return Str(BinaryDigits(n));
}

SqlResult<SqlValue> Abs(const std::string&, std::vector<SqlValue>& args) {
  const SqlValue& x = args[0];
  if (x.value.is_int() && x.value.as_int() == INT64_MIN) return OutOfRange("abs(" + x.value.ToString() + ")");
  if (Integral(x)) return x.value.is_int() ? Int(std::llabs(x.value.as_int())) : x;
  if (!Exact(x)) return SqlValue{Value::Double(std::fabs(ToDouble(x.value)))};
  const Decimal d = ExactOf(x);
  return OfDecimal(d.Compare(Decimal()) < 0 ? Decimal() - d : d);
}

// FLOOR, CEIL, CEILING: an integer, or a DECIMAL/DOUBLE past BIGINT's range, as MySQL gives.
SqlResult<SqlValue> FloorOrCeiling(const std::string& f, std::vector<SqlValue>& args) {
  const SqlValue& x = args[0];
  if (Integral(x)) return x;
  if (Exact(x)) {
    const Decimal d = ExactOf(x);
    Decimal t = d.Truncated();
    if (f == "FLOOR" && d.Compare(t) < 0) t = t - Decimal::Of(1);
    if (f != "FLOOR" && d.Compare(t) > 0) t = t + Decimal::Of(1);
    if (auto i = t.ToInt64()) return Int(*i);
    return OfDecimal(t);
  }
  const double d = ToDouble(x.value);
  const double r = f == "FLOOR" ? std::floor(d) : std::ceil(d);
  if (!(std::fabs(r) < kTwoTo63)) return SqlValue{Value::Double(r)};  // as MySQL, past BIGINT
  return Int(static_cast<std::int64_t>(r));
}

SqlResult<SqlValue> Round(const std::string&, std::vector<SqlValue>& args) {
  const SqlValue& x = args[0];
  // Places as the server takes them: a number rounded to the nearest integer (1.6 is 2).
  const int places =
      args.size() == 2
          ? static_cast<int>(std::clamp<std::int64_t>(ClampToInt64(std::round(ToDouble(args[1].value))), -400, 400))
          : 0;
  if (Integral(x) && places >= 0) return x;
  if (Exact(x)) {
    // MySQL's scale: the places asked for, 0 to 30; negative places round the integer part
    // (an integer stays one: ROUND(155, -1) is 160).
    const Decimal d = ExactOf(x);
    if (places >= 0) return OfDecimal(d.Rounded(std::min(places, Decimal::kMaxScale)));
    Decimal r;
    if (places >= -Decimal::kMaxDigits) {
      const Decimal step = *Decimal::Parse("1" + std::string(static_cast<std::size_t>(-places), '0'));
      r = *d.Divide(step, 0) * step;
    }
    if (Integral(x)) {
      if (auto i = r.ToInt64(); i && x.value.is_int()) return Int(*i);
      if (auto u = r.ToUint64(); u && x.value.is_uint()) return SqlValue{Value::UInt(*u)};
    }
    return OfDecimal(r);
  }
  const double d = ToDouble(x.value);
  double r = 0;  // rounded away entirely below -300 places
  if (places > 300) {
    r = d;  // past a double's digits: nothing to round (and 10^places would be infinite)
  } else if (places >= -300) {
    const double m = std::pow(10.0, places);
    r = std::nearbyint(d * m) / m;  // halves to even, as the server's rint()
  }
  return SqlValue{Value::Double(r)};
}

SqlResult<SqlValue> Repeat(const std::string&, std::vector<SqlValue>& args) {
  const std::string s = TextOf(args[0]);
  const std::int64_t n = ClampToInt64(ToDouble(args[1].value));
  if (s.empty() || n <= 0) return Str("", args[0].kind);
  // Longer than max_allowed_packet (64 MiB): NULL, as MySQL gives (with warning 1301), not a
  // string cut short.
  if (static_cast<std::uint64_t>(n) > (std::uint64_t{64} << 20) / s.size()) return Null();
  std::string out;
  out.reserve(s.size() * static_cast<std::size_t>(n));
  for (std::int64_t k = 0; k < n; ++k) out += s;
  return Str(std::move(out), args[0].kind);
}

// LEFT and RIGHT: the first or last N characters.
SqlResult<SqlValue> LeftOrRight(const std::string& f, std::vector<SqlValue>& args) {
  const std::string s = TextOf(args[0]);
  const bool bytes = args[0].kind == LiteralKind::kBinary;
  const std::int64_t len = CharacterCount(s, bytes);
  const auto k = std::clamp<std::int64_t>(ClampToInt64(ToDouble(args[1].value)), 0, len);
  return Str(Characters(s, bytes, f == "LEFT" ? 0 : len - k, k), args[0].kind);
}

SqlResult<SqlValue> Substring(const std::string&, std::vector<SqlValue>& args) {
  const std::string s = TextOf(args[0]);
  const bool bytes = args[0].kind == LiteralKind::kBinary;
  const std::int64_t n = ClampToInt64(ToDouble(args[1].value));
  const std::int64_t len = CharacterCount(s, bytes);
  const std::int64_t start = n > 0 ? n - 1 : len + n;
  if (n == 0 || start < 0 || start >= len) return Str("", args[0].kind);
  const std::int64_t count = args.size() == 3 ? ClampToInt64(ToDouble(args[2].value)) : len;
  if (count <= 0) return Str("", args[0].kind);
  return Str(Characters(s, bytes, start, count), args[0].kind);
}

SqlResult<SqlValue> Rand(const std::string&, std::vector<SqlValue>&) {
  static thread_local std::mt19937_64 rng{std::random_device{}()};
  return SqlValue{Value::Double(std::uniform_real_distribution<double>(0, 1)(rng))};
}

constexpr std::size_t kAny = FunctionDef::kAny;

// name, least and most arguments, whether NULL in gives NULL out, the code, whether it takes numbers.
constexpr FunctionDef kFunctions[] = {
    {"ABS", 1, 1, true, Abs, true},
    {"ASCII", 1, 1, true, Ascii},
    {"ASTEXT", 1, 1, true, AsText},
    {"ASWKT", 1, 1, true, AsText},
    {"BIN", 1, 1, true, Bin, true},
    {"BIN_TO_UUID", 1, 2, true, BinToUuid},
    {"CEIL", 1, 1, true, FloorOrCeiling, true},
    {"CEILING", 1, 1, true, FloorOrCeiling, true},
    {"CHARACTER_LENGTH", 1, 1, true, Length},
    {"CHAR_LENGTH", 1, 1, true, Length},
    {"COALESCE", 1, kAny, false, FirstNotNull},
    {"CONCAT", 1, kAny, true, Concat},
    {"CONCAT_WS", 2, kAny, false, ConcatWs},
    {"CURDATE", 0, kAny, false, CurDate},
    {"CURRENT_DATE", 0, kAny, false, CurDate},
    {"CURRENT_TIMESTAMP", 0, kAny, false, Now},
    {"ELT", 2, kAny, false, Elt},
    {"FIELD", 2, kAny, false, Field},
    {"FIND_IN_SET", 2, 2, true, FindInSet},
    {"FLOOR", 1, 1, true, FloorOrCeiling, true},
    {"GEOMETRYFROMTEXT", 1, 2, true, GeomFromText},
    {"GEOMFROMTEXT", 1, 2, true, GeomFromText},
    {"GREATEST", 2, kAny, true, Extreme},
    {"HEX", 1, 1, true, HexOf},
    {"IF", 3, 3, false, If},
    {"IFNULL", 2, 2, false, FirstNotNull},
    {"INSTR", 2, 2, true, Locate},
    {"LCASE", 1, 1, true, ChangeCase},
    {"LEAST", 2, kAny, true, Extreme},
    {"LEFT", 2, 2, true, LeftOrRight},
    {"LENGTH", 1, 1, true, Length},
    {"LOCALTIME", 0, kAny, false, Now},
    {"LOCALTIMESTAMP", 0, kAny, false, Now},
    {"LOCATE", 2, 3, true, Locate},
    {"LOWER", 1, 1, true, ChangeCase},
    {"LPAD", 2, 3, true, Pad},
    {"LTRIM", 1, 1, true, Trim},
    {"NOW", 0, kAny, false, Now},
    {"NULLIF", 2, 2, false, NullIf},
    {"OCTET_LENGTH", 1, 1, true, Length},
    {"POINT", 2, 2, true, Point, true},
    {"RAND", 0, kAny, false, Rand},
    {"REPEAT", 2, 2, true, Repeat},
    {"REPLACE", 3, 3, true, Replace},
    {"REVERSE", 1, 1, true, Reverse},
    {"RIGHT", 2, 2, true, LeftOrRight},
    {"ROUND", 1, 2, true, Round, true},
    {"RPAD", 2, 3, true, Pad},
    {"RTRIM", 1, 1, true, Trim},
    {"SPACE", 1, 1, true, Space},
    {"STRCMP", 2, 2, true, Strcmp},
    {"ST_ASBINARY", 1, 1, true, AsBinary},
    {"ST_ASTEXT", 1, 1, true, AsText},
    {"ST_ASWKB", 1, 1, true, AsBinary},
    {"ST_ASWKT", 1, 1, true, AsText},
    {"ST_GEOMETRYFROMTEXT", 1, 2, true, GeomFromText},
    {"ST_GEOMFROMTEXT", 1, 2, true, GeomFromText},
    {"ST_GEOMFROMWKB", 1, 2, true, GeomFromWkb},
    {"ST_LINEFROMTEXT", 1, 2, true, GeomFromText},
    {"ST_POINTFROMTEXT", 1, 2, true, GeomFromText},
    {"ST_POLYFROMTEXT", 1, 2, true, GeomFromText},
    {"ST_SRID", 1, 1, true, Srid},
    {"ST_X", 1, 1, true, PointCoordinate},
    {"ST_Y", 1, 1, true, PointCoordinate},
    {"SUBSTR", 2, 3, true, Substring},
    {"SUBSTRING", 2, 3, true, Substring},
    {"SUBSTRING_INDEX", 3, 3, true, SubstringIndex},
    {"SYSDATE", 0, kAny, false, Now},
    {"TRIM", 1, 3, true, Trim},
    {"UCASE", 1, 1, true, ChangeCase},
    {"UNHEX", 1, 1, true, UnhexOf},
    {"UPPER", 1, 1, true, ChangeCase},
    {"UUID", 0, 0, false, Uuid},
    {"UUID_TO_BIN", 1, 2, true, UuidToBin},
};

}  // namespace

std::span<const FunctionDef> AllFunctions() { return kFunctions; }

const FunctionDef* FindFunction(std::string_view name) {
  static_assert(std::is_sorted(std::begin(kFunctions), std::end(kFunctions),
                               [](const FunctionDef& a, const FunctionDef& b) { return a.name < b.name; }),
                "kFunctions is kept in name order for the binary search");
  const auto it = std::lower_bound(std::begin(kFunctions), std::end(kFunctions), name,
                                   [](const FunctionDef& d, std::string_view n) { return d.name < n; });
  return it != std::end(kFunctions) && it->name == name ? it : nullptr;
}

SqlResult<SqlValue> ApplyFunction(const std::string& name, std::vector<SqlValue>& args) {
  const FunctionDef* f = FindFunction(name);
  if (!f) return SqlError{1305, "42000", fmt::format("FUNCTION {} does not exist", name)};
  if (args.size() < f->min_args || args.size() > f->max_args) return WrongArguments(name);
  if (f->null_gives_null && std::any_of(args.begin(), args.end(), [](const SqlValue& v) { return v.value.is_null(); }))
    return Null();
  if (f->numbers) {
    for (SqlValue& a : args) {
      if (a.has_number()) a = NumberOf(a);
    }
  }
  return f->apply(name, args);
}

}  // namespace strata::sql
