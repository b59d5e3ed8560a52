// A client session on a Database: runs statements as the MySQL server would for one
// connection (current database, autocommit, the open transaction, session variables), and
// hands result rows to a sink as the mysql client would print them.
//
//   Session s(*db);
//   BoxedPrinter out(std::cout);          // any ResultSink
//   auto r = s.Execute("SELECT * FROM shop.orders WHERE id < 10", out);
//   if (r.error) ...                       // "ERROR 1146 (42S02): Table 'shop.x' doesn't exist"
#pragma once

#include "sql/engine_api.h"

#include <atomic>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/db.h"
#include "sql/ast.h"
#include "sql/eval.h"
#include "sql/parser.h"

namespace strata::sql {
struct AlterPlan;
struct Routine;
// The triggers of a table for one event, each list in the order they fire.
struct TableTriggers {
  std::vector<std::shared_ptr<const Routine>> before, after;
  bool empty() const { return before.empty() && after.empty(); }
};
struct RoutineFrame;
class RoutineRunner;
}  // namespace strata::sql

namespace strata::sql {

struct ColumnHeader {
  std::string name;
  bool numeric = false;  // the mysql client right-aligns numbers
};

// Where a statement's result rows go, as they are produced.
class ResultSink {
 public:
  virtual ~ResultSink() = default;
  virtual void Header(const std::vector<ColumnHeader>& columns) = 0;
  virtual void Row(const std::vector<std::optional<std::string>>& values) = 0;  // nullopt: NULL
  // A sink that takes the values themselves, not their text (INSERT ... SELECT), says so;
  // Values is then called instead of Row.
  virtual bool wants_values() const { return false; }
  virtual void Values(std::vector<SqlValue>&& values) { (void)values; }
};

// Keeps the first value of a statement's first row (NULL as "NULL") and drops the rest: a
// COUNT(*), a counter to check, or the rows of statements nobody reads.
class FirstValueSink : public ResultSink {
 public:
  void Header(const std::vector<ColumnHeader>&) override { value.reset(); }
  void Row(const std::vector<std::optional<std::string>>& values) override {
    if (!value && !values.empty()) value = values[0].value_or("NULL");
  }
  std::optional<std::string> value;
};

struct StatementOutcome {
  std::optional<SqlError> error;
  bool result_set = false;  // rows went to the sink (a SELECT or SHOW)
  std::uint64_t rows = 0;   // rows sent, or rows affected
  std::string info;         // "Records: 3  Duplicates: 0  Warnings: 0", "Rows matched: ..."
  std::vector<SqlWarning> warnings;
  bool skipped = false;       // a versioned-comment statement this server does not support
  bool error_listed = false;  // `warnings` has the error already (a failed CALL: before where it failed)
};

// The largest statement a session takes (MySQL 8.0's default max_allowed_packet): a longer
// one gets the server's error 1153, as the client sees it when the packet is refused.
inline constexpr std::size_t kMaxAllowedPacket = 64u << 20;
SqlError PacketTooLarge();

class Session {
 public:
  explicit Session(Database& db);
  ~Session();  // rolls back a transaction still open, as a disconnect does

  // Parses and runs one statement (the text without its delimiter).
  StatementOutcome Execute(std::string_view text, ResultSink& sink);
  // Runs what Parse made of a statement: its error, nothing for a comment, or the statement.
  StatementOutcome Run(const Parsed& parsed, ResultSink& sink);

