// Stored procedures and functions: CREATE, DROP, CALL, a function called from an expression,
// SHOW CREATE and SHOW ... STATUS, and the interpreter of a routine's body (RoutineRunner),
// with the server's handler rules: a failing statement (or a NOT FOUND, or a warning) goes to
// the innermost block's most specific handler for it; CONTINUE goes on after the statement,
// EXIT leaves the handler's block; with no handler an error ends the routine.
#include <fmt/format.h>

#include "sql/column_fit.h"
#include "sql/routine.h"
#include "sql/routine_store.h"
#include "sql/server_functions.h"
#include "sql/session.h"
#include "sql/session_context.h"
#include "sql/stack_guard.h"

namespace strata::sql {

namespace {

SqlError NoSuchRoutine(bool function, const std::string& database, const std::string& name) {
  return {1305, "42000", fmt::format("{} {}.{} does not exist", KindName(KindOf(function)), database, name)};
}

// A condition a routine's statement raised: an error, a warning or a NOT FOUND (class 02).
struct Condition {
  SqlError error;
  bool is_error = true;  // false: a completion condition, which unhandled becomes a warning
};

SqlError NoData() { return {1329, "02000", "No data - zero rows fetched, selected, or processed"}; }

// How closely a handler's condition matches: an error number best, then its SQLSTATE, then
// its class (SQLWARNING 01, NOT FOUND 02, SQLEXCEPTION the rest); 0 when it does not.
int MatchRank(const HandlerCondition& h, const SqlError& e) {
  const std::string_view cls = std::string_view(e.sqlstate).substr(0, 2);
  switch (h.kind) {
    case HandlerCondition::Kind::kErrorCode:
      return h.code == e.code ? 3 : 0;
    case HandlerCondition::Kind::kSqlState:
      return h.sqlstate == e.sqlstate ? 2 : 0;
    case HandlerCondition::Kind::kSqlWarning:
      return cls == "01" ? 1 : 0;
    case HandlerCondition::Kind::kNotFound:
      return cls == "02" ? 1 : 0;
    case HandlerCondition::Kind::kSqlException:
      return cls != "00" && cls != "01" && cls != "02" ? 1 : 0;
  }
  return 0;
}

// The SQLSTATE of a warning a statement left (SqlWarning carries none): NOT FOUND for 1329,
// else class 01.
std::string WarningState(const SqlWarning& w) { return w.code == 1329 ? "02000" : "01000"; }

bool HasReturn(const PlStep& s) {
  if (s.kind == PlStep::Kind::kReturn) return true;
  auto any = [](const PlSteps& steps) { return std::any_of(steps.begin(), steps.end(), HasReturn); };
  return any(s.body) || std::any_of(s.branches.begin(), s.branches.end(), any) || (s.otherwise && any(*s.otherwise)) ||
         std::any_of(s.handlers.begin(), s.handlers.end(), [](const PlHandler& h) { return HasReturn(*h.body); });
}

// The routine's own sql_mode decides, not the caller's: it runs with the one it was created with.
bool StrictMode(const std::string& sql_mode) { return sql_mode.find("STRICT_") != std::string::npos; }

// `v` as a value of column `c` holds it: the conversion an INSERT makes, with its error in
// strict mode and its mended value and warning otherwise.
SqlResult<SqlValue> ConvertTo(const Column& c, const SqlValue& v, bool strict, std::vector<SqlWarning>& warnings) {
  Row row = {ToColumn(v, c)};
  auto stored = engine::StoredValue(c, row[0]);
  if (stored.ok()) return FromColumn(*stored, c);
  if (!IsValueError(stored.status())) return FromStatus(stored.status());
  TableSpec spec;
  spec.columns = {c};
  // A variable is no table's row: the server says "at row 0".
  if (strict) return ValueError(spec, {row}, stored.status(), 0);
  FitRow(spec, row, 0, warnings);
  stored = engine::StoredValue(c, row[0]);
  if (!stored.ok()) return FromStatus(stored.status());
  return FromColumn(*stored, c);
}

}  // namespace

// ---- the interpreter ---------------------------------------------------------------------------

class RoutineRunner {
 public:
  RoutineRunner(Session& s, RoutineFrame& frame, ResultSink& sink, StatementOutcome& out)
      : s_(s), frame_(frame), sink_(sink), out_(out) {}

