#include "ondisk/column_format.h"

#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <limits>

#include "ondisk/charsets.h"
#include "ondisk/json_binary.h"

#ifdef __SSE2__
#include <emmintrin.h>
#endif

namespace strata::ondisk {

namespace {

std::uint64_t Unsigned(ConstBytes b) {
  std::uint64_t v = 0;
  for (std::byte x : b) v = (v << 8) | static_cast<std::uint8_t>(x);
  return v;
}

// A stored integer of b.size() bytes, its sign bit flipped when signed.
std::string IntText(ConstBytes b, bool is_unsigned) {
  std::uint64_t v = Unsigned(b);
  if (is_unsigned) return std::to_string(v);
  const unsigned bits = static_cast<unsigned>(8 * b.size());
  v ^= std::uint64_t{1} << (bits - 1);
  if (bits < 64 && (v >> (bits - 1)) & 1) v |= ~std::uint64_t{0} << bits;  // sign-extend
  return std::to_string(static_cast<std::int64_t>(v));
}

Status WrongLength(const ColumnFormat& f, std::size_t got, std::size_t want) {
  return Status::Corruption("a " + f.name + " value takes " + std::to_string(want) + " bytes, not " +
                            std::to_string(got));
}

// MySQL prints FLOAT with 6 significant digits and DOUBLE with the fewest that read back
// exactly, both without trailing zeros, as fixed notation when the decimal exponent is
// between -15 and 14, or is 15 with digits after the point (1234567890123456.8), and as
// "1.5e30" / "1e-16" otherwise (measured on MariaDB 10.11).
}  // namespace

std::string DoubleText(double v, FloatDigits digits_wanted) {
  if (v == 0) return "0";
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
  char buf[64];
  char* end = buf;
  switch (digits_wanted) {
    case FloatDigits::kDouble:
      end = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific).ptr;
      break;
    case FloatDigits::kFloatShown:
      end = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific, 5).ptr;
      break;
    case FloatDigits::kFloatExact:
      end = std::to_chars(buf, buf + sizeof buf, static_cast<float>(v), std::chars_format::scientific).ptr;
      // The shortest digits of FLOAT's largest values (3.4028235e38) read back as a DOUBLE above
      // FLT_MAX, which the server refuses as out of range: those take the double's digits.
      if (std::fabs(std::strtod(std::string(buf, end).c_str(), nullptr)) > std::numeric_limits<float>::max()) {
        end = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific).ptr;
      }
      break;
  }
  const std::string sci(buf, end);  // "-1.23450e+05"
  const auto e_at = sci.find('e');
  const bool negative = sci[0] == '-';
  std::string digits;
  for (std::size_t i = negative; i < e_at; ++i) {
    if (sci[i] != '.') digits += sci[i];
  }
  while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
  const int exp = std::stoi(sci.substr(e_at + 1));
  std::string out = negative ? "-" : "";
  const bool fraction = digits.size() > static_cast<std::size_t>(std::max(exp, 0)) + 1;
  if ((exp >= 15 && !(exp == 15 && fraction)) || exp < -15) {
    out += digits.substr(0, 1);
    if (digits.size() > 1) out += "." + digits.substr(1);
    return out + "e" + std::to_string(exp);
  }
  if (exp < 0) return out + "0." + std::string(static_cast<std::size_t>(-exp - 1), '0') + digits;
  const auto int_digits = static_cast<std::size_t>(exp) + 1;
  if (digits.size() <= int_digits) return out + digits + std::string(int_digits - digits.size(), '0');
  return out + digits.substr(0, int_digits) + "." + digits.substr(int_digits);
}

