#include "ondisk/json_binary.h"

#include <cmath>
#include <cstdio>
#include <cstring>

#include "ondisk/column_format.h"

namespace strata::ondisk {

namespace {

// Deeper documents are refused: MySQL itself stops at 100 levels.
constexpr int kMaxDepth = 150;

class Reader {
 public:
  explicit Reader(ConstBytes doc) : doc_(doc) {}

  Status Value(std::uint8_t type, std::size_t at, int depth, std::string& out) {
    if (depth > kMaxDepth) return Fail(at, "nested too deeply");
    switch (type) {
      case 0x00:
      case 0x01:
        return Container(at, type == 0x01, true, depth, out);
      case 0x02:
      case 0x03:
        return Container(at, type == 0x03, false, depth, out);
      case 0x04: {
        if (!Has(at, 1)) return Fail(at, "literal past the end");
        const auto v = U8(at);
        if (v > 2) return Fail(at, "unknown literal " + std::to_string(v));
        out += v == 0 ? "null" : v == 1 ? "true" : "false";
        return Status::Ok();
      }
      case 0x05:
      case 0x06:
        return Integer(at, 2, type == 0x05, out);
      case 0x07:
      case 0x08:
        return Integer(at, 4, type == 0x07, out);
      case 0x09:
      case 0x0a:
        return Integer(at, 8, type == 0x09, out);
      case 0x0b: {
        if (!Has(at, 8)) return Fail(at, "double past the end");
        double d;
        std::uint64_t bits = LoadLe(at, 8);
        std::memcpy(&d, &bits, 8);
        // -0.0 keeps its sign, as the server's my_gcvt writes it.
        std::string text = d == 0 && std::signbit(d) ? "-0" : DoubleText(d, FloatDigits::kDouble);
        if (text.find_first_not_of("-0123456789") == std::string::npos) text += ".0";  // MySQL marks doubles
        out += text;
        return Status::Ok();
      }
      case 0x0c: {
        std::size_t len = 0;
        STRATA_RETURN_IF_ERROR(Length(at, len));
        if (!Has(at, len)) return Fail(at, "string past the end");
        Quote(at, len, out);
        return Status::Ok();
      }
      case 0x0f:
        return Opaque(at, out);
      default:
        return Fail(at, "unknown value type " + std::to_string(type));
    }
  }

 private:
  bool Has(std::size_t at, std::size_t n) const { return at <= doc_.size() && n <= doc_.size() - at; }
  std::uint8_t U8(std::size_t at) const { return static_cast<std::uint8_t>(doc_[at]); }
  std::uint64_t LoadLe(std::size_t at, std::size_t n) const {
    std::uint64_t v = 0;
    for (std::size_t i = n; i-- > 0;) v = (v << 8) | U8(at + i);
    return v;
  }
  static Status Fail(std::size_t at, const std::string& what) {
    return Status::Corruption("binary JSON offset " + std::to_string(at) + ": " + what);
  }

  // A length in 7-bit groups; `at` moves past it.
  Status Length(std::size_t& at, std::size_t& len) {
    len = 0;
    for (int shift = 0; shift < 35; shift += 7) {
      if (!Has(at, 1)) return Fail(at, "length past the end");
      const auto b = U8(at++);
      len |= static_cast<std::size_t>(b & 0x7F) << shift;
      if (!(b & 0x80)) return Status::Ok();
    }
    return Fail(at, "length over 5 bytes");
  }

  Status Integer(std::size_t at, std::size_t n, bool is_signed, std::string& out) {
    if (!Has(at, n)) return Fail(at, "integer past the end");
    const std::uint64_t v = LoadLe(at, n);
    if (!is_signed) {
      out += std::to_string(v);
    } else {
      const unsigned bits = static_cast<unsigned>(8 * n);
      const std::int64_t s =
          bits == 64 ? static_cast<std::int64_t>(v) : static_cast<std::int64_t>(v << (64 - bits)) >> (64 - bits);
      out += std::to_string(s);
    }
    return Status::Ok();
  }

  void Quote(std::size_t at, std::size_t len, std::string& out) const {
    out += '"';
    for (std::size_t i = 0; i < len; ++i) {
      const char c = static_cast<char>(doc_[at + i]);
      switch (c) {
        case '"':
          out += "\\\"";
          break;
        case '\\':
          out += "\\\\";
          break;
        case '\b':
          out += "\\b";
          break;
        case '\f':
          out += "\\f";
          break;
        case '\n':
          out += "\\n";
          break;
        case '\r':
          out += "\\r";
          break;
        case '\t':
          out += "\\t";
          break;
        default:
          if (static_cast<unsigned char>(c) < 0x20) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(c));
            out += buf;
          } else {
            out += c;
          }
      }
    }
    out += '"';
  }

