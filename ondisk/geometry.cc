#include "ondisk/geometry.h"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <cstring>

#include "ondisk/column_format.h"

namespace strata::ondisk {

namespace {

constexpr std::string_view kNames[] = {"GEOMETRY",   "POINT",           "LINESTRING",   "POLYGON",
                                       "MULTIPOINT", "MULTILINESTRING", "MULTIPOLYGON", "GEOMETRYCOLLECTION"};

// Reads WKB from `b` at `at`, appending its WKT to `out` when given; false when it is not WKB.
// Nesting is bounded: a collection inside a collection only so deep, against hostile bytes.
class WkbReader {
 public:
  explicit WkbReader(ConstBytes b) : b_(b) {}

  std::optional<GeometryType> Shape(std::string* out, int depth = 0) {
    if (depth > 32 || !Have(5)) return std::nullopt;
    const auto order = std::to_integer<std::uint8_t>(b_[at_]);
    if (order > 1) return std::nullopt;
    little_ = order == 1;
    ++at_;
    const std::uint32_t type = U32();
    if (type < 1 || type > 7) return std::nullopt;
    const auto t = static_cast<GeometryType>(type);
    if (out) *out += kNames[type];
    bool ok = false;
    switch (t) {
      case GeometryType::kPoint:
        ok = Wrapped(out, [&] { return Point(out); });
        break;
      case GeometryType::kLineString:
        ok = Wrapped(out, [&] { return Points(out); });
        break;
      case GeometryType::kPolygon:
        ok = Wrapped(out, [&] { return Rings(out); });
        break;
      default: {  // the multi- forms and collections: WKB shapes of their own
        const GeometryType part = t == GeometryType::kMultiPoint        ? GeometryType::kPoint
                                  : t == GeometryType::kMultiLineString ? GeometryType::kLineString
                                  : t == GeometryType::kMultiPolygon    ? GeometryType::kPolygon
                                                                        : GeometryType::kGeometry;
        if (part == GeometryType::kGeometry && Have(4)) {
          const std::size_t count_at = at_;
          if (U32() == 0) {  // GEOMETRYCOLLECTION EMPTY
            if (out) *out += " EMPTY";
            ok = true;
            break;
          }
          at_ = count_at;  // Parts reads the count again
        }
        ok = Wrapped(out, [&] { return Parts(out, part, depth); });
        break;
      }
    }
    if (!ok) return std::nullopt;
    return t;
  }

  bool AtEnd() const { return at_ == b_.size(); }

 private:
  bool Have(std::size_t n) const { return b_.size() - at_ >= n; }

  std::uint32_t U32() {
    std::uint32_t v = 0;
    for (int i = 0; i < 4; ++i) {
      const auto byte = std::to_integer<std::uint32_t>(b_[at_ + static_cast<std::size_t>(little_ ? 3 - i : i)]);
      v = v << 8 | byte;
    }
    at_ += 4;
    return v;
  }

  double F64() {
    std::uint64_t v = 0;
    for (int i = 0; i < 8; ++i) {
      const auto byte = std::to_integer<std::uint64_t>(b_[at_ + static_cast<std::size_t>(little_ ? 7 - i : i)]);
      v = v << 8 | byte;
    }
    at_ += 8;
    double d = 0;
    std::memcpy(&d, &v, 8);
    return d;
  }

  template <typename F>
  bool Wrapped(std::string* out, F inner) {
    if (out) *out += '(';
    if (!inner()) return false;
    if (out) *out += ')';
    return true;
  }

  bool Point(std::string* out) {
    if (!Have(16)) return false;
    const double x = F64(), y = F64();
    if (out) *out += DoubleText(x, FloatDigits::kDouble) + " " + DoubleText(y, FloatDigits::kDouble);
    return true;
  }

  // A count then that many of `one`, comma-separated; the count checked against the bytes left
  // (each takes at least `least` bytes) before anything is read.
  template <typename F>
  bool List(std::string* out, std::size_t least, F one) {
    if (!Have(4)) return false;
    const std::uint32_t n = U32();
    if (n == 0 || n > (b_.size() - at_) / least) return false;
    for (std::uint32_t i = 0; i < n; ++i) {
      if (out && i) *out += ',';
      if (!one()) return false;
    }
    return true;
  }

  bool Points(std::string* out) {
    return List(out, 16, [&] { return Point(out); });
  }

