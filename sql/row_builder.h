// Turns the values of an INSERT (in its column list's order) into a full row of the table:
// defaults for the columns not named, DEFAULT for those that ask for it, values converted
// to the column's type.
#pragma once

#include "sql/engine_api.h"

#include <optional>
#include <vector>

#include "engine/db.h"
#include "sql/eval.h"

namespace strata::sql {

class RowBuilder {
 public:
  // UnknownColumn (1054) or a column named twice (1110).
  static SqlResult<RowBuilder> For(const TableSpec& spec, const std::vector<std::string>& columns);

  std::size_t width() const { return positions_.size(); }
  // `values[k]` for the k-th column listed; nullopt is DEFAULT. `row_number` counts from 1,
  // for messages ("Column count doesn't match value count at row 3").
  SqlResult<Row> Build(std::vector<std::optional<SqlValue>>& values, std::size_t row_number) const;
  // What a column not given a value takes (DEFAULT CURRENT_TIMESTAMP: the time now); nullopt
  // for a NOT NULL column without a default.
  static std::optional<Value> DefaultOf(const Column& c);

 private:
  explicit RowBuilder(const TableSpec& spec) : spec_(&spec) {}
  const TableSpec* spec_;
  std::vector<std::size_t> positions_;
};

}  // namespace strata::sql