  std::optional<SqlError> Run(const PlStep& body) {
    if (Step(body).kind == Jump::kFailed) return error_;
    return std::nullopt;
  }

 private:
  // Where a step sends control: on (kNone), out to a label, back to a loop's start, out of
  // the routine (RETURN, or a failure), or out of a handler's block (EXIT).
  struct Jump {
    enum Kind : std::uint8_t { kNone, kLeave, kIterate, kReturn, kExit, kFailed };
    Kind kind = kNone;
    std::string_view label;
    const PlStep* block = nullptr;
  };

  Jump Steps(const PlSteps& steps) {
    for (const PlStep& step : steps) {
      Jump j = Step(step);
      if (j.kind != Jump::kNone) return j;
    }
    return {};
  }

  Jump Step(const PlStep& s) {
    line_ = s.line;
    if (auto overrun = CheckStack(64 * 1024)) return Fail(*overrun);
    if (s_.interrupted()) return Fail(Interrupted());
    switch (s.kind) {
      case PlStep::Kind::kStatement:
        return Statement(s);
      case PlStep::Kind::kBlock:
        return Block(s);
      case PlStep::Kind::kIf:
        return If(s);
      case PlStep::Kind::kWhile:
      case PlStep::Kind::kRepeat:
      case PlStep::Kind::kLoop:
        return Loop(s);
      case PlStep::Kind::kLeave:
        return {Jump::kLeave, s.label};
      case PlStep::Kind::kIterate:
        return {Jump::kIterate, s.label};
      case PlStep::Kind::kReturn: {
        auto v = Value(*s.condition);
        if (!v.ok()) return Raise({v.error()});
        frame_.returned = std::move(*v);
        return {Jump::kReturn, {}};
      }
      case PlStep::Kind::kOpen:
      case PlStep::Kind::kFetch:
      case PlStep::Kind::kClose:
        return CursorStep(s);
      case PlStep::Kind::kSignal:
        return Signal(s);
    }
    return {};
  }

  Jump Block(const PlStep& s) {
    for (const PlStep::Declare& d : s.declares) {
      SqlValue v;
      if (d.value) {
        auto value = Value(*d.value);
        if (!value.ok()) return Raise({value.error()});
        v = std::move(*value);
      }
      if (auto e = s_.AssignLocal(d.slot, v, out_.warnings)) return Raise({*e});
    }
    for (const PlCursor& c : s.cursors) frame_.cursors[c.slot] = {};
    handlers_.push_back(&s);
    Jump j = Steps(s.body);
    handlers_.pop_back();
    for (const PlCursor& c : s.cursors) frame_.cursors[c.slot] = {};
    if (j.kind == Jump::kExit && j.block == &s) return {};
    if (j.kind == Jump::kLeave && !s.label.empty() && EqualsIgnoreCase(j.label, s.label)) return {};
    return j;
  }

  Jump If(const PlStep& s) {
    std::optional<SqlValue> operand;
    if (s.operand) {
      auto v = Value(*s.operand);
      if (!v.ok()) return Raise({v.error()});
      operand = std::move(*v);
    }
    for (std::size_t i = 0; i < s.conditions.size(); ++i) {
      auto v = Value(*s.conditions[i]);
      if (!v.ok()) return Raise({v.error()});
      const bool match = operand ? Compare(*operand, *v) == 0 : Truth(*v).value_or(false);
      if (match) return Steps(s.branches[i]);
    }
    if (s.otherwise) return Steps(*s.otherwise);
    if (s.text == "CASE") return Raise({{1339, "20000", "Case not found for CASE statement"}});
    return {};
  }