namespace {

std::uint32_t FractionBytes(std::uint32_t fsp) { return (fsp + 1) / 2; }

// The stored fraction as microseconds.
std::uint32_t FractionMicros(ConstBytes b, std::uint32_t fsp) {
  const std::uint32_t v = static_cast<std::uint32_t>(Unsigned(b));
  switch (FractionBytes(fsp)) {
    case 1:
      return v * 10000;
    case 2:
      return v * 100;
    default:
      return v;
  }
}

bool ValidDate(const DateTimeParts& t) {
  if (t.month > 12 || t.day > 31) return false;
  return !(t.month == 0 && t.day != 0 && t.year != 0);  // MySQL allows 0 parts only as a whole
}

Status BadValue(const ColumnFormat& f, ConstBytes b) {
  std::string hex;
  for (std::byte x : b.first(std::min<std::size_t>(b.size(), 16))) {
    static constexpr char kHex[] = "0123456789ABCDEF";
    hex += kHex[static_cast<std::uint8_t>(x) >> 4];
    hex += kHex[static_cast<std::uint8_t>(x) & 15];
  }
  return Status::Corruption("0x" + hex + " is not a " + f.name + " value");
}

Result<std::string> TimeText(const ColumnFormat& f, ConstBytes b) {
  // The whole value is one big-endian integer offset by half its range; the fraction's
  // bytes are part of it, so a negative time borrows from the integer part.
  const std::uint32_t frac_bytes = FractionBytes(f.fsp);
  const std::int64_t offset = std::int64_t{0x800000} << (8 * frac_bytes);
  std::int64_t v = static_cast<std::int64_t>(Unsigned(b)) - offset;
  DateTimeParts t;
  t.negative = v < 0;
  if (t.negative) v = -v;
  const std::int64_t scale = std::int64_t{1} << (8 * frac_bytes);
  const std::int64_t hms = v / scale;
  std::int64_t frac = v % scale;
  if (frac_bytes == 1)
    frac *= 10000;
  else if (frac_bytes == 2)
    frac *= 100;
  t.hour = static_cast<int>(hms >> 12);
  t.minute = static_cast<int>((hms >> 6) & 63);
  t.second = static_cast<int>(hms & 63);
  t.micro = static_cast<std::uint32_t>(frac);
  if (t.minute > 59 || t.second > 59 || t.micro > 999999) return BadValue(f, b);
  char buf[32];
  std::snprintf(buf, sizeof buf, "%s%02d:%02d:%02d", t.negative ? "-" : "", t.hour, t.minute, t.second);
  std::string out = buf;
  if (f.fsp) {
    std::snprintf(buf, sizeof buf, "%06u", t.micro);
    out += "." + std::string(buf, f.fsp);
  }
  return out;
}

// MariaDB keeps an RFC 4122 UUID of version 1-5 with its fields last-first (node, clock
// sequence, time high, mid, low), so time-based ones sort by time; any other as written.
Result<std::string> UuidText(const ColumnFormat& f, ConstBytes b) {
  if (b.size() != 16) return BadValue(f, b);
  std::array<std::uint8_t, 16> u{};
  for (std::size_t i = 0; i < 16; ++i) u[i] = static_cast<std::uint8_t>(b[i]);
  const int version = u[8] >> 4;
  if ((u[6] & 0xC0) == 0x80 && version >= 1 && version <= 5) {
    const std::array<std::uint8_t, 16> s = u;
    const int order[16] = {12, 13, 14, 15, 10, 11, 8, 9, 6, 7, 0, 1, 2, 3, 4, 5};
    for (int i = 0; i < 16; ++i) u[static_cast<std::size_t>(i)] = s[static_cast<std::size_t>(order[i])];
  }
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (int i = 0; i < 16; ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) out += '-';
    out += kHex[u[static_cast<std::size_t>(i)] >> 4];
    out += kHex[u[static_cast<std::size_t>(i)] & 15];
  }
  return out;
}

