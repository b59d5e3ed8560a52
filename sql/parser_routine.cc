// CREATE PROCEDURE / FUNCTION, DROP PROCEDURE / FUNCTION and CALL, and the compound
// statements of a routine's body (sql/routine.h), with the server's errors for what it refuses
// while parsing: a LEAVE or ITERATE without its label (1308), RETURN in a procedure (1313), a
// variable declared twice in a block (1331), an unknown cursor (1324) or condition (1319).
#include "sql/parser_internal.h"

namespace strata::sql::parser_internal {

namespace {

[[noreturn]] void Fail(unsigned code, const char* sqlstate, std::string message) {
  throw Failure{{code, sqlstate, std::move(message)}};
}

// The text of a statement a dump wrapped in versioned comments (/*!50003 TRIGGER ... */) ends
// with the comment's close, which is not part of it.
std::string WithoutCommentClose(std::string text) {
  while (text.size() >= 2 && text.ends_with("*/") && text.rfind("/*") == std::string::npos) {
    text.resize(text.size() - 2);
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.pop_back();
  }
  return text;
}

const Expr* FirstColumn(const Expr& e) {
  if (e.kind == Expr::Kind::kColumn) return &e;
  for (const ExprPtr& a : e.args) {
    if (const Expr* found = FirstColumn(*a)) return found;
  }
  return nullptr;
}

bool IsWordAt(const Token& t, std::initializer_list<std::string_view> words) {
  for (std::string_view w : words) {
    if (t.IsWord(w)) return true;
  }
  return false;
}

}  // namespace

std::optional<std::uint32_t> Parser::LocalSlot(const std::string& name) const {
  if (!routine_) return std::nullopt;
  for (auto scope = scopes_.rbegin(); scope != scopes_.rend(); ++scope) {
    for (auto v = scope->variables.rbegin(); v != scope->variables.rend(); ++v) {
      if (EqualsIgnoreCase(v->first, name)) return v->second;
    }
  }
  return std::nullopt;
}

std::optional<bool> Parser::TriggerRow(const std::string& qualifier) const {
  if (!routine_ || !routine_->trigger) return std::nullopt;
  const bool is_new = EqualsIgnoreCase(qualifier, "NEW");
  if (!is_new && !EqualsIgnoreCase(qualifier, "OLD")) return std::nullopt;
  const TriggerInfo::Event event = routine_->trigger->event;
  if (is_new && event == TriggerInfo::Event::kDelete) Fail(1363, "HY000", "There is no NEW row in on DELETE trigger");
  if (!is_new && event == TriggerInfo::Event::kInsert) Fail(1363, "HY000", "There is no OLD row in on INSERT trigger");
  return is_new;
}

std::uint32_t Parser::NewVariable(RoutineVariable v) {
  for (const auto& [name, slot] : scopes_.back().variables) {
    if (!EqualsIgnoreCase(name, v.name)) continue;
    if (v.mode != RoutineVariable::Mode::kLocal) Fail(1330, "42000", fmt::format("Duplicate parameter: {}", v.name));
    Fail(1331, "42000", fmt::format("Duplicate variable: {}", v.name));
  }
  const auto slot = static_cast<std::uint32_t>(routine_->variables.size());
  scopes_.back().variables.emplace_back(v.name, slot);
  routine_->variables.push_back(std::move(v));
  return slot;
}

Column Parser::DeclaredType(const std::string& name) {
  ColumnText text;
  text.name = name;
  text.type = ReadType(*this, name);
  // RETURNS varchar(50) CHARSET utf8mb4 COLLATE ..., as dumps write a routine's types.
  while (ReadCharsetOption(*this, &text.type.charset, &text.type.collation)) {
  }
  CreateTable ignored;
  return EngineColumn(text, ignored);
}

// The statement is kept as the server shows it (SHOW CREATE, a dump): its DEFINER, the name
// quoted, the parameters and RETURNS as written, the characteristics one to a line, the body
// as written.
sql::Statement Parser::ParseCreateRoutine(const std::string& definer, bool or_replace) {
  auto routine = std::make_shared<Routine>();
  routine->function = Take().IsWord("FUNCTION");
  CreateRoutine c;
  c.or_replace = or_replace;
  c.if_not_exists = AcceptWords({"IF", "NOT", "EXISTS"});
  if (c.or_replace && c.if_not_exists) Fail(1221, "HY000", "Incorrect usage of OR REPLACE and IF NOT EXISTS");
  routine->name = QualifiedName();
  routine_ = routine.get();
  scopes_.emplace_back();
  const std::size_t open = Peek().offset;
  RoutineParameters(*routine);
  const std::size_t close = t_[i_ - 1].offset;
  std::string header =
      fmt::format("CREATE DEFINER={} {} {}({})", definer, routine->function ? "FUNCTION" : "PROCEDURE",
                  ondisk::QuoteIdentifier(routine->name.name), text_.substr(open + 1, close - open - 1));
  if (routine->function) {
    const std::size_t returns = Peek().offset;
    ExpectWord("RETURNS");
    routine->returns = DeclaredType("");
    header += " " + Trimmed(returns, Peek().offset);
  }
  header += RoutineCharacteristics() + "\n";
  const std::string body = RoutineBody(*routine, Peek().offset);
  // Lines of the body count from the stored text's first line, which the header's lines precede.
  ShiftLines(routine->body, static_cast<std::uint32_t>(std::count(header.begin(), header.end(), '\n')));
  c.text = header + body;
  c.routine = std::move(routine);
  return c;
}

// CREATE TRIGGER name {BEFORE | AFTER} {INSERT | UPDATE | DELETE} ON table FOR EACH ROW body,
// kept as the server shows it: its DEFINER, then the statement as written from the name on.
sql::Statement Parser::ParseCreateTrigger(const std::string& definer, bool or_replace) {
  auto routine = std::make_shared<Routine>();
  ExpectWord("TRIGGER");
  CreateRoutine c;
  c.or_replace = or_replace;
  c.if_not_exists = AcceptWords({"IF", "NOT", "EXISTS"});
  const std::size_t from = Peek().offset;
  routine->name = QualifiedName();
  TriggerInfo t;
  if (AcceptWord("AFTER"))
    t.before = false;
  else
    ExpectWord("BEFORE");
  if (AcceptWord("INSERT"))
    t.event = TriggerInfo::Event::kInsert;
  else if (AcceptWord("UPDATE"))
    t.event = TriggerInfo::Event::kUpdate;
  else if (AcceptWord("DELETE"))
    t.event = TriggerInfo::Event::kDelete;
  else
    Syntax();
  ExpectWord("ON");
  t.table = QualifiedName();
  ExpectWords({"FOR", "EACH", "ROW"});
  if (Peek().IsWord("FOLLOWS") || Peek().IsWord("PRECEDES"))
    Unsupported("FOLLOWS / PRECEDES (triggers fire in the order they were created)");
  routine->trigger = t;
  routine_ = routine.get();
  scopes_.emplace_back();
  const std::string header = fmt::format("CREATE DEFINER={} TRIGGER ", definer);
  const std::string text = RoutineBody(*routine, from);
  c.text = header + text;
  c.routine = std::move(routine);
  return c;
}

void Parser::RoutineParameters(Routine& r) {
  ExpectPunct("(");
  if (!AcceptPunct(")")) {
    do {
      RoutineVariable v;
      v.mode = RoutineVariable::Mode::kIn;
      if (!r.function) {
        if (AcceptWord("OUT"))
          v.mode = RoutineVariable::Mode::kOut;
        else if (AcceptWord("INOUT"))
          v.mode = RoutineVariable::Mode::kInOut;
        else
          AcceptWord("IN");
      }
      v.name = Name();
      v.column = DeclaredType(v.name);
      NewVariable(std::move(v));
    } while (AcceptPunct(","));
    ExpectPunct(")");
  }
  r.parameters = r.variables.size();
}

// COMMENT, LANGUAGE SQL, [NOT] DETERMINISTIC, the SQL data access words and SQL SECURITY: with
// no effect here (every routine runs with the caller's rights), given back as the server
// shows them, a line each in its order (a default is not shown).
std::string Parser::RoutineCharacteristics() {
  std::string access, comment;
  bool deterministic = false, invoker = false, commented = false;
  for (;;) {
    if (AcceptWord("COMMENT")) {
      comment = StringLiteral();
      commented = true;
    } else if (AcceptWord("LANGUAGE")) {
      ExpectWord("SQL");
    } else if (AcceptWord("DETERMINISTIC")) {
      deterministic = true;
    } else if (AcceptWords({"NOT", "DETERMINISTIC"})) {
      deterministic = false;
    } else if (AcceptWords({"CONTAINS", "SQL"})) {
      access.clear();
    } else if (AcceptWords({"NO", "SQL"})) {
      access = "NO SQL";
    } else if (AcceptWords({"READS", "SQL", "DATA"})) {
      access = "READS SQL DATA";
    } else if (AcceptWords({"MODIFIES", "SQL", "DATA"})) {
      access = "MODIFIES SQL DATA";
    } else if (AcceptWords({"SQL", "SECURITY"})) {
      if (AcceptWord("INVOKER"))
        invoker = true;
      else if (AcceptWord("DEFINER"))
        invoker = false;
      else
        Syntax();
    } else {
      break;
    }
  }
  if (routine_) {
    routine_->invoker = invoker;
    routine_->comment = comment;
  }
  std::string out;
  if (!access.empty()) out += "\n    " + access;
  if (deterministic) out += "\n    DETERMINISTIC";
  if (invoker) out += "\n    SQL SECURITY INVOKER";
  if (commented) AppendQuotedString(out += "\n    COMMENT ", comment);
  return out;
}

void Parser::ShiftLines(PlStep& s, std::uint32_t by) {
  s.line += by;
  for (PlStep& c : s.body) ShiftLines(c, by);
  for (PlSteps& b : s.branches) {
    for (PlStep& c : b) ShiftLines(c, by);
  }
  if (s.otherwise) {
    for (PlStep& c : *s.otherwise) ShiftLines(c, by);
  }
  for (PlHandler& h : s.handlers) ShiftLines(*h.body, by);
}

sql::Statement Parser::ParseDropRoutine(bool function) {
  DropRoutine d;
  d.function = function;
  d.if_exists = AcceptWords({"IF", "EXISTS"});
  d.name = QualifiedName();
  return d;
}

sql::Statement Parser::ParseCall() {
  ++i_;
  Call c;
  c.name = QualifiedName();
  if (AcceptPunct("(") && !AcceptPunct(")")) {
    do c.args.push_back(Expression());
    while (AcceptPunct(","));
    ExpectPunct(")");
  }
  return c;
}

std::vector<IntoTarget> Parser::IntoTargets() {
  ExpectWord("INTO");
  if (Peek().IsWord("OUTFILE") || Peek().IsWord("DUMPFILE")) Unsupported("SELECT ... INTO " + Upper(Peek().text));
  std::vector<IntoTarget> into;
  do {
    IntoTarget t;
    if (Peek().Is(TokenKind::kUserVar)) {
      t.user = true;
      t.name = Take().text;
    } else {
      const Token& name = Peek();
      auto slot = LocalSlot(name.text);
      if (!slot || name.Is(TokenKind::kString)) Fail(1327, "42000", fmt::format("Undeclared variable: {}", name.text));
      ++i_;
      t.name = name.text;
      t.slot = *slot;
    }
    into.push_back(std::move(t));
  } while (AcceptPunct(","));
  return into;
}

PlStep Parser::RoutineStatement() {
  PlStep s = OneRoutineStatement();
  s.line = static_cast<std::uint32_t>(1 + std::count(text_.begin() + static_cast<std::ptrdiff_t>(routine_start_),
                                                     text_.begin() + static_cast<std::ptrdiff_t>(Peek().offset), '\n'));
  return s;
}

PlStep Parser::OneRoutineStatement() {
  Nesting nesting(*this);
  std::string label;
  if ((Peek().Is(TokenKind::kWord) || Peek().Is(TokenKind::kQuotedName)) && Peek(1).IsPunct(":")) {
    label = Take().text;
    ++i_;
    if (!IsWordAt(Peek(), {"BEGIN", "WHILE", "REPEAT", "LOOP"})) Syntax();
  }
  const Token& t = Peek();
  if (t.IsWord("BEGIN") && !Peek(1).IsWord("WORK") && !Peek(1).IsPunct(";")) return BlockStatement(std::move(label));
  if (t.IsWord("WHILE") || t.IsWord("REPEAT") || t.IsWord("LOOP")) return LoopStatement(std::move(label));
  if (t.IsWord("IF")) return IfStatement();
  if (t.IsWord("CASE")) return CaseStatement();
  if (t.IsWord("LEAVE") || t.IsWord("ITERATE")) {
    PlStep s;
    s.kind = Take().IsWord("ITERATE") ? PlStep::Kind::kIterate : PlStep::Kind::kLeave;
    s.label = JumpTarget(s.kind == PlStep::Kind::kIterate);
    return s;
  }
  if (t.IsWord("RETURN")) {
    if (!routine_->function) Fail(1313, "42000", "RETURN is only allowed in a FUNCTION");
    ++i_;
    PlStep s;
    s.kind = PlStep::Kind::kReturn;
    s.condition = Expression();
    return s;
  }
  if (t.IsWord("OPEN") || t.IsWord("FETCH") || t.IsWord("CLOSE")) return CursorStatement();
  if (t.IsWord("SIGNAL") || t.IsWord("RESIGNAL")) return SignalStatement();
  if (t.IsWord("DECLARE")) Fail(1337, "42000", "Variable or condition declaration after cursor or handler declaration");
  PlStep s;
  const std::size_t start = t.offset;
  sql::Statement statement = ParseStatement();
  if (std::holds_alternative<CreateRoutine>(statement))
    Fail(1303, "2F003",
         fmt::format("Can't create a {} from within another stored routine",
                     std::get<CreateRoutine>(statement).routine->function ? "FUNCTION" : "PROCEDURE"));
  if (std::holds_alternative<DropRoutine>(statement))
    Fail(1357, "HY000",
         fmt::format("Can't drop or alter a {} from within another stored routine",
                     std::get<DropRoutine>(statement).function ? "FUNCTION" : "PROCEDURE"));
  if (std::holds_alternative<Use>(statement)) Fail(1314, "0A000", "USE is not allowed in stored procedures");
  if (const auto* noop = std::get_if<NoOp>(&statement); noop && noop->what.find("LOCK") != std::string::npos)
    Fail(1314, "0A000", "LOCK is not allowed in stored procedures");
  if (routine_->function || routine_->trigger) {
    const auto* select = std::get_if<Select>(&statement);
    if (select && select->into.empty())
      Fail(1415, "0A000",
           fmt::format("Not allowed to return a result set from a {}", routine_->trigger ? "trigger" : "function"));
    if (std::holds_alternative<Commit>(statement) || std::holds_alternative<Rollback>(statement) ||
        std::holds_alternative<Begin>(statement) || std::holds_alternative<CreateTable>(statement) ||
        std::holds_alternative<DropTable>(statement) || std::holds_alternative<AlterTable>(statement) ||
        std::holds_alternative<Truncate>(statement) || std::holds_alternative<RenameTable>(statement))
      Fail(1422, "HY000", "Explicit or implicit commit is not allowed in stored function or trigger");
    if (std::holds_alternative<Call>(statement) && routine_->function) Unsupported("CALL inside a stored function");
  }
  s.statement = std::make_shared<const sql::Statement>(std::move(statement));
  s.text = Trimmed(start, Peek().offset);
  return s;
}

// The label a LEAVE or ITERATE names: an enclosing block's or loop's (ITERATE: a loop's).
const std::string& Parser::JumpTarget(bool iterate) {
  const std::string label = Name();
  for (auto scope = scopes_.rbegin(); scope != scopes_.rend(); ++scope) {
    if (EqualsIgnoreCase(scope->label, label) && (!iterate || scope->loop)) return scope->label;
  }
  Fail(1308, "42000", fmt::format("{} with no matching label: {}", iterate ? "ITERATE" : "LEAVE", label));
}

// Statements up to one of `ends` (not taken), each with its ';'.
void Parser::StepsUntil(PlSteps& steps, std::initializer_list<std::string_view> ends) {
  while (!IsWordAt(Peek(), ends)) {
    if (AtEnd()) Syntax();
    steps.push_back(RoutineStatement());
    ExpectPunct(";");
  }
}

// The label repeated after END must be the one the statement began with.
void Parser::EndLabel(const std::string& label) {
  if (!Peek().Is(TokenKind::kWord) && !Peek().Is(TokenKind::kQuotedName)) return;
  if (label.empty() || !EqualsIgnoreCase(Peek().text, label))
    Fail(1310, "42000", fmt::format("End-label {} without match", Peek().text));
  ++i_;
}

void Parser::CheckNewLabel(const std::string& label) const {
  if (label.empty()) return;
  for (const RoutineScope& scope : scopes_) {
    if (EqualsIgnoreCase(scope.label, label)) Fail(1309, "42000", fmt::format("Redefining label {}", label));
  }
}

PlStep Parser::BlockStatement(std::string label) {
  CheckNewLabel(label);
  ExpectWord("BEGIN");
  AcceptWords({"NOT", "ATOMIC"});
  PlStep block;
  block.kind = PlStep::Kind::kBlock;
  block.label = label;
  scopes_.push_back({{}, {}, label, false});
  while (Peek().IsWord("DECLARE")) {
    Declare(block);
    ExpectPunct(";");
  }
  StepsUntil(block.body, {"END"});
  ExpectWord("END");
  EndLabel(label);
  scopes_.pop_back();
  return block;
}

// Variables first, then cursors, then handlers, as the server requires (1337, 1338).
void Parser::Declare(PlStep& block) {
  ExpectWord("DECLARE");
  if (Peek().IsWord("CONTINUE") || Peek().IsWord("EXIT") || Peek().IsWord("UNDO")) {
    PlHandler h = Handler();
    for (const PlHandler& other : block.handlers) {
      for (const HandlerCondition& a : other.conditions) {
        for (const HandlerCondition& b : h.conditions) {
          if (a.kind == b.kind && a.sqlstate == b.sqlstate && a.code == b.code)
            Fail(1413, "42000", "Duplicate handler declared in the same block");
        }
      }
    }
    block.handlers.push_back(std::move(h));
    return;
  }
  const bool cursor = Peek(1).IsWord("CURSOR");
  if (!block.handlers.empty())
    Fail(cursor ? 1338 : 1337, "42000",
         cursor ? "Cursor declaration after handler declaration"
                : "Variable or condition declaration after cursor or handler declaration");
  if (!cursor && !block.cursors.empty())
    Fail(1337, "42000", "Variable or condition declaration after cursor or handler declaration");
  if (cursor) {
    PlCursor c;
    c.name = Name();
    ExpectWords({"CURSOR", "FOR"});
    for (const auto& [name, slot] : scopes_.back().cursors) {
      if (EqualsIgnoreCase(name, c.name)) Fail(1333, "42000", fmt::format("Duplicate cursor: {}", c.name));
    }
    if (!Peek().IsWord("SELECT")) Syntax();
    auto select = ParseSelect();
    c.select = std::make_shared<const Select>(std::move(std::get<Select>(select)));
    c.slot = static_cast<std::uint32_t>(routine_->cursors++);
    scopes_.back().cursors.emplace_back(c.name, c.slot);
    block.cursors.push_back(std::move(c));
    return;
  }
  if (Peek(1).IsWord("CONDITION")) Unsupported("DECLARE ... CONDITION");
  std::vector<std::string> names;
  do names.push_back(Name());
  while (AcceptPunct(","));
  const Column column = DeclaredType(names.front());
  std::shared_ptr<const Expr> value;
  if (AcceptWord("DEFAULT")) {
    value = Expression();
    // No row is in scope here: a name that is not a variable (declared before) is none (1327).
    if (const Expr* unknown = FirstColumn(*value))
      Fail(1327, "42000", fmt::format("Undeclared variable: {}", unknown->name));
  }
  for (const std::string& name : names) {
    RoutineVariable v{name, column, RoutineVariable::Mode::kLocal};
    v.column.name = name;
    block.declares.push_back({NewVariable(std::move(v)), value});
  }
}

PlHandler Parser::Handler() {
  PlHandler h;
  if (AcceptWord("UNDO")) Unsupported("UNDO handlers");
  h.exit = Take().IsWord("EXIT");
  ExpectWords({"HANDLER", "FOR"});
  do {
    HandlerCondition c;
    if (AcceptWord("SQLEXCEPTION")) {
      c.kind = HandlerCondition::Kind::kSqlException;
    } else if (AcceptWord("SQLWARNING")) {
      c.kind = HandlerCondition::Kind::kSqlWarning;
    } else if (AcceptWords({"NOT", "FOUND"})) {
      c.kind = HandlerCondition::Kind::kNotFound;
    } else if (AcceptWord("SQLSTATE")) {
      AcceptWord("VALUE");
      c.kind = HandlerCondition::Kind::kSqlState;
      const std::size_t at = Peek().offset;
      c.sqlstate = StringLiteral();
      if (c.sqlstate.size() != 5 || c.sqlstate.starts_with("00"))
        Fail(1407, "42000", fmt::format("Bad SQLSTATE: '{}'", c.sqlstate));
      (void)at;
    } else if (Peek().Is(TokenKind::kInteger)) {
      c.kind = HandlerCondition::Kind::kErrorCode;
      c.code = static_cast<unsigned>(Unsigned());
    } else {
      Fail(1319, "42000", fmt::format("Undefined CONDITION: {}", Peek().text));
    }
    h.conditions.push_back(std::move(c));
  } while (AcceptPunct(","));
  h.body = std::make_shared<PlStep>(RoutineStatement());
  return h;
}

PlStep Parser::IfStatement() {
  ExpectWord("IF");
  PlStep s;
  s.kind = PlStep::Kind::kIf;
  do {
    s.conditions.push_back(Expression());
    ExpectWord("THEN");
    s.branches.emplace_back();
    StepsUntil(s.branches.back(), {"ELSEIF", "ELSE", "END"});
  } while (AcceptWord("ELSEIF"));
  if (AcceptWord("ELSE")) {
    s.otherwise.emplace();
    StepsUntil(*s.otherwise, {"END"});
  }
  ExpectWords({"END", "IF"});
  return s;
}

PlStep Parser::CaseStatement() {
  ExpectWord("CASE");
  PlStep s;
  s.kind = PlStep::Kind::kIf;
  s.text = "CASE";  // no branch taken and no ELSE: error 1339
  if (!Peek().IsWord("WHEN")) s.operand = Expression();
  if (!Peek().IsWord("WHEN")) Syntax();
  while (AcceptWord("WHEN")) {
    s.conditions.push_back(Expression());
    ExpectWord("THEN");
    s.branches.emplace_back();
    StepsUntil(s.branches.back(), {"WHEN", "ELSE", "END"});
  }
  if (AcceptWord("ELSE")) {
    s.otherwise.emplace();
    StepsUntil(*s.otherwise, {"END"});
  }
  ExpectWords({"END", "CASE"});
  return s;
}

PlStep Parser::LoopStatement(std::string label) {
  CheckNewLabel(label);
  PlStep s;
  s.label = label;
  const Token& word = Take();
  scopes_.push_back({{}, {}, label, true});
  if (word.IsWord("WHILE")) {
    s.kind = PlStep::Kind::kWhile;
    s.condition = Expression();
    ExpectWord("DO");
    StepsUntil(s.body, {"END"});
    ExpectWords({"END", "WHILE"});
  } else if (word.IsWord("REPEAT")) {
    s.kind = PlStep::Kind::kRepeat;
    StepsUntil(s.body, {"UNTIL"});
    ExpectWord("UNTIL");
    s.condition = Expression();
    ExpectWords({"END", "REPEAT"});
  } else {
    s.kind = PlStep::Kind::kLoop;
    StepsUntil(s.body, {"END"});
    ExpectWords({"END", "LOOP"});
  }
  EndLabel(label);
  scopes_.pop_back();
  return s;
}

PlStep Parser::CursorStatement() {
  PlStep s;
  const Token& word = Take();
  s.kind = word.IsWord("OPEN")    ? PlStep::Kind::kOpen
           : word.IsWord("FETCH") ? PlStep::Kind::kFetch
                                  : PlStep::Kind::kClose;
  if (s.kind == PlStep::Kind::kFetch) {
    AcceptWord("NEXT");
    AcceptWord("FROM");
  }
  const std::string name = Name();
  bool found = false;
  for (auto scope = scopes_.rbegin(); scope != scopes_.rend() && !found; ++scope) {
    for (const auto& [n, slot] : scope->cursors) {
      if (EqualsIgnoreCase(n, name)) {
        s.slot = slot;
        found = true;
        break;
      }
    }
  }
  if (!found) Fail(1324, "42000", fmt::format("Undefined CURSOR: {}", name));
  if (s.kind == PlStep::Kind::kFetch) s.into = IntoTargets();
  return s;
}

// SIGNAL SQLSTATE 'xxxxx' [SET MESSAGE_TEXT = ..., MYSQL_ERRNO = ...]; RESIGNAL [...].
PlStep Parser::SignalStatement() {
  PlStep s;
  s.kind = PlStep::Kind::kSignal;
  s.resignal = Take().IsWord("RESIGNAL");
  if (AcceptWord("SQLSTATE")) {
    AcceptWord("VALUE");
    s.sqlstate = StringLiteral();
    if (s.sqlstate.size() != 5 || s.sqlstate.starts_with("00"))
      Fail(1407, "42000", fmt::format("Bad SQLSTATE: '{}'", s.sqlstate));
  } else if (!s.resignal) {
    Unsupported("SIGNAL of a named condition");
  }
  if (AcceptWord("SET")) {
    std::vector<std::string> items;
    do {
      const std::string item = Upper(Name());
      if (std::find(items.begin(), items.end(), item) != items.end())
        Fail(1641, "42000", fmt::format("Duplicate condition information item '{}'", item));
      items.push_back(item);
      ExpectPunct("=");
      if (item == "MESSAGE_TEXT") {
        s.message = StringLiteral();
      } else if (item == "MYSQL_ERRNO") {
        s.code = static_cast<unsigned>(Unsigned());
      } else if (item == "CLASS_ORIGIN" || item == "SUBCLASS_ORIGIN" || item == "CONSTRAINT_CATALOG" ||
                 item == "CONSTRAINT_SCHEMA" || item == "CONSTRAINT_NAME" || item == "CATALOG_NAME" ||
                 item == "SCHEMA_NAME" || item == "TABLE_NAME" || item == "COLUMN_NAME" || item == "CURSOR_NAME") {
        StringLiteral();
      } else {
        Syntax();
      }
    } while (AcceptPunct(","));
  }
  return s;
}

// The body from `from` to the statement's end into `r`, the last of the statement: its text as
// written (without a dump's comment close), the routine's parse state left behind.
std::string Parser::RoutineBody(Routine& r, std::size_t from) {
  routine_start_ = from;
  r.body = RoutineStatement();
  std::string text = WithoutCommentClose(Trimmed(from, Peek().offset));
  AcceptPunct(";");
  if (!AtEnd()) Syntax();
  scopes_.clear();
  routine_ = nullptr;
  return text;
}

}  // namespace strata::sql::parser_internal
