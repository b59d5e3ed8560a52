// The steps a SELECT's rows flow through, each passing the rows it keeps to the next:
//
//   scan (access_path.h Visit) -> filter (WHERE) -> aggregate | sort -> limit -> project -> sink
//
// A step is pushed rows and told when they end; it may hold them back (sort, aggregate) and
// stop the scan (limit). A join, GROUP BY or window function is another step in this chain.
// Steps share one PlanState: the row context expressions are evaluated in, and the first error.
#pragma once

#include <cstdint>
#include <memory>
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

// COUNT, SUM, AVG, MIN, MAX over every row: one row at the end, the aggregates' values put
// in the row context for the output expressions to read.
class AggregateStep : public RowStep {
 public:
  AggregateStep(PlanState& state, const std::vector<const Expr*>& outputs, RowStep* next);
  ~AggregateStep() override;
  bool Push(const Row* row) override;
  bool Finish() override;

 private:
  struct Accumulator;
  std::vector<Accumulator> accumulators_;
};

// ORDER BY: every row kept, then sorted by the keys (NULLs first, as MySQL sorts them), stably.
class SortStep : public RowStep {
 public:
  struct Key {
    const Expr* expr = nullptr;
    bool descending = false;
  };
  SortStep(PlanState& state, std::vector<Key> keys, RowStep* next) : RowStep(state, next), keys_(std::move(keys)) {}
  bool Push(const Row* row) override;
  bool Finish() override;

 private:
  std::vector<Key> keys_;
  std::vector<Row> rows_;
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
