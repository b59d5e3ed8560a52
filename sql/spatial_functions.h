// The spatial functions dumps and everyday queries use: building a shape (POINT,
// ST_GeomFromText, ST_GeomFromWKB) and reading one (ST_AsText, ST_AsBinary, ST_X, ST_Y,
// ST_SRID). Shapes are binary strings as spatial columns store them (ondisk/geometry.h).
#pragma once

#include <string>
#include <vector>

#include "sql/eval.h"

namespace strata::sql {

SqlResult<SqlValue> Point(const std::string& name, std::vector<SqlValue>& args);
SqlResult<SqlValue> GeomFromText(const std::string& name, std::vector<SqlValue>& args);
SqlResult<SqlValue> GeomFromWkb(const std::string& name, std::vector<SqlValue>& args);
SqlResult<SqlValue> AsText(const std::string& name, std::vector<SqlValue>& args);
SqlResult<SqlValue> AsBinary(const std::string& name, std::vector<SqlValue>& args);
SqlResult<SqlValue> PointCoordinate(const std::string& name, std::vector<SqlValue>& args);  // ST_X, ST_Y
SqlResult<SqlValue> Srid(const std::string& name, std::vector<SqlValue>& args);

}  // namespace strata::sql