  const std::string& database() const { return database_; }
  // What SET changed in a session (system and user variables), for another session to take
  // (an import's loaders run statements as the dump's session would).
  struct Settings {
    std::map<std::string, SqlValue> user_vars;
    std::map<std::string, std::string> session_vars;
  };
  Settings settings() const { return {user_vars_, session_vars_}; }
  void Adopt(const Settings& s) {
    user_vars_ = s.user_vars;
    session_vars_ = s.session_vars;
  }
  // How this session's INSERTs treat values (sql_mode NO_AUTO_VALUE_ON_ZERO).
  InsertOptions insert_options() const;
  // sql_mode has STRICT_TRANS_TABLES or STRICT_ALL_TABLES: a value its column cannot hold
  // fails the statement (otherwise it is mended, with a warning).
  bool strict() const;
  bool in_transaction() const { return trx_ != nullptr; }
  // What SHOW WARNINGS lists now: the notes, warnings and error of the last statement that had any.
  const std::vector<SqlWarning>& diagnostics() const { return diagnostics_; }
  // With async_commit on, commits return before they are durable; this waits until every
  // commit of this session is (the end of a script reports success only after it).
  Status WaitDurable();
  Database& db() { return db_; }
  // Asks the statement running to stop (KILL QUERY; Ctrl-C in the shell): it ends with
  // ERROR 1317 and is rolled back, the transaction stays open. Safe from a signal handler and
  // from another thread; a request made while no statement runs is forgotten.
  void Interrupt() { interrupted_.store(true, std::memory_order_relaxed); }
  bool interrupted() const { return interrupted_.load(std::memory_order_relaxed); }

  // What expressions of this session see (variables, DATABASE(), LAST_INSERT_ID()).
  const EvalContext& context() const;
  // The table has triggers (or whether it has could not be read): rows for it must go through
  // a statement, which fires them.
  bool HasTriggers(const TableSpec& spec);
  // foreign_key_checks is on and the table has foreign keys: rows inserted into it must go
  // through statements, which find their parents (session_foreign_keys.cc).
  bool ChecksForeignKeys(const TableSpec& spec) const;
  // Resolves a table name against the current database.
  SqlResult<Table*> FindTable(const TableName& name);

 private:
  friend class SessionContext;
  friend class RoutineRunner;
  StatementOutcome Dispatch(const Statement& statement, ResultSink& sink);
  void Remember(const StatementOutcome& o, const Statement* statement, bool comment = false);
  // The transaction a statement runs in: the open one, one begun because autocommit is off,
  // or (nullptr) none, and the statement commits on its own.
  SqlResult<Transaction*> StatementTransaction();
  StatementOutcome InTransaction(const std::function<StatementOutcome(Transaction*)>& body);
  StatementOutcome RollbackFailed(const StatementOutcome& failed, const Status& rollback);
  std::optional<SqlError> EndTransaction(bool commit);
  // Commits as async_commit asks: durable now, or queued (and remembered for WaitDurable).
  Status CommitNow(Transaction& t);
  // The hot-row group an autocommit single-row UPDATE joins (hint GROUP_COMMIT(TRUE) or the
  // table listed in hot_row_group_commit_tables): "db/table/key", or nullopt.
  std::optional<std::string> HotRowGroup(const Update& u);

