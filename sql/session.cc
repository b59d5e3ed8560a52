// The session: dispatch, transactions, DDL, SET and SHOW. Row statements are in
// session_rows.cc and session_select.cc.
#include "sql/session.h"
#include "sql/foreign_keys.h"
#include "sql/value_ops.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <charconv>
#include <map>
#include <mutex>

#include "sqltext/lexer.h"
#include "sql/ddl_check.h"
#include "sql/routine_store.h"
#include "sql/session_context.h"
#include "sql/view.h"
#include "ondisk/identifier.h"

namespace strata::sql {

namespace {

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// sql_mode's words in the server's order (the order it prints them in), and the combinations
// that stand for several.
constexpr std::string_view kSqlModes[] = {"REAL_AS_FLOAT",
                                          "PIPES_AS_CONCAT",
                                          "ANSI_QUOTES",
                                          "IGNORE_SPACE",
                                          "IGNORE_BAD_TABLE_OPTIONS",
                                          "ONLY_FULL_GROUP_BY",
                                          "NO_UNSIGNED_SUBTRACTION",
                                          "NO_DIR_IN_CREATE",
                                          "POSTGRESQL",
                                          "ORACLE",
                                          "MSSQL",
                                          "DB2",
                                          "MAXDB",
                                          "NO_KEY_OPTIONS",
                                          "NO_TABLE_OPTIONS",
                                          "NO_FIELD_OPTIONS",
                                          "MYSQL323",
                                          "MYSQL40",
                                          "ANSI",
                                          "NO_AUTO_VALUE_ON_ZERO",
                                          "NO_BACKSLASH_ESCAPES",
                                          "STRICT_TRANS_TABLES",
                                          "STRICT_ALL_TABLES",
                                          "NO_ZERO_IN_DATE",
                                          "NO_ZERO_DATE",
                                          "ALLOW_INVALID_DATES",
                                          "ERROR_FOR_DIVISION_BY_ZERO",
                                          "TRADITIONAL",
                                          "NO_AUTO_CREATE_USER",
                                          "HIGH_NOT_PRECEDENCE",
                                          "NO_ENGINE_SUBSTITUTION",
                                          "PAD_CHAR_TO_FULL_LENGTH",
                                          "EMPTY_STRING_IS_NULL",
                                          "SIMULTANEOUS_ASSIGNMENT",
                                          "TIME_ROUND_FRACTIONAL"};

// SET sql_mode's value as the server keeps it: each word checked, TRADITIONAL and ANSI
// expanded, in the server's order; nullopt and the word that is not a mode otherwise.
std::optional<std::string> SqlModeValue(const std::string& text, std::string* bad) {
  std::vector<bool> set(std::size(kSqlModes));
  auto add = [&](std::string_view word) {
    for (std::size_t i = 0; i < std::size(kSqlModes); ++i) {
      if (kSqlModes[i] == word) set[i] = true;
    }
  };
  std::string upper(text);
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  for (std::size_t at = 0; at < upper.size();) {
    std::size_t end = std::min(upper.find(',', at), upper.size());
    std::string_view word = std::string_view(upper).substr(at, end - at);
    while (!word.empty() && word.front() == ' ') word.remove_prefix(1);
    while (!word.empty() && word.back() == ' ') word.remove_suffix(1);
    at = end + 1;
    if (word.empty()) continue;
    if (std::find(std::begin(kSqlModes), std::end(kSqlModes), word) == std::end(kSqlModes)) {
      *bad = std::string(word);
      return std::nullopt;
    }
    add(word);
    if (word == "TRADITIONAL") {
      for (auto w : {"STRICT_TRANS_TABLES", "STRICT_ALL_TABLES", "NO_ZERO_IN_DATE", "NO_ZERO_DATE",
                     "ERROR_FOR_DIVISION_BY_ZERO", "NO_AUTO_CREATE_USER", "NO_ENGINE_SUBSTITUTION"})
        add(w);
    } else if (word == "ANSI") {
      for (auto w : {"REAL_AS_FLOAT", "PIPES_AS_CONCAT", "ANSI_QUOTES", "IGNORE_SPACE"}) add(w);
    }
  }
  std::string out;
  for (std::size_t i = 0; i < set.size(); ++i) {
    if (set[i]) out += (out.empty() ? "" : ",") + std::string(kSqlModes[i]);
  }
  return out;
}

// Whether sql_mode's comma-separated list holds `mode` (given in upper case).
bool SqlModeHas(const std::string& sql_mode, std::string_view mode) {
  std::string upper(sql_mode);
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  for (std::size_t at = 0; at <= upper.size();) {
    const std::size_t end = std::min(upper.find(',', at), upper.size());
    if (std::string_view(upper).substr(at, end - at) == mode) return true;
    at = end + 1;
  }
  return false;
}

const char* IsolationName(Isolation i) {
  switch (i) {
    case Isolation::kReadUncommitted:
      return "READ-UNCOMMITTED";
    case Isolation::kReadCommitted:
      return "READ-COMMITTED";
    case Isolation::kRepeatableRead:
      return "REPEATABLE-READ";
    case Isolation::kSerializable:
      return "SERIALIZABLE";
  }
  return "REPEATABLE-READ";
}

std::optional<Isolation> IsolationFromName(std::string name) {
  for (char& c : name) c = c == ' ' ? '-' : static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  for (Isolation i :
       {Isolation::kReadUncommitted, Isolation::kReadCommitted, Isolation::kRepeatableRead, Isolation::kSerializable}) {
    if (name == IsolationName(i)) return i;
  }
  return std::nullopt;
}

// System variables a session answers for, with the values a fresh MySQL 8.0 session shows.
// Those the engine acts on are read from its state instead (SystemVariable below).
struct KnownVariable {
  enum class Kind : std::uint8_t { kText, kBool, kUnsigned, kReadOnly };
  std::string_view name, value;
  Kind kind = Kind::kText;
};
using VarKind = KnownVariable::Kind;
static_assert(kMaxAllowedPacket == 67108864, "max_allowed_packet below says so");
// Those a dump, a connector or a user sets whose effect Strata has or need not have (a timeout,
// the binary log it does not write); one whose effect it lacks and a user would rely on
// (sql_safe_updates, sql_select_limit) is not here, so that setting it is an error, not a no-op.
constexpr KnownVariable kVariables[] = {
    {"async_commit", "0", VarKind::kBool},
    {"auto_increment_increment", "1", VarKind::kReadOnly},
    {"auto_increment_offset", "1", VarKind::kReadOnly},
    {"autocommit", "1", VarKind::kBool},
    {"character_set_client", "utf8mb4"},
    {"character_set_connection", "utf8mb4"},
    {"character_set_database", "utf8mb4"},
    {"character_set_results", "utf8mb4"},
    {"character_set_server", "utf8mb4"},
    {"collation_connection", "utf8mb4_general_ci"},
    {"collation_database", "utf8mb4_general_ci"},
    {"collation_server", "utf8mb4_general_ci"},
    {"default_storage_engine", "InnoDB"},
    {"enable_early_lock_release", "0", VarKind::kBool},
    {"foreign_key_checks", "1", VarKind::kBool},
    {"group_concat_max_len", "1048576", VarKind::kUnsigned},  // MariaDB's default (MySQL's is 1024)
    {"hot_row_group_commit_tables", ""},
    {"innodb_deadlock_detect", "ON", VarKind::kReadOnly},
    {"innodb_flush_log_at_trx_commit", "1", VarKind::kUnsigned},
    {"innodb_lock_wait_timeout", "50", VarKind::kUnsigned},
    {"innodb_page_size", "16384", VarKind::kReadOnly},
    {"interactive_timeout", "28800", VarKind::kUnsigned},
    {"lower_case_table_names", "0", VarKind::kReadOnly},
    {"max_allowed_packet", "67108864", VarKind::kReadOnly},  // kMaxAllowedPacket
    {"max_elr_dependent_trx_count", "1000", VarKind::kUnsigned},
    {"max_error_count", "64", VarKind::kUnsigned},
    {"net_buffer_length", "16384", VarKind::kUnsigned},
    {"net_read_timeout", "30", VarKind::kUnsigned},
    {"net_write_timeout", "60", VarKind::kUnsigned},
    {"ob_enable_pl_async_commit", "0", VarKind::kBool},  // OceanBase's name for routine_async_commit
    {"routine_async_commit", "0", VarKind::kBool},
    {"sql_log_bin", "1", VarKind::kBool},  // no binary log is written either way
    {"sql_mode", "STRICT_TRANS_TABLES,ERROR_FOR_DIVISION_BY_ZERO,NO_ENGINE_SUBSTITUTION"},
    {"sql_notes", "1", VarKind::kBool},
    {"sql_quote_show_create", "1", VarKind::kBool},
    {"system_time_zone", "UTC", VarKind::kReadOnly},
    {"time_zone", "SYSTEM"},
    {"transaction_isolation", "REPEATABLE-READ"},
    {"tx_isolation", "REPEATABLE-READ"},
    {"unique_checks", "1", VarKind::kBool},
    {"version", "8.0.40-strata", VarKind::kReadOnly},
    {"version_comment", "Strata (InnoDB layout)", VarKind::kReadOnly},
    {"wait_timeout", "28800", VarKind::kUnsigned},
};

const KnownVariable* FindVariable(std::string_view name) {
  for (const KnownVariable& k : kVariables) {
    if (k.name == name) return &k;
  }
  return nullptr;
}

StatementOutcome Affected(std::uint64_t rows) {
  StatementOutcome o;
  o.rows = rows;
  return o;
}

SqlWarning Note(unsigned code, std::string message) { return {SqlWarning::Level::kNote, code, std::move(message)}; }
// A clause accepted without its effect: a warning, so that SHOW WARNINGS says what was left out.
SqlWarning Ignored(const std::string& what) {
  return {SqlWarning::Level::kWarning, 1235, "Accepted without effect: " + what};
}

std::atomic<std::uint64_t> next_session_id{1};

}  // namespace

bool LikeMatches(const std::string& s, const std::optional<std::string>& pattern) {
  if (!pattern) return true;
  Expr like;
  like.kind = Expr::Kind::kLike;
  auto a = std::make_unique<Expr>();
  a->value = Value::String(s);
  auto b = std::make_unique<Expr>();
  b->value = Value::String(*pattern);
  like.args.push_back(std::move(a));
  like.args.push_back(std::move(b));
  auto r = Eval(like, EvalContext());
  return r.ok() && Truth(*r).value_or(false);
}

SqlError NoDatabase() { return {1046, "3D000", "No database selected"}; }
SqlError UnknownDatabase(const std::string& name) {
  return {1049, "42000", fmt::format("Unknown database '{}'", name)};
}

// MySQL's error for each engine error reason: a table, not a search of the message text.
struct MysqlErrorFor {
  Status::Reason reason;
  unsigned code;
  const char* sqlstate;
};
constexpr MysqlErrorFor kMysqlErrors[] = {
    {Status::Reason::kDuplicateKey, 1062, "23000"},      {Status::Reason::kDatabaseExists, 1007, "HY000"},
    {Status::Reason::kTableExists, 1050, "42S01"},       {Status::Reason::kUnknownDatabase, 1049, "42000"},
    {Status::Reason::kNoDatabaseToDrop, 1008, "HY000"},  {Status::Reason::kNoSuchTable, 1146, "42S02"},
    {Status::Reason::kUnknownTable, 1051, "42S02"},      {Status::Reason::kNullNotAllowed, 1048, "23000"},
    {Status::Reason::kOutOfRange, 1264, "22003"},        {Status::Reason::kDataTooLong, 1406, "22001"},
    {Status::Reason::kIncorrectValue, 1366, "HY000"},    {Status::Reason::kInvalidCharacterString, 1300, "HY000"},
    {Status::Reason::kRowTooLargeForLog, 1118, "42000"}, {Status::Reason::kTableUnavailable, 1877, "HY000"},
    {Status::Reason::kDataTruncated, 1265, "01000"},     {Status::Reason::kAutoincOutOfRange, 167, "22003"},
    {Status::Reason::kAutoincExhausted, 1467, "HY000"},  {Status::Reason::kInvalidDefault, 1067, "42000"},
    {Status::Reason::kNotGeometry, 1416, "22003"},       {Status::Reason::kInvalidJson, 3140, "22032"},
    {Status::Reason::kIncorrectDatetime, 1292, "22007"},
};

SqlError FromStatus(const Status& s) {
  // The engine names the row of a batch ("row 2 of the batch: Duplicate entry ..."); the
  // server's message does not.
  std::string m = s.message();
  if (const std::size_t batch = m.find(" of the batch: "); m.starts_with("row ") && batch != std::string::npos)
    m.erase(0, batch + std::string_view(" of the batch: ").size());
  for (const auto& e : kMysqlErrors) {
    if (e.reason == s.reason()) return {e.code, e.sqlstate, m};
  }
  // No reason given: by the code alone.
  if (s.IsDeadlock()) return {1213, "40001", "Deadlock found when trying to get lock; try restarting transaction"};
  if (s.IsLockWaitTimeout()) return {1205, "HY000", "Lock wait timeout exceeded; try restarting transaction"};
  if (s.IsAlreadyExists()) return {1050, "42S01", m};
  if (s.IsNotFound()) return {1146, "42S02", m};
  if (s.code() == Status::Code::kInvalidArgument) return {1105, "HY000", m};
  if (s.IsNotSupported()) return {1235, "42000", m};
  return {1105, "HY000", s.ToString()};
}

// ---- contexts ------------------------------------------------------------------------------

// sql_mode ERROR_FOR_DIVISION_BY_ZERO: NULL with warning 1365, and in strict mode an error for
// the INSERT or UPDATE (not IGNORE) that would store it; without the mode, NULL alone.
SqlResult<SqlValue> SessionContext::DivisionByZero() const {
  if (SqlModeHas(*s_.SystemVariable("sql_mode"), "ERROR_FOR_DIVISION_BY_ZERO")) {
    if (s_.strict() && s_.storing_values_) return SqlError{1365, "22012", "Division by 0"};
    s_.eval_warnings_.push_back({SqlWarning::Level::kWarning, 1365, "Division by 0"});
  }
  return SqlValue{};
}

SqlResult<SqlValue> SessionContext::UserVariable(const std::string& name) const {
  auto it = s_.user_vars_.find(Lower(name));
  if (it == s_.user_vars_.end()) return SqlValue{};
  return it->second;
}

SqlResult<SqlValue> SessionContext::SystemVariable(const std::string& name) const {
  auto v = s_.SystemVariable(name);
  if (!v) return SqlError{1193, "HY000", fmt::format("Unknown system variable '{}'", name)};
  // Numbers read back as numbers, as @@autocommit does.
  std::int64_t n = 0;
  auto [p, ec] = std::from_chars(v->data(), v->data() + v->size(), n);
  if (ec == std::errc() && p == v->data() + v->size()) return SqlValue{Value::Int(n)};
  return SqlValue{Value::String(*v)};
}

std::optional<SqlValue> SessionContext::SessionFunction(const std::string& name) const {
  if (name == "DATABASE" || name == "SCHEMA")
    return s_.database_.empty() ? SqlValue{} : SqlValue{Value::String(s_.database_)};
  if (name == "LAST_INSERT_ID") return SqlValue{Value::UInt(s_.last_insert_id_)};
  if (name == "CONNECTION_ID") return SqlValue{Value::UInt(s_.id_)};
  if (name == "VERSION") return SqlValue{Value::String(*s_.SystemVariable("version"))};
  return std::nullopt;
}

// ---- session -------------------------------------------------------------------------------

namespace {
// SET GLOBAL of a variable a session keeps its own copy of: what sessions opened later start
// from, as the server's global values are; the sessions open keep theirs.
std::mutex global_values_mu;
std::map<std::string, std::string> global_values;
}  // namespace

Session::Session(Database& db) : db_(db), context_(std::make_unique<SessionContext>(*this)), id_(next_session_id++) {
  std::lock_guard<std::mutex> l(global_values_mu);
  session_vars_.insert(global_values.begin(), global_values.end());
}

void Session::SetSessionOrGlobal(const std::string& name, const std::string& value, bool global) {
  if (!global) {
    session_vars_[name] = value;
    return;
  }
  std::lock_guard<std::mutex> l(global_values_mu);
  global_values[name] = value;
}

Session::~Session() {
  if (trx_) (void)trx_->Rollback();
}

const EvalContext& Session::context() const { return *context_; }

InsertOptions Session::insert_options() const {
  InsertOptions o;
  o.zero_generates_auto_increment = SystemVariable("sql_mode")->find("NO_AUTO_VALUE_ON_ZERO") == std::string::npos;
  return o;
}

bool Session::strict() const {
  const std::string mode = *SystemVariable("sql_mode");
  return SqlModeHas(mode, "STRICT_TRANS_TABLES") || SqlModeHas(mode, "STRICT_ALL_TABLES");
}

std::optional<std::string> Session::SystemVariable(const std::string& name) const {
  if (name == "autocommit") return autocommit_ ? "1" : "0";
  if (name == "transaction_isolation" || name == "tx_isolation") {
    return std::string(IsolationName(trx_ ? trx_->isolation() : isolation_));
  }
  if (name == "innodb_flush_log_at_trx_commit") return std::to_string(db_.flush_log_at_trx_commit());
  if (name == "async_commit") return async_commit_ ? "1" : "0";
  if (name == "routine_async_commit" || name == "ob_enable_pl_async_commit") return routine_async_commit_ ? "1" : "0";
  if (name == "enable_early_lock_release") return db_.early_lock_release() ? "1" : "0";
  if (name == "max_elr_dependent_trx_count") return std::to_string(db_.max_elr_dependent_trx_count());
  if (name == "hot_row_group_commit_tables") return db_.group_commit_tables();
  if (name == "innodb_redo_log_enabled") return db_.redo_logging() ? "ON" : "OFF";
  if (name == "warning_count") return std::to_string(DiagnosticCount(false));
  if (name == "error_count") return std::to_string(DiagnosticCount(true));
  auto it = session_vars_.find(name);
  if (it != session_vars_.end()) return it->second;
  if (const KnownVariable* k = FindVariable(name)) return std::string(k->value);
  return std::nullopt;
}

SqlResult<Table*> Session::FindTable(const TableName& name) {
  const std::string& dbname = name.database.empty() ? database_ : name.database;
  if (dbname.empty()) return NoDatabase();
  auto t = db_.GetTable(dbname, name.name);
  if (t.status().reason() == Status::Reason::kTableUnavailable) return FromStatus(t.status());
  if (!t.ok()) return SqlError{1146, "42S02", fmt::format("Table '{}.{}' doesn't exist", dbname, name.name)};
  return *t;
}

bool Session::DatabaseExists(const std::string& name) const {
  const auto dbs = db_.ListDatabases();
  return std::find(dbs.begin(), dbs.end(), name) != dbs.end();
}

std::size_t Session::DiagnosticCount(bool errors_only) const {
  return errors_only ? diagnostic_errors_ : diagnostic_count_;
}

SqlError PacketTooLarge() { return {1153, "08S01", "Got a packet bigger than 'max_allowed_packet' bytes"}; }

StatementOutcome Session::Execute(std::string_view text, ResultSink& sink) {
  interrupted_.store(false, std::memory_order_relaxed);
  if (text.size() > kMaxAllowedPacket) return Error(PacketTooLarge());
  failure_trail_.clear();
  if (auto fast = FastInsert(text)) {
    ListFailureTrail(*fast);
    Remember(*fast, nullptr);
    return *fast;
  }
  return Run(Parse(text), sink);
}

// "/*!50001 CREATE ... VIEW */": the dump asks servers from 5.0.1 on, which Strata claims to
// be. What it cannot run yet (1235, or 1064 from the parser) is skipped, but never without a
// word; so is a view over one skipped before it (1146: what it reads is not there).
static void SkipIfVersioned(const Parsed& p, StatementOutcome& o) {
  if (!o.error || !p.versioned) return;
  const unsigned code = o.error->code;
  const bool view = p.object.rfind("VIEW", 0) == 0;
  if (!(code == 1235 || (code == 1064 && p.error) || (code == 1146 && view))) return;
  o.warnings.push_back(
      {SqlWarning::Level::kWarning, code,
       fmt::format("Skipped {}: {}", p.object.empty() ? "a versioned statement" : p.object, o.error->message)});
  o.error.reset();
  o.error_listed = false;
  o.skipped = true;
}

StatementOutcome Session::Run(const Parsed& p, ResultSink& sink) {
  StatementOutcome o;
  if (p.error) {
    o = Error(*p.error);
  } else if (p.statement) {
    hints_ = &p.hints;
    const auto* insert = std::get_if<Insert>(&*p.statement);
    storing_values_ = insert && !insert->ignore;  // UPDATE says so around its SET values alone
    eval_warnings_.clear();
    o = Dispatch(*p.statement, sink);
    // Warnings raised while expressions were evaluated come first, as they came first.
    o.warnings.insert(o.warnings.begin(), eval_warnings_.begin(), eval_warnings_.end());
    eval_warnings_.clear();
    ListFailureTrail(o);
    hints_ = nullptr;
  }
  SkipIfVersioned(p, o);
  Remember(o, p.statement ? &*p.statement : nullptr, !p.statement && !p.error);
  return o;
}

// A routine the statement ran (a trigger, a function) failed: its error, then where, as the
// server lists them.
void Session::ListFailureTrail(StatementOutcome& o) {
  if (o.error && !failure_trail_.empty()) {
    o.warnings.insert(o.warnings.end(), failure_trail_.begin(), failure_trail_.end());
    o.error_listed = true;
  }
  failure_trail_.clear();
}

// What SHOW WARNINGS lists next: this statement's notes, warnings and error. Statements that
// read the list, and those that touch no table and say nothing, leave it as it was.
void Session::Remember(const StatementOutcome& o, const Statement* statement, bool comment) {
  const Show* show = statement ? std::get_if<Show>(statement) : nullptr;
  const Select* select = statement ? std::get_if<Select>(statement) : nullptr;
  const bool set = statement && std::holds_alternative<Set>(*statement);
  const bool reads_diagnostics = show && (show->what == Show::What::kWarnings || show->what == Show::What::kErrors);
  const bool quiet = !o.error && o.warnings.empty() && ((select && !select->from) || set || comment);
  if (reads_diagnostics || quiet) return;
  diagnostics_ = o.warnings;
  if (o.error && !o.error_listed) diagnostics_.push_back({SqlWarning::Level::kError, o.error->code, o.error->message});
  // Counted all, kept only the first max_error_count, as the server keeps them.
  diagnostic_count_ = diagnostics_.size();
  diagnostic_errors_ = std::count_if(diagnostics_.begin(), diagnostics_.end(),
                                     [](const SqlWarning& w) { return w.level == SqlWarning::Level::kError; });
  const std::size_t kept = std::stoull(*SystemVariable("max_error_count"));
  if (diagnostics_.size() > kept) diagnostics_.resize(kept);
}

SqlResult<Transaction*> Session::StatementTransaction() {
  if (statement_trx_) return statement_trx_;
  if (trx_ && !trx_->active()) trx_.reset();  // a deadlock victim was rolled back whole
  if (trx_) return trx_.get();
  if (autocommit_) return static_cast<Transaction*>(nullptr);
  auto t = db_.Begin({isolation_, false});
  if (!t.ok()) return FromStatus(t.status());
  trx_ = std::move(*t);
  return trx_.get();
}

// Runs a statement of several engine calls as one: in the open transaction, undone back to
// its start when it fails; without one, in a transaction of its own that commits at its end.
StatementOutcome Session::InTransaction(const std::function<StatementOutcome(Transaction*)>& body) {
  auto trx = StatementTransaction();
  if (!trx.ok()) return Error(trx.error());
  if (*trx) {
    const std::uint64_t savepoint = (*trx)->Savepoint();
    Transaction* outer = std::exchange(statement_trx_, *trx);
    StatementOutcome o = body(*trx);
    statement_trx_ = outer;
    if (o.error) {
      if (!(*trx)->active())
        trx_.reset();  // a deadlock took the whole transaction
      else if (Status r = (*trx)->RollbackToSavepoint(savepoint); !r.ok())
        return RollbackFailed(o, r);
    }
    return o;
  }
  auto own = db_.Begin({isolation_, false});
  if (!own.ok()) return Error(FromStatus(own.status()));
  Transaction* outer = std::exchange(statement_trx_, own->get());
  StatementOutcome o = body(own->get());
  statement_trx_ = outer;
  if (o.error) {
    if (Status r = (*own)->Rollback(); !r.ok()) return RollbackFailed(o, r);
    return o;
  }
  Status c = CommitNow(**own);
  if (!c.ok()) return Error(FromStatus(c));
  return o;
}

// The statement's own error is not the whole story when undoing it failed too: the rows it
// changed may still be there, and the user must hear that first.
StatementOutcome Session::RollbackFailed(const StatementOutcome& failed, const Status& rollback) {
  return Error(FromStatus(rollback.WithContext("undoing a statement that failed with ERROR " +
                                               std::to_string(failed.error->code) + ": " + failed.error->message)));
}

Status Session::CommitNow(Transaction& t) {
  if (!async_commit_ && !(frame_ && routine_async_commit_)) return t.Commit();
  last_async_commit_ = t.CommitAsync();
  // An error known at once (the commit itself failed) is reported at once.
  if (last_async_commit_->wait_for(std::chrono::seconds(0)) == std::future_status::ready)
    return last_async_commit_->get();
  return Status::Ok();
}

std::optional<std::string> Session::HotRowGroup(const Update& u) {
  if (!autocommit_ || trx_ || !u.where) return std::nullopt;
  bool hinted = false;
  for (const std::string& h : hints_ ? *hints_ : std::vector<std::string>{}) {
    std::string flat;
    for (char c : h) {
      if (!std::isspace(static_cast<unsigned char>(c)))
        flat += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    }
    hinted |= flat.find("GROUP_COMMIT(TRUE)") != std::string::npos;
  }
  auto table = FindTable(u.table);
  if (!table.ok()) return std::nullopt;
  const TableSpec& spec = (*table)->spec();
  if (!hinted && !db_.groups_commits_of(spec.database, spec.name)) return std::nullopt;
  // One row: WHERE pk = literal, on a one-column primary key.
  const Expr& w = *u.where;
  if (spec.primary_key.size() != 1 || w.kind != Expr::Kind::kBinary || w.op != "=") return std::nullopt;
  const Expr* column = w.args[0].get();
  const Expr* literal = w.args[1].get();
  if (column->kind != Expr::Kind::kColumn) std::swap(column, literal);
  if (column->kind != Expr::Kind::kColumn || literal->kind != Expr::Kind::kLiteral) return std::nullopt;
  if (Lower(column->name) != Lower(spec.primary_key[0])) return std::nullopt;
  auto key = Format(literal->value);
  if (!key) return std::nullopt;
  return spec.database + "/" + spec.name + "/" + *key;
}

Status Session::WaitDurable() {
  if (!last_async_commit_) return Status::Ok();
  Status s = last_async_commit_->get();  // the log is durable in order: the last covers the rest
  last_async_commit_.reset();
  return s;
}

std::optional<SqlError> Session::EndTransaction(bool commit) {
  savepoints_.clear();
  if (!trx_) return std::nullopt;
  std::unique_ptr<Transaction> t = std::move(trx_);
  if (!t->active()) return std::nullopt;
  Status s = commit ? CommitNow(*t) : t->Rollback();
  if (!s.ok()) return FromStatus(s);
  return std::nullopt;
}

// Statements that end the open transaction first, as MySQL's implicit commit does.
bool CommitsImplicitly(const Statement& s) {
  return std::visit(
      [](const auto& v) {
        using T = std::decay_t<decltype(v)>;
        return std::is_same_v<T, CreateDatabase> || std::is_same_v<T, DropDatabase> || std::is_same_v<T, CreateTable> ||
               std::is_same_v<T, DropTable> || std::is_same_v<T, CreateIndex> || std::is_same_v<T, AlterInstanceRedo> ||
               std::is_same_v<T, Begin> || std::is_same_v<T, AlterTable> || std::is_same_v<T, RenameTable> ||
               std::is_same_v<T, Truncate> || std::is_same_v<T, CreateRoutine> || std::is_same_v<T, DropRoutine> ||
               std::is_same_v<T, DropTrigger> || std::is_same_v<T, CreateView> || std::is_same_v<T, DropView>;
      },
      s);
}

StatementOutcome Session::Dispatch(const Statement& statement, ResultSink& sink) {
  const bool implicit_commit = CommitsImplicitly(statement);
  // Inside a statement (a trigger, a function it calls) nothing may end its transaction.
  if (statement_trx_ &&
      (implicit_commit || std::holds_alternative<Commit>(statement) || std::holds_alternative<Rollback>(statement))) {
    return Error({1422, "HY000", "Explicit or implicit commit is not allowed in stored function or trigger"});
  }
  if (implicit_commit) {
    if (auto e = EndTransaction(true)) return Error(*e);
  }
  StatementOutcome o = std::visit(
      [&](const auto& s) -> StatementOutcome {
        using T = std::decay_t<decltype(s)>;
        if constexpr (std::is_same_v<T, CreateDatabase>) {
          return DoCreateDatabase(s);
        } else if constexpr (std::is_same_v<T, DropDatabase>) {
          return DoDropDatabase(s);
        } else if constexpr (std::is_same_v<T, Use>) {
          return DoUse(s);
        } else if constexpr (std::is_same_v<T, CreateTable>) {
          return DoCreateTable(s);
        } else if constexpr (std::is_same_v<T, DropTable>) {
          return DoDropTable(s);
        } else if constexpr (std::is_same_v<T, CreateIndex>) {
          return DoCreateIndex(s);
        } else if constexpr (std::is_same_v<T, Insert>) {
          return InTransaction([&](Transaction* t) { return DoInsert(s, t); });
        } else if constexpr (std::is_same_v<T, Update>) {
          return DoUpdateStatement(s);
        } else if constexpr (std::is_same_v<T, Delete>) {
          return InTransaction([&](Transaction* t) { return DoDelete(s, t); });
        } else if constexpr (std::is_same_v<T, Select>) {
          if (!s.into.empty()) {
            if (!s.from) return SelectInto(s, nullptr);
            return InTransaction([&](Transaction* t) { return SelectInto(s, t); });
          }
          // Without a table it needs no transaction, unless a function it calls writes: that is
          // the statement's, undone with it.
          if (!s.from && !CallsStoredFunction(s)) return DoSelect(s, sink, nullptr);
          return InTransaction([&](Transaction* t) { return DoSelect(s, sink, t); });
        } else if constexpr (std::is_same_v<T, Begin>) {
          auto t = db_.Begin({isolation_, s.consistent_snapshot});
          if (!t.ok()) return Error(FromStatus(t.status()));
          trx_ = std::move(*t);
          return {};
        } else if constexpr (std::is_same_v<T, Commit>) {
          if (auto e = EndTransaction(true)) return Error(*e);
          return {};
        } else if constexpr (std::is_same_v<T, Rollback>) {
          if (auto e = EndTransaction(false)) return Error(*e);
          return {};
        } else if constexpr (std::is_same_v<T, Set>) {
          return DoSet(s);
        } else if constexpr (std::is_same_v<T, SetTransaction>) {
          // Without SESSION or GLOBAL it names the next transaction only; here, like SESSION.
          isolation_ = s.isolation;
          return {};
        } else if constexpr (std::is_same_v<T, AlterInstanceRedo>) {
          Status st = db_.SetRedoLogging(s.enable);
          if (!st.ok()) return Error(FromStatus(st));
          return {};
        } else if constexpr (std::is_same_v<T, NoOp>) {
          return {};
        } else if constexpr (std::is_same_v<T, Show>) {
          return DoShow(s, sink);
        } else if constexpr (std::is_same_v<T, AlterTable>) {
          return DoAlterTable(s);
        } else if constexpr (std::is_same_v<T, RenameTable>) {
          return DoRenameTable(s);
        } else if constexpr (std::is_same_v<T, Truncate>) {
          return DoTruncate(s);
        } else if constexpr (std::is_same_v<T, Savepoint>) {
          return DoSavepoint(s);
        } else if constexpr (std::is_same_v<T, LoadData>) {
          return InTransaction([&](Transaction* t) { return DoLoadData(s, t); });
        } else if constexpr (std::is_same_v<T, ChecksumTable>) {
          return InTransaction([&](Transaction* t) { return DoChecksum(s, sink, t); });
        } else if constexpr (std::is_same_v<T, CreateRoutine>) {
          return DoCreateRoutine(s);
        } else if constexpr (std::is_same_v<T, DropRoutine>) {
          return DoDropRoutine(s);
        } else if constexpr (std::is_same_v<T, Call>) {
          return DoCall(s, sink);
        } else if constexpr (std::is_same_v<T, DropTrigger>) {
          return DoDropTrigger(s);
        } else if constexpr (std::is_same_v<T, CreateView>) {
          return DoCreateView(s);
        } else if constexpr (std::is_same_v<T, DropView>) {
          return DoDropView(s);
        }
      },
      statement);
  if (implicit_commit) SchemaChanged();  // what sessions know of tables' foreign keys is old
  return o;
}

StatementOutcome Session::DoUse(const Use& s) {
  if (!DatabaseExists(s.name)) return Error(UnknownDatabase(s.name));
  database_ = s.name;
  StatementOutcome o;
  o.info = "Database changed";
  return o;
}

StatementOutcome Session::DoCreateDatabase(const CreateDatabase& s) {
  Status st = db_.CreateDatabase(s.name);
  if (st.IsAlreadyExists() && s.if_not_exists) {
    StatementOutcome o = Affected(0);
    o.warnings.push_back(Note(1007, fmt::format("Can't create database '{}'; database exists", s.name)));
    return o;
  }
  if (!st.ok()) return Error(FromStatus(st));
  StatementOutcome o = Affected(1);
  for (const std::string& w : s.ignored) o.warnings.push_back(Ignored(w));
  return o;
}

StatementOutcome Session::DoDropDatabase(const DropDatabase& s) {
  const auto tables = db_.ListTables(s.name);
  Status st = db_.DropDatabase(s.name);
  if (st.IsNotFound() && s.if_exists) {
    StatementOutcome o = Affected(0);
    o.warnings.push_back(Note(1008, fmt::format("Can't drop database '{}'; database doesn't exist", s.name)));
    return o;
  }
  if (!st.ok()) return Error(FromStatus(st));
  if (database_ == s.name) database_.clear();
  if (Status routines = DeleteRoutinesOf(db_, s.name); !routines.ok()) return Error(FromStatus(routines));
  return Affected(tables.size());
}

StatementOutcome Session::DoDropTable(const DropTable& s) {
  StatementOutcome o;
  std::vector<std::string> missing;
  std::vector<std::pair<std::string, std::string>> dropped;
  for (const TableName& n : s.tables) dropped.emplace_back(n.database.empty() ? database_ : n.database, n.name);
  if (auto refused = DropAllowed(dropped)) return Error(*refused);
  for (const TableName& n : s.tables) {
    const std::string& dbname = n.database.empty() ? database_ : n.database;
    if (dbname.empty()) return Error(NoDatabase());
    Status st = db_.DropTable(dbname, n.name);
    if (st.ok()) st = DropTriggersOf(dbname, n.name);  // a table's triggers go with it
    if (st.IsNotFound()) {
      auto view = FindView({dbname, n.name});
      if (!view.ok()) return Error(view.error());
      if (*view) return Error({1965, "42S02", fmt::format("'{}.{}' is a view", dbname, n.name)});
      missing.push_back(dbname + "." + n.name);
      if (s.if_exists) o.warnings.push_back(Note(1051, fmt::format("Unknown table '{}.{}'", dbname, n.name)));
    } else if (!st.ok()) {
      return Error(FromStatus(st));
    }
  }
  if (!missing.empty() && !s.if_exists) {
    std::string list;
    for (const auto& m : missing) list += (list.empty() ? "" : ",") + m;
    return Error({1051, "42S02", fmt::format("Unknown table '{}'", list)});
  }
  return o;
}

StatementOutcome Session::DoCreateIndex(const CreateIndex& s) {
  const std::string& dbname = s.table.database.empty() ? database_ : s.table.database;
  if (dbname.empty()) return Error(NoDatabase());
  std::vector<SqlWarning> notes;
  IndexSpec index = s.index;
  if (auto table = db_.GetTable(dbname, s.table.name); table.ok()) {
    TableSpec with = (*table)->spec();
    if (auto refused = CheckNewIndex(with, index)) return Error(*refused);
    UseDeclaredNames(with, index.columns);
    with.indexes.push_back(index);
    notes = DuplicateIndexNotes(with, with.indexes.size() - 1);
  }
  Status st = db_.CreateIndex(dbname, s.table.name, index);
  if (!st.ok()) return Error(FromStatus(st));
  StatementOutcome o;
  o.info = fmt::format("Records: 0  Duplicates: 0  Warnings: {}", notes.size());
  o.warnings = std::move(notes);
  return o;
}

StatementOutcome Session::DoUpdateStatement(const Update& s) {
  if (auto group = HotRowGroup(s)) {
    StatementOutcome o;
    Status st = db_.RunGrouped(*group, [&](Transaction& t) {
      o = DoUpdate(s, &t);
      return o.error ? Status::InvalidArgument(o.error->message) : Status::Ok();  // undone alone
    });
    if (!st.ok() && !o.error) return Error(FromStatus(st));  // the group's commit failed
    return o;
  }
  return InTransaction([&](Transaction* t) { return DoUpdate(s, t); });
}

StatementOutcome Session::DoCreateTable(const CreateTable& c) {
  if (c.select) return DoCreateTableSelect(c);
  TableSpec spec = c.spec;
  if (c.like) {  // the other's definition, without its rows or its AUTO_INCREMENT counter
    auto other = FindTable(*c.like);
    if (!other.ok()) {
      if (auto view = FindView(*c.like); view.ok() && *view)
        return Error(
            {1347, "HY000",
             fmt::format("'{}' is not of type 'BASE TABLE'", (*view)->name.database + "." + (*view)->name.name)});
      return Error(other.error());
    }
    spec = (*other)->spec();
    spec.database = c.table.database;
    spec.name = c.table.name;
    spec.auto_increment = 0;
    spec.foreign_keys.clear();  // as the server: the indexes come, the constraints do not
  }
  if (spec.database.empty()) spec.database = database_;
  if (spec.database.empty()) return Error(NoDatabase());
  if (auto refused = CheckUserTableName(spec.name)) return Error(*refused);
  for (std::size_t k = 0; k < c.default_now.size(); ++k) {
    if (c.default_now[k]) spec.columns[k].default_value = Value::String("CURRENT_TIMESTAMP");
  }
  if (auto refused = CheckTableDefinition(spec)) return Error(*refused);
  auto view = FindView({spec.database, spec.name});
  if (!view.ok()) return Error(view.error());
  if (db_.GetTable(spec.database, spec.name).ok() || *view) {
    if (c.if_not_exists) {
      StatementOutcome o;
      o.warnings.push_back(Note(1050, fmt::format("Table '{}' already exists", spec.name)));
      return o;
    }
    return Error({1050, "42S01", fmt::format("Table '{}' already exists", spec.name)});
  }
  StatementOutcome o;
  if (auto e = PlaceForeignKeys(spec, c.foreign_keys, o.warnings)) {
    o.error = std::move(*e);
    o.error_listed = !o.warnings.empty();
    return o;
  }
  auto t = db_.CreateTable(spec);
  if (!t.ok()) {
    const Status& st = t.status();
    if (st.code() == Status::Code::kInvalidArgument && st.reason() == Status::Reason::kNone)
      return Error({1064, "42000", st.message()});
    return Error(FromStatus(st));
  }
  for (const std::string& w : c.ignored) o.warnings.push_back(Ignored(w));
  for (SqlWarning& note : DuplicateIndexNotes(spec)) o.warnings.push_back(std::move(note));
  // MySQL's utf8mb4_0900_ai_ci is compared by MariaDB's UCA 14.0.0 weights: said, never silent.
  std::vector<std::uint16_t> said;
  for (const engine::Column& col : spec.columns) {
    const auto collation = engine::CollationById(col.collation_id);
    if (!col.has_collation() || !collation || std::count(said.begin(), said.end(), collation->id)) continue;
    said.push_back(collation->id);
    if (const std::string note = engine::UnicodeWarning(*collation); !note.empty())
      o.warnings.push_back({SqlWarning::Level::kNote, 1235, note});
  }
  return o;
}

namespace {

// A BIT value as SHOW CREATE TABLE and DESCRIBE write its default: b'101'.
std::string BitLiteral(std::uint64_t n) { return "b'" + ops::BinaryDigits(n) + "'"; }

// ON/OFF, 1/0, TRUE/FALSE, as the server reads a boolean variable.
std::optional<bool> OnOff(const std::string& text) {
  const std::string t = Lower(text);
  if (t == "1" || t == "on" || t == "true") return true;
  if (t == "0" || t == "off" || t == "false") return false;
  return std::nullopt;
}

SqlError CannotBeSet(const std::string& name, const std::string& text) {
  return {1231, "42000", fmt::format("Variable '{}' can't be set to the value of '{}'", name, text)};
}

}  // namespace

StatementOutcome Session::DoSet(const Set& set) {
  StatementOutcome o;
  // Every name is checked before anything is set: a misspelt variable changes nothing.
  for (const SetVariable& v : set.items) {
    if (v.scope == SetVariable::Scope::kUser || v.scope == SetVariable::Scope::kLocal ||
        v.scope == SetVariable::Scope::kNewRow)
      continue;
    const KnownVariable* known = FindVariable(v.name);
    const bool counter = v.name == "warning_count" || v.name == "error_count";
    if (!known && !counter) return Error({1193, "HY000", fmt::format("Unknown system variable '{}'", v.name)});
    if (counter || known->kind == VarKind::kReadOnly)
      return Error({1238, "HY000", fmt::format("Variable '{}' is a read only variable", v.name)});
  }
  for (const SetVariable& v : set.items) {
    auto value = Eval(*v.value, *context_);
    if (!value.ok()) return Error(value.error());
    if (v.scope == SetVariable::Scope::kUser) {
      user_vars_[Lower(v.name)] = *value;
    } else if (v.scope == SetVariable::Scope::kLocal) {
      if (auto e = AssignLocal(v.slot, *value, o.warnings)) return Error(*e);
    } else if (v.scope == SetVariable::Scope::kNewRow) {
      if (auto e = SetNewField(v.name, *value)) return Error(*e);
    } else if (auto e = SetSystemVariable(v, *value, o)) {
      return Error(*e);
    }
  }
  return o;
}

std::optional<SqlError> Session::SetSystemVariable(const SetVariable& v, const SqlValue& value, StatementOutcome& o) {
  const std::string text = value.value.is_null() ? "" : *Format(value.value);
  const std::string& name = v.name;
  if (name == "autocommit") {
    auto b = OnOff(text);
    if (!b) return CannotBeSet(name, text);
    if (*b && !autocommit_) {
      if (auto e = EndTransaction(true)) return e;
    }
    autocommit_ = *b;
  } else if (name == "sql_mode") {
    // Checked and expanded (a misspelt mode was kept as given, and TRADITIONAL or DEFAULT
    // turned strict mode off without a word).
    std::string bad;
    auto mode = Lower(text) == "default" ? std::optional<std::string>(std::string(FindVariable(name)->value))
                                         : SqlModeValue(text, &bad);
    if (!mode) return CannotBeSet(name, bad);
    SetSessionOrGlobal(name, *mode, v.scope == SetVariable::Scope::kGlobal);
  } else if (name == "transaction_isolation" || name == "tx_isolation") {
    auto iso = IsolationFromName(text);
    if (!iso) return CannotBeSet(name, text);
    isolation_ = *iso;
  } else if (name == "async_commit") {
    auto b = OnOff(text);
    if (!b) return CannotBeSet(name, text);
    async_commit_ = *b;
  } else if (name == "routine_async_commit" || name == "ob_enable_pl_async_commit") {
    auto b = OnOff(text);
    if (!b) return CannotBeSet(name, text);
    routine_async_commit_ = *b;
  } else {
    auto engine = SetEngineVariable(v, text, o);
    if (!engine.ok()) return engine.error();
    if (!*engine) return SetDeclaredVariable(v, value, o);
  }
  return std::nullopt;
}

SqlResult<bool> Session::SetEngineVariable(const SetVariable& v, const std::string& text, StatementOutcome& o) {
  const std::string& name = v.name;
  if (name == "innodb_flush_log_at_trx_commit") {
    if (v.scope != SetVariable::Scope::kGlobal) {
      return SqlError{
          1229, "HY000",
          "Variable 'innodb_flush_log_at_trx_commit' is a GLOBAL variable and should be set with SET GLOBAL"};
    }
    // Past the largest mode, the largest, with MySQL's warning (as it does for any number
    // out of a variable's range).
    int mode = std::atoi(text.c_str());
    if (mode > 2 && std::all_of(text.begin(), text.end(), [](char c) { return std::isdigit(c); })) {
      o.warnings.push_back({SqlWarning::Level::kWarning, 1292,
                            fmt::format("Truncated incorrect innodb_flush_log_at_trx_commit value: '{}'", text)});
      mode = 2;
    }
    Status st = db_.set_flush_log_at_trx_commit(mode);
    if (!st.ok() || text.empty() || !std::isdigit(static_cast<unsigned char>(text[0]))) return CannotBeSet(name, text);
  } else if (name == "enable_early_lock_release") {
    auto b = OnOff(text);
    if (!b) return CannotBeSet(name, text);
    db_.set_early_lock_release(*b);
  } else if (name == "max_elr_dependent_trx_count") {
    std::uint64_t count = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), count);
    if (text.empty() || ec != std::errc() || end != text.data() + text.size()) return CannotBeSet(name, text);
    db_.set_max_elr_dependent_trx_count(count);
  } else if (name == "hot_row_group_commit_tables") {
    db_.set_group_commit_tables(text);
  } else if (name == "innodb_lock_wait_timeout") {
    const long secs = std::atol(text.c_str());
    if (secs < 1) return CannotBeSet(name, text);
    db_.set_lock_wait_timeout(std::chrono::seconds(secs));
    session_vars_[name] = std::to_string(secs);
  } else {
    return false;
  }
  return true;
}

