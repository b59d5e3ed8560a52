// The parser's class, shared by the files that define its parts, each with one job:
//   parser.cc       Parse(), the error texts, and the dispatch on a statement's first word
//   parser_ddl.cc   CREATE (DATABASE, TABLE, INDEX), ALTER, DROP
//   parser_dml.cc   INSERT, UPDATE, DELETE, SELECT, SET, SHOW
//   parser_expr.cc  expressions, lowest precedence first
// Internal to sql/parser*.cc; everyone else calls Parse() (parser.h).
#pragma once

#include "sql/engine_api.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sql/ast.h"
#include "sql/eval.h"
#include "sql/parser.h"
#include "sql/routine.h"
#include "sql/stack_guard.h"
#include "sqltext/cursor.h"
#include "sqltext/definition.h"
#include "ondisk/identifier.h"

namespace strata::sql::parser_internal {

// Stack a level of the parser may not cut into: what one level and the error path below it need.
constexpr std::size_t kParserStackReserve = 128 * 1024;

// The statement parser: a recursive descent over sqltext's Cursor, whose steps (AcceptWord,
// Name, ...) it takes and whose Failure it throws (Parse() turns it into Parsed::error);
// column, key and table definitions are read by sqltext's grammar.
class Parser : public Cursor {
 public:
  Parser(std::string_view text, std::vector<Token> tokens) : Cursor(text, std::move(tokens)) {}

  std::optional<sql::Statement> Top() {
    if (Peek().Is(TokenKind::kEnd)) return std::nullopt;
    auto s = ParseStatement();
    AcceptPunct(";");
    if (!Peek().Is(TokenKind::kEnd)) Syntax();
    return s;
  }

 private:
  // ---- helpers ----
  // MySQL stops a statement whose expressions nest too deep for its thread stack (error 1436);
  // here the limit is a number of levels, checked as the tree is built.
  [[noreturn]] void TooDeep() {
    SqlError e = SyntaxError(text_, Peek().offset);
    const std::size_t near = e.message.find("near '");
    throw Failure{{1436, "HY000",
                   fmt::format("Thread stack overrun: expressions nest deeper than {} levels {}", kMaxExpressionDepth,
                               near == std::string::npos ? "" : e.message.substr(near))}};
  }
  void Adopt(Expr& parent, ExprPtr child) {
    parent.height = std::max(parent.height, child->height + 1);
    parent.args.push_back(std::move(child));
    if (parent.height > kMaxExpressionDepth) TooDeep();
  }
  // Counts the parser's own recursion (parentheses, unary operators, NOT): a limit on the
  // tree alone would come too late, after the stack had overflowed while parsing.
  // The stack is checked too, for a thread whose stack is small.
  struct Nesting {
    explicit Nesting(Parser& p) : p_(p) {
      if (auto overrun = CheckStack(kParserStackReserve)) throw Failure{*overrun};
      if (++p_.nesting_ > kMaxExpressionDepth) {
        --p_.nesting_;
        p_.TooDeep();
      }
    }
    ~Nesting() { --p_.nesting_; }
    Parser& p_;
  };
  void ExpectWords(std::initializer_list<std::string_view> words) {
    if (!AcceptWords(words)) Syntax();
  }
  TableName QualifiedName() {
    TableName n;
    n.name = Name();
    if (AcceptPunct(".")) {
      n.database = std::move(n.name);
      n.name = Name();
    }
    return n;
  }

  // ---- statements ----
  sql::Statement ParseStatement();
  sql::Statement ParseStartTransaction();
  void SkipToEnd();
  sql::Statement ParseAlter();
  sql::Statement ParseDrop();
  sql::Statement ParseCreate();
  sql::Statement ParseCreateTable();
  // DEFINER = ... when it follows (as dumps write it), `root`@`localhost` otherwise.
  std::string Definer();
  bool ViewFollows() const;
  // Views (parser_view.cc): the options before VIEW, then the rest from VIEW on.
  void ViewOptions(CreateView& v);
  sql::Statement ParseCreateView(CreateView v);
  sql::Statement ParseDropView();
  // ALTER TABLE (parser_alter.cc), after its name's first token; RENAME TABLE; TRUNCATE.
  sql::Statement ParseAlterTable();
  void AlterClause(AlterTable& a);
  void AlterAdd(AlterTable& a);
  void AlterDrop(AlterTable& a);
  void AlterColumnDefault(AlterTable& a);
  void AlterConvert(AlterTable& a);
  std::size_t AlterColumn(AlterTable& a);
  void ColumnPosition(AlterTable::Change& c);
  sql::Statement ParseRenameTable();
  sql::Statement ParseTruncate();
  sql::Statement ParseChecksum();
  sql::Statement ParseLoadData();
  Column EngineColumn(const ColumnText& text, CreateTable& c);
  void AddKey(const KeyText& k, CreateTable& c);
  std::optional<SqlValue> DefaultValue(const ColumnText& text);
  static Value Negate(const Value& v);
  sql::Statement ParseInsert();
  void OnDuplicate(Insert& ins);  // ON DUPLICATE KEY UPDATE, when it follows
  ExprPtr ValueExpr();
  void OrderLimit(std::vector<OrderItem>* order, std::optional<std::uint64_t>* limit, std::uint64_t* offset);
  sql::Statement ParseUpdate();
  sql::Statement ParseDelete();
  sql::Statement ParseSelect();

