#include "experiments/sbtest.h"

#include <utility>

namespace strata::experiments {

using engine::Col;
using engine::ColumnType;
using engine::NotNull;

namespace {

engine::Column IdColumn(const SbtestShape& shape) {
  using datasets::KeyStrategy;
  switch (shape.keys) {
    case KeyStrategy::kSeq:
    case KeyStrategy::kAutoinc: {
      engine::Column id = NotNull(Col("id", shape.bigint_id ? ColumnType::kBigInt : ColumnType::kInt));
      id.auto_increment = shape.keys == KeyStrategy::kAutoinc;
      return id;
    }
    case KeyStrategy::kUuid:
    case KeyStrategy::kUuid7:
      return NotNull(Col("id", ColumnType::kChar, 36));
    case KeyStrategy::kUlid:
      return NotNull(Col("id", ColumnType::kChar, 26));
    case KeyStrategy::kUuidBin:
    case KeyStrategy::kUuid7Bin:
    case KeyStrategy::kUuid1SwapBin:
      break;
  }
  engine::Column id = NotNull(Col("id", ColumnType::kBinary, 16));
  id.charset = engine::Charset::kBinary;  // as CREATE TABLE gives a BINARY column
  return id;
}

}  // namespace

engine::TableSpec SbtestSpec(std::string database, std::string table, const SbtestShape& shape) {
  engine::TableSpec s;
  s.database = std::move(database);
  s.name = std::move(table);
  engine::Column k = NotNull(Col("k", ColumnType::kInt));
  k.is_unsigned = true;
  k.default_value = engine::Value::UInt(0);
  engine::Column c = NotNull(Col("c", ColumnType::kChar, 120));
  engine::Column pad = NotNull(Col("pad", ColumnType::kChar, 60));
  c.default_value = pad.default_value = engine::Value::String("");
  s.columns = {IdColumn(shape), k, c, pad};
  s.primary_key = {"id"};
  if (shape.k_index) s.indexes = {{"k_1", {"k"}, false}};
  return s;
}

}  // namespace strata::experiments
