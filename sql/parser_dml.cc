// INSERT, UPDATE, DELETE, SELECT, SET and SHOW: the statements that read and change rows and settings.
#include "sql/parser_internal.h"

namespace strata::sql::parser_internal {

sql::Statement Parser::ParseInsert() {
  Insert ins;
  ins.replace = Take().IsWord("REPLACE");
  AcceptWord("LOW_PRIORITY") || AcceptWord("DELAYED") || AcceptWord("HIGH_PRIORITY");
  ins.ignore = AcceptWord("IGNORE");
  AcceptWord("INTO");
  ins.table = QualifiedName();
  if (AcceptWord("SET")) {
    std::vector<ExprPtr> row;
    do {
      ins.columns.push_back(Name());
      if (!AcceptPunct("=") && !AcceptPunct(":=")) Syntax();
      row.push_back(ValueExpr());
    } while (AcceptPunct(","));
    ins.rows.push_back(std::move(row));
  } else {
    if (Peek().IsPunct("(") && !Peek(1).IsWord("SELECT")) {
      ++i_;
      if (!AcceptPunct(")")) {
        do ins.columns.push_back(Name());
        while (AcceptPunct(","));
        ExpectPunct(")");
      }
    }
    if (Peek().IsWord("SELECT") || Peek().IsPunct("(")) {
      const bool parenthesised = AcceptPunct("(");
      if (!Peek().IsWord("SELECT")) Syntax();
      ins.select = std::make_shared<const Select>(std::get<Select>(ParseSelect()));
      if (parenthesised) ExpectPunct(")");
      OnDuplicate(ins);
      return ins;
    }
    if (!AcceptWord("VALUES") && !AcceptWord("VALUE")) Syntax();
    do {
      ExpectPunct("(");
      std::vector<ExprPtr> row;
      if (!Peek().IsPunct(")")) {
        do row.push_back(ValueExpr());
        while (AcceptPunct(","));
      }
      ExpectPunct(")");
      ins.rows.push_back(std::move(row));
    } while (AcceptPunct(","));
  }
  if (AcceptWord("AS")) {
    ins.alias = Name();
    if (AcceptPunct("(")) {
      do ins.alias_columns.push_back(Name());
      while (AcceptPunct(","));
      ExpectPunct(")");
    }
  }
  OnDuplicate(ins);
  return ins;
}

void Parser::OnDuplicate(Insert& ins) {
  if (!AcceptWord("ON")) return;
  ExpectWord("DUPLICATE");
  ExpectWord("KEY");
  ExpectWord("UPDATE");
  do {
    Assignment a;
    a.column = Name();
    if (AcceptPunct(".")) a.column = Name();  // t.c
    if (!AcceptPunct("=") && !AcceptPunct(":=")) Syntax();
    a.value = ValueExpr();
    ins.on_duplicate.push_back(std::move(a));
  } while (AcceptPunct(","));
}

// A value in VALUES or SET: an expression or DEFAULT.
ExprPtr Parser::ValueExpr() {
  if (Peek().IsWord("DEFAULT") && !Peek(1).IsPunct("(")) {
    auto e = std::make_unique<Expr>();
    e->kind = Expr::Kind::kDefault;
    e->offset = Take().offset;
    return e;
  }
  return Expression();
}

void Parser::OrderLimit(std::vector<OrderItem>* order, std::optional<std::uint64_t>* limit, std::uint64_t* offset) {
  if (AcceptWords({"ORDER", "BY"})) {
    do {
      OrderItem o;
      o.expr = Expression();
      if (AcceptWord("DESC"))
        o.descending = true;
      else
        AcceptWord("ASC");
      order->push_back(std::move(o));
    } while (AcceptPunct(","));
  }
  if (AcceptWord("LIMIT")) {
    std::uint64_t first = Unsigned();
    if (offset && AcceptPunct(",")) {
      *offset = first;
      first = Unsigned();
    } else if (offset && AcceptWord("OFFSET")) {
      *offset = Unsigned();
    }
    *limit = first;
  }
}

sql::Statement Parser::ParseUpdate() {
  ++i_;
  AcceptWord("LOW_PRIORITY");
  Update u;
  u.ignore = AcceptWord("IGNORE");
  u.table = QualifiedName();
  if (Peek().IsPunct(",") || Peek().IsWord("JOIN")) Unsupported("multi-table UPDATE");
  ExpectWord("SET");
  do {
    Assignment a;
    a.column = Name();
    if (AcceptPunct(".")) a.column = Name();
    ExpectPunct("=");
    a.value = ValueExpr();
    u.set.push_back(std::move(a));
  } while (AcceptPunct(","));
  if (AcceptWord("WHERE")) u.where = Expression();
  OrderLimit(&u.order_by, &u.limit, nullptr);
  return u;
}

sql::Statement Parser::ParseDelete() {
  ++i_;
  while (AcceptWord("LOW_PRIORITY") || AcceptWord("QUICK") || AcceptWord("IGNORE")) {
  }
  ExpectWord("FROM");
  Delete d;
  d.table = QualifiedName();
  if (Peek().IsPunct(",") || Peek().IsWord("USING")) Unsupported("multi-table DELETE");
  if (AcceptWord("WHERE")) d.where = Expression();
  OrderLimit(&d.order_by, &d.limit, nullptr);
  return d;
}

sql::Statement Parser::ParseSelect() {
  ++i_;
  Select s;
  while (AcceptWord("ALL") || AcceptWord("SQL_NO_CACHE") || AcceptWord("SQL_CACHE") || AcceptWord("STRAIGHT_JOIN") ||
         AcceptWord("HIGH_PRIORITY") || AcceptWord("SQL_CALC_FOUND_ROWS")) {
  }
  s.distinct = AcceptWord("DISTINCT") || AcceptWord("DISTINCTROW");
  while (AcceptWord("ALL") || AcceptWord("SQL_NO_CACHE") || AcceptWord("SQL_CACHE") || AcceptWord("STRAIGHT_JOIN") ||
         AcceptWord("HIGH_PRIORITY") || AcceptWord("SQL_CALC_FOUND_ROWS")) {
  }
  do {
    SelectItem item;
    const std::size_t start = Peek().offset;
    if (AcceptPunct("*")) {
      item.text.assign(1, '*');  // not = "*": GCC 12 warns falsely (-Wrestrict) on that here
    } else {
      const std::size_t first = i_;
      item.expr = Expression();
      item.text = Trimmed(start, Peek().offset);
      // A string literal alone is headed by its value, as the server heads it ('x''y' is x'y).
      if (i_ == first + 1 && t_[first].Is(TokenKind::kString)) item.text = t_[first].text;
      if (i_ == first + 2 && t_[first + 1].Is(TokenKind::kString) && t_[first].Is(TokenKind::kWord) &&
          (t_[first].text[0] == '_' || t_[first].IsWord("N")))  // _binary'x', N'x'
        item.text = t_[first + 1].text;
      if (AcceptWord("AS")) {
        item.alias = Peek().Is(TokenKind::kString) ? Take().text : Name();
      } else if (Peek().Is(TokenKind::kQuotedName) || Peek().Is(TokenKind::kString) ||
                 (Peek().Is(TokenKind::kWord) && !Reserved(Peek()))) {
        item.alias = Take().text;
      }
    }
    s.items.push_back(std::move(item));
  } while (AcceptPunct(","));
  if (Peek().IsWord("INTO")) s.into = IntoTargets();
  if (AcceptWord("FROM")) {
    if (Peek().IsPunct("(")) Unsupported("subqueries");
    s.from = QualifiedName();
    if (AcceptWord("AS"))
      s.from_alias = Name();
    else if (Peek().Is(TokenKind::kQuotedName) ||
             (Peek().Is(TokenKind::kWord) && !Reserved(Peek()) && !Peek().IsWord("FORCE") && !Peek().IsWord("USE") &&
              !Peek().IsWord("IGNORE") && !Peek().IsWord("JOIN")))
      s.from_alias = Name();
    if (Peek().IsPunct(",") || Peek().IsWord("JOIN") || Peek().IsWord("LEFT") || Peek().IsWord("INNER") ||
        Peek().IsWord("RIGHT") || Peek().IsWord("CROSS") || Peek().IsWord("NATURAL")) {
      Unsupported("joins");
    }
    while (Peek().IsWord("FORCE") || Peek().IsWord("USE") || Peek().IsWord("IGNORE")) {  // index hints
      ++i_;
      if (!AcceptWord("INDEX") && !AcceptWord("KEY")) Syntax();
      ExpectPunct("(");
      SkipBalanced();
      ExpectPunct(")");
    }
  }
  if (AcceptWord("WHERE")) s.where = Expression();
  if (AcceptWords({"GROUP", "BY"})) {
    do {
      OrderItem g;
      g.expr = Expression();
      if (AcceptWord("DESC"))
        g.descending = true;
      else
        AcceptWord("ASC");
      s.group_by.push_back(std::move(g));
    } while (AcceptPunct(","));
    s.rollup = AcceptWords({"WITH", "ROLLUP"});
  }
  if (AcceptWord("HAVING")) s.having = Expression();
  if (Peek().IsWord("UNION")) Unsupported("UNION");
  OrderLimit(&s.order_by, &s.limit, &s.offset);
  if (AcceptWords({"FOR", "UPDATE"}))
    s.lock = RowLock::kExclusive;
  else if (AcceptWords({"FOR", "SHARE"}) || AcceptWords({"LOCK", "IN", "SHARE", "MODE"}))
    s.lock = RowLock::kShared;
  if (s.lock != RowLock::kNone && (AcceptWord("NOWAIT") || AcceptWords({"SKIP", "LOCKED"})))
    Unsupported("NOWAIT / SKIP LOCKED");
  if (s.into.empty() && Peek().IsWord("INTO")) s.into = IntoTargets();
  return s;
}

std::optional<Isolation> Parser::IsolationFromWords(const std::string& level) {
  const std::string l = Upper(level);
  if (l == "READ-UNCOMMITTED" || l == "READ UNCOMMITTED") return Isolation::kReadUncommitted;
  if (l == "READ-COMMITTED" || l == "READ COMMITTED") return Isolation::kReadCommitted;
  if (l == "REPEATABLE-READ" || l == "REPEATABLE READ") return Isolation::kRepeatableRead;
  if (l == "SERIALIZABLE") return Isolation::kSerializable;
  return std::nullopt;
}

// What one SET item sets: @user, @@[global.|session.]system, a trigger's NEW.c, a routine's
// variable (which hides a system variable of its name), or a system variable's bare name.
void Parser::SetTarget(SetVariable& v) {
  const Token& t = Peek();
  if (t.Is(TokenKind::kUserVar)) {
    v.scope = SetVariable::Scope::kUser;
    v.name = Take().text;
  } else if (t.Is(TokenKind::kSystemVar)) {
    std::string name = Lower(Take().text);
    if (name.rfind("global.", 0) == 0) {
      v.scope = SetVariable::Scope::kGlobal;
      name = name.substr(7);
    } else if (name.rfind("session.", 0) == 0 || name.rfind("local.", 0) == 0) {
      name = name.substr(name.find('.') + 1);
    }
    v.name = name;
  } else if (Peek(1).IsPunct(".") && Peek().Is(TokenKind::kWord) && TriggerRow(Peek().text)) {  // SET NEW.c = ...
    if (!*TriggerRow(Take().text)) throw Failure{{1362, "HY000", "Updating of OLD row is not allowed in trigger"}};
    if (!routine_->trigger->before)
      throw Failure{{1362, "HY000", "Updating of NEW row is not allowed in after trigger"}};
    ++i_;
    v.scope = SetVariable::Scope::kNewRow;
    v.name = Name();
  } else if (auto slot = v.scope == SetVariable::Scope::kSession ? LocalSlot(Peek().text) : std::nullopt) {
    ++i_;  // a routine's variable, which hides a system variable of its name
    v.scope = SetVariable::Scope::kLocal;
    v.slot = *slot;
  } else {
    v.name = Lower(Name());
  }
}

sql::Statement Parser::ParseSet() {
  ++i_;
  bool global = false;
  if (AcceptWord("GLOBAL"))
    global = true;
  else
    AcceptWord("SESSION") || AcceptWord("LOCAL");
  if (AcceptWord("TRANSACTION")) {
    SetTransaction st;
    st.global = global;
    bool have = false;
    do {
      if (AcceptWords({"ISOLATION", "LEVEL"})) {
        std::string words;
        while (Peek().kind == TokenKind::kWord) words += (words.empty() ? "" : " ") + Take().text;
        auto iso = IsolationFromWords(words);
        if (!iso) Syntax();
        st.isolation = *iso;
        have = true;
      } else if (!AcceptWords({"READ", "WRITE"}) && !AcceptWords({"READ", "ONLY"})) {
        Syntax();
      }
    } while (AcceptPunct(","));
    if (!have) return NoOp{"SET TRANSACTION"};
    return st;
  }
  if (Peek().IsWord("NAMES") && LocalSlot("names"))
    throw Failure{{1453, "42000", "Variable 'names' must be quoted with `...`, or renamed"}};
  if (AcceptWord("NAMES") || AcceptWords({"CHARACTER", "SET"}) || AcceptWord("CHARSET")) {
    SkipToEnd();
    return NoOp{"SET NAMES"};
  }
  Set set;
  bool first = true;
  do {
    SetVariable v;
    v.scope = global ? SetVariable::Scope::kGlobal : SetVariable::Scope::kSession;
    if (!first) {
      if (AcceptWord("GLOBAL"))
        v.scope = SetVariable::Scope::kGlobal;
      else
        AcceptWord("SESSION") || AcceptWord("LOCAL");
    }
    first = false;
    SetTarget(v);
    if (!AcceptPunct("=") && !AcceptPunct(":=")) Syntax();
    // SET x = ON / OFF / DEFAULT / a bare word: the word as a string.
    if (Peek().kind == TokenKind::kWord && !LocalSlot(Peek().text) && !Peek(1).IsPunct("(") && !Peek(1).IsPunct(".") &&
        (Peek(1).IsPunct(",") || Peek(1).IsPunct(";") || Peek(1).Is(TokenKind::kEnd)) && !Peek().IsWord("NULL") &&
        !Peek().IsWord("TRUE") && !Peek().IsWord("FALSE")) {
      auto e = std::make_unique<Expr>();
      e->offset = Peek().offset;
      e->value = Value::String(Take().text);
      v.value = std::move(e);
    } else {
      v.value = Expression();
    }
    set.items.push_back(std::move(v));
  } while (AcceptPunct(","));
  return set;
}

sql::Statement Parser::ParseShow() {
  ++i_;
  Show s;
  auto like = [&] {
    if (AcceptWord("LIKE"))
      s.like = StringLiteral();
    else if (Peek().IsWord("WHERE"))
      Unsupported("SHOW ... WHERE");
  };
  auto from = [&] {
    if (AcceptWord("FROM") || AcceptWord("IN")) s.database = Name();
  };
  if (AcceptWord("GLOBAL"))
    s.global = true;
  else
    AcceptWord("SESSION") || AcceptWord("LOCAL");
  const bool full = AcceptWord("FULL");
  if (AcceptWord("COUNT")) {  // SHOW COUNT(*) WARNINGS
    if (!AcceptPunct("(") || !AcceptPunct("*") || !AcceptPunct(")")) Syntax();
    s.count = true;
  }
  if (AcceptWord("WARNINGS") || AcceptWord("ERRORS")) {
    s.what = t_[i_ - 1].IsWord("WARNINGS") ? Show::What::kWarnings : Show::What::kErrors;
    if (!s.count && AcceptWord("LIMIT")) Unsupported("SHOW WARNINGS LIMIT");
    return s;
  }
  if (s.count) Syntax();
  if (AcceptWord("DATABASES") || AcceptWord("SCHEMAS")) {
    s.what = Show::What::kDatabases;
    like();
  } else if (AcceptWord("TABLES")) {
    s.what = Show::What::kTables;
    from();
    like();
  } else if (AcceptWords({"CREATE", "TABLE"})) {
    s.what = Show::What::kCreateTable;
    s.table = QualifiedName();
  } else if (AcceptWords({"CREATE", "PROCEDURE"}) || AcceptWords({"CREATE", "FUNCTION"})) {
    s.what = t_[i_ - 1].IsWord("PROCEDURE") ? Show::What::kCreateProcedure : Show::What::kCreateFunction;
    s.table = QualifiedName();
  } else if (AcceptWords({"CREATE", "TRIGGER"})) {
    s.what = Show::What::kCreateTrigger;
    s.table = QualifiedName();
  } else if (AcceptWords({"CREATE", "VIEW"})) {
    s.what = Show::What::kCreateView;
    s.table = QualifiedName();
  } else if (AcceptWords({"PROCEDURE", "STATUS"}) || AcceptWords({"FUNCTION", "STATUS"})) {
    s.what = t_[i_ - 2].IsWord("PROCEDURE") ? Show::What::kProcedureStatus : Show::What::kFunctionStatus;
    like();
  } else if (AcceptWords({"TABLE", "STATUS"})) {
    s.what = Show::What::kTableStatus;
    from();
    like();
  } else if (AcceptWords({"ENGINE", "INNODB", "STATUS"})) {
    s.what = Show::What::kEngineStatus;
  } else if (AcceptWord("STATUS")) {
    s.what = Show::What::kStatus;
    like();
  } else if (AcceptWord("VARIABLES")) {
    s.what = Show::What::kVariables;
    like();
  } else if (AcceptWord("COLUMNS") || AcceptWord("FIELDS")) {
    s.what = Show::What::kColumns;
    if (!AcceptWord("FROM") && !AcceptWord("IN")) Syntax();
    s.table = QualifiedName();
    if (AcceptWord("FROM") || AcceptWord("IN")) s.table.database = Name();
    like();
  } else {
    Unsupported("SHOW " + Peek().text);
  }
  s.full = full;
  return s;
}

}  // namespace strata::sql::parser_internal
