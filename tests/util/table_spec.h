// Tables for tests, written as short as CREATE TABLE, with the engine's column helpers
// (engine/schema.h):
//
//   TableSpec{"shop", "t", {NotNull(Col("id", ColumnType::kBigInt)), Col("v", ColumnType::kVarchar, 200)}, {"id"}, {}}
#pragma once

#include "engine/schema.h"

namespace strata::testing {

using engine::Col;
using engine::NotNull;

}  // namespace strata::testing
