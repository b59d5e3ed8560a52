// Internal to the SQL front end: what expressions see inside a session, and inside a row.
#pragma once

#include "sql/engine_api.h"

#include "sql/session.h"

namespace strata::sql {

class SessionContext : public EvalContext {
 public:
  explicit SessionContext(const Session& s) : s_(s) {}
  SqlResult<SqlValue> UserVariable(const std::string& name) const override;
  SqlResult<SqlValue> SystemVariable(const std::string& name) const override;
  std::optional<SqlValue> SessionFunction(const std::string& name) const override;
  SqlResult<SqlValue> DivisionByZero() const override;
  void Warn(const SqlWarning& w) const override { s_.eval_warnings_.push_back(w); }
  SqlResult<SqlValue> LocalVariable(const Expr& variable) const override;  // session_routine.cc
  SqlResult<SqlValue> TriggerField(const Expr& field) const override;      // session_trigger.cc
  std::optional<SqlResult<SqlValue>> StoredFunction(const std::string& name,
                                                    std::vector<SqlValue>& args) const override;

 protected:
  const Session& s_;
};

// A table's row: columns by name (case-insensitively), values typed by the column.
class RowContext : public SessionContext {
 public:
  RowContext(const Session& s, const TableSpec& spec, const Row* row = nullptr)
      : SessionContext(s), spec_(spec), row_(row) {}
  void set_row(const Row* row) { row_ = row; }
  SqlResult<SqlValue> Column(const Expr& column) const override;
  const SqlValue* Aggregate(const Expr& call) const override;
  // Aggregates computed over the rows (COUNT, SUM, ...), looked up by their node.
  std::vector<std::pair<const Expr*, SqlValue>> aggregates;

  // The clause being evaluated, which an unknown column's error names ("where clause", ...),
  // for as long as the scope lives.
  class InClause {
   public:
    InClause(const RowContext& ctx, std::string_view clause) : ctx_(ctx), outer_(ctx.clause_) { ctx.clause_ = clause; }
    ~InClause() { ctx_.clause_ = outer_; }
    InClause(const InClause&) = delete;
    InClause& operator=(const InClause&) = delete;

   private:
    const RowContext& ctx_;
    std::string_view outer_;
  };

 private:
  mutable std::string_view clause_ = "field list";
  const TableSpec& spec_;
  const Row* row_;
};

// The rows of a SELECT kept as values (INSERT ... SELECT, SELECT ... INTO, a routine's
// cursor), read whole before they are used: the SELECT may read the table being written.
class ValuesSink : public ResultSink {
 public:
  void Header(const std::vector<ColumnHeader>&) override {}
  void Row(const std::vector<std::optional<std::string>>&) override {}
  bool wants_values() const override { return true; }
  void Values(std::vector<SqlValue>&& values) override { rows.push_back(std::move(values)); }
  std::vector<std::vector<SqlValue>> rows;
};

// The column's position in the spec, compared as MySQL compares column names.
std::optional<std::size_t> FindColumn(const TableSpec& spec, const std::string& name);
// A stored value as an expression sees it (binary columns compare as bytes, DECIMAL exactly).
SqlValue FromColumn(const Value& v, const engine::Column& c);
// `row` in place of `old`, a row of `t`: updated where it is, or deleted and inserted again
// when its primary key changes (and `old` put back when the insert fails: a taken key).
Status ReplaceRow(Table& t, const Row& old, const Row& row, Transaction* trx, InsertOptions options = {});

// The primary keys of the rows `row` collides with, on the primary key first, then on each
// unique key (locked exclusively): the rows REPLACE deletes, the one ON DUPLICATE KEY UPDATE
// changes. The table has a primary key.
SqlResult<std::vector<std::vector<Value>>> CollidingKeys(Table& t, const Row& row, Transaction* trx);

// MySQL 8.0's row alias of an INSERT (VALUES (...) AS new (a, b)) refused as the server refuses
// it: the table's own name (1066), a column list of another length (1136) or a name twice (1060).
std::optional<SqlError> CheckRowAlias(const Insert& ins, const TableSpec& spec);

// The column a SELECT's output column `name` makes (CREATE TABLE ... SELECT, a view's
// columns): its table's column for a column reference (`expr` null: one that * brought), the
// type the server derives for an expression (sql/expr_type.h), nullopt where none is derived.
std::optional<engine::Column> SelectColumn(const std::string& name, const Expr* expr, const TableSpec* from);

// A stored function is called somewhere in `e` or in the SELECT: a name the library does not have.
bool CallsStoredFunction(const Expr* e);
bool CallsStoredFunction(const Select& s);

// `s` matches SHOW ... LIKE's pattern (any when there is none).
bool LikeMatches(const std::string& s, const std::optional<std::string>& pattern);
SqlError NoDatabase();
SqlError UnknownDatabase(const std::string& name);

// A statement's failure as its outcome, and MySQL's ER_BAD_FIELD_ERROR.
StatementOutcome Error(SqlError e);
SqlError UnknownColumn(const std::string& name, std::string_view where);

template <typename S, typename F>
StatementOutcome Session::ThroughView(const S& s, const SqlError& no_table, F run) {
  auto merged = Merged(s);
  if (!merged.ok()) return Error(merged.error());
  return *merged ? run(**merged) : Error(no_table);
}
// ER_QUERY_INTERRUPTED: the statement was asked to stop (Session::Interrupt).
SqlError Interrupted();

}  // namespace strata::sql
