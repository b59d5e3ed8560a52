#include "sql/spatial_functions.h"

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
  auto bytes = ondisk::GeometryFromWkb(TextOf(args[0]), SridArgument(args));
  if (!bytes) return Null();
  return Shape(std::move(*bytes));
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
  const auto xy = ondisk::PointXY(BytesOf(TextOf(args[0])));
  if (!xy) return Null();
  return SqlValue{Value::Double(name == "ST_X" ? xy->first : xy->second)};
}

SqlResult<SqlValue> Srid(const std::string&, std::vector<SqlValue>& args) {
  const std::string stored = TextOf(args[0]);
  if (!ondisk::ReadGeometry(BytesOf(stored))) return Null();
  return SqlValue{Value::UInt(ondisk::GeometrySrid(BytesOf(stored)))};
}

}  // namespace strata::sql