// INET4 dotted; INET6 as MariaDB prints it: hex groups, the longest run of zero groups (the
// first of equals, one group long too) written "::", an IPv4-mapped or -compatible address
// with its IPv4 part dotted.
Result<std::string> InetText(const ColumnFormat& f, ConstBytes b) {
  const bool v6 = f.type == ColumnType::kInet6;
  if (b.size() != (v6 ? 16u : 4u)) return BadValue(f, b);
  const auto byte = [&](std::size_t i) { return std::to_integer<unsigned>(b[i]); };
  const auto dotted = [&](std::size_t at) {
    return std::to_string(byte(at)) + "." + std::to_string(byte(at + 1)) + "." + std::to_string(byte(at + 2)) + "." +
           std::to_string(byte(at + 3));
  };
  if (!v6) return dotted(0);
  unsigned words[8];
  for (std::size_t i = 0; i < 8; ++i) words[i] = byte(2 * i) << 8 | byte(2 * i + 1);
  std::size_t run_at = 8, run = 0;
  for (std::size_t i = 0; i < 8;) {
    std::size_t n = 0;
    while (i + n < 8 && words[i + n] == 0) ++n;
    if (n > run) run_at = i, run = n;
    i += n ? n : 1;
  }
  if (run_at == 0 && run == 5 && words[5] == 0xFFFF) return "::ffff:" + dotted(12);
  if (run_at == 0 && run == 6) return "::" + dotted(12);
  std::string out;
  for (std::size_t i = 0; i < 8; ++i) {
    if (i == run_at) {
      out += "::";
      i += run - 1;
      continue;
    }
    if (!out.empty() && out.back() != ':') out += ':';
    char group[8];
    std::snprintf(group, sizeof group, "%x", words[i]);
    out += group;
  }
  return out;
}

Result<std::string> StringText(const ColumnFormat& f, ConstBytes b) {
  const bool pad = f.type == ColumnType::kChar && !f.binary();  // CHAR's trailing spaces are not the value's
  std::string out;
  switch (CharsetOfCollation(f.collation)) {
    case Charset::kBinary:
    case Charset::kUtf8:
      out.assign(reinterpret_cast<const char*>(b.data()), b.size());
      break;
    case Charset::kLatin1:
      AppendLatin1AsUtf8(out, b);
      break;
    case Charset::kOther: {
      const CharsetInfo cs = CharsetOfCollationId(f.collation);
      if (!cs.name)
        return Status::NotSupported("the character set of collation " + std::to_string(f.collation) +
                                    " is not known here");
      auto text = ToUtf8(cs, b);
      if (!text.ok()) return text.status();
      out = std::move(*text);
      break;
    }
  }
  if (pad) {
    while (!out.empty() && out.back() == ' ') out.pop_back();
  }
  return out;
}

// An ENUM's or SET's label, kept in the column's character set, as UTF-8.
Result<std::string> LabelText(const ColumnFormat& f, const std::string& label) {
  return StringText(f, AsBytes(label.data(), label.size()));
}

}  // namespace

std::uint32_t EnumBytes(std::size_t labels) { return labels > 255 ? 2 : 1; }

std::uint32_t SetBytes(std::size_t labels) {
  const auto bytes = static_cast<std::uint32_t>((labels + 7) / 8);
  return bytes > 4 ? 8 : std::max(bytes, 1u);
}

Charset CharsetOfCollation(int id) {
  const CharsetInfo cs = CharsetOfCollationId(id);
  if (!cs.name) return Charset::kOther;
  const std::string_view name = cs.name;
  if (name == "binary") return Charset::kBinary;
  if (name == "latin1") return Charset::kLatin1;
  if (name == "utf8mb4" || name == "utf8mb3" || name == "ascii") return Charset::kUtf8;  // ascii is a subset
  return Charset::kOther;
}

std::optional<std::uint32_t> ColumnFormat::FixedBytes() const {
  switch (type) {
    case ColumnType::kInt:
    case ColumnType::kSystem:
      return length;
    case ColumnType::kDecimal:
      return DecimalBytes(precision, scale);
    case ColumnType::kFloat:
      return 4;
    case ColumnType::kDouble:
      return 8;
    case ColumnType::kBit:
      return (length + 7) / 8;
    case ColumnType::kYear:
      return 1;
    case ColumnType::kUuid:
    case ColumnType::kInet6:
      return 16;
    case ColumnType::kInet4:
      return 4;
    case ColumnType::kDate:
      return 3;
    case ColumnType::kTime:
      return 3 + FractionBytes(fsp);
    case ColumnType::kDatetime:
      return 5 + FractionBytes(fsp);
    case ColumnType::kTimestamp:
      return 4 + FractionBytes(fsp);
    case ColumnType::kEnum:
      return EnumBytes(elements.size());
    case ColumnType::kSet:
      return SetBytes(elements.size());
    default:
      return std::nullopt;
  }
}