  StatementOutcome DoUse(const Use& s);
  StatementOutcome DoCreateDatabase(const CreateDatabase& s);
  StatementOutcome DoDropDatabase(const DropDatabase& s);
  StatementOutcome DoCreateTable(const CreateTable& c);
  StatementOutcome DoCreateTableSelect(const CreateTable& c);  // session_create_select.cc
  StatementOutcome DoDropTable(const DropTable& s);
  StatementOutcome DoCreateIndex(const CreateIndex& s);
  // ALTER TABLE, RENAME TABLE, TRUNCATE and savepoints (session_alter.cc).
  StatementOutcome DoAlterTable(const AlterTable& a);
  StatementOutcome CopyAltered(Table& table, const AlterPlan& plan, const AlterTable& a);
  static bool InstantCandidate(const AlterTable& a, const AlterPlan& plan);
  std::optional<StatementOutcome> AlterInstantly(Table& table, const AlterPlan& plan, const AlterTable& a);
  std::optional<SqlError> CopyRows(Table& from, Table& to, const AlterPlan& plan, StatementOutcome& o);
  StatementOutcome DoRenameTable(const RenameTable& r);
  StatementOutcome DoTruncate(const Truncate& t);
  StatementOutcome DoSavepoint(const Savepoint& s);
  StatementOutcome DoChecksum(const ChecksumTable& c, ResultSink& sink, Transaction* trx);
  StatementOutcome DoLoadData(const LoadData& l, Transaction* trx);  // session_load.cc
  // Stored procedures and functions (session_routine.cc).
  StatementOutcome DoCreateRoutine(const CreateRoutine& c);
  StatementOutcome DoDropRoutine(const DropRoutine& d);
  StatementOutcome DoCall(const Call& c, ResultSink& sink);
  StatementOutcome ShowRoutines(const Show& s, ResultSink& sink);
  // The routine as stored (parsed once per text), its database filled in; 1305 when there is none.
  SqlResult<std::shared_ptr<const Routine>> LoadRoutine(const TableName& name, bool function);
  // Runs `r` with its parameters' values in `frame`: in its database and sql_mode, with its
  // result sets going to `sink`, its warnings into `o`.
  std::optional<SqlError> RunRoutine(const Routine& r, RoutineFrame& frame, ResultSink& sink, StatementOutcome& o);
  void NoteWhereRoutineFailed(const Routine& r, const SqlError& e);
  void ListFailureTrail(StatementOutcome& o);
  // A stored function called from an expression (SessionContext::StoredFunction).
  std::optional<SqlResult<SqlValue>> CallStoredFunction(const std::string& name, std::vector<SqlValue>& args);
  // A statement of a routine's body: as Run runs one, inside the statement that called it.
  StatementOutcome RunNested(const Statement& statement, ResultSink& sink);
  // SELECT ... INTO / FETCH ... INTO: a value into a user variable or a routine's.
  std::optional<SqlError> Store(const IntoTarget& t, const SqlValue& v, std::vector<SqlWarning>& warnings);
  // Triggers (session_trigger.cc).
  StatementOutcome DoCreateTrigger(const CreateRoutine& c);
  StatementOutcome DoDropTrigger(const DropTrigger& d);
  StatementOutcome ShowCreateTrigger(const Show& s, ResultSink& sink);
  // Views (session_view.cc).
  StatementOutcome DoCreateView(const CreateView& c);
  StatementOutcome DoDropView(const DropView& d);
  StatementOutcome ShowCreateView(const Show& s, ResultSink& sink);
  // The columns of the view `name` names as a table's (SHOW COLUMNS); `no_table` when there is none.
  SqlResult<TableSpec> ViewColumns(const TableName& name, const SqlError& no_table);
  // The view `name` names (null when none), parsed once per stored text.
  SqlResult<std::shared_ptr<const struct View>> FindView(const TableName& name);
  SqlResult<std::vector<std::string>> ViewsOf(const std::string& database);
  // RENAME TABLE of a view (in its database); false when `from` is no view.
  SqlResult<bool> RenameView(const TableName& from, const TableName& to);
  SqlResult<std::vector<std::string>> SourceColumns(const TableName& from);
  SqlResult<std::shared_ptr<const Select>> ViewSelect(const CreateView& c);
  std::optional<SqlError> ViewLoop(const CreateView& def);
  std::optional<SqlError> MissingFunction(const Select& s, const std::string& database);
  // What is wrong with the view now: its table gone, a column it reads gone; nullopt when fine.
  std::optional<SqlError> BrokenView(const struct View& v);
  // The view's columns as a table's (SHOW COLUMNS): those of the columns they read.
  SqlResult<TableSpec> ViewSpec(const struct View& v, int depth = 0);
  // `s` on the table under the view it names (views over views merged in turn); nullopt when
  // it names no view.
  template <typename S>
  SqlResult<std::optional<S>> Merged(const S& s);
  // `s` named no table (`no_table`): when it names a view, what `run` does with the statement
  // on the view's table (session_context.h).
  template <typename S, typename F>
  StatementOutcome ThroughView(const S& s, const SqlError& no_table, F run);
  // 1356 for `v`, whose table or column is gone (`why`), both listed after it as the server
  // lists them for a statement that reads the view (SHOW COLUMNS does not).
  SqlError InvalidView(const struct View& v, const SqlError& why, bool listed = true);
  // 1369 when `row` fails a WITH CHECK OPTION of the views it was written through.
  std::optional<SqlError> ViewCheckFailure(const ViewChecks& checks, const TableSpec& spec, const Row& row);
  // Every trigger on `database`.`table`, in creation order.
  SqlResult<std::vector<std::shared_ptr<const Routine>>> TriggersOf(const std::string& database,
                                                                    const std::string& table);
  SqlResult<TableTriggers> LoadTriggers(const TableSpec& spec, TriggerEvent event);
  // Runs `triggers` for one row: `new_row` (which a BEFORE trigger may change) and `old_row`.
  std::optional<SqlError> FireTriggers(const std::vector<std::shared_ptr<const Routine>>& triggers,
                                       const TableSpec& spec, Row* new_row, const Row* old_row,
                                       std::vector<SqlWarning>& warnings);
  std::optional<SqlError> SetNewField(const std::string& column, const SqlValue& value);  // SET NEW.c
  // 1235 for `what` (RENAME ...) of a table that has triggers, which would be left behind.
  std::optional<SqlError> RefuseIfTriggered(const std::string& database, const std::string& table, const char* what);
  Status DropTriggersOf(const std::string& database, const std::string& table);
  // Foreign keys (session_foreign_keys.cc). A key of `table` in `database`'s table: its position in foreign_keys.
  struct Referrer {
    std::string database, table;
    std::size_t key = 0;
  };
  bool ForeignKeyChecks() const;
  // What a statement changing rows of `spec` must do, decided once for its rows: find the
  // parents of its keys, follow the children of keys referencing it (nothing with
  // foreign_key_checks=0).
  struct KeyDuties {
    bool parents = false, children = false;
  };
  KeyDuties ForeignKeyDuties(const TableSpec& spec);
  // The parent `fk` of `child` names: `child` itself, another table's definition, or nullptr.
  const TableSpec* ParentSpec(const TableSpec& child, const engine::ForeignKeySpec& fk);
  // CREATE and ALTER TABLE: `keys` added to `spec`, each checked against its parent when
  // foreign_key_checks is on (1005 with the server's warnings into `warnings`).
  std::optional<SqlError> PlaceForeignKeys(TableSpec& spec, const std::vector<ForeignKeyDecl>& keys,
                                           std::vector<SqlWarning>& warnings);
  // Reads every table's keys again when a table's definition changed since the last read.
  void RefreshForeignKeyMap();
  // The keys referencing `database`.`table` (cached until a table's definition changes).
  SqlResult<std::vector<Referrer>> ReferrersOf(const std::string& database, const std::string& table);
  // 1005 (errno 121) when a key of `spec` named in `added` has a name its database gave another
  // table's key, or `spec` another of its own (errno 150 when `creating` names one twice).
  std::optional<SqlError> CheckConstraintNames(const TableSpec& spec, const std::vector<std::string>& added,
                                               bool creating, std::vector<SqlWarning>& warnings);
  // A row of `spec` deleted (`updated` null; after the engine took it, so that a row
  // referencing itself is gone) or about to be updated: its children follow their keys.
  std::optional<SqlError> ChildrenFollow(const TableSpec& spec, const Row& old, const Row* updated, Transaction* trx);
  // A row of `spec` inserted or updated (from `old`): the parents its keys name exist.
  std::optional<SqlError> CheckParents(const TableSpec& child, const Row& row, const Row* old, Transaction* trx);
  // The children of `old` (a row of `parent` deleted, or updated into `updated`), as their
  // keys say; `updated_tables` are the tables the cascade has updated so far.
  std::optional<SqlError> ActOnChildren(const TableSpec& parent, const Row& old, const Row* updated, Transaction* trx,
                                        std::vector<std::string>& updated_tables, int depth);
  // `rows` of `child` (found through `fk` at `depth`) deleted, or their key's columns set `to`
  // those values, and their own children following.
  std::optional<SqlError> Cascade(Table& child, const engine::ForeignKeySpec& fk, const std::vector<Row>& rows,
                                  const std::optional<std::vector<Value>>& to, Transaction* trx,
                                  std::vector<std::string>& updated_tables, int depth);
  // 1235 for `what` (RENAME ...) of a table with foreign keys or referenced by one (their
  // names would be left behind).
  std::optional<SqlError> RefuseIfReferenced(const std::string& database, const std::string& table, const char* what);
  // DROP TABLE of these ("db", "table"): 1451 when a table not among them references one.
  std::optional<SqlError> DropAllowed(const std::vector<std::pair<std::string, std::string>>& dropped);
  std::optional<SqlError> TruncateAllowed(const TableSpec& spec);  // 1701
  // ALTER keeps what other tables' keys need of the table (1553, 1833), and the keys it adds
  // have parents that can take them (1005).
  std::optional<SqlError> AlterKeepsReferences(const TableSpec& before, const AlterPlan& plan,
                                               std::vector<SqlWarning>& warnings);
  // Every row of the table an ALTER filled has the parents of the keys it added (1452).
  std::optional<SqlError> CheckAddedForeignKeys(Table& work, const AlterPlan& plan);
  // SELECT ... INTO: the one row's values into the variables named.
  StatementOutcome SelectInto(const Select& s, Transaction* trx);
  // A value for a routine's variable, converted as its declared type converts it.
  std::optional<SqlError> AssignLocal(std::uint32_t slot, const SqlValue& v, std::vector<SqlWarning>& warnings);
  // A name for the work table of this session's next copying statement (engine::kWorkTablePrefix).
  std::string WorkTableName(const char* what);
  // The tables of `database` that SHOW TABLES lists: not another statement's work table.
  std::vector<std::string> UserTables(const std::string& database) const;
  // An UPDATE: in the hot-row group when its hint asks for one, else in the session's transaction.
  StatementOutcome DoUpdateStatement(const Update& s);
  StatementOutcome DoInsert(const Insert& ins, Transaction* trx);
  std::optional<StatementOutcome> FastInsert(std::string_view text);
  StatementOutcome ApplyInsert(const Insert& ins, Table& t, const std::vector<Row>& rows, Transaction* trx);
  std::optional<StatementOutcome> DeleteColliding(Table& t, const Row& row, bool children, Transaction* trx,
                                                  std::uint64_t& deleted);
  // ON DUPLICATE KEY UPDATE of the row `wanted` collides with (session_upsert.cc).
  std::optional<SqlError> UpdateDuplicate(const Insert& ins, Table& t, const Row& wanted, std::size_t row_number,
                                          Transaction* trx, StatementOutcome& o);
  StatementOutcome DoUpdate(const Update& u, Transaction* trx);
  StatementOutcome DoDelete(const Delete& d, Transaction* trx);
  StatementOutcome DoSelect(const Select& s, ResultSink& sink, Transaction* trx);
  // The SELECT over `table` (spec: its definition), or over `copy`'s rows of `spec` (a view's
  // copied out), or over no table (all null).
  StatementOutcome SelectFrom(const Select& s, const TableSpec* spec, Table* table, const std::vector<Row>* copy,
                              ResultSink& sink, Transaction* trx);
  StatementOutcome SelectFromCopy(const Select& s, const struct View& v, ResultSink& sink, Transaction* trx);
  StatementOutcome DoSet(const Set& s);
  // One SET item of a system variable, its value as text (DoSet checked the name): the
  // session's own (autocommit, sql_mode, isolation), the engine's knobs, or a declared one.
  std::optional<SqlError> SetSystemVariable(const SetVariable& v, const SqlValue& value, StatementOutcome& o);
  // The engine's knobs; false when `name` is not one of them.
  SqlResult<bool> SetEngineVariable(const SetVariable& v, const std::string& text, StatementOutcome& o);
  std::optional<SqlError> SetDeclaredVariable(const SetVariable& v, const SqlValue& value, StatementOutcome& o);
  StatementOutcome DoShow(const Show& s, ResultSink& sink);
  std::optional<std::string> SystemVariable(const std::string& name) const;
  // SET x (this session's value) or SET GLOBAL x (the value sessions opened later start from).
  void SetSessionOrGlobal(const std::string& name, const std::string& value, bool global);
  bool DatabaseExists(const std::string& name) const;
  // The diagnostics SHOW WARNINGS lists (@@warning_count), or only the errors (@@error_count).
  std::size_t DiagnosticCount(bool errors_only) const;
  std::string ShowCreateTable(const engine::Table& table) const;