// A variable kept as its value (boolean, number or text), session or global; DEFAULT forgets it.
std::optional<SqlError> Session::SetDeclaredVariable(const SetVariable& v, const SqlValue& value, StatementOutcome& o) {
  const std::string text = value.value.is_null() ? "" : *Format(value.value);
  const std::string& name = v.name;
  const KnownVariable* known = FindVariable(name);            // checked by DoSet
  if (Lower(text) == "default" && value.value.is_string()) {  // SET x = DEFAULT: its default again
    if (v.scope == SetVariable::Scope::kGlobal) {
      std::lock_guard<std::mutex> l(global_values_mu);
      global_values.erase(name);
    } else {
      session_vars_.erase(name);
    }
    return std::nullopt;
  }
  std::uint64_t number = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), number);
  const bool is_unsigned = !text.empty() && ec == std::errc() && end == text.data() + text.size();
  const std::optional<bool> b = OnOff(text);
  if ((known->kind == VarKind::kBool && !b) || (known->kind == VarKind::kUnsigned && !is_unsigned))
    return CannotBeSet(name, value.value.is_null() ? "NULL" : text);
  std::string kept = known->kind == VarKind::kBool ? (*b ? "1" : "0") : text;
  if (name == "group_concat_max_len" && number < 4) {  // the server's least, with its warning
    o.warnings.push_back(
        {SqlWarning::Level::kWarning, 1292, fmt::format("Truncated incorrect group_concat_max_len value: '{}'", text)});
    kept = "4";
  }
  if (name == "max_error_count" && number > 65535) {  // the server's largest, with its warning
    o.warnings.push_back(
        {SqlWarning::Level::kWarning, 1292, fmt::format("Truncated incorrect max_error_count value: '{}'", text)});
    kept = "65535";
  }
  SetSessionOrGlobal(name, kept, v.scope == SetVariable::Scope::kGlobal);
  return std::nullopt;
}