namespace {

Result<std::string> ValueText(const ColumnFormat& f, ConstBytes b);

}  // namespace

Result<std::string> ColumnText(const ColumnFormat& f, ConstBytes b) {
  auto text = ValueText(f, b);
  // ZEROFILL pads numbers on the left to the display width (they are never negative).
  if (text.ok() && f.zerofill_width > text->size() && text->front() != '-') {
    text->insert(0, f.zerofill_width - text->size(), '0');
  }
  return text;
}

namespace {

Result<std::string> ValueText(const ColumnFormat& f, ConstBytes b) {
  if (auto fixed = f.FixedBytes(); fixed && b.size() != *fixed) return WrongLength(f, b.size(), *fixed);
  switch (f.type) {
    case ColumnType::kInt:
      if (b.empty() || b.size() > 8) return WrongLength(f, b.size(), 8);
      return IntText(b, f.is_unsigned);
    case ColumnType::kSystem:
      if (b.empty() || b.size() > 8) return WrongLength(f, b.size(), 8);
      return std::to_string(Unsigned(b));
    case ColumnType::kDecimal:
      return DecodeDecimal(b, f.precision, f.scale);
    case ColumnType::kFloat:
    case ColumnType::kDouble: {
      double v;
      if (f.type == ColumnType::kFloat) {
        float x;
        std::memcpy(&x, b.data(), 4);
        v = x;
      } else {
        std::memcpy(&v, b.data(), 8);
      }
      if (f.fixed_decimals && std::isfinite(v)) {  // FLOAT(M,D): D decimals, as the server prints
        char buf[400];
        std::snprintf(buf, sizeof buf, "%.*f", static_cast<int>(std::min<std::uint32_t>(f.scale, 30)), v);
        return std::string(buf);
      }
      return DoubleText(v, f.type == ColumnType::kDouble ? FloatDigits::kDouble
                           : f.exact_float               ? FloatDigits::kFloatExact
                                                         : FloatDigits::kFloatShown);
    }
    case ColumnType::kYear: {
      const auto v = static_cast<std::uint8_t>(b[0]);
      return v == 0 ? std::string("0000") : std::to_string(1900 + v);
    }
    case ColumnType::kDate: {
      const std::uint32_t v = static_cast<std::uint32_t>(Unsigned(b)) ^ 0x800000;
      const DateTimeParts t{static_cast<int>(v >> 9), static_cast<int>((v >> 5) & 15), static_cast<int>(v & 31)};
      if (!ValidDate(t)) return BadValue(f, b);
      return FormatDateTime(t, 0, false);
    }
    case ColumnType::kTime:
      return TimeText(f, b);
    case ColumnType::kDatetime: {
      const std::uint64_t packed = Unsigned(b.first(5)) - 0x8000000000ull;
      const std::uint64_t ym = (packed >> 22) & 0x1FFFF;
      DateTimeParts t{static_cast<int>(ym / 13),
                      static_cast<int>(ym % 13),
                      static_cast<int>((packed >> 17) & 31),
                      static_cast<int>((packed >> 12) & 31),
                      static_cast<int>((packed >> 6) & 63),
                      static_cast<int>(packed & 63),
                      FractionMicros(b.subspan(5), f.fsp)};
      if ((packed >> 39) || !ValidDate(t) || t.hour > 23 || t.minute > 59 || t.second > 59 || t.micro > 999999) {
        return BadValue(f, b);
      }
      return FormatDateTime(t, f.fsp, true);
    }
    case ColumnType::kTimestamp: {
      const auto secs = static_cast<std::time_t>(Unsigned(b.first(4)));
      DateTimeParts t;
      if (secs != 0) {
        std::tm tm{};
        gmtime_r(&secs, &tm);
        t = {tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec};
      }
      t.micro = FractionMicros(b.subspan(4), f.fsp);
      if (t.micro > 999999) return BadValue(f, b);
      return FormatDateTime(t, f.fsp, true);
    }
    case ColumnType::kBit:
    case ColumnType::kGeometry:
    case ColumnType::kVector:
      return std::string(reinterpret_cast<const char*>(b.data()), b.size());
    case ColumnType::kUuid:
      return UuidText(f, b);
    case ColumnType::kInet6:
    case ColumnType::kInet4:
      return InetText(f, b);
    case ColumnType::kChar:
    case ColumnType::kVarchar:
      return StringText(f, b);
    case ColumnType::kEnum: {
      const std::uint64_t v = Unsigned(b);
      if (v == 0) return std::string();  // the error value '' of a bad insert in non-strict mode
      if (v > f.elements.size()) return BadValue(f, b);
      return LabelText(f, f.elements[v - 1]);
    }
    case ColumnType::kSet: {
      const std::uint64_t v = Unsigned(b);
      if (f.elements.size() < 64 && (v >> f.elements.size())) return BadValue(f, b);
      std::string out;
      for (std::size_t i = 0; i < f.elements.size(); ++i) {
        if (!((v >> i) & 1)) continue;
        auto label = LabelText(f, f.elements[i]);
        if (!label.ok()) return label.status();
        if (!out.empty()) out += ',';
        out += *label;
      }
      return out;
    }
    case ColumnType::kJson:
      return JsonBinaryToText(b);
    case ColumnType::kUnknown:
      break;
  }
  return Status::NotSupported("values of type " + (f.name.empty() ? std::string("?") : f.name) + " are not decoded");
}

}  // namespace