  Jump Loop(const PlStep& s) {
    auto holds = [&]() -> std::optional<bool> {  // nullopt: the condition failed (Raise said what next)
      auto v = Value(*s.condition);
      if (!v.ok()) return std::nullopt;
      return Truth(*v).value_or(false);
    };
    for (;;) {
      if (s.kind == PlStep::Kind::kWhile) {
        auto go = holds();
        if (!go) return Raise({Value(*s.condition).error()});
        if (!*go) return {};
      }
      Jump j = Steps(s.body);
      const bool ours = !s.label.empty() && EqualsIgnoreCase(j.label, s.label);
      if (j.kind == Jump::kLeave && ours) return {};
      if (j.kind != Jump::kNone && !(j.kind == Jump::kIterate && ours)) return j;
      if (s.kind == PlStep::Kind::kRepeat) {
        auto done = holds();
        if (!done) return Raise({Value(*s.condition).error()});
        if (*done) return {};
      }
    }
  }

  Jump Statement(const PlStep& s) {
    StatementOutcome r = s_.RunNested(*s.statement, sink_);
    out_.rows = r.rows;
    out_.result_set = out_.result_set || r.result_set;
    if (r.error) {  // a handler that takes the error clears what the statement said with it
      const std::size_t said = out_.warnings.size();
      out_.warnings.insert(out_.warnings.end(), r.warnings.begin(), r.warnings.end());
      Jump j = Raise({*r.error});
      if (j.kind != Jump::kFailed) out_.warnings.resize(said);
      return j;
    }
    // Warnings go to the CALL's list unless a handler takes them (it takes the first).
    for (const SqlWarning& w : r.warnings) {
      if (w.level != SqlWarning::Level::kError && !r.error && Handles({w.code, WarningState(w), w.message})) {
        Jump j = Raise({{w.code, WarningState(w), w.message}, false});
        if (j.kind != Jump::kNone) return j;
        continue;
      }
      out_.warnings.push_back(w);
    }
    return {};
  }

  Jump CursorStep(const PlStep& s) {
    RoutineFrame::Cursor& c = frame_.cursors[s.slot];
    if (s.kind == PlStep::Kind::kOpen) {
      if (c.open) return Raise({{1325, "24000", "Cursor is already open"}});
      const PlCursor* found = FindCursor(s.slot);
      ValuesSink rows;
      StatementOutcome r = s_.InTransaction([&](Transaction* t) { return s_.DoSelect(*found->select, rows, t); });
      if (r.error) return Raise({*r.error});
      c = {true, std::move(rows.rows), 0};
      return {};
    }
    if (!c.open) return Raise({{1326, "24000", "Cursor is not open"}});
    if (s.kind == PlStep::Kind::kClose) {
      c = {};
      return {};
    }
    if (c.next >= c.rows.size()) return Raise({NoData()});
    const auto& row = c.rows[c.next++];
    if (row.size() != s.into.size()) return Raise({{1328, "HY000", "Incorrect number of FETCH variables"}});
    for (std::size_t i = 0; i < row.size(); ++i) {
      if (auto e = s_.Store(s.into[i], row[i], out_.warnings)) return Raise({*e});
    }
    return {};
  }

  const PlCursor* FindCursor(std::uint32_t slot) const {
    const PlCursor* found = nullptr;
    Walk(frame_.routine.body, [&](const PlStep& b) {
      for (const PlCursor& c : b.cursors) {
        if (c.slot == slot) found = &c;
      }
    });
    return found;
  }
  template <typename F>
  static void Walk(const PlStep& s, const F& f) {
    f(s);
    for (const PlStep& c : s.body) Walk(c, f);
    for (const PlSteps& b : s.branches) {
      for (const PlStep& c : b) Walk(c, f);
    }
    if (s.otherwise) {
      for (const PlStep& c : *s.otherwise) Walk(c, f);
    }
    for (const PlHandler& h : s.handlers) Walk(*h.body, f);
  }

