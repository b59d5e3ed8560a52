// A stored procedure or function as the parser builds it from CREATE PROCEDURE / FUNCTION:
// its parameters, and its body as a tree of compound statements (BEGIN ... END blocks with
// their DECLAREs, IF, CASE, WHILE, REPEAT, LOOP, LEAVE, ITERATE, RETURN, cursors, SIGNAL)
// whose leaves are ordinary statements. Names of parameters and local variables are resolved
// when the body is parsed, as the server resolves them: each gets a slot of the routine's
// frame, and an expression refers to it by slot (Expr::Kind::kLocalVar).
#pragma once

#include "sql/engine_api.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sql/ast.h"
#include "sql/eval.h"

namespace strata::sql {

struct RoutineVariable {
  enum class Mode : std::uint8_t { kLocal, kIn, kOut, kInOut };
  std::string name;
  Column column;  // the declared type: a value set is converted as a column of it converts it
  Mode mode = Mode::kLocal;
};

// What a handler catches (DECLARE ... HANDLER FOR ...).
struct HandlerCondition {
  enum class Kind : std::uint8_t { kSqlException, kSqlWarning, kNotFound, kSqlState, kErrorCode };
  Kind kind = Kind::kSqlException;
  std::string sqlstate;
  unsigned code = 0;
};

struct PlStep;
using PlSteps = std::vector<PlStep>;

struct PlHandler {
  bool exit = false;  // EXIT leaves the block it is declared in; CONTINUE goes on after the failure
  std::vector<HandlerCondition> conditions;
  std::shared_ptr<PlStep> body;
};

struct PlCursor {
  std::string name;
  std::uint32_t slot = 0;  // in RoutineFrame::cursors
  std::shared_ptr<const Select> select;
};

struct PlStep {
  enum class Kind : std::uint8_t {
    kStatement,  // statement (text: as written, for errors)
    kBlock,      // label; declares (slots with their DEFAULTs), handlers, cursors; body
    kIf,         // conditions[i] THEN branches[i]; otherwise (ELSE); CASE: operand set
    kWhile,      // label; condition; body
    kRepeat,     // label; body; condition (UNTIL)
    kLoop,       // label; body
    kLeave,      // label
    kIterate,    // label
    kReturn,     // condition: the value
    kOpen,       // slot: the cursor
    kFetch,      // slot; into
    kClose,      // slot
    kSignal,     // sqlstate, code, message (RESIGNAL: resignal)
  };
  Kind kind = Kind::kStatement;
  // The line of the CREATE text (from 1) where the token after the step is: the line the
  // server's note 4094 names when the step fails.
  std::uint32_t line = 0;
  std::string label;
  std::shared_ptr<const Statement> statement;
  std::string text;
  struct Declare {
    std::uint32_t slot = 0;
    std::shared_ptr<const Expr> value;  // DEFAULT; null: NULL
  };
  std::vector<Declare> declares;
  std::vector<PlHandler> handlers;
  std::vector<PlCursor> cursors;
  ExprPtr condition;
  ExprPtr operand;  // CASE x WHEN ...: compared with each of `conditions`
  std::vector<ExprPtr> conditions;
  std::vector<PlSteps> branches;
  std::optional<PlSteps> otherwise;
  PlSteps body;
  std::uint32_t slot = 0;
  std::vector<IntoTarget> into;
  std::string sqlstate, message;
  unsigned code = 0;
  bool resignal = false;
};

// A trigger's table and when it fires.
struct TriggerInfo {
  using Event = TriggerEvent;
  TableName table;
  bool before = true;  // BEFORE (may change NEW) or AFTER
  Event event = Event::kInsert;
};

struct Routine {
  bool function = false;
  std::optional<TriggerInfo> trigger;      // a trigger: its body sees NEW and OLD
  TableName name;                          // database empty: the session's current one when it was created
  std::vector<RoutineVariable> variables;  // parameters first, then every DECLAREd variable
  std::size_t parameters = 0;
  std::size_t cursors = 0;
  std::optional<Column> returns;  // a function's RETURNS type
  PlStep body;
  std::string sql_mode;  // the one it was created with, which it runs with
  bool invoker = false;  // SQL SECURITY INVOKER (shown; every routine runs with the caller's rights here)
  std::string comment;
};

// A routine's state while it runs: its variables' values and its cursors' rows.
struct RoutineFrame {
  struct Cursor {
    bool open = false;
    std::vector<std::vector<SqlValue>> rows;
    std::size_t next = 0;
  };
  explicit RoutineFrame(const Routine& r) : routine(r), values(r.variables.size()), cursors(r.cursors) {}
  const Routine& routine;
  std::vector<SqlValue> values;
  std::vector<Cursor> cursors;
  std::optional<SqlValue> returned;  // a function's RETURN
  // A trigger's rows (NEW.c, OLD.c) of its table: NEW may be changed in a BEFORE trigger.
  const TableSpec* table = nullptr;
  Row* new_row = nullptr;
  const Row* old_row = nullptr;
};

}  // namespace strata::sql