  bool Rings(std::string* out) {
    return List(out, 4, [&] { return Wrapped(out, [&] { return Points(out); }); });
  }

  bool Parts(std::string* out, GeometryType part, int depth) {
    return List(out, 5, [&] {
      std::string inner;
      const auto t = Shape(out ? &inner : nullptr, depth + 1);
      if (!t || (part != GeometryType::kGeometry && *t != part)) return false;
      if (!out) return true;
      // A multi- form's parts are written without their type name, a point without its
      // parentheses too: MULTIPOINT(1 2,3 4), MULTILINESTRING((0 0,1 1),(2 2,3 3)).
      const std::size_t name = kNames[static_cast<int>(part)].size();
      if (part == GeometryType::kGeometry)
        *out += inner;
      else if (part == GeometryType::kPoint)
        *out += inner.substr(name + 1, inner.size() - name - 2);
      else
        *out += inner.substr(name);
      return true;
    });
  }

  ConstBytes b_;
  std::size_t at_ = 0;
  bool little_ = true;
};

void AppendU32(std::string& out, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) out += static_cast<char>(v >> (8 * i) & 0xFF);
}

void AppendDouble(std::string& out, double d) {
  std::uint64_t bits = 0;
  std::memcpy(&bits, &d, 8);
  for (int i = 0; i < 8; ++i) out += static_cast<char>(bits >> (8 * i) & 0xFF);
}

void Header(std::string& out, GeometryType t) {
  out += '\x01';  // little-endian
  AppendU32(out, static_cast<std::uint32_t>(t));
}

// Well-Known Text to WKB, appended little-endian: a recursive descent over the grammar, each
// level bounded as the reader's is.
class WktReader {
 public:
  explicit WktReader(std::string_view s) : s_(s) {}

  bool Shape(std::string& out, int depth = 0) {
    Space();
    std::size_t n = 0;
    while (at_ + n < s_.size() && std::isalpha(static_cast<unsigned char>(s_[at_ + n]))) ++n;
    const auto t = GeometryTypeNamed(s_.substr(at_, n));
    if (!t || *t == GeometryType::kGeometry || depth > 32) return false;
    at_ += n;
    Header(out, *t);
    switch (*t) {
      case GeometryType::kPoint:
        return Open() && Point(out) && Close();
      case GeometryType::kLineString:
        return Points(out);
      case GeometryType::kPolygon:
        return Rings(out);
      case GeometryType::kMultiPoint:
        return List(out, [&] {  // MULTIPOINT(1 2,3 4): MariaDB reads no parentheses around the points
          Header(out, GeometryType::kPoint);
          return Point(out);
        });
      case GeometryType::kMultiLineString:
        return List(out, [&] {
          Header(out, GeometryType::kLineString);
          return Points(out);
        });
      case GeometryType::kMultiPolygon:
        return List(out, [&] {
          Header(out, GeometryType::kPolygon);
          return Rings(out);
        });
      default:  // a collection, of anything but another collection (as MariaDB reads it), or none
        if (depth > 0) return false;
        if (Word("EMPTY") || EmptyParentheses()) {
          AppendU32(out, 0);
          return true;
        }
        return List(out, [&] { return Shape(out, depth + 1); });
    }
  }

  bool AtEnd() {
    Space();
    return at_ == s_.size();
  }