  // SIGNAL raises the condition it names; RESIGNAL the one its handler is handling, changed
  // as it says. A warning (class 01) nobody handles is a warning; the rest end the routine.
  Jump Signal(const PlStep& s) {
    Condition c;
    if (s.resignal) {
      if (handling_.empty()) return Fail({1645, "0K000", "RESIGNAL when handler not active"});
      c = handling_.back();
    }
    if (!s.sqlstate.empty()) {
      c.error.sqlstate = s.sqlstate;
      const std::string_view cls = std::string_view(s.sqlstate).substr(0, 2);
      c.error.code = cls == "01" ? 1642 : cls == "02" ? 1643 : 1644;
      c.error.message = cls == "01"   ? "Unhandled user-defined warning condition"
                        : cls == "02" ? "Unhandled user-defined not found condition"
                                      : "Unhandled user-defined exception condition";
      c.is_error = cls != "01";
    }
    if (s.code) c.error.code = s.code;
    if (!s.message.empty()) c.error.message = s.message;
    if (s.resignal) return Fail(c.error);  // handled already: it leaves the routine
    return Raise(c);
  }

  bool Handles(const SqlError& e) const {
    for (const PlStep* block : handlers_) {
      for (const PlHandler& h : block->handlers) {
        for (const HandlerCondition& c : h.conditions) {
          if (MatchRank(c, e)) return true;
        }
      }
    }
    return false;
  }

  // Hands `c` to the innermost block with a handler for it; the handler runs with that
  // block's handlers (and those inside it) inactive, as the server's do.
  Jump Raise(const Condition& c) {
    for (std::size_t level = handlers_.size(); level-- > 0;) {
      const PlHandler* best = nullptr;
      int best_rank = 0;
      for (const PlHandler& h : handlers_[level]->handlers) {
        for (const HandlerCondition& hc : h.conditions) {
          const int rank = MatchRank(hc, c.error);
          if (rank > best_rank) best = &h, best_rank = rank;
        }
      }
      if (!best) continue;
      const PlStep* block = handlers_[level];
      s_.failure_trail_.clear();  // handled: no longer the statement's to report
      s_.failed_line_ = 0;
      std::vector<const PlStep*> inner(handlers_.begin() + static_cast<std::ptrdiff_t>(level), handlers_.end());
      handlers_.resize(level);
      handling_.push_back(c);
      Jump j = Step(*best->body);
      handling_.pop_back();
      handlers_.insert(handlers_.end(), inner.begin(), inner.end());
      if (j.kind != Jump::kNone) return j;
      if (best->exit) return {Jump::kExit, {}, block};
      return {};
    }
    if (!c.is_error) {
      out_.warnings.push_back({SqlWarning::Level::kWarning, c.error.code, c.error.message});
      return {};
    }
    return Fail(c.error);
  }

  Jump Fail(SqlError e) {
    if (!s_.failed_line_) s_.failed_line_ = line_;
    error_ = std::move(e);
    return {Jump::kFailed, {}};
  }

  SqlResult<SqlValue> Value(const Expr& e) {
    auto v = Eval(e, s_.context());
    out_.warnings.insert(out_.warnings.end(), s_.eval_warnings_.begin(), s_.eval_warnings_.end());
    s_.eval_warnings_.clear();
    return v;
  }

