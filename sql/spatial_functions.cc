#include "sql/spatial_functions.h"

#include <cstring>

#include "ondisk/geometry.h"
#include "sql/value_ops.h"

namespace strata::sql {

using namespace ops;

namespace {

ondisk::ConstBytes BytesOf(const std::string& s) { return ondisk::AsBytes(s.data(), s.size()); }

std::uint32_t SridArgument(const std::vector<SqlValue>& args) {
  if (args.size() < 2) return 0;
  const double d = ToDouble(args[1].value);
  return d >= 0 && d <= 4294967295.0 ? static_cast<std::uint32_t>(d) : 0;
}

SqlValue Shape(std::string bytes) { return {Value::String(std::move(bytes)), LiteralKind::kBinary}; }

}  // namespace

SqlResult<SqlValue> Point(const std::string&, std::vector<SqlValue>& args) {
  return Shape(ondisk::PointValue(ToDouble(args[0].value), ToDouble(args[1].value)));
}

SqlResult<SqlValue> GeomFromText(const std::string&, std::vector<SqlValue>& args) {
  auto bytes = ondisk::GeometryFromText(TextOf(args[0]), SridArgument(args));
  if (!bytes) return Null();
  return Shape(std::move(*bytes));
}

SqlResult<SqlValue> GeomFromWkb(const std::string&, std::vector<SqlValue>& args) {
  std::string bytes(4, '\0');
  const std::uint32_t srid = SridArgument(args);
  for (int i = 0; i < 4; ++i) bytes[static_cast<std::size_t>(i)] = static_cast<char>(srid >> (8 * i) & 0xFF);
  bytes += TextOf(args[0]);
  if (!ondisk::ReadGeometry(BytesOf(bytes))) return Null();
  return Shape(std::move(bytes));
}

SqlResult<SqlValue> AsText(const std::string&, std::vector<SqlValue>& args) {
  auto text = ondisk::GeometryText(BytesOf(TextOf(args[0])));
  if (!text.ok()) return Null();
  return Str(std::move(*text));
}

SqlResult<SqlValue> AsBinary(const std::string&, std::vector<SqlValue>& args) {
  const std::string stored = TextOf(args[0]);
  if (!ondisk::ReadGeometry(BytesOf(stored))) return Null();
  return Shape(stored.substr(4));
}

SqlResult<SqlValue> PointCoordinate(const std::string& name, std::vector<SqlValue>& args) {
  const std::string stored = TextOf(args[0]);
  if (ondisk::ReadGeometry(BytesOf(stored)) != ondisk::GeometryType::kPoint) return Null();
  const bool little = stored[4] == 1;
  std::uint64_t bits = 0;
  const std::size_t at = name == "ST_X" ? 9 : 17;
  for (int i = 0; i < 8; ++i) {
    const auto byte = static_cast<unsigned char>(stored[at + static_cast<std::size_t>(little ? 7 - i : i)]);
    bits = bits << 8 | byte;
  }
  double d = 0;
  std::memcpy(&d, &bits, 8);
  return SqlValue{Value::Double(d)};
}

SqlResult<SqlValue> Srid(const std::string&, std::vector<SqlValue>& args) {
  const std::string stored = TextOf(args[0]);
  if (!ondisk::ReadGeometry(BytesOf(stored))) return Null();
  std::uint32_t srid = 0;
  for (int i = 3; i >= 0; --i) srid = srid << 8 | static_cast<unsigned char>(stored[static_cast<std::size_t>(i)]);
  return SqlValue{Value::UInt(srid)};
}

}  // namespace strata::sql
