#include "sql/view.h"

#include <fmt/format.h>

#include <algorithm>

#include "ondisk/identifier.h"
#include "sql/expr_text.h"
#include "sql/session_context.h"

namespace strata::sql {

namespace {

// `e` without its operands.
ExprPtr NodeCopy(const Expr& e) {
  auto out = std::make_unique<Expr>();
  out->kind = e.kind;
  out->value = e.value;
  out->literal_kind = e.literal_kind;
  out->name = e.name;
  out->table = e.table;
  out->op = e.op;
  out->negated = e.negated;
  out->star = e.star;
  out->distinct = e.distinct;
  out->hex_number = e.hex_number;
  out->offset = e.offset;
  out->slot = e.slot;
  out->written = e.written;
  out->height = e.height;
  return out;
}

// The view's column `name` stands for, or nullopt.
std::optional<std::size_t> ViewColumn(const Select& def, const std::string& name) {
  for (std::size_t i = 0; i < def.items.size(); ++i) {
    if (EqualsIgnoreCase(def.items[i].alias, name)) return i;
  }
  return std::nullopt;
}

// `e` with each column of the view replaced by the expression it stands for. `aliases`: the
// outer SELECT's items, whose names ORDER BY may use instead.
SqlResult<ExprPtr> Substituted(const Expr& e, const Select& def, std::string_view clause,
                               const std::vector<SelectItem>* aliases = nullptr) {
  if (e.kind == Expr::Kind::kColumn) {
    if (aliases && e.table.empty()) {
      for (const SelectItem& item : *aliases) {
        if (!item.alias.empty() && EqualsIgnoreCase(item.alias, e.name)) return CloneExpr(e);
      }
    }
    const auto i = ViewColumn(def, e.name);
    if (!i) return UnknownColumn(e.name, clause);
    const Expr& meant = *def.items[*i].expr;
    if (e.table == kInsertedRow) {  // VALUES(c) of ON DUPLICATE KEY UPDATE: the row the INSERT wanted
      if (meant.kind != Expr::Kind::kColumn)
        return SqlError{1348, "HY000", fmt::format("Column '{}' is not updatable", e.name)};
      ExprPtr c = CloneExpr(meant);
      c->table = std::string(kInsertedRow);
      return c;
    }
    return CloneExpr(meant);
  }
  ExprPtr out = NodeCopy(e);
  out->height = 1;
  for (const ExprPtr& a : e.args) {
    auto arg = Substituted(*a, def, clause, aliases);
    if (!arg.ok()) return arg.error();
    out->height = std::max(out->height, (*arg)->height + 1);
    out->args.push_back(std::move(*arg));
  }
  return out;
}

SqlResult<ExprPtr> SubstitutedOrNull(const ExprPtr& e, const Select& def, std::string_view clause) {
  if (!e) return ExprPtr();
  return Substituted(*e, def, clause);
}

// a AND b, either of which may be missing.
ExprPtr Both(ExprPtr a, ExprPtr b) {
  if (!a) return b;
  if (!b) return a;
  auto e = std::make_unique<Expr>();
  e->kind = Expr::Kind::kBinary;
  e->op = "AND";
  e->height = std::max(a->height, b->height) + 1;
  e->args.push_back(std::move(a));
  e->args.push_back(std::move(b));
  return e;
}

// Whether the rows are made from groups of the table's rows (aggregates, GROUP BY, HAVING,
// DISTINCT): not one row per row, so not written through, and not merged under a query that
// narrows them.
// A clause of the view's own (GROUP BY, HAVING) as it stands once merged: the view's aliases
// replaced by what they name, since the query's select list does not have them.
ExprPtr WithViewAliases(const Expr& e, const Select& def) {
  if (e.kind == Expr::Kind::kColumn && e.table.empty()) {
    for (const SelectItem& item : def.items) {
      if (item.expr && EqualsIgnoreCase(item.alias, e.name) &&
          !(item.expr->kind == Expr::Kind::kColumn && EqualsIgnoreCase(item.expr->name, e.name)))
        return CloneExpr(*item.expr);
    }
  }
  ExprPtr out = NodeCopy(e);
  for (const ExprPtr& a : e.args) out->args.push_back(WithViewAliases(*a, def));
  return out;
}

bool Aggregates(const Select& s) {
  return !s.group_by.empty() || s.having || s.distinct ||
         std::any_of(s.items.begin(), s.items.end(),
                     [](const SelectItem& i) { return i.expr && HasAggregate(*i.expr); });
}

SqlResult<std::vector<OrderItem>> SubstitutedOrder(const std::vector<OrderItem>& order, const Select& def,
                                                   const std::vector<SelectItem>* aliases) {
  std::vector<OrderItem> out;
  for (const OrderItem& o : order) {
    auto e = Substituted(*o.expr, def, "ORDER BY", aliases);
    if (!e.ok()) return e.error();
    out.push_back({std::move(*e), o.descending});
  }
  return out;
}

SqlError NotUpdatable(const View& v, const char* statement) {
  return {1288, "HY000", fmt::format("The target table {} of the {} is not updatable", v.name.name, statement)};
}

// The view's table, as the statement on it names it.
TableName Underlying(const View& v) {
  TableName t = *v.select().from;
  if (t.database.empty()) t.database = v.name.database;
  return t;
}

// The WITH CHECK OPTION duties of a write through `v`, on top of those of the views above it,
// carried down to `v`'s table (ViewChecks says whose option decides).
SqlResult<ViewChecks> ChecksThrough(const ViewChecks& above, const View& v) {
  ViewChecks out;
  for (const ViewCheck& c : above.conditions) {
    auto e = Substituted(*c.condition, v.select(), "WHERE");
    if (!e.ok()) return e.error();
    out.conditions.push_back({std::move(*e), c.view});
  }
  out.view = above.view.empty() ? v.name.database + "." + v.name.name : above.view;
  out.cascading = above.cascading;
  const Expr* where = v.select().where.get();
  if (above.view.empty()) {  // the view the statement names
    const CheckOption own = v.definition->check;
    if (where && own != CheckOption::kNone) out.conditions.push_back({CloneExpr(*where), v.Quoted()});
    if (own == CheckOption::kCascaded) out.cascading = v.Quoted();
  } else if (where && !out.cascading.empty()) {
    out.conditions.push_back({CloneExpr(*where), out.cascading});
  }
  return out;
}

// The view's column `name` as a column of its table, for a write (`clause`: where the
// statement names it).
SqlResult<std::string> WrittenColumn(const View& v, const std::string& name, std::string_view clause) {
  const auto i = ViewColumn(v.select(), name);
  if (!i) return UnknownColumn(name, clause);
  const Expr& e = *v.select().items[*i].expr;
  if (e.kind != Expr::Kind::kColumn) return SqlError{1348, "HY000", fmt::format("Column '{}' is not updatable", name)};
  return e.name;
}

}  // namespace

SqlError ViewsTooDeep() { return NotSupported(fmt::format("views nested more than {} deep", kMaxViewDepth)); }

SqlError TableAlreadyExists(const std::string& name) {
  return {1050, "42S01", fmt::format("Table '{}' already exists", name)};
}

std::optional<std::string> UnknownColumnIn(const Expr& e, const std::vector<std::string>& columns) {
  if (e.kind == Expr::Kind::kColumn &&
      std::none_of(columns.begin(), columns.end(), [&](const std::string& c) { return EqualsIgnoreCase(c, e.name); }))
    return e.name;
  for (const ExprPtr& a : e.args) {
    if (auto unknown = UnknownColumnIn(*a, columns)) return unknown;
  }
  return std::nullopt;
}

std::string View::Quoted() const {
  return ondisk::QuoteIdentifier(name.database) + "." + ondisk::QuoteIdentifier(name.name);
}

ExprPtr CloneExpr(const Expr& e) {
  ExprPtr out = NodeCopy(e);
  for (const ExprPtr& a : e.args) out->args.push_back(CloneExpr(*a));
  for (const auto& [key, descending] : e.order) out->order.emplace_back(CloneExpr(*key), descending);
  return out;
}

std::string ViewText(const CreateView& def, const std::string& current) {
  const char* check = def.check == CheckOption::kCascaded ? " WITH CASCADED CHECK OPTION"
                      : def.check == CheckOption::kLocal  ? " WITH LOCAL CHECK OPTION"
                                                          : "";
  return fmt::format("CREATE ALGORITHM={} DEFINER={} SQL SECURITY {} VIEW {} AS {}{}", def.algorithm, def.definer,
                     def.invoker ? "INVOKER" : "DEFINER",
                     (def.name.database == current ? "" : ondisk::QuoteIdentifier(def.name.database) + ".") +
                         ondisk::QuoteIdentifier(def.name.name),
                     // Outside the view's database every table is named with its database.
                     SelectText(*def.select, def.name.database == current ? current : "", def.name.database), check);
}

bool Updatable(const Select& s, const std::string& algorithm) {
  return s.from && !s.limit && !Aggregates(s) && algorithm != "TEMPTABLE";
}

bool NeedsTemporaryTable(const Select& outer, const View& v) {
  const Select& def = v.select();
  const bool outer_narrows = outer.where || Aggregates(outer);
  // DISTINCT over the view's columns is not DISTINCT over the query's.
  const bool projects =
      std::any_of(outer.items.begin(), outer.items.end(), [](const SelectItem& i) { return i.expr != nullptr; });
  return (Aggregates(def) && outer_narrows) || (def.distinct && projects) ||
         (def.limit && (outer_narrows || !outer.order_by.empty()));
}

SqlResult<Select> MergeView(const Select& outer, const View& v) {
  const Select& def = v.select();
  if (NeedsTemporaryTable(outer, v)) {
    return NotSupported(fmt::format(
        "this query on view {}: a view with an aggregate or LIMIT that the query filters, sorts or aggregates needs a "
        "temporary table",
        v.Quoted()));
  }
  Select m;
  m.from = def.from;
  if (m.from && m.from->database.empty()) m.from->database = v.name.database;
  m.from_alias = def.from_alias;
  for (const SelectItem& item : outer.items) {
    if (!item.expr) {  // *: the view's columns, under their names
      for (const SelectItem& column : def.items)
        m.items.push_back({CloneExpr(*column.expr), column.alias, column.alias});
      continue;
    }
    auto e = Substituted(*item.expr, def, "SELECT");
    if (!e.ok()) return e.error();
    std::string alias = item.alias;
    if (alias.empty() && item.expr->kind == Expr::Kind::kColumn)
      alias = def.items[*ViewColumn(def, item.expr->name)].alias;
    m.items.push_back({std::move(*e), alias, item.text});
  }
  auto where = SubstitutedOrNull(outer.where, def, "WHERE");
  if (!where.ok()) return where.error();
  m.where = Both(def.where ? CloneExpr(*def.where) : nullptr, std::move(*where));
  if (Aggregates(def)) {  // the view's groups (the query does not narrow them)
    m.distinct = def.distinct || outer.distinct;
    for (const OrderItem& g : def.group_by) {
      const Expr& key = *g.expr;
      const bool position = key.kind == Expr::Kind::kLiteral && key.value.is_int();
      m.group_by.push_back({position ? CloneExpr(*def.items[static_cast<std::size_t>(key.value.as_int() - 1)].expr)
                                     : WithViewAliases(key, def),
                            g.descending});
    }
    if (def.having) m.having = WithViewAliases(*def.having, def);
    m.rollup = def.rollup;
  } else {  // the query's groups, over the view's columns
    m.distinct = outer.distinct;
    auto group = SubstitutedOrder(outer.group_by, def, &outer.items);
    if (!group.ok()) return group.error();
    m.group_by = std::move(*group);
    m.rollup = outer.rollup;
    auto having = SubstitutedOrNull(outer.having, def, "HAVING");
    if (!having.ok()) return having.error();
    m.having = std::move(*having);
  }
  if (outer.order_by.empty()) {  // the view's own ORDER BY, on its table already (a position: its column's)
    for (const OrderItem& o : def.order_by) {
      const Expr& key = *o.expr;
      const bool position = key.kind == Expr::Kind::kLiteral && key.value.is_int();
      m.order_by.push_back(
          {CloneExpr(position ? *def.items[static_cast<std::size_t>(key.value.as_int() - 1)].expr : key),
           o.descending});
    }
  } else {
    auto order = SubstitutedOrder(outer.order_by, def, &outer.items);
    if (!order.ok()) return order.error();
    m.order_by = std::move(*order);
  }
  m.limit = outer.limit;
  m.offset = outer.offset;
  if (def.limit) {  // both limits: the outer one counts within the view's rows
    const std::uint64_t available = *def.limit > outer.offset ? *def.limit - outer.offset : 0;
    m.offset = def.offset + outer.offset;
    m.limit = outer.limit ? std::min(*outer.limit, available) : available;
  }
  m.lock = outer.lock;
  m.into = outer.into;
  return m;
}

SqlResult<Update> MergeView(const Update& outer, const View& v) {
  const Select& def = v.select();
  if (!Updatable(def, v.definition->algorithm)) return NotUpdatable(v, "UPDATE");
  Update m;
  m.ignore = outer.ignore;
  m.table = Underlying(v);
  for (const Assignment& a : outer.set) {
    auto column = WrittenColumn(v, a.column, "SET");
    if (!column.ok()) return column.error();
    auto value = Substituted(*a.value, def, "SET");
    if (!value.ok()) return value.error();
    m.set.push_back({*column, std::move(*value)});
  }
  auto where = SubstitutedOrNull(outer.where, def, "WHERE");
  if (!where.ok()) return where.error();
  m.where = Both(def.where ? CloneExpr(*def.where) : nullptr, std::move(*where));
  auto order = SubstitutedOrder(outer.order_by, def, nullptr);
  if (!order.ok()) return order.error();
  m.order_by = std::move(*order);
  m.limit = outer.limit;
  auto checks = ChecksThrough(outer.view_checks, v);
  if (!checks.ok()) return checks.error();
  m.view_checks = std::move(*checks);
  return m;
}

SqlResult<Delete> MergeView(const Delete& outer, const View& v) {
  const Select& def = v.select();
  if (!Updatable(def, v.definition->algorithm)) return NotUpdatable(v, "DELETE");
  Delete m;
  m.table = Underlying(v);
  auto where = SubstitutedOrNull(outer.where, def, "WHERE");
  if (!where.ok()) return where.error();
  m.where = Both(def.where ? CloneExpr(*def.where) : nullptr, std::move(*where));
  auto order = SubstitutedOrder(outer.order_by, def, nullptr);
  if (!order.ok()) return order.error();
  m.order_by = std::move(*order);
  m.limit = outer.limit;
  return m;
}

SqlResult<Insert> MergeView(const Insert& outer, const View& v) {
  const Select& def = v.select();
  const SqlError not_insertable{1471, "HY000",
                                fmt::format("The target table {} of the INSERT is not insertable-into", v.name.name)};
  if (!Updatable(def, v.definition->algorithm)) return not_insertable;
  Insert m;
  m.table = Underlying(v);
  m.ignore = outer.ignore;
  m.replace = outer.replace;
  m.select = outer.select;
  m.alias = outer.alias;
  m.alias_columns = outer.alias_columns;
  if (outer.columns.empty()) {
    for (const SelectItem& item : def.items) {
      if (item.expr->kind != Expr::Kind::kColumn) return not_insertable;
      m.columns.push_back(item.expr->name);
    }
  }
  for (std::size_t k = 0; k < outer.columns.size(); ++k) {
    auto column = WrittenColumn(v, outer.columns[k], "INSERT INTO");
    if (!column.ok()) return column.error().code == 1348 ? not_insertable : column.error();
    for (std::size_t j = 0; j < k; ++j) {  // two of the view's columns for one of the table's
      if (EqualsIgnoreCase(m.columns[j], *column) && !EqualsIgnoreCase(outer.columns[j], outer.columns[k]))
        return not_insertable;
    }
    m.columns.push_back(*column);
  }
  for (const auto& row : outer.rows) {
    std::vector<ExprPtr> copy;
    for (const ExprPtr& e : row) copy.push_back(CloneExpr(*e));
    m.rows.push_back(std::move(copy));
  }
  for (const Assignment& a : outer.on_duplicate) {
    auto column = WrittenColumn(v, a.column, "UPDATE");
    if (!column.ok()) return column.error();
    auto value = Substituted(*a.value, def, "UPDATE");
    if (!value.ok()) return value.error();
    m.on_duplicate.push_back({*column, std::move(*value)});
  }
  auto checks = ChecksThrough(outer.view_checks, v);
  if (!checks.ok()) return checks.error();
  m.view_checks = std::move(*checks);
  return m;
}

}  // namespace strata::sql
