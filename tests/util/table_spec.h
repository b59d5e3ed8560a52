// Tables for tests, written as short as CREATE TABLE: the columns as Col(...) calls.
//
//   TableSpec{"shop", "t", {NotNull(Col("id", ColumnType::kBigInt)), Col("v", ColumnType::kVarchar, 200)}, {"id"}, {}}
#pragma once

#include <cstdint>
#include <string>
#include <utility>

#include "engine/schema.h"

namespace strata::testing {

// A nullable column; `length` as Column::length (characters, bytes or digits).
inline engine::Column Col(std::string name, engine::ColumnType type, std::uint32_t length = 0, bool nullable = true) {
  engine::Column c;
  c.name = std::move(name);
  c.type = type;
  c.length = length;
  c.nullable = nullable;
  return c;
}

inline engine::Column NotNull(engine::Column c) {
  c.nullable = false;
  return c;
}

}  // namespace strata::testing