std::string Session::ShowCreateTable(const engine::Table& table) const {
  const TableSpec& spec = table.spec();
  auto list = [&](const std::vector<std::string>& cols) {
    std::string out;
    for (const auto& c : cols) out += (out.empty() ? "" : ",") + ondisk::QuoteIdentifier(c);
    return out;
  };
  std::string out = "CREATE TABLE " + ondisk::QuoteIdentifier(spec.name) + " (\n";
  std::vector<std::string> lines;
  for (const engine::Column& c : spec.columns) {
    std::string l = "  " + ondisk::QuoteIdentifier(c.name) + " " + c.SqlType();
    if (c.has_elements() && c.charset == Charset::kBinary) {  // an ENUM's or SET's labels as bytes
      l += " CHARACTER SET binary";
    } else if (c.has_collation() && (c.charset == Charset::kLatin1 || c.binary_collation)) {
      const std::string charset = c.charset == Charset::kLatin1 ? "latin1" : "utf8mb4";
      l += " CHARACTER SET " + charset;
      if (c.binary_collation) l += " COLLATE " + charset + "_bin";
    } else if (auto collation = engine::CollationById(c.collation_id);
               c.has_collation() && collation && collation->id != engine::DefaultCollation(false).id) {
      l += std::string(" COLLATE ") + collation->name;
    }
    if (!c.nullable) l += " NOT NULL";
    if (c.auto_increment) l += " AUTO_INCREMENT";
    if (c.default_value) {
      const Value& d = *c.default_value;
      if (d.is_null())
        l += " DEFAULT NULL";
      else if (d.is_string() && d.as_string() == "CURRENT_TIMESTAMP" && !c.is_string())
        l += " DEFAULT CURRENT_TIMESTAMP";
      else if (c.type == ColumnType::kBit && d.is_uint())
        l += " DEFAULT " + BitLiteral(d.as_uint());
      else
        AppendQuotedString(l += " DEFAULT ", *Format(d, &c));
    } else if (c.nullable && !c.is_lob()) {
      l += " DEFAULT NULL";
    }
    lines.push_back(std::move(l));
  }
  if (!spec.primary_key.empty()) lines.push_back("  PRIMARY KEY (" + list(spec.primary_key) + ")");
  for (const IndexSpec& ix : spec.indexes) {
    lines.push_back(std::string("  ") + (ix.unique ? "UNIQUE KEY " : "KEY ") + ondisk::QuoteIdentifier(ix.name) + " (" +
                    list(ix.columns) + ")");
  }
  for (const engine::ForeignKeySpec& fk : spec.foreign_keys) lines.push_back("  " + ForeignKeyText(fk, spec.database));
  for (std::size_t k = 0; k < lines.size(); ++k) out += lines[k] + (k + 1 < lines.size() ? ",\n" : "\n");
  out += ") ENGINE=InnoDB";
  if (const std::uint64_t next = table.next_auto_increment(); next > 1)
    out += " AUTO_INCREMENT=" + std::to_string(next);
  out += " DEFAULT CHARSET=utf8mb4";
  return out;
}