  Session& s_;
  RoutineFrame& frame_;
  ResultSink& sink_;
  StatementOutcome& out_;
  std::vector<const PlStep*> handlers_;  // blocks whose handlers are active, outermost first
  std::vector<Condition> handling_;      // conditions whose handlers run, for RESIGNAL
  std::optional<SqlError> error_;
  std::uint32_t line_ = 0;  // of the step running
};

// ---- the session's side ------------------------------------------------------------------------

StatementOutcome Session::RunNested(const Statement& statement, ResultSink& sink) {
  const bool storing = storing_values_;
  const auto* insert = std::get_if<Insert>(&statement);
  storing_values_ = insert && !insert->ignore;
  std::vector<SqlWarning> outer = std::move(eval_warnings_);
  eval_warnings_.clear();
  StatementOutcome o = Dispatch(statement, sink);
  o.warnings.insert(o.warnings.begin(), eval_warnings_.begin(), eval_warnings_.end());
  eval_warnings_ = std::move(outer);
  storing_values_ = storing;
  return o;
}

std::optional<SqlError> Session::AssignLocal(std::uint32_t slot, const SqlValue& v, std::vector<SqlWarning>& warnings) {
  auto converted = ConvertTo(frame_->routine.variables[slot].column, v, strict(), warnings);
  if (!converted.ok()) return converted.error();
  frame_->values[slot] = std::move(*converted);
  return std::nullopt;
}

std::optional<SqlError> Session::Store(const IntoTarget& t, const SqlValue& v, std::vector<SqlWarning>& warnings) {
  if (t.user) {
    user_vars_[Lower(t.name)] = v;
    return std::nullopt;
  }
  return AssignLocal(t.slot, v, warnings);
}

StatementOutcome Session::SelectInto(const Select& s, Transaction* trx) {
  ValuesSink rows;
  StatementOutcome o = DoSelect(s, rows, trx);
  if (o.error) return o;
  o.result_set = false;
  o.rows = rows.rows.size();
  if (rows.rows.empty()) {
    o.warnings.push_back({SqlWarning::Level::kWarning, 1329, NoData().message});
    return o;
  }
  if (rows.rows.size() > 1) return Error({1172, "42000", "Result consisted of more than one row"});
  if (rows.rows[0].size() != s.into.size())
    return Error({1222, "21000", "The used SELECT statements have a different number of columns"});
  for (std::size_t i = 0; i < s.into.size(); ++i) {
    if (auto e = Store(s.into[i], rows.rows[0][i], o.warnings)) return Error(*e);
  }
  return o;
}

SqlResult<std::shared_ptr<const Routine>> Session::LoadRoutine(const TableName& name, bool function) {
  const std::string database = name.database.empty() ? database_ : name.database;
  if (database.empty()) return NoDatabase();
  RefreshRoutineCaches();
  const std::string key = fmt::format("{}\n{}\n{}", database, Lower(name.name), KindName(KindOf(function)));
  if (auto hit = routine_cache_.find(key); hit != routine_cache_.end() && hit->second.second) return hit->second.second;
  auto stored = FindRoutine(db_, database, name.name, KindOf(function));
  if (!stored.ok()) return FromStatus(stored.status());
  if (!*stored) return NoSuchRoutine(function, database, name.name);
  auto& cached = routine_cache_[key];
  {
    Parsed p = Parse((*stored)->text);
    auto* create = p.statement ? std::get_if<CreateRoutine>(&*p.statement) : nullptr;
    if (p.error || !create) {
      return SqlError{
          1457, "HY000",
          fmt::format("Failed to load routine {}.{} (internal code -6). For more details, run SHOW WARNINGS", database,
                      name.name)};
    }
    create->routine->name = {database, (*stored)->name};
    create->routine->sql_mode = (*stored)->sql_mode;
    cached = {(*stored)->text, std::move(create->routine)};
  }
  return cached.second;
}

std::optional<SqlError> Session::WriteAllowed(const TableSpec& spec) const {
  if (!frame_) return std::nullopt;  // a statement of its own (a procedure's), not inside another
  const std::string key = spec.database + "." + spec.name;
  if (std::find(tables_in_use_.begin(), tables_in_use_.end(), key) == tables_in_use_.end()) return std::nullopt;
  return SqlError{1442, "HY000",
                  fmt::format("Can't update table '{}' in stored function/trigger because it is already used by "
                              "statement which invoked this stored function/trigger",
                              spec.name)};
}

void Session::RefreshRoutineCaches() {
  const std::uint64_t now = RoutineChanges();
  if (now == routines_seen_) return;
  routine_cache_.clear();
  triggers_of_.clear();
  views_.clear();
  routines_seen_ = now;
}

StatementOutcome Session::DoCreateRoutine(const CreateRoutine& c) {
  if (c.routine->trigger) return DoCreateTrigger(c);
  const Routine& r = *c.routine;
  const std::string database = r.name.database.empty() ? database_ : r.name.database;
  if (database.empty()) return Error(NoDatabase());
  if (!DatabaseExists(database)) return Error(UnknownDatabase(database));
  if (r.function && !HasReturn(r.body))
    return Error({1320, "42000", fmt::format("No RETURN found in FUNCTION {}.{}", database, r.name.name)});
  auto existing = FindRoutine(db_, database, r.name.name, KindOf(r.function));
  if (!existing.ok()) return Error(FromStatus(existing.status()));
  StatementOutcome o;
  if (*existing && !c.or_replace) {
    SqlError e{1304, "42000", fmt::format("{} {} already exists", KindName(KindOf(r.function)), r.name.name)};
    if (!c.if_not_exists) return Error(e);
    o.warnings.push_back({SqlWarning::Level::kNote, e.code, e.message});
    return o;
  }
  StoredRoutine stored{database, r.name.name, KindOf(r.function), c.text, *SystemVariable("sql_mode"), ""};
  if (Status s = SaveRoutine(db_, stored, c.or_replace); !s.ok()) return Error(FromStatus(s));
  return o;
}

StatementOutcome Session::DoDropRoutine(const DropRoutine& d) {
  const std::string database = d.name.database.empty() ? database_ : d.name.database;
  if (database.empty() && d.function)  // the server looks for a loadable (UDF) one
    return Error({1305, "42000", fmt::format("FUNCTION (UDF) {} does not exist", d.name.name)});
  if (database.empty()) return Error(NoDatabase());
  auto deleted = DeleteRoutine(db_, database, d.name.name, KindOf(d.function));
  if (!deleted.ok()) return Error(FromStatus(deleted.status()));
  StatementOutcome o;
  if (!*deleted) {
    SqlError e = NoSuchRoutine(d.function, database, d.name.name);
    if (!d.if_exists) return Error(e);
    o.warnings.push_back({SqlWarning::Level::kNote, e.code, e.message});
  }
  return o;
}

// The error, then where in the routine it happened, as the server lists them after the
// statement that ran the routine (Run adds them to its diagnostics).
void Session::NoteWhereRoutineFailed(const Routine& r, const SqlError& e) {
  // The innermost routine's failure is the one to say; one refused before it ran (recursion)
  // is said by the routine whose statement called it.
  if (!failure_trail_.empty() || !failed_line_) return;
  failure_trail_.push_back({SqlWarning::Level::kError, e.code, e.message});
  if (failed_line_)
    failure_trail_.push_back({SqlWarning::Level::kNote, 4094,
                              fmt::format("At line {} in {}.{}", failed_line_, r.name.database, r.name.name)});
}

std::optional<SqlError> Session::RunRoutine(const Routine& r, RoutineFrame& frame, ResultSink& sink,
                                            StatementOutcome& o) {
  const std::string key = r.name.database + "." + Lower(r.name.name);
  if (std::find(running_routines_.begin(), running_routines_.end(), key) != running_routines_.end()) {
    if (r.function) return SqlError{1424, "HY000", "Recursive stored functions and triggers are not allowed"};
    return SqlError{1456, "HY000",
                    fmt::format("Recursive limit 0 (as set by the max_sp_recursion_depth variable) was exceeded for "
                                "routine {}",
                                r.name.name)};
  }
  // The routine runs in its own database and with the sql_mode it was created with.
  const std::string database = std::exchange(database_, r.name.database);
  const std::optional<std::string> mode =
      session_vars_.contains("sql_mode") ? std::optional<std::string>(session_vars_["sql_mode"]) : std::nullopt;
  session_vars_["sql_mode"] = r.sql_mode;
  RoutineFrame* caller = std::exchange(frame_, &frame);
  running_routines_.push_back(key);
  RoutineRunner runner(*this, frame, sink, o);
  std::optional<SqlError> e = runner.Run(r.body);
  running_routines_.pop_back();
  frame_ = caller;
  if (mode)
    session_vars_["sql_mode"] = *mode;
  else
    session_vars_.erase("sql_mode");
  database_ = database;
  return e;
}

StatementOutcome Session::DoCall(const Call& c, ResultSink& sink) {
  auto loaded = LoadRoutine(c.name, false);
  if (!loaded.ok()) return Error(loaded.error());
  const Routine& r = **loaded;
  if (c.args.size() != r.parameters) {
    return Error({1318, "42000",
                  fmt::format("Incorrect number of arguments for PROCEDURE {}.{}; expected {}, got {}", r.name.database,
                              r.name.name, r.parameters, c.args.size())});
  }
  StatementOutcome o;
  RoutineFrame frame(r);
  for (std::size_t i = 0; i < r.parameters; ++i) {
    const RoutineVariable& p = r.variables[i];
    const Expr& arg = *c.args[i];
    if (p.mode != RoutineVariable::Mode::kIn && arg.kind != Expr::Kind::kUserVar && arg.kind != Expr::Kind::kLocalVar) {
      return Error({1414, "42000",
                    fmt::format("OUT or INOUT argument {} for routine {}.{} is not a variable or NEW pseudo-variable "
                                "in BEFORE trigger",
                                i + 1, r.name.database, r.name.name)});
    }
    if (p.mode == RoutineVariable::Mode::kOut) continue;
    auto v = Eval(arg, *context_);
    if (!v.ok()) return Error(v.error());
    auto converted = ConvertTo(p.column, *v, StrictMode(r.sql_mode), o.warnings);
    if (!converted.ok()) return Error(converted.error());
    frame.values[i] = std::move(*converted);
  }
  const bool outermost = frame_ == nullptr;
  if (outermost) failed_line_ = 0;
  if (auto e = RunRoutine(r, frame, sink, o)) {
    if (outermost && routine_async_commit_ && !async_commit_) (void)WaitDurable();  // what it did commit
    StatementOutcome failed = Error(*e);
    failed.warnings = std::move(o.warnings);
    NoteWhereRoutineFailed(r, *e);
    return failed;
  }
  for (std::size_t i = 0; i < r.parameters; ++i) {
    if (r.variables[i].mode == RoutineVariable::Mode::kIn) continue;
    const Expr& arg = *c.args[i];
    if (arg.kind == Expr::Kind::kUserVar) {
      user_vars_[Lower(arg.name)] = frame.values[i];
    } else if (auto e = AssignLocal(arg.slot, frame.values[i], o.warnings)) {
      return Error(*e);
    }
  }
  // What the client is told is durable: commits the routine left to the log are waited for.
  if (outermost && routine_async_commit_ && !async_commit_) {
    if (Status s = WaitDurable(); !s.ok()) return Error(FromStatus(s));
  }
  return o;
}

std::optional<SqlResult<SqlValue>> Session::CallStoredFunction(const std::string& name, std::vector<SqlValue>& args) {
  // A built-in function of the server's that Strata does not have is not "missing" (1305).
  const bool builtin = ServerHasFunction(Upper(name));
  if (database_.empty() && builtin) return NotSupported(fmt::format("the function {}", Upper(name)));
  if (database_.empty()) return SqlError{1305, "42000", fmt::format("FUNCTION {} does not exist", name)};
  auto loaded = LoadRoutine({"", name}, true);
  if (!loaded.ok() && loaded.error().code == 1305 && builtin)
    return NotSupported(fmt::format("the function {}", Upper(name)));
  if (!loaded.ok()) return loaded.error();
  const Routine& r = **loaded;
  if (args.size() != r.parameters) {
    return SqlError{1318, "42000",
                    fmt::format("Incorrect number of arguments for FUNCTION {}.{}; expected {}, got {}",
                                r.name.database, r.name.name, r.parameters, args.size())};
  }
  RoutineFrame frame(r);
  StatementOutcome o;
  if (!frame_) failed_line_ = 0;
  for (std::size_t i = 0; i < r.parameters; ++i) {
    auto converted = ConvertTo(r.variables[i].column, args[i], StrictMode(r.sql_mode), o.warnings);
    if (!converted.ok()) return converted.error();
    frame.values[i] = std::move(*converted);
  }
  // The function's statements are statements of their own inside the one calling it.
  const bool storing = std::exchange(storing_values_, false);
  std::vector<SqlWarning> outer = std::move(eval_warnings_);
  eval_warnings_.clear();
  FirstValueSink nowhere;  // a function returns no result set (refused at CREATE FUNCTION)
  std::optional<SqlError> e = RunRoutine(r, frame, nowhere, o);
  storing_values_ = storing;
  eval_warnings_ = std::move(outer);
  eval_warnings_.insert(eval_warnings_.end(), o.warnings.begin(), o.warnings.end());
  if (e) {
    NoteWhereRoutineFailed(r, *e);
    return *e;
  }
  if (!frame.returned) return SqlError{1321, "2F005", fmt::format("FUNCTION {} ended without RETURN", r.name.name)};
  return ConvertTo(*r.returns, *frame.returned, StrictMode(r.sql_mode), eval_warnings_);
}

StatementOutcome Session::ShowRoutines(const Show& s, ResultSink& sink) {
  StatementOutcome o;
  o.result_set = true;
  const bool function = s.what == Show::What::kCreateFunction || s.what == Show::What::kFunctionStatus;
  if (s.what == Show::What::kCreateProcedure || s.what == Show::What::kCreateFunction) {
    auto loaded = LoadRoutine(s.table, function);
    if (!loaded.ok()) return Error(loaded.error());
    auto stored = FindRoutine(db_, (*loaded)->name.database, s.table.name, KindOf(function));
    if (!stored.ok() || !*stored) return Error(NoSuchRoutine(function, (*loaded)->name.database, s.table.name));
    const char* kind = function ? "Function" : "Procedure";
    sink.Header({{kind},
                 {"sql_mode"},
                 {fmt::format("Create {}", kind)},
                 {"character_set_client"},
                 {"collation_connection"},
                 {"Database Collation"}});
    sink.Row(
        {(*stored)->name, (*stored)->sql_mode, (*stored)->text, "utf8mb4", "utf8mb4_general_ci", "utf8mb4_general_ci"});
    o.rows = 1;
    return o;
  }
  auto all = ListRoutines(db_);
  if (!all.ok()) return Error(FromStatus(all.status()));
  sink.Header({{"Db"},
               {"Name"},
               {"Type"},
               {"Definer"},
               {"Modified"},
               {"Created"},
               {"Security_type"},
               {"Comment"},
               {"character_set_client"},
               {"collation_connection"},
               {"Database Collation"}});
  for (const StoredRoutine& r : *all) {
    if (r.kind != KindOf(function) || (s.like && !LikeMatches(r.name, *s.like))) continue;
    auto loaded = LoadRoutine({r.database, r.name}, function);
    if (!loaded.ok()) return Error(loaded.error());
    sink.Row({r.database, r.name, KindName(r.kind), "root@localhost", r.created.substr(0, 19), r.created.substr(0, 19),
              (*loaded)->invoker ? "INVOKER" : "DEFINER", (*loaded)->comment, "utf8mb4", "utf8mb4_general_ci",
              "utf8mb4_general_ci"});
    ++o.rows;
  }
  return o;
}

std::optional<SqlResult<SqlValue>> SessionContext::StoredFunction(const std::string& name,
                                                                  std::vector<SqlValue>& args) const {
  // Expressions see the session as const; a function's statements change it as any do.
  return const_cast<Session&>(s_).CallStoredFunction(name, args);
}

SqlResult<SqlValue> SessionContext::LocalVariable(const Expr& variable) const {
  if (!s_.frame_ || variable.slot >= s_.frame_->values.size())
    return SqlError{1327, "42000", fmt::format("Undeclared variable: {}", variable.name)};
  return s_.frame_->values[variable.slot];
}

}  // namespace strata::sql
