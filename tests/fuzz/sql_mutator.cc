#include "tests/fuzz/sql_mutator.h"

#include <array>
#include <cctype>
#include <string_view>
#include <vector>

namespace strata::fuzz {

namespace {

struct Span {
  std::size_t begin = 0;
  std::size_t end = 0;  // one past
  std::size_t size() const { return end - begin; }
};

// Where the text's pieces are, read outside quotes and comments: bracketed groups (with their
// brackets), operands (numbers, names, quoted strings) and statement ends.
struct Shape {
  std::vector<Span> groups;
  std::vector<Span> operands;
  std::vector<Span> literals;     // the operands that are numbers or strings
  std::vector<std::size_t> ends;  // positions just after a ';'
};

bool IsWordChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.' ||
         c == '@' || c == '$';
}

// Words that are grammar, not operands: wrapping or swapping them only makes syntax errors.
bool IsKeyword(std::string_view w) {
  static constexpr std::array<std::string_view, 99> kKeywords{
      "SELECT",    "FROM",        "WHERE",     "SET",     "VALUES",  "VALUE",    "INTO",      "UPDATE",
      "DELETE",    "INSERT",      "REPLACE",   "IGNORE",  "ORDER",   "BY",       "GROUP",     "HAVING",
      "LIMIT",     "AND",         "OR",        "XOR",     "NOT",     "IS",       "BEGIN",     "COMMIT",
      "ROLLBACK",  "TABLE",       "CREATE",    "DROP",    "INDEX",   "ON",       "KEY",       "PRIMARY",
      "UNIQUE",    "IN",          "BETWEEN",   "LIKE",    "CASE",    "WHEN",     "THEN",      "ELSE",
      "END",       "FOR",         "AS",        "ASC",     "DESC",    "DEFAULT",  "USE",       "DATABASE",
      "START",     "TRANSACTION", "WITH",      "SESSION", "GLOBAL",  "LEVEL",    "ISOLATION", "SHOW",
      "DISTINCT",  "LOCK",        "SHARE",     "IF",      "ALTER",   "ADD",      "COLUMN",    "MODIFY",
      "CHANGE",    "RENAME",      "TO",        "AFTER",   "FIRST",   "TRUNCATE", "DUPLICATE", "SAVEPOINT",
      "PROCEDURE", "FUNCTION",    "CALL",      "DECLARE", "HANDLER", "CURSOR",   "WHILE",     "REPEAT",
      "LOOP",      "LEAVE",       "ITERATE",   "RETURN",  "RETURNS", "SIGNAL",   "FETCH",     "OPEN",
      "CLOSE",     "DELIMITER",   "ELSEIF",    "UNTIL",   "DO",      "CONTINUE", "FOREIGN",   "REFERENCES",
      "CASCADE",   "RESTRICT",    "CONSTRAINT"};
  if (w.size() > 11) return false;
  char upper[12] = {};
  for (std::size_t k = 0; k < w.size(); ++k)
    upper[k] = static_cast<char>(std::toupper(static_cast<unsigned char>(w[k])));
  const std::string_view u(upper, w.size());
  for (std::string_view k : kKeywords) {
    if (k == u) return true;
  }
  return false;
}

Shape Read(std::string_view t) {
  Shape s;
  // Each open bracket, and where its call begins when a function name precedes it (the
  // whole call is then one operand).
  struct Open {
    std::size_t at;
    std::size_t call;
  };
  std::vector<Open> open;
  Span last_word;  // the last word read, if a bracket follows it directly
  std::size_t i = 0;
  while (i < t.size()) {
    const char c = t[i];
    if (c == '\'' || c == '"' || c == '`') {
      const std::size_t from = i++;
      while (i < t.size() && t[i] != c) i += (t[i] == '\\' && c != '`') ? 2 : 1;
      if (i >= t.size()) break;  // unterminated: nothing after it is code
      ++i;
      const Span q{from, i};
      s.operands.push_back(q);
      if (c != '`') s.literals.push_back(q);
    } else if (c == '#' || (c == '-' && i + 1 < t.size() && t[i + 1] == '-')) {
      while (i < t.size() && t[i] != '\n') ++i;
    } else if (c == '/' && i + 1 < t.size() && t[i + 1] == '*') {
      const std::size_t close = t.find("*/", i + 2);
      if (close == std::string_view::npos) break;
      i = close + 2;
    } else if (c == '(') {
      const bool call =
          last_word.end == i && last_word.size() > 0 && !IsKeyword(t.substr(last_word.begin, last_word.size()));
      open.push_back({i, call ? last_word.begin : i});
      ++i;
    } else if (c == ')') {
      if (!open.empty()) {
        s.groups.push_back({open.back().at, i + 1});
        if (open.back().call != open.back().at) s.operands.push_back({open.back().call, i + 1});
        open.pop_back();
      }
      ++i;
    } else if (c == ';') {
      s.ends.push_back(++i);
    } else if (IsWordChar(c)) {
      const std::size_t from = i;
      while (i < t.size() && IsWordChar(t[i])) ++i;
      const Span w{from, i};
      last_word = w;
      const bool next_is_bracket = i < t.size() && t[i] == '(';
      if (!next_is_bracket && !IsKeyword(t.substr(from, i - from))) s.operands.push_back(w);
      if (c >= '0' && c <= '9') s.literals.push_back(w);
    } else {
      ++i;
    }
  }
  return s;
}

// Ways to put an expression one level deeper: what goes before it, and after.
constexpr std::array<std::pair<std::string_view, std::string_view>, 12> kWrappers{{
    {"(", ")"},
    {"-", ""},
    {"- (", ")"},
    {"NOT ", ""},
    {"NOT (", ")"},
    {"ABS(", ")"},
    {"COALESCE(NULL, ", ")"},
    {"IF(1, ", ", 0)"},
    {"IFNULL(", ", 2)"},
    {"(1 + ", ")"},
    {"CONCAT(", ", '')"},
    {"~", ""},
}};

constexpr std::array<std::string_view, 16> kOperators{" + ",   " - ", " * ",  " / ", " % ",  " DIV ", " AND ",  " OR ",
                                                      " XOR ", " = ", " <> ", " < ", " >= ", " IS ",  " LIKE ", " || "};

constexpr std::array<std::string_view, 22> kLiterals{"0",
                                                     "-1",
                                                     "1",
                                                     "NULL",
                                                     "2147483647",
                                                     "2147483648",
                                                     "-2147483649",
                                                     "9223372036854775807",
                                                     "9223372036854775808",
                                                     "18446744073709551615",
                                                     "-9223372036854775808",
                                                     "1e308",
                                                     "-0.0",
                                                     "0.000000000000000000000000000001",
                                                     "99999999999999999999999999999999999999.99",
                                                     "''",
                                                     "'x'",
                                                     "'\\0\\n\\t\\\\'",
                                                     "'2024-02-30 25:61:61'",
                                                     "X'00FF'",
                                                     "0xFFFFFFFFFFFFFFFFFF",
                                                     "REPEAT('z', 9000)"};

// Statements over the harness's tables (sql_exec.cc): t (id, a, b, c) and u (k, v, w), with
// their unique and secondary indexes, off-page values, transactions and the settings that
// change how commits and locks work.
constexpr std::array<std::string_view, 40> kStatements{
    "INSERT INTO t (a, b, c) VALUES (1, 'p', 'q'), (2, 'r', NULL)",
    "INSERT INTO t (a, b) VALUES (NULL, NULL)",
    "INSERT INTO t VALUES (100, 5, 'dup', REPEAT('w', 20000))",
    "INSERT INTO t (id, a) VALUES (-5, -5)",
    "INSERT IGNORE INTO t (id, b) VALUES (1, 'b1')",
    "REPLACE INTO t (id, a, b) VALUES (2, 7, 'b2')",
    "INSERT INTO u VALUES (UUID(), 1, 'x'), (UUID(), 2, NULL)",
    "INSERT INTO u (k, v) VALUES ('k1', 9), ('k1', 10)",
    "UPDATE t SET a = a + 1",
    "UPDATE t SET b = CONCAT(b, id) WHERE id < 10",
    "UPDATE t SET c = REPEAT('y', 12000) WHERE id % 2 = 0",
    "UPDATE t SET id = id + 1000 WHERE a > 3",
    "UPDATE t SET b = 'b1'",
    "UPDATE u SET w = REPEAT(k, 300) ORDER BY k LIMIT 3",
    "DELETE FROM t WHERE a IS NULL",
    "DELETE FROM t ORDER BY id DESC LIMIT 2",
    "DELETE FROM u",
    "SELECT * FROM t WHERE a BETWEEN 1 AND 5 ORDER BY b",
    "SELECT COUNT(*), SUM(a), MIN(b), MAX(c) FROM t",
    "SELECT a, COUNT(*) FROM t GROUP BY a HAVING COUNT(*) > 1",
    "SELECT * FROM t WHERE b = 'b1' FOR UPDATE",
    "SELECT * FROM u WHERE k > 'k' LOCK IN SHARE MODE",
    "SELECT * FROM t WHERE id IN (1, 2, 3) OR a IN (SELECT 1)",
    "BEGIN",
    "START TRANSACTION WITH CONSISTENT SNAPSHOT",
    "COMMIT",
    "ROLLBACK",
    "SET autocommit = 0",
    "SET autocommit = 1",
    "SET SESSION TRANSACTION ISOLATION LEVEL READ UNCOMMITTED",
    "SET SESSION TRANSACTION ISOLATION LEVEL SERIALIZABLE",
    "SET async_commit = ON",
    "SET GLOBAL enable_early_lock_release = ON",
    "SET GLOBAL innodb_flush_log_at_trx_commit = 2",
    "SET GLOBAL hot_row_group_commit_tables = 'fz.t'",
    "UPDATE /*+ GROUP_COMMIT(TRUE) */ t SET a = a + 1 WHERE id = 1",
    "CREATE INDEX ka2 ON t (a, b)",
    "CREATE TABLE v (x INT PRIMARY KEY, y VARCHAR(3000), z BLOB, UNIQUE KEY (y))",
    "DROP TABLE IF EXISTS u",
    "ALTER INSTANCE DISABLE INNODB REDO_LOG",
};

template <typename T>
const T& Pick(const std::vector<T>& v, std::mt19937_64& rng) {
  return v[rng() % v.size()];
}

// How many times to wrap: mostly a few, sometimes hundreds, now and then thousands (the
// depth where a recursive parser or evaluator once ran out of stack).
std::size_t Depth(std::mt19937_64& rng) {
  switch (rng() % 8) {
    case 0:
      return 100 + rng() % 900;
    case 1:
      return 2000 + rng() % 20000;
    default:
      return 1 + rng() % 8;
  }
}

bool Replace(std::string& text, Span at, std::string_view with, std::size_t max_size) {
  if (text.size() - at.size() + with.size() > max_size) return false;
  text.replace(at.begin, at.size(), with);
  return true;
}

}  // namespace