Status ColumnTextTo(const ColumnFormat& f, ConstBytes b, std::string& out) {
  const Charset cs = CharsetOfCollation(f.collation);
  if ((f.type == ColumnType::kVarchar || f.type == ColumnType::kChar) &&
      (cs == Charset::kUtf8 || cs == Charset::kBinary)) {
    if (f.type == ColumnType::kChar && cs != Charset::kBinary) {
      while (!b.empty() && b.back() == std::byte{' '}) b = b.first(b.size() - 1);
    }
    out.assign(reinterpret_cast<const char*>(b.data()), b.size());
    return Status::Ok();
  }
  if (f.type == ColumnType::kInt && b.size() == f.length && !b.empty() && b.size() <= 8 && f.zerofill_width == 0) {
    char buf[24];
    std::uint64_t v = Unsigned(b);
    char* end;
    if (f.is_unsigned) {
      end = std::to_chars(buf, buf + sizeof buf, v).ptr;
    } else {
      const unsigned bits = static_cast<unsigned>(8 * b.size());
      v ^= std::uint64_t{1} << (bits - 1);
      if (bits < 64 && (v >> (bits - 1)) & 1) v |= ~std::uint64_t{0} << bits;
      end = std::to_chars(buf, buf + sizeof buf, static_cast<std::int64_t>(v)).ptr;
    }
    out.assign(buf, end);
    return Status::Ok();
  }
  auto text = ColumnText(f, b);
  if (!text.ok()) return text.status();
  out = std::move(*text);
  return Status::Ok();
}

namespace {

// The first byte of v[from..] the client escapes (tab, newline, backslash, NUL), or v.size().
std::size_t NextToEscape(std::string_view v, std::size_t from) {
  std::size_t i = from;
#ifdef __SSE2__
  // Sixteen bytes at a time: values are mostly long runs of ordinary text.
  const __m128i tab = _mm_set1_epi8('\t'), newline = _mm_set1_epi8('\n'), backslash = _mm_set1_epi8('\\'),
                nul = _mm_setzero_si128();
  for (; i + 16 <= v.size(); i += 16) {
    const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(v.data() + i));
    const __m128i hit = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, tab), _mm_cmpeq_epi8(x, newline)),
                                     _mm_or_si128(_mm_cmpeq_epi8(x, backslash), _mm_cmpeq_epi8(x, nul)));
    if (const int mask = _mm_movemask_epi8(hit))
      return i + static_cast<std::size_t>(__builtin_ctz(static_cast<unsigned>(mask)));
  }