  Database& db_;
  std::unique_ptr<EvalContext> context_;
  // Expressions being evaluated are values to store (an INSERT's, an UPDATE's SET, not IGNORE),
  // and the warnings the statement's expressions raised so far (SessionContext adds them).
  bool storing_values_ = false;
  mutable std::vector<SqlWarning> eval_warnings_;
  std::string database_;
  std::unique_ptr<Transaction> trx_;
  // SAVEPOINTs of the open transaction, oldest first: name and the engine's mark.
  std::vector<std::pair<std::string, std::uint64_t>> savepoints_;
  std::uint64_t work_tables_ = 0;  // made by this session, for their names
  bool autocommit_ = true;
  Isolation isolation_ = Isolation::kRepeatableRead;
  std::map<std::string, SqlValue> user_vars_;
  std::map<std::string, std::string> session_vars_;  // values SET in this session
  std::vector<SqlWarning> diagnostics_;              // of the last statement that had any (max_error_count of them)
  std::size_t diagnostic_count_ = 0, diagnostic_errors_ = 0;  // of all it had
  std::uint64_t last_insert_id_ = 0;
  bool async_commit_ = false;
  // routine_async_commit (OceanBase's ob_enable_pl_async_commit): commits made inside a
  // routine do not wait for the log; the CALL waits once, at its end.
  bool routine_async_commit_ = false;
  RoutineFrame* frame_ = nullptr;  // of the routine running, innermost
  // The transaction of the statement running (InTransaction): the statements of the triggers
  // and functions it runs run in it.
  Transaction* statement_trx_ = nullptr;
  // The tables the statements running use ("db.table"), outermost first: a function or trigger
  // they run may not write one of them (1442), as the server forbids.
  std::vector<std::string> tables_in_use_;
  struct TableUse {
    TableUse(Session& s, const TableSpec& spec) : s_(s) { s.tables_in_use_.push_back(spec.database + "." + spec.name); }
    ~TableUse() { s_.tables_in_use_.pop_back(); }
    TableUse(const TableUse&) = delete;
    TableUse& operator=(const TableUse&) = delete;
    Session& s_;
  };
  std::optional<SqlError> WriteAllowed(const TableSpec& spec) const;
  std::uint32_t failed_line_ = 0;  // where the routine that failed failed (note 4094)
  // The error of the routine that failed and where (4094), which the statement that ran it
  // lists as its diagnostics.
  std::vector<SqlWarning> failure_trail_;
  std::vector<std::string> running_routines_;  // "db.name" of each routine active, for recursion
  // Routines and each table's triggers as parsed, while RoutineChanges() is `routines_seen_`.
  std::map<std::string, std::pair<std::string, std::shared_ptr<const Routine>>> routine_cache_;  // key: text, parsed
  std::map<std::string, std::vector<std::shared_ptr<const Routine>>> triggers_of_;               // "db\ntable"
  std::uint64_t routines_seen_ = ~std::uint64_t{0};
  std::map<std::string, std::shared_ptr<const struct View>> views_;  // "db\nview
  void RefreshRoutineCaches();
  std::map<std::string, std::vector<Referrer>> referrers_;  // "db\ntable" of a parent: its children's keys
  std::map<std::string, std::string> constraint_names_;     // "db\nkey name" (lower case): its table
  std::uint64_t referrers_seen_ = ~std::uint64_t{0};
  std::optional<std::shared_future<Status>> last_async_commit_;
  const std::vector<std::string>* hints_ = nullptr;  // of the statement running
  std::uint64_t id_ = 0;
  std::atomic<bool> interrupted_{false};
  static_assert(std::atomic<bool>::is_always_lock_free, "set from a signal handler");
};

// A foreign key's error as the statement fails with it (1296 after the server's warning 152).
StatementOutcome ForeignKeyFailure(SqlError e);

// A table was created, dropped, altered or renamed: what sessions know of foreign keys is old.
void SchemaChanged();

// The error a failed engine call becomes, with MySQL's number and SQLSTATE.
SqlError FromStatus(const Status& s);

}  // namespace strata::sql