namespace {

// SHOW's result: its header, then rows, each counted.
class ShowRows {
 public:
  ShowRows(ResultSink& sink, StatementOutcome& o) : sink_(sink), o_(o) {}
  void Header(const std::vector<ColumnHeader>& columns) { sink_.Header(columns); }
  void Row(const std::vector<std::optional<std::string>>& row) {
    sink_.Row(row);
    ++o_.rows;
  }

 private:
  ResultSink& sink_;
  StatementOutcome& o_;
};

// Names in order, those LIKE matches.
void ShowNames(std::vector<std::string> names, const std::string& header, const std::optional<std::string>& like,
               ShowRows& out) {
  out.Header({{header}});
  std::sort(names.begin(), names.end());
  for (const auto& n : names) {
    if (LikeMatches(n, like)) out.Row({n});
  }
}

// SHOW [FULL] TABLES: tables and views by name, with their Table_type when FULL.
void ShowTableNames(const std::vector<std::string>& tables, const std::vector<std::string>& views,
                    const std::string& header, const Show& s, ShowRows& out) {
  std::vector<std::pair<std::string, const char*>> names;
  for (const std::string& t : tables) names.emplace_back(t, "BASE TABLE");
  for (const std::string& v : views) names.emplace_back(v, "VIEW");
  std::sort(names.begin(), names.end());
  const std::string heading = s.like ? fmt::format("{} ({})", header, *s.like) : header;
  if (s.full)
    out.Header({{heading}, {"Table_type"}});
  else
    out.Header({{heading}});
  for (const auto& [name, type] : names) {
    if (!LikeMatches(name, s.like)) continue;
    if (s.full)
      out.Row({name, type});
    else
      out.Row({name});
  }
}

void ShowColumns(const TableSpec& spec, const std::optional<std::string>& like, ShowRows& out) {
  out.Header({{"Field"}, {"Type"}, {"Null"}, {"Key"}, {"Default"}, {"Extra"}});
  for (const engine::Column& c : spec.columns) {
    if (!LikeMatches(c.name, like)) continue;
    std::string key;
    if (std::find(spec.primary_key.begin(), spec.primary_key.end(), c.name) != spec.primary_key.end()) key = "PRI";
    for (const IndexSpec& ix : spec.indexes) {
      if (key.empty() && ix.columns.front() == c.name) key = ix.unique ? "UNI" : "MUL";
    }
    std::optional<std::string> def;
    if (c.default_value && c.type == ColumnType::kBit && c.default_value->is_uint())
      def = BitLiteral(c.default_value->as_uint());
    else if (c.default_value)
      def = Format(*c.default_value, &c);
    out.Row({c.name, c.SqlType(), c.nullable ? "YES" : "NO", key, def, c.auto_increment ? "auto_increment" : ""});
  }
}

// An exact row count (InnoDB estimates it); sizes are the pages the indexes' segments reserve,
// as InnoDB counts them.
std::optional<SqlError> ShowTableStatus(engine::Database& db, const std::string& dbname,
                                        const std::vector<std::string>& views, const std::optional<std::string>& like,
                                        ShowRows& out) {
  out.Header({{"Name"},
              {"Engine"},
              {"Version", true},
              {"Row_format"},
              {"Rows", true},
              {"Avg_row_length", true},
              {"Data_length", true},
              {"Max_data_length", true},
              {"Index_length", true},
              {"Data_free", true},
              {"Auto_increment", true},
              {"Create_time"},
              {"Update_time"},
              {"Check_time"},
              {"Collation"},
              {"Checksum", true},
              {"Create_options"},
              {"Comment"}});
  auto tables = db.ListTables(dbname);
  tables.insert(tables.end(), views.begin(), views.end());
  std::sort(tables.begin(), tables.end());
  for (const auto& name : tables) {
    if (!LikeMatches(name, like)) continue;
    if (std::binary_search(views.begin(), views.end(), name)) {  // a view: its comment says so, the rest is NULL
      std::vector<std::optional<std::string>> row(18);
      row[0] = name;
      row[17] = "VIEW";
      out.Row(row);
      continue;
    }
    auto t = db.GetTable(dbname, name);
    if (!t.ok()) continue;
    std::uint64_t rows = 0;
    Status st = (*t)->Scan({}, [&](const engine::Row&) {
      ++rows;
      return true;
    });
    if (!st.ok()) return FromStatus(st);
    auto size = (*t)->size();
    if (!size.ok()) return FromStatus(size.status());
    std::optional<std::string> auto_inc;
    if (const std::uint64_t next = (*t)->next_auto_increment(); next > 0) auto_inc = std::to_string(next);
    out.Row({name, "InnoDB", "10", "Dynamic", std::to_string(rows), std::to_string(rows ? size->data_bytes / rows : 0),
             std::to_string(size->data_bytes), "0", std::to_string(size->index_bytes), std::to_string(size->free_bytes),
             auto_inc, std::nullopt, std::nullopt, std::nullopt, "utf8mb4_general_ci", std::nullopt, "", ""});
  }
  return std::nullopt;
}

void ShowEngineStatus(engine::Database& db, ShowRows& out) {
  out.Header({{"Type"}, {"Name"}, {"Status"}});
  out.Row({"InnoDB", "",
           "\n=====================================\nINNODB MONITOR OUTPUT (Strata)\n"
           "=====================================\n------------\nTRANSACTIONS\n------------\n" +
               db.StatusReport().Render() +
               "----------------------------\nEND OF INNODB MONITOR OUTPUT\n"
               "============================\n"});
}

void ShowStatus(engine::Database& db, const std::optional<std::string>& like, ShowRows& out) {
  out.Header({{"Variable_name"}, {"Value"}});
  const RedoStats redo = db.redo_stats();
  const BufferPoolStats pool = db.buffer_pool_stats();
  const std::vector<std::pair<std::string, std::string>> status = {
      {"Innodb_buffer_pool_pages_data", std::to_string(pool.used)},
      {"Innodb_buffer_pool_pages_dirty", std::to_string(pool.dirty)},
      {"Innodb_buffer_pool_pages_total", std::to_string(pool.frames)},
      {"Innodb_buffer_pool_reads", std::to_string(pool.reads)},
      {"Innodb_history_list_length", std::to_string(db.history_list_length())},
      {"Innodb_os_log_fsyncs", std::to_string(redo.fsyncs)},
      {"Innodb_os_log_written", std::to_string(redo.bytes)},
      {"Innodb_pages_written", std::to_string(pool.writes)},
      {"Innodb_redo_log_enabled", db.redo_logging() ? "ON" : "OFF"},
  };
  for (const auto& [name, value] : status) {
    if (LikeMatches(name, like)) out.Row({name, value});
  }
}

}  // namespace