#endif
  for (; i < v.size(); ++i) {
    const char c = v[i];
    if (c == '\t' || c == '\n' || c == '\\' || c == '\0') return i;
  }
  return v.size();
}

}  // namespace

char UnescapeSqlChar(char c, bool* keep_backslash) {
  *keep_backslash = c == '%' || c == '_';
  switch (c) {
    case '0':
      return '\0';
    case 'b':
      return '\b';
    case 'n':
      return '\n';
    case 'r':
      return '\r';
    case 't':
      return '\t';
    case 'Z':
      return '\x1a';
    default:
      return c;
  }
}

void AppendBatchEscaped(std::string& out, std::string_view v) {
  std::size_t run = 0;
  for (std::size_t i = NextToEscape(v, 0); i < v.size(); i = NextToEscape(v, run)) {
    out.append(v.data() + run, i - run);
    out += '\\';
    switch (v[i]) {
      case '\t':
        out += 't';
        break;
      case '\n':
        out += 'n';
        break;
      case '\\':
        out += '\\';
        break;
      default:
        out += '0';
    }
    run = i + 1;
  }
  out.append(v.data() + run, v.size() - run);
}

std::uint32_t DecimalBytes(std::uint32_t precision, std::uint32_t scale) {
  static constexpr std::uint32_t kLeftover[] = {0, 1, 1, 2, 2, 3, 3, 4, 4, 4};
  auto part = [](std::uint32_t digits) { return digits / 9 * 4 + kLeftover[digits % 9]; };
  return part(precision - std::min(scale, precision)) + part(scale);
}

std::string EncodeDecimal(bool negative, std::string_view ip, std::string_view fp, std::uint32_t precision,
                          std::uint32_t scale) {
  const std::uint32_t intg = precision - scale;
  std::string i(intg - std::min<std::size_t>(ip.size(), intg), '0');
  i += ip;
  std::string fr(fp);
  fr.resize(scale, '0');
  std::string out;
  auto put = [&out](std::string_view digits) {
    static constexpr std::uint32_t kLeftover[] = {0, 1, 1, 2, 2, 3, 3, 4, 4, 4};
    std::uint32_t value = 0;
    for (char c : digits) value = value * 10 + static_cast<std::uint32_t>(c - '0');
    const std::uint32_t bytes = digits.size() == 9 ? 4 : kLeftover[digits.size()];
    for (std::uint32_t k = bytes; k-- > 0;) out.push_back(static_cast<char>((value >> (8 * k)) & 0xFF));
  };
  const std::uint32_t lead = intg % 9;  // the integer part's leftover digits come first
  if (lead) put(std::string_view(i).substr(0, lead));
  for (std::uint32_t k = lead; k < intg; k += 9) put(std::string_view(i).substr(k, 9));
  for (std::uint32_t k = 0; k + 9 <= scale; k += 9) put(std::string_view(fr).substr(k, 9));
  if (scale % 9) put(std::string_view(fr).substr(scale - scale % 9));
  if (i.find_first_not_of('0') == std::string::npos && fr.find_first_not_of('0') == std::string::npos) negative = false;
  if (negative) {
    for (auto& ch : out) ch = static_cast<char>(~ch);
  }
  if (!out.empty()) out[0] = static_cast<char>(out[0] ^ 0x80);
  return out;
}

