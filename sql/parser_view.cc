// CREATE VIEW, ALTER VIEW and DROP VIEW, with the clauses mariadb-dump splits across versioned
// comments (/*!50001 CREATE ALGORITHM=UNDEFINED */ /*!50013 DEFINER=... SQL SECURITY DEFINER */
// /*!50001 VIEW `v` AS select ... */ /*!50002 WITH CASCADED CHECK OPTION */).
#include "sql/parser_internal.h"

namespace strata::sql::parser_internal {

namespace {

// A variable in a view's SELECT: its value would be the creating session's, which the server
// refuses (1351).
bool UsesVariable(const Expr& e) {
  if (e.kind == Expr::Kind::kUserVar || e.kind == Expr::Kind::kSystemVar || e.kind == Expr::Kind::kLocalVar)
    return true;
  return std::any_of(e.args.begin(), e.args.end(), [](const ExprPtr& a) { return UsesVariable(*a); });
}

bool UsesVariable(const Select& s) {
  const auto in = [](const ExprPtr& e) { return e && UsesVariable(*e); };
  return in(s.where) || std::any_of(s.items.begin(), s.items.end(), [&](const SelectItem& i) { return in(i.expr); }) ||
         std::any_of(s.order_by.begin(), s.order_by.end(), [&](const OrderItem& o) { return in(o.expr); });
}

}  // namespace

// ALGORITHM = ... before the DEFINER, SQL SECURITY after it: what may come between CREATE [OR
// REPLACE] (or ALTER) and VIEW.
void Parser::ViewOptions(CreateView& v) {
  if (AcceptWord("ALGORITHM")) {
    v.algorithm_given = true;
    ExpectPunct("=");
    v.algorithm = Upper(Name());
    if (v.algorithm != "UNDEFINED" && v.algorithm != "MERGE" && v.algorithm != "TEMPTABLE") Syntax();
  }
  v.definer_given = Peek().IsWord("DEFINER");
  v.definer = Definer();
  if (AcceptWords({"SQL", "SECURITY"})) {
    v.security_given = true;
    const std::string security = Upper(Name());
    if (security != "DEFINER" && security != "INVOKER") Syntax();
    v.invoker = security == "INVOKER";
  }
}

sql::Statement Parser::ParseCreateView(CreateView v) {
  ExpectWord("VIEW");
  v.if_not_exists = !v.alter && AcceptWords({"IF", "NOT", "EXISTS"});
  if (v.if_not_exists && v.or_replace)
    throw Failure{{1221, "HY000", "Incorrect usage of OR REPLACE and IF NOT EXISTS"}};
  v.name = QualifiedName();
  if (AcceptPunct("(")) {
    do v.columns.push_back(Name());
    while (AcceptPunct(","));
    ExpectPunct(")");
  }
  ExpectWord("AS");
  const bool parenthesised = AcceptPunct("(");
  if (!Peek().IsWord("SELECT")) Syntax();
  auto select = std::get<Select>(ParseSelect());
  if (parenthesised) ExpectPunct(")");
  if (!select.into.empty()) throw Failure{{1350, "HY000", "View's SELECT contains a 'INTO' clause"}};
  if (UsesVariable(select)) throw Failure{{1351, "HY000", "View's SELECT contains a variable or parameter"}};
  v.select = std::make_shared<const Select>(std::move(select));
  if (AcceptWord("WITH")) {
    v.check = AcceptWord("LOCAL") ? CheckOption::kLocal : (AcceptWord("CASCADED"), CheckOption::kCascaded);
    ExpectWords({"CHECK", "OPTION"});
  }
  return v;
}

sql::Statement Parser::ParseDropView() {
  DropView d;
  d.if_exists = AcceptWords({"IF", "EXISTS"});
  do d.views.push_back(QualifiedName());
  while (AcceptPunct(","));
  AcceptWord("RESTRICT") || AcceptWord("CASCADE");
  return d;
}

}  // namespace strata::sql::parser_internal