  Status Container(std::size_t at, bool large, bool object, int depth, std::string& out) {
    const std::size_t w = large ? 4 : 2;
    if (!Has(at, 2 * w)) return Fail(at, "header past the end");
    const std::size_t count = LoadLe(at, w), size = LoadLe(at + w, w);
    if (!Has(at, size)) return Fail(at, "size " + std::to_string(size) + " past the end");
    const std::size_t key_entry = w + 2, value_entry = 1 + w;
    const std::size_t keys_at = at + 2 * w, values_at = keys_at + (object ? count * key_entry : 0);
    if (count > size || values_at + count * value_entry > at + size) return Fail(at, "entries past its size");
    out += object ? '{' : '[';
    for (std::size_t i = 0; i < count; ++i) {
      if (i) out += ", ";
      if (object) {
        const std::size_t k = keys_at + i * key_entry;
        const std::size_t key_at = at + LoadLe(k, w), key_len = LoadLe(k + w, 2);
        if (key_at + key_len > at + size) return Fail(k, "key past the container");
        Quote(key_at, key_len, out);
        out += ": ";
      }
      const std::size_t e = values_at + i * value_entry;
      const std::uint8_t type = U8(e);
      const bool inlined = type == 0x04 || type == 0x05 || type == 0x06 || (large && (type == 0x07 || type == 0x08));
      if (inlined) {
        STRATA_RETURN_IF_ERROR(Value(type, e + 1, depth + 1, out));
      } else {
        const std::size_t value_at = at + LoadLe(e + 1, w);
        if (value_at >= at + size) return Fail(e, "value past the container");
        STRATA_RETURN_IF_ERROR(Value(type, value_at, depth + 1, out));
      }
    }
    out += object ? '}' : ']';
    return Status::Ok();
  }

  // Values of other SQL types kept in a document: DECIMAL and the temporal types print as
  // MySQL prints them (temporal ones quoted); the rest are not decoded.
  Status Opaque(std::size_t at, std::string& out) {
    if (!Has(at, 1)) return Fail(at, "opaque value past the end");
    const auto field_type = U8(at++);
    std::size_t len = 0;
    STRATA_RETURN_IF_ERROR(Length(at, len));
    if (!Has(at, len)) return Fail(at, "opaque value past the end");
    if (field_type == 246) {  // NEWDECIMAL: precision, scale, the binary decimal
      if (len < 2) return Fail(at, "short DECIMAL");
      auto text = DecodeDecimal(doc_.subspan(at + 2, len - 2), U8(at), U8(at + 1));
      if (!text.ok()) return text.status();
      out += *text;
      return Status::Ok();
    }
    if ((field_type == 10 || field_type == 11 || field_type == 12 || field_type == 7) && len == 8) {
      // MySQL's packed temporal integer: (date << 17 | h << 12 | m << 6 | s) << 24 | micro.
      auto packed = static_cast<std::int64_t>(LoadLe(at, 8));
      const bool negative = packed < 0;
      if (negative) packed = -packed;
      const auto micro = static_cast<std::uint32_t>(packed & 0xFFFFFF);
      const std::int64_t hi = packed >> 24;
      DateTimeParts t;
      t.micro = micro;
      t.second = static_cast<int>(hi & 63);
      t.minute = static_cast<int>((hi >> 6) & 63);
      if (field_type == 11) {
        t.hour = static_cast<int>((hi >> 12) & 0x3FF);
        char buf[48];
        std::snprintf(buf, sizeof buf, "\"%s%02d:%02d:%02d.%06u\"", negative ? "-" : "", t.hour, t.minute, t.second,
                      micro);
        out += buf;
        return Status::Ok();
      }
      t.hour = static_cast<int>((hi >> 12) & 31);
      const std::int64_t ymd = hi >> 17;
      t.day = static_cast<int>(ymd & 31);
      const std::int64_t ym = ymd >> 5;
      t.year = static_cast<int>(ym / 13);
      t.month = static_cast<int>(ym % 13);
      out += '"' + FormatDateTime(t, 6, field_type != 10) + '"';
      return Status::Ok();
    }
    return Status::NotSupported("opaque JSON values of MySQL field type " + std::to_string(field_type) +
                                " are not decoded");
  }

  ConstBytes doc_;
};

}  // namespace

Result<std::string> JsonBinaryToText(ConstBytes doc) {
  if (doc.empty()) return std::string();  // an empty JSON column value, as MySQL keeps for ''
  std::string out;
  Reader r(doc);
  STRATA_RETURN_IF_ERROR(r.Value(static_cast<std::uint8_t>(doc[0]), 1, 0, out));
  return out;
}

}  // namespace strata::ondisk
