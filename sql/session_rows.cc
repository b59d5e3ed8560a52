// Row statements that change rows: INSERT/REPLACE, UPDATE and DELETE (SELECT is
// session_select.cc; the choice of index a WHERE allows, access_path.cc).
#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "engine/elements.h"
#include "sql/access_path.h"
#include "sql/column_fit.h"
#include "sqltext/lexer.h"
#include "sql/row_builder.h"
#include "sql/values_reader.h"
#include "sql/session.h"
#include "sql/select_plan.h"
#include "sql/session_context.h"

namespace strata::sql {

std::optional<std::size_t> FindColumn(const TableSpec& spec, const std::string& name) {
  for (std::size_t i = 0; i < spec.columns.size(); ++i) {
    if (EqualsIgnoreCase(spec.columns[i].name, name)) return i;
  }
  return std::nullopt;
}

SqlValue FromColumn(const Value& v, const engine::Column& c) {
  if (c.has_elements() && v.is_uint()) {  // its label, with the number stored beside it
    SqlValue out{Value::String(engine::ElementsText(c, v.as_uint())), c.charset == Charset::kBinary
                                                                          ? LiteralKind::kBinary
                                                                      : c.binary_collation ? LiteralKind::kBinCollated
                                                                                           : LiteralKind::kPlain};
    out.collation = engine::TextRuleOf(c);
    out.stored_number = v.as_uint();
    return out;
  }
  if (c.type == ColumnType::kBit && v.is_uint()) {  // its bytes, with the number beside them
    SqlValue out{Value::String(BitBytes(c, v.as_uint())), LiteralKind::kBinary};
    out.stored_number = v.as_uint();
    return out;
  }
  LiteralKind kind = LiteralKind::kPlain;
  if (c.type == ColumnType::kDecimal) {
    kind = LiteralKind::kDecimal;
  } else if (c.length > 0 && v.is_double()) {
    // FLOAT(M,D) and DOUBLE(M,D) take part in expressions as the D-decimal numbers they print
    // (the server finds a FLOAT(7,3)'s 1.235 equal to 1.235, and doubles it to 2.470).
    return {Value::String(FixedDecimals(v.as_double(), c.scale)), LiteralKind::kDecimal};
  } else if (c.charset == Charset::kBinary || c.type == ColumnType::kBinary || c.type == ColumnType::kVarbinary ||
             (c.is_lob() && !c.is_string())) {
    kind = LiteralKind::kBinary;
  } else if (c.is_string() && c.binary_collation) {
    kind = LiteralKind::kBinCollated;
  }
  SqlValue out{v, kind};
  if (c.is_string()) out.collation = engine::TextRuleOf(c);
  out.year = c.type == ColumnType::kYear;
  out.time = c.type == ColumnType::kTime;
  if (c.type == ColumnType::kUuid || c.type == ColumnType::kInet4 || c.type == ColumnType::kInet6)
    out.compares_as = c.type;
  return out;
}

Status ReplaceRow(Table& t, const Row& old, const Row& row, Transaction* trx, InsertOptions options) {
  const auto pk = Positions(t.spec(), t.spec().primary_key);
  std::vector<Value> old_key;
  bool key_changed = false;
  for (std::size_t c : pk) {
    old_key.push_back(old[c]);
    key_changed |= !(row[c] == old[c]);
  }
  if (!key_changed) return t.Update(row, trx);
  if (Status st = t.Delete(old_key, trx); !st.ok()) return st;
  Status st = t.Insert(row, trx, options);
  if (!st.ok()) {  // the old row back as it was (a statement going on under IGNORE keeps it)
    if (Status back = t.Insert(old, trx, InsertOptions{false}); !back.ok()) return back;
  }
  return st;
}

SqlResult<SqlValue> RowContext::Column(const Expr& column) const {
  auto i = FindColumn(spec_, column.name);
  if (!i || !row_) return UnknownColumn(column.name, clause_);
  return FromColumn((*row_)[*i], spec_.columns[*i]);
}

const SqlValue* RowContext::Aggregate(const Expr& call) const {
  for (const auto& [e, v] : aggregates) {
    if (e == &call) return &v;
  }
  return nullptr;
}

StatementOutcome Error(SqlError e) {
  StatementOutcome o;
  o.error = std::move(e);
  return o;
}

SqlError UnknownColumn(const std::string& name, std::string_view where) {
  return {1054, "42S22", fmt::format("Unknown column '{}' in '{}'", name, where)};
}

SqlError Interrupted() { return {1317, "70100", "Query execution was interrupted"}; }

// ---- INSERT / REPLACE ----------------------------------------------------------------------

StatementOutcome Session::DoInsert(const Insert& ins, Transaction* trx) {
  auto table = FindTable(ins.table);
  if (!table.ok()) {
    return ThroughView(ins, table.error(), [&](const Insert& m) {
      StatementOutcome o = DoInsert(m, trx);
      if (o.error && o.error->code == 1364)  // a column the view does not show has no default
        o.error = SqlError{
            1423, "HY000",
            fmt::format("Field of view '{}' underlying table doesn't have a default value", m.view_checks.view)};
      return o;
    });
  }
  auto builder = RowBuilder::For((*table)->spec(), ins.columns);
  if (!builder.ok()) return Error(builder.error());
  if (auto refused = CheckRowAlias(ins, (*table)->spec())) return Error(*refused);
  if (ins.select) {
    ValuesSink selected;
    StatementOutcome read = DoSelect(*ins.select, selected, trx);
    if (read.error) return read;
    std::vector<Row> rows;
    std::vector<std::optional<SqlValue>> values;
    for (std::size_t r = 0; r < selected.rows.size(); ++r) {
      values.assign(std::make_move_iterator(selected.rows[r].begin()), std::make_move_iterator(selected.rows[r].end()));
      auto row = builder->Build(values, r + 1);
      if (!row.ok()) return Error(row.error());
      rows.push_back(std::move(*row));
    }
    StatementOutcome o = ApplyInsert(ins, **table, rows, trx);
    o.warnings.insert(o.warnings.begin(), read.warnings.begin(), read.warnings.end());
    return o;
  }
  std::vector<Row> rows;
  rows.reserve(ins.rows.size());
  std::vector<std::optional<SqlValue>> values;
  for (std::size_t r = 0; r < ins.rows.size(); ++r) {
    values.clear();
    for (const ExprPtr& e : ins.rows[r]) {
      if (e->kind == Expr::Kind::kDefault) {
        values.emplace_back();
        continue;
      }
      auto v = Eval(*e, *context_);
      if (!v.ok()) return Error(v.error());
      values.emplace_back(std::move(*v));
    }
    auto row = builder->Build(values, r + 1);
    if (!row.ok()) return Error(row.error());
    rows.push_back(std::move(*row));
  }
  return ApplyInsert(ins, **table, rows, trx);
}

// An INSERT of literals only (a dump's) read straight from its text: no expression trees.
std::optional<StatementOutcome> Session::FastInsert(std::string_view text) {
  auto head = ReadInsertHead(text);
  if (!head) return std::nullopt;
  auto table = FindTable(head->statement.table);
  if (!table.ok()) return std::nullopt;  // the full path says what is wrong
  auto builder = RowBuilder::For((*table)->spec(), head->statement.columns);
  if (!builder.ok()) return std::nullopt;
  auto rows = ReadRows(text, head->values_at, *builder);
  if (!rows) return std::nullopt;
  if (!rows->ok()) return Error(rows->error());
  return InTransaction([&](Transaction* t) { return ApplyInsert(head->statement, **table, **rows, t); });
}

// REPLACE's first step: every row `row` collides with (on the primary key or a unique key)
// deleted, counted in `deleted`, their children following their keys when `children`.
std::optional<StatementOutcome> Session::DeleteColliding(Table& t, const Row& row, bool children, Transaction* trx,
                                                         std::uint64_t& deleted) {
  auto victims = CollidingKeys(t, row, trx);
  if (!victims.ok()) return Error(victims.error());
  for (const auto& key : *victims) {
    std::optional<Row> victim;  // read when its children must follow their keys
    if (children) {
      auto got = t.Get(key, trx, RowLock::kExclusive);
      if (!got.ok()) return Error(FromStatus(got.status()));
      victim = std::move(*got);
    }
    Status ds = t.Delete(key, trx);
    if (!ds.ok()) return Error(FromStatus(ds));
    if (victim) {
      if (auto e = ChildrenFollow(t.spec(), *victim, nullptr, trx)) return ForeignKeyFailure(std::move(*e));
    }
  }
  deleted += victims->size();
  return std::nullopt;
}

StatementOutcome Session::ApplyInsert(const Insert& ins, Table& t, const std::vector<Row>& rows, Transaction* trx) {
  const TableSpec& spec = t.spec();
  if (auto refused = WriteAllowed(spec)) return Error(*refused);
  TableUse use(*this, spec);
  StatementOutcome o;
  std::uint64_t duplicates = 0;
  const InsertOptions options = insert_options();
  const bool has_auto_inc =
      std::any_of(spec.columns.begin(), spec.columns.end(), [](const engine::Column& c) { return c.auto_increment; });
  auto triggers = LoadTriggers(spec, TriggerEvent::kInsert);
  if (!triggers.ok()) return Error(triggers.error());
  const KeyDuties keys = ForeignKeyDuties(spec);
  const bool child_checks = keys.parents;
  if (!ins.ignore && !ins.replace && ins.on_duplicate.empty() && triggers->empty() && !child_checks &&
      ins.view_checks.conditions.empty()) {
    if (auto e = InsertFitted(t, rows, trx, options, strict(), o.warnings)) return Error(std::move(*e));
    o.rows = rows.size();
  } else {
    const bool fit = ins.ignore || !strict();  // (ON DUPLICATE KEY UPDATE: what it inserts is fitted too)
    for (std::size_t r = 0; r < rows.size(); ++r) {
      if (interrupted()) return Error(Interrupted());
      Row row = rows[r];
      if (auto e = FireTriggers(triggers->before, spec, &row, nullptr, o.warnings)) return Error(std::move(*e));
      if (fit) FitRow(spec, row, r + 1, o.warnings);
      if (auto e = ViewCheckFailure(ins.view_checks, spec, row)) {
        if (!ins.ignore || e->code != 1369) return Error(std::move(*e));
        o.warnings.push_back({SqlWarning::Level::kWarning, e->code, e->message});
        continue;
      }
      const std::uint64_t before_row = trx->Savepoint();
      Status st = t.Insert(row, trx, options);
      if (st.IsAlreadyExists() && !ins.on_duplicate.empty()) {  // before IGNORE, which is for its errors
        if (auto e = RefuseIfTriggered(spec.database, spec.name, "INSERT ... ON DUPLICATE KEY UPDATE"))
          return Error(std::move(*e));
        if (auto e = UpdateDuplicate(ins, t, row, r + 1, trx, o)) return Error(std::move(*e));
        continue;
      }
      if (st.IsAlreadyExists() && ins.ignore) {
        ++duplicates;
        o.warnings.push_back({SqlWarning::Level::kWarning, 1062, st.message()});
        continue;
      }
      if (st.reason() == Status::Reason::kAutoincOutOfRange && ins.ignore) {  // no value to give it: no row
        ++duplicates;  // MySQL counts it so ("Records: 3  Duplicates: 1")
        o.warnings.push_back({SqlWarning::Level::kWarning, 167, AtRow(FromStatus(st), r + 1).message});
        continue;
      }
      if (st.IsAlreadyExists() && ins.replace) {
        // REPLACE: delete every row the new one collides with (on the primary key or a
        // unique key), then insert it.
        if (spec.primary_key.empty()) return Error(NotSupported("REPLACE into a table without a primary key"));
        if (auto e = RefuseIfTriggered(spec.database, spec.name, "REPLACE of a row")) return Error(std::move(*e));
        if (auto failed = DeleteColliding(t, row, keys.children, trx, o.rows)) return std::move(*failed);
        st = t.Insert(row, trx, options);
      }
      if (!st.ok()) return Error(IsValueError(st) ? ValueError(spec, {row}, st, r + 1) : AtRow(FromStatus(st), r + 1));
      // The row as stored: with the AUTO_INCREMENT value it was given.
      for (std::size_t c = 0; c < spec.columns.size(); ++c) {
        const Value& v = row[c];
        const bool zero = (v.is_int() && v.as_int() == 0) || (v.is_uint() && v.as_uint() == 0);
        const bool generated = v.is_null() || (options.zero_generates_auto_increment && zero);
        if (spec.columns[c].auto_increment && generated) row[c] = Value::UInt(t.last_insert_id());
      }
      if (auto e = child_checks ? CheckParents(spec, row, nullptr, trx) : std::nullopt) {
        if (!ins.ignore) return Error(std::move(*e));
        if (Status back = trx->RollbackToSavepoint(before_row); !back.ok()) return Error(FromStatus(back));
        o.warnings.push_back({SqlWarning::Level::kWarning, e->code, e->message});
        continue;
      }
      ++o.rows;
      if (auto e = FireTriggers(triggers->after, spec, &row, nullptr, o.warnings)) return Error(std::move(*e));
    }
  }
  if (has_auto_inc) last_insert_id_ = t.last_insert_id();
  if (rows.size() > 1 || ins.ignore) {
    o.info = fmt::format("Records: {}  Duplicates: {}  Warnings: {}", rows.size(), duplicates, o.warnings.size());
  }
  return o;
}

// ---- UPDATE / DELETE -----------------------------------------------------------------------

namespace {

// The rows an UPDATE or DELETE changes, locked, in ORDER BY order, at most LIMIT of them.
SqlResult<std::vector<Row>> ChangingRows(Table& t, const Session& session, const Expr* where,
                                         const std::vector<OrderItem>& order, std::optional<std::uint64_t> limit,
                                         Transaction* trx) {
  const TableSpec& spec = t.spec();
  if (spec.primary_key.empty()) return NotSupported("UPDATE and DELETE on a table without a primary key");
  RowContext ctx(session, spec);
  PlanState state(ctx);
  CollectStep collect(state);
  LimitStep limited(state, 0, limit, &collect);
  std::vector<SortStep::Key> keys;
  for (const OrderItem& o : order) keys.push_back({o.expr.get(), o.descending});
  SortStep sort(state, std::move(keys), &limited);
  FilterStep filter(state, where, order.empty() ? static_cast<RowStep*>(&limited) : &sort);
  const AccessPath path = PlanAccess(spec, session.context(), where);
  Status st = Visit(t, path, trx, RowLock::kExclusive, [&](const Row& row) {
    if (session.interrupted()) return state.Fail(Interrupted());
    return filter.Push(&row);
  });
  if (!state.error && st.ok()) filter.Finish();
  if (state.error) return *state.error;
  if (!st.ok()) return FromStatus(st);
  std::vector<Row> rows = std::move(collect.rows);
  return rows;
}

}  // namespace

StatementOutcome Session::DoUpdate(const Update& u, Transaction* trx) {
  auto table = FindTable(u.table);
  if (!table.ok()) return ThroughView(u, table.error(), [&](const Update& m) { return DoUpdate(m, trx); });
  Table& t = **table;
  const TableSpec& spec = t.spec();
  std::vector<std::size_t> targets;
  for (const Assignment& a : u.set) {
    auto i = FindColumn(spec, a.column);
    if (!i) return Error(UnknownColumn(a.column, "field list"));
    targets.push_back(*i);
  }
  if (auto refused = WriteAllowed(spec)) return Error(*refused);
  TableUse use(*this, spec);
  auto rows = ChangingRows(t, *this, u.where.get(), u.order_by, u.limit, trx);
  if (!rows.ok()) return Error(rows.error());
  StatementOutcome o;
  std::uint64_t changed = 0;
  RowContext ctx(*this, spec);
  const bool fit = u.ignore || !strict();
  const KeyDuties keys = ForeignKeyDuties(spec);
  auto triggers = LoadTriggers(spec, TriggerEvent::kUpdate);
  if (!triggers.ok()) return Error(triggers.error());
  std::size_t row_number = 0;  // MySQL's "at row N" counts the rows matched
  for (const Row& old : *rows) {
    if (interrupted()) return Error(Interrupted());
    ++row_number;
    Row row = old;
    ctx.set_row(&row);  // later assignments see earlier ones, as in MySQL
    for (std::size_t k = 0; k < u.set.size(); ++k) {
      const engine::Column& c = spec.columns[targets[k]];
      if (u.set[k].value->kind == Expr::Kind::kDefault) {
        row[targets[k]] = c.default_value.value_or(Value::Null());
        continue;
      }
      storing_values_ = !u.ignore;  // a value stored, not a WHERE: x/0 here is an error in strict mode
      auto v = Eval(*u.set[k].value, ctx);
      storing_values_ = false;
      if (!v.ok()) return Error(v.error());
      row[targets[k]] = ToColumn(*v, c);
    }
    if (auto e = FireTriggers(triggers->before, spec, &row, &old, o.warnings)) return Error(std::move(*e));
    if (fit) FitRow(spec, row, row_number, o.warnings);
    if (auto e = ViewCheckFailure(u.view_checks, spec, row)) {
      if (!u.ignore || e->code != 1369) return Error(std::move(*e));
      o.warnings.push_back({SqlWarning::Level::kWarning, e->code, e->message});
      continue;
    }
    if (row == old) {
      if (auto e = FireTriggers(triggers->after, spec, &row, &old, o.warnings)) return Error(std::move(*e));
      continue;
    }
    const std::uint64_t before_row = trx->Savepoint();
    // As InnoDB: the rows referencing the old values first (a taken new key is found after).
    const std::optional<SqlError> refused = keys.children ? ChildrenFollow(spec, old, &row, trx) : std::nullopt;
    const Status st = refused ? Status::Ok() : ReplaceRow(t, old, row, trx);
    if (st.IsAlreadyExists() && u.ignore) {
      o.warnings.push_back({SqlWarning::Level::kWarning, 1062, st.message()});
      continue;
    }
    if (!st.ok()) return Error(IsValueError(st) ? ValueError(spec, {row}, st, row_number) : FromStatus(st));
    if (auto e = refused ? refused : keys.parents ? CheckParents(spec, row, &old, trx) : std::nullopt) {
      if (!u.ignore || e->code == 1296) return ForeignKeyFailure(std::move(*e));
      if (Status back = trx->RollbackToSavepoint(before_row); !back.ok()) return Error(FromStatus(back));
      o.warnings.push_back({SqlWarning::Level::kWarning, e->code, e->message});
      continue;
    }
    ++changed;
    if (auto e = FireTriggers(triggers->after, spec, &row, &old, o.warnings)) return Error(std::move(*e));
  }
  o.rows = changed;
  o.info = fmt::format("Rows matched: {}  Changed: {}  Warnings: {}", rows->size(), changed, o.warnings.size());
  return o;
}

StatementOutcome Session::DoDelete(const Delete& d, Transaction* trx) {
  auto table = FindTable(d.table);
  if (!table.ok()) return ThroughView(d, table.error(), [&](const Delete& m) { return DoDelete(m, trx); });
  Table& t = **table;
  if (auto refused = WriteAllowed(t.spec())) return Error(*refused);
  TableUse use(*this, t.spec());
  auto rows = ChangingRows(t, *this, d.where.get(), d.order_by, d.limit, trx);
  if (!rows.ok()) return Error(rows.error());
  const auto pk = Positions(t.spec(), t.spec().primary_key);
  const bool children = ForeignKeyDuties(t.spec()).children;
  auto triggers = LoadTriggers(t.spec(), TriggerEvent::kDelete);
  if (!triggers.ok()) return Error(triggers.error());
  StatementOutcome o;
  for (const Row& row : *rows) {
    if (interrupted()) return Error(Interrupted());
    if (auto e = FireTriggers(triggers->before, t.spec(), nullptr, &row, o.warnings)) return Error(std::move(*e));
    std::vector<Value> key;
    for (std::size_t c : pk) key.push_back(row[c]);
    Status st = t.Delete(key, trx);
    if (!st.ok()) return Error(FromStatus(st));
    if (auto e = children ? ChildrenFollow(t.spec(), row, nullptr, trx) : std::nullopt)
      return ForeignKeyFailure(std::move(*e));
    if (auto e = FireTriggers(triggers->after, t.spec(), nullptr, &row, o.warnings)) return Error(std::move(*e));
  }
  o.rows = rows->size();
  return o;
}

}  // namespace strata::sql
