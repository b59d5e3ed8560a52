// LOAD DATA [LOCAL] INFILE: the file split into rows (load_data.h), each made a row of the
// table as an INSERT's would be, inserted as one statement with IGNORE or REPLACE as asked
// (LOCAL implies IGNORE, as in the server: a duplicate cannot stop a client's upload).
#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "sql/column_fit.h"
#include "sql/load_data.h"
#include "sql/row_builder.h"
#include "sql/session.h"
#include "sql/session_context.h"

namespace strata::sql {

StatementOutcome Session::DoLoadData(const LoadData& l, Transaction* trx) {
  auto table = FindTable(l.table);
  if (!table.ok()) return Error(table.error());
  const TableSpec& spec = (*table)->spec();
  auto builder = RowBuilder::For(spec, l.columns);
  if (!builder.ok()) return Error(builder.error());
  std::ifstream in(l.file, std::ios::binary);
  if (!in)
    return Error(
        {13, "HY000", fmt::format("Can't get stat of '{}' (Errcode: 2 \"No such file or directory\")", l.file)});
  std::ostringstream text;
  text << in.rdbuf();
  const std::vector<LoadedRow> lines = SplitLoadData(text.str(), l);
  StatementOutcome o;
  std::vector<Row> rows;
  rows.reserve(lines.size());
  std::vector<std::optional<SqlValue>> values;
  for (std::size_t r = 0; r < lines.size(); ++r) {
    const std::size_t number = r + 1;
    const LoadedRow& fields = lines[r];
    // Too few fields: the rest take their defaults, with a 1261 for each; more: cut, with a
    // 1262 when what is cut holds anything (a line ending in a separator does not).
    const std::size_t width = builder->width();
    const bool more = std::any_of(fields.begin() + static_cast<std::ptrdiff_t>(std::min(width, fields.size())),
                                  fields.end(), [](const auto& f) { return !f || !f->empty(); });
    const std::size_t missing = width > fields.size() ? width - fields.size() : 0;
    const SqlError few{1261, "01000", fmt::format("Row {} doesn't contain data for all columns", number)};
    const SqlError many{
        1262, "01000",
        fmt::format("Row {} was truncated; it contained more data than there were input columns", number)};
    const bool fit = !strict() || l.ignore || l.local;
    if (!fit && (missing || more)) {  // the server lists the error once per missing field
      StatementOutcome failed = Error(missing ? few : many);
      for (std::size_t k = 1; k < missing; ++k)
        failed.warnings.push_back({SqlWarning::Level::kError, few.code, few.message});
      return failed;
    }
    values.assign(width, std::nullopt);
    for (std::size_t k = 0; k < values.size() && k < fields.size(); ++k)
      values[k] = fields[k] ? SqlValue(Value::String(*fields[k])) : SqlValue();
    auto row = builder->Build(values, number);
    if (!row.ok()) return Error(row.error());
    // The row's own values mended first, then what its line lacked or had too much, in the
    // server's order.
    if (fit) FitRow(spec, *row, number, o.warnings);
    for (std::size_t k = 0; k < missing; ++k)
      o.warnings.push_back({SqlWarning::Level::kWarning, few.code, few.message});
    if (more) o.warnings.push_back({SqlWarning::Level::kWarning, many.code, many.message});
    rows.push_back(std::move(*row));
  }
  Insert as_insert;
  as_insert.table = l.table;
  as_insert.replace = l.replace;
  as_insert.ignore = l.ignore || (l.local && !l.replace);
  StatementOutcome inserted = ApplyInsert(as_insert, **table, rows, trx);
  if (inserted.error) return inserted;
  const std::uint64_t skipped = as_insert.ignore ? rows.size() - inserted.rows : 0;
  inserted.warnings.insert(inserted.warnings.begin(), o.warnings.begin(), o.warnings.end());
  inserted.info =
      fmt::format("Records: {}  Deleted: 0  Skipped: {}  Warnings: {}", rows.size(), skipped, inserted.warnings.size());
  return inserted;
}

}  // namespace strata::sql
