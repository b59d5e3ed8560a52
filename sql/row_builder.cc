#include "sql/row_builder.h"

#include <fmt/format.h>

#include <algorithm>

#include "sql/session_context.h"

namespace strata::sql {

SqlResult<RowBuilder> RowBuilder::For(const TableSpec& spec, const std::vector<std::string>& columns) {
  RowBuilder b(spec);
  if (columns.empty()) {
    for (std::size_t i = 0; i < spec.columns.size(); ++i) b.positions_.push_back(i);
    return b;
  }
  for (const std::string& name : columns) {
    auto i = FindColumn(spec, name);
    if (!i) return SqlError{1054, "42S22", fmt::format("Unknown column '{}' in 'field list'", name)};
    if (std::find(b.positions_.begin(), b.positions_.end(), *i) != b.positions_.end()) {
      return SqlError{1110, "42000", fmt::format("Column '{}' specified twice", name)};
    }
    b.positions_.push_back(*i);
  }
  return b;
}

std::optional<Value> RowBuilder::DefaultOf(const Column& c) {
  if (c.default_value) {
    // DEFAULT CURRENT_TIMESTAMP is kept as that word (no date column can hold it).
    if (c.default_value->is_string() && c.default_value->as_string() == "CURRENT_TIMESTAMP" && !c.is_string()) {
      Expr now;
      now.kind = Expr::Kind::kFunction;
      now.name = "NOW";
      return Eval(now, EvalContext())->value;
    }
    return *c.default_value;
  }
  if (c.nullable || c.auto_increment) return Value::Null();
  if (c.type == ColumnType::kEnum) return Value::UInt(1);  // a NOT NULL ENUM's first label, as the server has it
  return std::nullopt;
}

SqlResult<Row> RowBuilder::Build(std::vector<std::optional<SqlValue>>& values, std::size_t row_number) const {
  if (values.size() != positions_.size()) {
    return SqlError{1136, "21S01", fmt::format("Column count doesn't match value count at row {}", row_number)};
  }
  const TableSpec& spec = *spec_;
  Row row(spec.columns.size());
  thread_local std::vector<char> given;  // one per row otherwise: rows come by the million
  given.assign(spec.columns.size(), 0);
  auto no_default = [&](const Column& c) {
    return SqlError{1364, "HY000", fmt::format("Field '{}' doesn't have a default value", c.name)};
  };
  for (std::size_t k = 0; k < values.size(); ++k) {
    const std::size_t i = positions_[k];
    const Column& c = spec.columns[i];
    given[i] = 1;
    if (values[k]) {
      row[i] = ToColumn(std::move(*values[k]), c);
      continue;
    }
    auto d = DefaultOf(c);
    if (!d) return no_default(c);
    row[i] = std::move(*d);
  }
  for (std::size_t i = 0; i < spec.columns.size(); ++i) {
    if (given[i]) continue;
    auto d = DefaultOf(spec.columns[i]);
    if (!d) return no_default(spec.columns[i]);
    row[i] = std::move(*d);
  }
  return row;
}

}  // namespace strata::sql