Result<std::string> DecodeDecimal(ConstBytes stored, std::uint32_t precision, std::uint32_t scale) {
  if (precision == 0 || precision > 65 || scale > 30 || scale > precision) {
    return Status::Corruption("DECIMAL(" + std::to_string(precision) + "," + std::to_string(scale) + ") is not a type");
  }
  if (stored.size() != DecimalBytes(precision, scale)) {
    return Status::Corruption("a DECIMAL(" + std::to_string(precision) + "," + std::to_string(scale) + ") takes " +
                              std::to_string(DecimalBytes(precision, scale)) + " bytes, not " +
                              std::to_string(stored.size()));
  }
  std::string b(reinterpret_cast<const char*>(stored.data()), stored.size());
  const bool negative = !(static_cast<unsigned char>(b[0]) & 0x80);
  b[0] = static_cast<char>(b[0] ^ 0x80);
  if (negative) {
    for (auto& ch : b) ch = static_cast<char>(~ch);
  }
  static constexpr std::uint32_t kLeftover[] = {0, 1, 1, 2, 2, 3, 3, 4, 4, 4};
  static constexpr std::uint32_t kPow10[] = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000, 1000000000};
  std::size_t at = 0;
  bool ok = true;
  auto take = [&](std::uint32_t digits) {
    const std::uint32_t bytes = digits == 9 ? 4 : kLeftover[digits];
    std::uint32_t v = 0;
    for (std::uint32_t k = 0; k < bytes; ++k) v = (v << 8) | static_cast<unsigned char>(b[at++]);
    if (v >= kPow10[digits]) ok = false;
    std::string s = std::to_string(v);
    return std::string(digits - std::min<std::size_t>(s.size(), digits), '0') + s;
  };
  const std::uint32_t intg = precision - scale;
  std::string ip, fp;
  if (intg % 9) ip += take(intg % 9);
  for (std::uint32_t k = intg % 9; k < intg; k += 9) ip += take(9);
  for (std::uint32_t k = 0; k + 9 <= scale; k += 9) fp += take(9);
  if (scale % 9) fp += take(scale % 9);
  if (!ok) return Status::Corruption("a DECIMAL digit group is over its range");
  ip.erase(0, std::min(ip.find_first_not_of('0'), ip.size()));
  if (ip.empty()) ip = "0";
  const bool zero = ip == "0" && fp.find_first_not_of('0') == std::string::npos;
  return (negative && !zero ? "-" : "") + ip + (scale ? "." + fp : "");
}

std::uint64_t PackDatetime(const DateTimeParts& t) {
  const std::uint64_t ym = static_cast<std::uint64_t>(t.year) * 13 + static_cast<std::uint64_t>(t.month);
  return (ym << 22) | (std::uint64_t(t.day) << 17) | (std::uint64_t(t.hour) << 12) | (std::uint64_t(t.minute) << 6) |
         std::uint64_t(t.second);
}

void AppendFraction(std::string& out, std::uint32_t micro, std::uint32_t fsp) {
  const std::uint32_t bytes = FractionBytes(fsp);
  const std::uint32_t v = bytes == 1 ? micro / 10000 : bytes == 2 ? micro / 100 : micro;
  for (std::uint32_t i = bytes; i-- > 0;) out.push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
}

std::string EncodeTime(const DateTimeParts& t, std::uint32_t fsp) {
  const std::uint32_t frac_bytes = FractionBytes(fsp);
  std::uint32_t unit = 1;  // the fraction's digits past fsp are dropped
  for (std::uint32_t i = fsp; i < 6; ++i) unit *= 10;
  const std::uint32_t micro = t.micro / unit * unit;
  const std::int64_t frac = frac_bytes == 1 ? micro / 10000 : frac_bytes == 2 ? micro / 100 : micro;
  const std::int64_t hms = std::int64_t{t.hour} << 12 | t.minute << 6 | t.second;
  const std::int64_t magnitude = (hms << (8 * frac_bytes)) + frac;
  const std::int64_t offset = std::int64_t{0x800000} << (8 * frac_bytes);
  const auto v = static_cast<std::uint64_t>(offset + (t.negative ? -magnitude : magnitude));
  std::string out;
  for (std::uint32_t i = 3 + frac_bytes; i-- > 0;) out.push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
  return out;
}

std::string FormatDateTime(const DateTimeParts& t, std::uint32_t fsp, bool with_time) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02d", t.year, t.month, t.day);
  std::string s = buf;
  if (!with_time) return s;
  std::snprintf(buf, sizeof buf, " %02d:%02d:%02d", t.hour, t.minute, t.second);
  s += buf;
  if (fsp) {
    std::snprintf(buf, sizeof buf, "%06u", t.micro);
    s += "." + std::string(buf, std::min<std::uint32_t>(fsp, 6));
  }
  return s;
}

}  // namespace strata::ondisk