 private:
  void Space() {
    while (at_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[at_]))) ++at_;
  }
  bool Accept(char c) {
    Space();
    if (at_ < s_.size() && s_[at_] == c) return ++at_, true;
    return false;
  }
  bool Open() { return Accept('('); }
  bool Close() { return Accept(')'); }

  bool Number(std::string& out) {
    Space();
    const std::string rest(s_.substr(at_, std::min<std::size_t>(s_.size() - at_, 64)));
    char* end = nullptr;
    const double d = std::strtod(rest.c_str(), &end);
    if (end == rest.c_str() || !std::isfinite(d)) return false;
    at_ += static_cast<std::size_t>(end - rest.c_str());
    AppendDouble(out, d);
    return true;
  }
  bool Point(std::string& out) { return Number(out) && Number(out); }

  // "(" one "," one ... ")" with the count written before them.
  template <typename F>
  bool List(std::string& out, F one) {
    if (!Open()) return false;
    const std::size_t count_at = out.size();
    AppendU32(out, 0);
    std::uint32_t n = 0;
    do {
      if (!one()) return false;
      ++n;
    } while (Accept(','));
    for (int i = 0; i < 4; ++i) out[count_at + static_cast<std::size_t>(i)] = static_cast<char>(n >> (8 * i) & 0xFF);
    return Close();
  }
  bool Points(std::string& out) {
    return List(out, [&] { return Point(out); });
  }
  // A polygon's rings, each closed (its last point its first), as MariaDB reads them.
  bool Rings(std::string& out) {
    return List(out, [&] {
      const std::size_t ring = out.size();
      if (!Points(out)) return false;
      return out.compare(ring + 4, 16, out, out.size() - 16, 16) == 0;
    });
  }
  // The upper-case word `w` in any case, as a whole word.
  bool Word(std::string_view w) {
    Space();
    if (s_.size() - at_ < w.size()) return false;
    for (std::size_t k = 0; k < w.size(); ++k) {
      if ((s_[at_ + k] & ~0x20) != w[k]) return false;
    }
    if (at_ + w.size() < s_.size() && std::isalnum(static_cast<unsigned char>(s_[at_ + w.size()]))) return false;
    at_ += w.size();
    return true;
  }
  bool EmptyParentheses() {
    const std::size_t at = at_;
    if (Accept('(') && Accept(')')) return true;
    at_ = at;
    return false;
  }

  std::string_view s_;
  std::size_t at_ = 0;
};

}  // namespace

std::optional<std::string> GeometryFromText(std::string_view wkt, std::uint32_t srid) {
  std::string out;
  AppendU32(out, srid);
  WktReader r(wkt);
  if (!r.Shape(out) || !r.AtEnd()) return std::nullopt;
  return out;
}

std::optional<std::string> GeometryFromWkb(std::string_view wkb, std::uint32_t srid) {
  std::string out;
  AppendU32(out, srid);
  out += wkb;
  if (!ReadGeometry(AsBytes(out.data(), out.size()))) return std::nullopt;
  return out;
}

std::uint32_t GeometrySrid(ConstBytes stored) {
  std::uint32_t srid = 0;
  for (std::size_t i = std::min<std::size_t>(stored.size(), 4); i-- > 0;)
    srid = srid << 8 | std::to_integer<std::uint32_t>(stored[i]);
  return srid;
}

std::optional<std::pair<double, double>> PointXY(ConstBytes stored) {
  if (ReadGeometry(stored) != GeometryType::kPoint) return std::nullopt;
  const bool little = std::to_integer<int>(stored[4]) == 1;
  const auto coordinate = [&](std::size_t at) {
    std::uint64_t bits = 0;
    for (std::size_t i = 0; i < 8; ++i)
      bits = bits << 8 | std::to_integer<std::uint64_t>(stored[at + (little ? 7 - i : i)]);
    double d = 0;
    std::memcpy(&d, &bits, 8);
    return d;
  };
  return std::pair{coordinate(9), coordinate(17)};
}

std::string PointValue(double x, double y, std::uint32_t srid) {
  std::string out;
  AppendU32(out, srid);
  Header(out, GeometryType::kPoint);
  AppendDouble(out, x);
  AppendDouble(out, y);
  return out;
}

std::string_view GeometryTypeName(GeometryType t) { return kNames[static_cast<int>(t)]; }

std::optional<GeometryType> GeometryTypeNamed(std::string_view name) {
  for (std::size_t i = 0; i < std::size(kNames); ++i) {
    if (name.size() != kNames[i].size()) continue;
    bool same = true;
    for (std::size_t k = 0; k < name.size() && same; ++k)
      same = (name[k] & ~0x20) == kNames[i][k];  // the names are letters only
    if (same) return static_cast<GeometryType>(i);
  }
  return std::nullopt;
}

std::optional<GeometryType> ReadGeometry(ConstBytes stored) {
  if (stored.size() < 4) return std::nullopt;
  WkbReader r(stored.subspan(4));
  const auto t = r.Shape(nullptr);
  if (!t || !r.AtEnd()) return std::nullopt;
  return t;
}

Result<std::string> GeometryText(ConstBytes stored) {
  if (stored.size() < 4) return Status::Corruption("a geometry of fewer than 4 bytes");
  WkbReader r(stored.subspan(4));
  std::string out;
  if (!r.Shape(&out) || !r.AtEnd()) return Status::Corruption("bytes that are not a WKB geometry");
  return out;
}

}  // namespace strata::ondisk
