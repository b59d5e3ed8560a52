// The steps a SELECT's rows flow through, each passing the rows it keeps to the next:
//
//   scan (access_path.h Visit) -> filter (WHERE) -> aggregate | sort -> limit -> project -> sink
//
// A step is pushed rows and told when they end; it may hold them back (sort, aggregate) and
// stop the scan (limit). A join, GROUP BY or window function is another step in this chain.
// Steps share one PlanState: the row context expressions are evaluated in, and the first error.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <optional>
#include <vector>

#include "sql/session.h"
#include "sql/session_context.h"

namespace strata::sql {

struct PlanState {
  explicit PlanState(RowContext& c) : ctx(c) {}
  RowContext& ctx;
  std::optional<SqlError> error;

  bool Fail(SqlError e) {
    if (!error) error = std::move(e);
    return false;
  }
};

// A key rows are sorted or grouped by.
struct SortKey {
  const Expr* expr = nullptr;
  bool descending = false;
};

// The order of two lists of values as ORDER BY sorts them (NULL first, an ENUM or SET by its
// number, text by its collation), each key reversed where `descending` says.
int CompareValues(const std::vector<SqlValue>& a, const std::vector<SqlValue>& b, const std::vector<SortKey>* keys);

class RowStep {
 public:
  RowStep(PlanState& state, RowStep* next) : state_(state), next_(next) {}
  virtual ~RowStep() = default;
  // One row; null for the one row of a SELECT without FROM or of an aggregate. False: stop.
  virtual bool Push(const Row* row) = 0;
  // The rows have ended: what the step held back goes on. False: an error (in the state).
  virtual bool Finish() { return next_ ? next_->Finish() : !state_.error; }

 protected:
  PlanState& state_;
  RowStep* next_;
};

// WHERE: the rows it holds for.
class FilterStep : public RowStep {
 public:
  FilterStep(PlanState& state, const Expr* where, RowStep* next) : RowStep(state, next), where_(where) {}
  bool Push(const Row* row) override;

 private:
  const Expr* where_;
};

struct Accumulator;
// The aggregate calls (COUNT, SUM, ...) in `exprs`, each once, a fresh accumulator for each.
std::vector<Accumulator> AccumulatorsFor(const std::vector<const Expr*>& exprs);

// COUNT, SUM, AVG, MIN, MAX over every row: one row at the end, the aggregates' values put
// in the row context for the output expressions to read.
class AggregateStep : public RowStep {
 public:
  // `exprs`: every expression evaluated after it (outputs, HAVING, ORDER BY keys).
  AggregateStep(PlanState& state, const std::vector<const Expr*>& exprs, RowStep* next);
  ~AggregateStep() override;
  bool Push(const Row* row) override;
  bool Finish() override;

 private:
  std::vector<Accumulator> accumulators_;
  std::uint64_t rows_ = 0;  // pushed so far (GROUP_CONCAT's warning names the row)
};

// GROUP BY: a row per group of rows whose keys compare equal (NULLs together, text by its
// collation), in the keys' order as MariaDB gives them, each the group's first row with the
// group's aggregates in the row context.
class GroupStep : public RowStep {
 public:
  // `in_key_order` false (ORDER BY NULL): the groups in the order their first rows came.
  GroupStep(PlanState& state, std::vector<SortKey> keys, const std::vector<const Expr*>& exprs, bool in_key_order,
            RowStep* next);
  // WITH ROLLUP: after the last group of each run sharing the first L keys, a row totalling
  // that run, its other keys NULL (a column key read as NULL from the run's last group's first
  // row, `spec`'s column of that name), down to the grand total.
  void Rollup(const TableSpec& spec);
  ~GroupStep() override;
  bool Push(const Row* row) override;
  bool Finish() override;

 private:
  struct Group;
  std::vector<SortKey> keys_;
  std::vector<const Expr*> exprs_;
  std::vector<Group> groups_;
  std::uint64_t rows_ = 0;  // pushed so far
  bool in_key_order_;
  const TableSpec* rollup_ = nullptr;
  std::vector<std::map<std::vector<SqlValue>, std::vector<Accumulator>,
                       std::function<bool(const std::vector<SqlValue>&, const std::vector<SqlValue>&)>>>
      totals_;  // per level L < keys: the runs sharing their first L keys
  std::map<std::vector<SqlValue>, std::size_t,
           std::function<bool(const std::vector<SqlValue>&, const std::vector<SqlValue>&)>>
      index_;
};

// ORDER BY: every row kept, then sorted by the keys (NULLs first, as MySQL sorts them), stably.
// A grouped row keeps its group's aggregates for its keys and the steps after.
class SortStep : public RowStep {
 public:
  using Key = SortKey;
  SortStep(PlanState& state, std::vector<Key> keys, RowStep* next) : RowStep(state, next), keys_(std::move(keys)) {}
  bool Push(const Row* row) override;
  bool Finish() override;

 private:
  std::vector<Key> keys_;
  std::vector<Row> rows_;
  std::vector<std::vector<std::pair<const Expr*, SqlValue>>> aggregates_;  // per row, when grouped
};

// OFFSET and LIMIT: the rows after the first `offset`, at most `limit` of them; the scan
// stops once they are passed on.
class LimitStep : public RowStep {
 public:
  LimitStep(PlanState& state, std::uint64_t offset, std::optional<std::uint64_t> limit, RowStep* next)
      : RowStep(state, next), offset_(offset), limit_(limit) {}
  bool Push(const Row* row) override;

 private:
  std::uint64_t offset_;
  std::optional<std::uint64_t> limit_;
  std::uint64_t skipped_ = 0, passed_ = 0;
};

// The rows themselves, kept (the rows an UPDATE or DELETE changes).
class CollectStep : public RowStep {
 public:
  explicit CollectStep(PlanState& state) : RowStep(state, nullptr) {}
  bool Push(const Row* row) override {
    rows.push_back(*row);
    return true;
  }
  std::vector<Row> rows;
};

// What an output column shows: a table column (by position) or an expression.
struct SelectOutput {
  const Expr* expr = nullptr;
  std::optional<std::size_t> column;
  ColumnHeader header;
};

// SELECT DISTINCT: a row on only when its output values differ from every row's before it.
class DistinctStep : public RowStep {
 public:
  DistinctStep(PlanState& state, const std::vector<SelectOutput>& outputs, const TableSpec* spec, RowStep* next);
  bool Push(const Row* row) override;

 private:
  const std::vector<SelectOutput>& outputs_;
  const TableSpec* spec_;
  std::set<std::vector<SqlValue>, std::function<bool(const std::vector<SqlValue>&, const std::vector<SqlValue>&)>>
      seen_;
};

// The output columns of each row, as text, to the sink; counts the rows sent.
class ProjectStep : public RowStep {
 public:
  ProjectStep(PlanState& state, const std::vector<SelectOutput>& outputs, const TableSpec* spec, ResultSink& sink)
      : RowStep(state, nullptr), outputs_(outputs), spec_(spec), sink_(sink) {}
  bool Push(const Row* row) override;
  std::uint64_t rows() const { return rows_; }

 private:
  const std::vector<SelectOutput>& outputs_;
  const TableSpec* spec_;
  ResultSink& sink_;
  std::uint64_t rows_ = 0;
};

}  // namespace strata::sql