  static std::optional<Isolation> IsolationFromWords(const std::string& level);
  sql::Statement ParseSet();
  void SetTarget(SetVariable& v);
  sql::Statement ParseShow();

  // ---- stored routines (parser_routine.cc) ----
  // CREATE [DEFINER = ...] PROCEDURE / FUNCTION, at the word after CREATE [OR REPLACE] and
  // DEFINER (given as `user`@`host`).
  sql::Statement ParseCreateRoutine(const std::string& definer, bool or_replace);
  sql::Statement ParseDropRoutine(bool function);
  sql::Statement ParseCreateTrigger(const std::string& definer, bool or_replace);
  // In a trigger's body, whether `qualifier` names its NEW row (true) or OLD row (false);
  // nullopt elsewhere. 1363 for the row its event does not have.
  std::optional<bool> TriggerRow(const std::string& qualifier) const;
  sql::Statement ParseCall();
  void RoutineParameters(Routine& r);
  std::string RoutineCharacteristics();
  static void ShiftLines(PlStep& s, std::uint32_t by);
  PlStep RoutineStatement();  // one statement of a body, without its ';'
  std::string RoutineBody(Routine& r, std::size_t from);
  PlStep OneRoutineStatement();
  PlStep BlockStatement(std::string label);
  void Declare(PlStep& block);
  PlHandler Handler();
  PlStep IfStatement();
  PlStep CaseStatement();
  PlStep LoopStatement(std::string label);
  PlStep CursorStatement();
  void StepsUntil(PlSteps& steps, std::initializer_list<std::string_view> ends);
  void EndLabel(const std::string& label);
  void CheckNewLabel(const std::string& label) const;  // 1309 for a label an enclosing statement has
  PlStep SignalStatement();
  const std::string& JumpTarget(bool iterate);
  std::vector<IntoTarget> IntoTargets();
  Column DeclaredType(const std::string& name);
  // The slot of a variable of the routine being parsed that `name` names here (the innermost
  // declaration), or nullopt.
  std::optional<std::uint32_t> LocalSlot(const std::string& name) const;
  std::uint32_t NewVariable(RoutineVariable v);

  struct RoutineScope {
    std::vector<std::pair<std::string, std::uint32_t>> variables, cursors;
    std::string label;
    bool loop = false;  // the label is a loop's (ITERATE may name it)
  };
  Routine* routine_ = nullptr;  // being parsed: names resolve to its variables
  std::vector<RoutineScope> scopes_;
  std::size_t routine_start_ = 0;  // the offset of its body

  // ---- expressions, lowest precedence first ----
  ExprPtr Expression();
  ExprPtr MakeBinary(std::string op, ExprPtr a, ExprPtr b);
  ExprPtr Balanced(const std::string& op, std::vector<ExprPtr>& terms, std::size_t from, std::size_t to);
  ExprPtr Chain(const std::string& op, ExprPtr (Parser::*term)(), const std::function<bool()>& accept);
  ExprPtr Or();
  ExprPtr Xor();
  ExprPtr And();
  ExprPtr Not();
  ExprPtr Predicate();
  ExprPtr Additive();
  ExprPtr Multiplicative();
  ExprPtr Unary();
  ExprPtr Literal(Value v, LiteralKind kind, std::size_t offset);
  ExprPtr Primary();
  ExprPtr ColumnRef();
  void TrimArguments(Expr& e);
  void GroupConcatTail(Expr& e);
  ExprPtr Function();

  std::uint32_t nesting_ = 0;  // Nesting levels open
};

}  // namespace strata::sql::parser_internal
