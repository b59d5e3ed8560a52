// Spatial values as MySQL and MariaDB store them: a 4-byte little-endian SRID, then the shape
// in Well-Known Binary (OGC 06-103): a byte-order byte (1 little-endian, 0 big), a uint32
// type (1 point, 2 linestring, 3 polygon, 4-6 their multi- forms, 7 a collection) and its
// coordinates as IEEE doubles, counts before lists.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "ondisk/endian.h"
#include "ondisk/status.h"

namespace strata::ondisk {

enum class GeometryType : std::uint8_t {
  kGeometry,  // any of the others: what a GEOMETRY column takes
  kPoint,
  kLineString,
  kPolygon,
  kMultiPoint,
  kMultiLineString,
  kMultiPolygon,
  kGeometryCollection,
};

// "GEOMETRY", "POINT", ... "GEOMETRYCOLLECTION", as the server names the types.
std::string_view GeometryTypeName(GeometryType t);
// The type named (case-insensitively), or nullopt.
std::optional<GeometryType> GeometryTypeNamed(std::string_view name);

// The type of the complete value `stored` (SRID and WKB), or nullopt when the bytes are not
// one: too short, an unknown type, counts past the end, bytes left over.
std::optional<GeometryType> ReadGeometry(ConstBytes stored);
// `stored` as ST_AsText writes it: "POINT(1 2)", "LINESTRING(0 0,1 1)"; Corruption when
// ReadGeometry would refuse it.
Result<std::string> GeometryText(ConstBytes stored);

// The stored value (SRID, then little-endian WKB) of Well-Known Text as MariaDB reads it:
// "POINT(1 2)", "MULTIPOINT(1 2,3 4)", "GEOMETRYCOLLECTION(POINT(1 2))" (not nested) ...;
// nullopt when `wkt` is not one.
std::optional<std::string> GeometryFromText(std::string_view wkt, std::uint32_t srid = 0);
// A POINT's stored value.
std::string PointValue(double x, double y, std::uint32_t srid = 0);
// WKB given alone (ST_GeomFromWKB's) as a stored value with `srid`, or nullopt when it is no shape.
std::optional<std::string> GeometryFromWkb(std::string_view wkb, std::uint32_t srid = 0);
// The SRID of a stored value that ReadGeometry accepts.
std::uint32_t GeometrySrid(ConstBytes stored);
// A stored POINT's x and y, or nullopt when `stored` is not a point.
std::optional<std::pair<double, double>> PointXY(ConstBytes stored);

}  // namespace strata::ondisk