bool MutateSql(std::string& text, std::mt19937_64& rng, std::size_t max_size) {
  const Shape s = Read(text);
  std::vector<Span> pieces = s.groups;
  pieces.insert(pieces.end(), s.operands.begin(), s.operands.end());
  switch (rng() % 8) {
    case 0:
    case 1: {  // deepen
      if (pieces.empty()) return false;
      const Span at = Pick(pieces, rng);
      const auto& [before, after] = kWrappers[rng() % kWrappers.size()];
      std::size_t n = Depth(rng);
      const std::size_t each = before.size() + after.size();
      if (text.size() + each > max_size) return false;
      n = std::min(n, (max_size - text.size()) / each);
      std::string wrapped;
      wrapped.reserve(at.size() + n * each);
      for (std::size_t k = 0; k < n; ++k) wrapped += before;
      wrapped.append(text, at.begin, at.size());
      for (std::size_t k = 0; k < n; ++k) wrapped += after;
      return Replace(text, at, wrapped, max_size);
    }
    case 2: {  // swap
      if (pieces.size() < 2) return false;
      const Span to = Pick(pieces, rng);
      const Span from = Pick(pieces, rng);
      const std::string copy = text.substr(from.begin, from.size());
      return Replace(text, to, copy, max_size);
    }
    case 3: {  // widen
      if (pieces.empty()) return false;
      const Span at = Pick(pieces, rng);
      const std::string x = text.substr(at.begin, at.size());
      return Replace(text, at, x + std::string(kOperators[rng() % kOperators.size()]) + x, max_size);
    }
    case 4: {  // unwrap
      if (s.groups.empty()) return false;
      const Span g = Pick(s.groups, rng);
      return Replace(text, g, text.substr(g.begin + 1, g.size() - 2), max_size);
    }
    case 5: {  // literal
      if (s.literals.empty()) return false;
      return Replace(text, Pick(s.literals, rng), kLiterals[rng() % kLiterals.size()], max_size);
    }
    case 6: {  // add a statement
      const std::size_t at = s.ends.empty() || rng() % 4 == 0 ? text.size() : Pick(s.ends, rng);
      std::string add = std::string(at == text.size() && !text.empty() ? "\n" : "") +
                        std::string(kStatements[rng() % kStatements.size()]) + ";\n";
      return Replace(text, {at, at}, add, max_size);
    }
    default: {  // repeat or remove a statement
      if (s.ends.empty()) return false;
      const std::size_t k = rng() % s.ends.size();
      const Span st{k == 0 ? 0 : s.ends[k - 1], s.ends[k]};
      if (rng() % 2) return Replace(text, st, "", max_size);
      const std::string copy = text.substr(st.begin, st.size());
      return Replace(text, {st.end, st.end}, copy, max_size);
    }
  }
}

}  // namespace strata::fuzz
