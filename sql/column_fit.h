// Values their columns cannot hold, as MySQL treats them. A strict statement fails with the
// error naming the row ("Out of range value for column 'c' at row 3"); INSERT IGNORE, UPDATE
// IGNORE and a sql_mode without STRICT_TRANS_TABLES store the nearest value the column can
// hold instead (the type's limit, 0 for 'abc', the string cut to length, the zero date) and
// say so in a warning each, as the server does.
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

#include "sql/engine_api.h"
#include "sql/parser.h"

namespace strata::sql {

// An error of a value its column refused (out of range, truncated, too long, not a number or
// a date, NULL into NOT NULL): what FitRow mends.
bool IsValueError(const Status& s);

// The error of `failed` (a value error from inserting or updating `rows`) as MySQL words it,
// with the row ("at row N", counted from `first_row`) whose value it was.
SqlError ValueError(const TableSpec& spec, const std::vector<Row>& rows, const Status& failed,
                    std::size_t first_row = 1);

// `e` with MySQL's " at row N" when it is an error that names one.
SqlError AtRow(SqlError e, std::size_t row_number);

// Replaces each value of `row` its column cannot hold by the nearest one it can, adding the
// warning the server gives for each (`row_number` for "at row N").
void FitRow(const TableSpec& spec, Row& row, std::size_t row_number, std::vector<SqlWarning>& warnings);

// Inserts `rows` as one statement. A value error fails it naming the row, unless `strict` is
// off: then the rows are mended (FitRow, warnings added) and inserted again, except where
// MySQL refuses even then (NULL into a NOT NULL column of a one-row INSERT).
std::optional<SqlError> InsertFitted(Table& t, const std::vector<Row>& rows, Transaction* trx, InsertOptions options,
                                     bool strict, std::vector<SqlWarning>& warnings, std::size_t first_row = 1);

// The value a NOT NULL column takes for NULL when the statement may go on: its type's zero.
Value ImplicitDefault(const Column& c);

}  // namespace strata::sql