// SHOW [COUNT(*)] WARNINGS | ERRORS of the session's `diagnostics` (`count` of them).
static void ShowDiagnostics(const Show& s, const std::vector<SqlWarning>& diagnostics, std::size_t count,
                            ShowRows& out) {
  const bool errors = s.what == Show::What::kErrors;
  if (s.count) {
    out.Header({{errors ? "@@session.error_count" : "@@session.warning_count", true}});
    out.Row({std::to_string(count)});
    return;
  }
  out.Header({{"Level"}, {"Code", true}, {"Message"}});
  for (const SqlWarning& w : diagnostics) {
    if (!errors || w.level == SqlWarning::Level::kError)
      out.Row({LevelName(w.level), std::to_string(w.code), w.message});
  }
}

StatementOutcome Session::DoShow(const Show& s, ResultSink& sink) {
  StatementOutcome o;
  o.result_set = true;
  ShowRows out(sink, o);
  // SHOW TABLES and TABLE STATUS: the database named, else the current one, which must exist.
  auto database = [&]() -> SqlResult<std::string> {
    const std::string dbname = s.database.empty() ? database_ : s.database;
    if (dbname.empty()) return NoDatabase();
    if (!DatabaseExists(dbname)) return UnknownDatabase(dbname);
    return dbname;
  };
  switch (s.what) {
    case Show::What::kDatabases:
      ShowNames(db_.ListDatabases(), "Database", s.like, out);
      return o;
    case Show::What::kTables:
    case Show::What::kTableStatus: {
      auto dbname = database();
      auto views = dbname.ok() ? ViewsOf(*dbname) : dbname.error();
      if (!views.ok()) return Error(views.error());
      if (s.what == Show::What::kTables)
        ShowTableNames(UserTables(*dbname), *views, "Tables_in_" + *dbname, s, out);
      else if (auto e = ShowTableStatus(db_, *dbname, *views, s.like, out))
        return Error(*e);
      return o;
    }
    case Show::What::kCreateView:
      return ShowCreateView(s, sink);
    case Show::What::kCreateTable:
    case Show::What::kColumns: {
      auto t = FindTable(s.table);
      const bool view = !t.ok() && t.error().code == 1146;  // or a view of that name
      if (view && s.what == Show::What::kCreateTable) return ShowCreateView(s, sink);
      auto spec = t.ok() ? SqlResult<TableSpec>((*t)->spec()) : view ? ViewColumns(s.table, t.error()) : t.error();
      if (!spec.ok()) return Error(spec.error());
      if (s.what == Show::What::kColumns) {
        ShowColumns(*spec, s.like, out);
      } else {
        out.Header({{"Table"}, {"Create Table"}});
        out.Row({(*t)->spec().name, ShowCreateTable(**t)});
      }
      return o;
    }
    case Show::What::kEngineStatus:
      ShowEngineStatus(db_, out);
      return o;
    case Show::What::kStatus:
      ShowStatus(db_, s.like, out);
      return o;
    case Show::What::kCreateProcedure:
    case Show::What::kCreateFunction:
    case Show::What::kProcedureStatus:
    case Show::What::kFunctionStatus:
      return ShowRoutines(s, sink);
    case Show::What::kCreateTrigger:
      return ShowCreateTrigger(s, sink);
    case Show::What::kWarnings:
    case Show::What::kErrors:
      ShowDiagnostics(s, diagnostics_, DiagnosticCount(s.what == Show::What::kErrors), out);
      return o;
    case Show::What::kVariables:
      out.Header({{"Variable_name"}, {"Value"}});
      for (const KnownVariable& k : kVariables) {
        const std::string name(k.name);
        if (LikeMatches(name, s.like)) out.Row({name, *SystemVariable(name)});
      }
      return o;
  }
  return o;
}

}  // namespace strata::sql
