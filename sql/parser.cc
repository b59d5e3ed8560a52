#include "sql/parser.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <functional>

#include "sql/lexer.h"
#include "sql/stack_guard.h"

namespace strata::sql {

SqlError SyntaxError(std::string_view text, std::size_t offset) {
  offset = std::min(offset, text.size());
  const auto line = 1 + std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(offset), '\n');
  std::string near(text.substr(offset, 80));
  while (!near.empty() && (near.back() == ';' || std::isspace(static_cast<unsigned char>(near.back())))) near.pop_back();
  return {1064, "42000",
          fmt::format("You have an error in your SQL syntax; check the manual that corresponds to your MySQL server "
                      "version for the right syntax to use near '{}' at line {}",
                      near, line)};
}

SqlError NotSupported(std::string_view what) {
  return {1235, "42000", fmt::format("This version of Strata doesn't yet support '{}'", what)};
}

namespace {

// Stack a level of the parser may not cut into: what one level and the error path below it need.
constexpr std::size_t kParserStackReserve = 128 * 1024;

std::string Upper(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// Parsing stops at the first error; unwinding by exception keeps the descent readable. It
// never leaves this file.
struct Failure {
  SqlError error;
};

// Words that end an expression or a name list rather than being names themselves.
bool Reserved(const Token& t) {
  static constexpr std::string_view kWords[] = {
      "FROM", "WHERE", "ORDER", "LIMIT", "FOR", "LOCK", "GROUP", "HAVING", "AND", "OR", "XOR", "NOT", "IN",
      "BETWEEN", "LIKE", "IS", "AS", "ON", "SET", "VALUES", "VALUE", "SELECT", "UNION", "OFFSET", "DIV", "MOD",
      "ASC", "DESC", "INTO", "USING", "WITH", "ESCAPE"};
  if (t.kind != TokenKind::kWord) return false;
  for (std::string_view w : kWords) {
    if (t.IsWord(w)) return true;
  }
  return false;
}

class Parser {
 public:
  Parser(std::string_view text, std::vector<Token> tokens) : text_(text), t_(std::move(tokens)) {}

  std::optional<sql::Statement> Top() {
    if (Peek().Is(TokenKind::kEnd)) return std::nullopt;
    auto s = ParseStatement();
    AcceptPunct(";");
    if (!Peek().Is(TokenKind::kEnd)) Syntax();
    return s;
  }

 private:
  // ---- token helpers ----
  const Token& Peek(std::size_t ahead = 0) const { return t_[std::min(i_ + ahead, t_.size() - 1)]; }
  const Token& Take() { return t_[std::min(i_++, t_.size() - 1)]; }
  [[noreturn]] void Syntax() { throw Failure{SyntaxError(text_, Peek().offset)}; }
  [[noreturn]] void Unsupported(std::string_view what) { throw Failure{NotSupported(what)}; }
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
  bool AcceptWord(std::string_view w) {
    if (!Peek().IsWord(w)) return false;
    ++i_;
    return true;
  }
  bool AcceptPunct(std::string_view p) {
    if (!Peek().IsPunct(p)) return false;
    ++i_;
    return true;
  }
  void ExpectWord(std::string_view w) {
    if (!AcceptWord(w)) Syntax();
  }
  void ExpectPunct(std::string_view p) {
    if (!AcceptPunct(p)) Syntax();
  }
  bool AcceptWords(std::initializer_list<std::string_view> words) {
    std::size_t k = 0;
    for (std::string_view w : words) {
      if (!Peek(k).IsWord(w)) return false;
      ++k;
    }
    i_ += k;
    return true;
  }

  std::string Name() {
    const Token& t = Peek();
    if (t.kind == TokenKind::kQuotedName || (t.kind == TokenKind::kWord && !Reserved(t))) return Take().text;
    Syntax();
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

  std::uint64_t Unsigned() {
    const Token& t = Peek();
    if (!t.Is(TokenKind::kInteger)) Syntax();
    std::uint64_t v = 0;
    auto [p, ec] = std::from_chars(t.text.data(), t.text.data() + t.text.size(), v);
    if (ec != std::errc()) Syntax();
    ++i_;
    return v;
  }

  std::string StringLiteral() {
    if (!Peek().Is(TokenKind::kString)) Syntax();
    return Take().text;
  }

  // A value after `=` in options: a word, a name, a string or a number.
  std::string OptionValue() {
    const Token& t = Peek();
    if (t.kind == TokenKind::kEnd || t.kind == TokenKind::kPunct) Syntax();
    return Take().text;
  }

  // ---- statements ----
  sql::Statement ParseStatement() {
    const Token& t = Peek();
    if (t.IsWord("SELECT")) return ParseSelect();
    if (t.IsWord("INSERT") || t.IsWord("REPLACE")) return ParseInsert();
    if (t.IsWord("UPDATE")) return ParseUpdate();
    if (t.IsWord("DELETE")) return ParseDelete();
    if (t.IsWord("CREATE")) return ParseCreate();
    if (t.IsWord("DROP")) return ParseDrop();
    if (t.IsWord("USE")) {
      ++i_;
      return Use{Name()};
    }
    if (t.IsWord("BEGIN")) {
      ++i_;
      AcceptWord("WORK");
      return Begin{};
    }
    if (t.IsWord("START")) {
      ++i_;
      ExpectWord("TRANSACTION");
      Begin b;
      do {
        if (AcceptWords({"WITH", "CONSISTENT", "SNAPSHOT"})) b.consistent_snapshot = true;
        else if (AcceptWords({"READ", "WRITE"})) {}
        else if (AcceptWords({"READ", "ONLY"})) {}
      } while (AcceptPunct(","));
      return b;
    }
    if (t.IsWord("COMMIT")) {
      ++i_;
      AcceptWord("WORK");
      return Commit{};
    }
    if (t.IsWord("ROLLBACK")) {
      ++i_;
      AcceptWord("WORK");
      if (Peek().IsWord("TO")) Unsupported("ROLLBACK TO SAVEPOINT");
      return Rollback{};
    }
    if (t.IsWord("SET")) return ParseSet();
    if (t.IsWord("SHOW")) return ParseShow();
    if (t.IsWord("DESCRIBE") || t.IsWord("DESC") || t.IsWord("EXPLAIN")) {
      if (t.IsWord("EXPLAIN") && (Peek(1).IsWord("SELECT") || Peek(1).IsWord("UPDATE"))) Unsupported("EXPLAIN");
      ++i_;
      Show s;
      s.what = Show::What::kColumns;
      s.table = QualifiedName();
      return s;
    }
    if (t.IsWord("LOCK")) {
      ++i_;
      if (!AcceptWord("TABLES") && !AcceptWord("TABLE")) Syntax();
      SkipToEnd();
      return NoOp{"LOCK TABLES"};
    }
    if (t.IsWord("UNLOCK")) {
      ++i_;
      if (!AcceptWord("TABLES") && !AcceptWord("TABLE")) Syntax();
      return NoOp{"UNLOCK TABLES"};
    }
    if (t.IsWord("ALTER")) return ParseAlter();
    if (t.IsWord("FLUSH") || t.IsWord("ANALYZE") || t.IsWord("OPTIMIZE")) {
      const std::string what = Upper(Take().text);
      SkipToEnd();
      return NoOp{what};
    }
    if (t.kind == TokenKind::kWord) {
      static constexpr std::string_view kKnown[] = {"GRANT", "REVOKE", "TRUNCATE", "RENAME", "CALL", "PREPARE",
                                                    "EXECUTE", "SAVEPOINT", "HANDLER", "LOAD", "XA", "INSTALL"};
      for (std::string_view k : kKnown) {
        if (t.IsWord(k)) Unsupported(k);
      }
    }
    Syntax();
  }

  void SkipToEnd() {
    while (!Peek().Is(TokenKind::kEnd) && !Peek().IsPunct(";")) ++i_;
  }

  sql::Statement ParseAlter() {
    ++i_;
    if (AcceptWord("INSTANCE")) {
      AlterInstanceRedo a;
      if (AcceptWord("DISABLE")) a.enable = false;
      else ExpectWord("ENABLE");
      ExpectWord("INNODB");
      ExpectWord("REDO_LOG");
      return a;
    }
    AcceptWord("ONLINE");
    AcceptWord("IGNORE");
    if (!AcceptWord("TABLE")) Unsupported("ALTER " + Peek().text);
    const TableName table = QualifiedName();
    if ((AcceptWord("DISABLE") || AcceptWord("ENABLE")) && AcceptWord("KEYS")) return NoOp{"ALTER TABLE ... KEYS"};
    Unsupported("ALTER TABLE " + (table.name.empty() ? std::string() : "`" + table.name + "` ") + "other than DISABLE/ENABLE KEYS");
  }

  sql::Statement ParseDrop() {
    ++i_;
    AcceptWord("TEMPORARY");
    if (AcceptWord("DATABASE") || AcceptWord("SCHEMA")) {
      DropDatabase d;
      d.if_exists = AcceptWords({"IF", "EXISTS"});
      d.name = Name();
      return d;
    }
    if (!AcceptWord("TABLE") && !AcceptWord("TABLES")) Unsupported("DROP " + Peek().text);
    DropTable d;
    d.if_exists = AcceptWords({"IF", "EXISTS"});
    do d.tables.push_back(QualifiedName());
    while (AcceptPunct(","));
    AcceptWord("RESTRICT") || AcceptWord("CASCADE");
    return d;
  }

  sql::Statement ParseCreate() {
    ++i_;
    AcceptWords({"OR", "REPLACE"});
    if (AcceptWord("DATABASE") || AcceptWord("SCHEMA")) {
      CreateDatabase c;
      c.if_not_exists = AcceptWords({"IF", "NOT", "EXISTS"});
      c.name = Name();
      SkipToEnd();  // DEFAULT CHARACTER SET ... COLLATE ...
      return c;
    }
    const bool unique = AcceptWord("UNIQUE");
    if (AcceptWord("INDEX") || AcceptWord("KEY")) {
      CreateIndex c;
      c.index.unique = unique;
      c.index.name = Name();
      if (AcceptWord("USING")) Name();
      ExpectWord("ON");
      c.table = QualifiedName();
      bool prefixed = false;
      c.index.columns = KeyColumns(unique ? nullptr : &prefixed);
      while (AcceptWord("USING") || AcceptWord("COMMENT") || AcceptWord("ALGORITHM") || AcceptWord("LOCK")) {
        AcceptPunct("=");
        OptionValue();
      }
      return c;
    }
    if (unique) Syntax();
    if (AcceptWord("TEMPORARY")) Unsupported("CREATE TEMPORARY TABLE");
    if (!AcceptWord("TABLE")) Unsupported("CREATE " + Peek().text);
    return ParseCreateTable();
  }

  // A key's columns. `prefixed` (when given) learns whether one was a prefix, col(16): the
  // engine indexes whole columns, which orders and finds the same rows for a non-unique key.
  std::vector<std::string> KeyColumns(bool* prefixed = nullptr) {
    std::vector<std::string> cols;
    ExpectPunct("(");
    do {
      cols.push_back(Name());
      if (AcceptPunct("(")) {
        if (!prefixed) Unsupported("prefix indexes (column(length)) in a unique or primary key");
        *prefixed = true;
        Unsigned();
        ExpectPunct(")");
      }
      AcceptWord("ASC") || AcceptWord("DESC");
    } while (AcceptPunct(","));
    ExpectPunct(")");
    return cols;
  }

  void IndexOptions() {
    while (true) {
      if (AcceptWord("USING")) Name();
      else if (AcceptWord("COMMENT")) StringLiteral();
      else if (AcceptWord("KEY_BLOCK_SIZE")) { AcceptPunct("="); Unsigned(); }
      else if (AcceptWord("VISIBLE") || AcceptWord("INVISIBLE")) {}
      else break;
    }
  }

  static std::optional<Charset> CharsetNamed(const std::string& name) {
    const std::string n = Lower(name);
    if (n == "utf8mb4" || n == "utf8" || n == "utf8mb3") return Charset::kUtf8mb4;
    if (n == "latin1" || n == "ascii") return Charset::kLatin1;
    if (n == "binary") return Charset::kBinary;
    return std::nullopt;
  }

  Charset CharsetName() {
    const Token& at = Peek();
    const std::string name = OptionValue();
    auto c = CharsetNamed(name);
    if (!c) throw Failure{{1115, "42000", fmt::format("Unknown character set: '{}' (Strata has utf8mb4, latin1, binary)", name)}};
    (void)at;
    return *c;
  }

  static std::optional<Charset> CharsetOfCollation(const std::string& name) {
    const std::string n = Lower(name);
    if (n == "binary") return Charset::kBinary;
    const auto us = n.find('_');
    return CharsetNamed(n.substr(0, us));
  }

  sql::Statement ParseCreateTable() {
    CreateTable c;
    c.if_not_exists = AcceptWords({"IF", "NOT", "EXISTS"});
    c.table = QualifiedName();
    if (Peek().IsWord("LIKE") || Peek().IsWord("AS") || Peek().IsWord("SELECT")) Unsupported("CREATE TABLE ... LIKE/SELECT");
    ExpectPunct("(");
    std::vector<bool> explicit_charset;
    do {
      const Token& t = Peek();
      if (t.IsWord("CONSTRAINT")) {
        ++i_;
        if (!Peek().IsWord("PRIMARY") && !Peek().IsWord("UNIQUE") && !Peek().IsWord("FOREIGN") && !Peek().IsWord("CHECK")) Name();
      }
      if (AcceptWords({"PRIMARY", "KEY"})) {
        if (!c.spec.primary_key.empty()) throw Failure{{1068, "42000", "Multiple primary key defined"}};
        if (AcceptWord("USING")) Name();
        c.spec.primary_key = KeyColumns();
        IndexOptions();
      } else if (Peek().IsWord("UNIQUE") || Peek().IsWord("KEY") || Peek().IsWord("INDEX")) {
        IndexSpec ix;
        ix.unique = AcceptWord("UNIQUE");
        AcceptWord("KEY") || AcceptWord("INDEX");
        if (!Peek().IsPunct("(") && !Peek().IsWord("USING")) ix.name = Name();
        if (AcceptWord("USING")) Name();
        bool prefixed = false;
        ix.columns = KeyColumns(ix.unique ? nullptr : &prefixed);
        if (prefixed) c.ignored.push_back("the prefix length in KEY `" + ix.name + "` (whole columns are indexed)");
        IndexOptions();
        c.spec.indexes.push_back(std::move(ix));
      } else if (Peek().IsWord("FULLTEXT") || Peek().IsWord("SPATIAL")) {
        Unsupported(Upper(Peek().text) + " indexes");
      } else if (Peek().IsWord("FOREIGN")) {
        c.ignored.push_back("FOREIGN KEY (Strata checks no foreign keys)");
        SkipBalanced();
      } else if (Peek().IsWord("CHECK")) {
        c.ignored.push_back("CHECK constraint");
        SkipBalanced();
      } else {
        bool has_charset = false;
        bool now = false;
        c.spec.columns.push_back(ColumnDefinition(c, &has_charset, &now));
        explicit_charset.push_back(has_charset);
        c.default_now.push_back(now);
      }
    } while (AcceptPunct(","));
    ExpectPunct(")");
    std::optional<Charset> table_charset;
    while (!Peek().Is(TokenKind::kEnd) && !Peek().IsPunct(";")) {
      AcceptPunct(",");
      AcceptWord("DEFAULT");
      if (AcceptWord("CHARSET") || AcceptWords({"CHARACTER", "SET"})) {
        AcceptPunct("=");
        table_charset = CharsetName();
      } else if (AcceptWord("COLLATE")) {
        AcceptPunct("=");
        const std::string name = OptionValue();
        if (!table_charset) table_charset = CharsetOfCollation(name);
      } else if (AcceptWord("AUTO_INCREMENT")) {
        AcceptPunct("=");
        c.auto_increment = Unsigned();
      } else if (AcceptWord("ENGINE")) {
        AcceptPunct("=");
        const std::string engine = OptionValue();
        if (!EqualsIgnoreCase(engine, "InnoDB")) c.ignored.push_back("ENGINE=" + engine + " (every table here is InnoDB)");
      } else if (Peek().IsWord("PARTITION")) {
        Unsupported("partitioned tables");
      } else if (Peek().kind == TokenKind::kWord) {
        ++i_;  // ROW_FORMAT, COMMENT, KEY_BLOCK_SIZE, STATS_*, PAGE_CHECKSUM, ...: accepted
        AcceptPunct("=");
        OptionValue();
      } else {
        Syntax();
      }
    }
    for (std::size_t k = 0; k < c.spec.columns.size(); ++k) {
      Column& col = c.spec.columns[k];
      if (!explicit_charset[k] && table_charset && (col.is_string())) col.charset = *table_charset;
    }
    c.spec.database = c.table.database;
    c.spec.name = c.table.name;
    // Primary key columns are NOT NULL whether or not the definition says so, as in MySQL.
    for (const std::string& k : c.spec.primary_key) {
      for (Column& col : c.spec.columns) {
        if (EqualsIgnoreCase(col.name, k)) col.nullable = false;
      }
    }
    // Keys without a name are named after their first column, as MySQL does.
    for (std::size_t k = 0; k < c.spec.indexes.size(); ++k) {
      IndexSpec& ix = c.spec.indexes[k];
      if (!ix.name.empty()) continue;
      std::string name = ix.columns.front();
      for (int n = 2; std::any_of(c.spec.indexes.begin(), c.spec.indexes.end(), [&](const IndexSpec& o) { return o.name == name; }); ++n) {
        name = ix.columns.front() + "_" + std::to_string(n);
      }
      ix.name = name;
    }
    return c;
  }

  void SkipBalanced() {
    int depth = 0;
    while (!Peek().Is(TokenKind::kEnd)) {
      if (Peek().IsPunct("(")) ++depth;
      else if (Peek().IsPunct(")")) {
        if (depth == 0) return;
        --depth;
      } else if (Peek().IsPunct(",") && depth == 0) {
        return;
      }
      ++i_;
    }
  }

  Column ColumnDefinition(CreateTable& c, bool* has_charset, bool* default_now) {
    Column col;
    col.name = Name();
    const Token& type_token = Peek();
    if (type_token.kind != TokenKind::kWord) Syntax();
    const std::string type = Upper(Take().text);
    auto length = [&](std::uint32_t* len, std::uint32_t* scale) {
      if (!AcceptPunct("(")) return false;
      *len = static_cast<std::uint32_t>(Unsigned());
      if (scale && AcceptPunct(",")) *scale = static_cast<std::uint32_t>(Unsigned());
      ExpectPunct(")");
      return true;
    };
    std::uint32_t ignored_width = 0;
    struct IntType { std::string_view name; ColumnType type; };
    static constexpr IntType kInts[] = {{"TINYINT", ColumnType::kTinyInt},   {"SMALLINT", ColumnType::kSmallInt},
                                        {"MEDIUMINT", ColumnType::kMediumInt}, {"INT", ColumnType::kInt},
                                        {"INTEGER", ColumnType::kInt},         {"BIGINT", ColumnType::kBigInt},
                                        {"BOOL", ColumnType::kTinyInt},        {"BOOLEAN", ColumnType::kTinyInt}};
    bool found = false;
    for (const IntType& it : kInts) {
      if (type == it.name) {
        col.type = it.type;
        length(&ignored_width, nullptr);  // display width: no effect on storage
        found = true;
      }
    }
    if (found) {
    } else if (type == "DECIMAL" || type == "NUMERIC" || type == "DEC" || type == "FIXED") {
      col.type = ColumnType::kDecimal;
      col.length = 10;
      length(&col.length, &col.scale);
    } else if (type == "FLOAT") {
      col.type = ColumnType::kFloat;
      std::uint32_t p = 0, s = 0;
      if (length(&p, &s) && p > 24 && s == 0) col.type = ColumnType::kDouble;
    } else if (type == "DOUBLE" || type == "REAL") {
      AcceptWord("PRECISION");
      col.type = ColumnType::kDouble;
      std::uint32_t p = 0, s = 0;
      length(&p, &s);
    } else if (type == "CHAR" || type == "CHARACTER" || type == "NCHAR") {
      if (AcceptWord("VARYING")) col.type = ColumnType::kVarchar;
      else col.type = ColumnType::kChar;
      col.length = 1;
      if (!length(&col.length, nullptr) && col.type == ColumnType::kVarchar) Syntax();
    } else if (type == "VARCHAR" || type == "NVARCHAR") {
      col.type = ColumnType::kVarchar;
      if (!length(&col.length, nullptr)) Syntax();
    } else if (type == "BINARY") {
      col.type = ColumnType::kBinary;
      col.length = 1;
      length(&col.length, nullptr);
    } else if (type == "VARBINARY") {
      col.type = ColumnType::kVarbinary;
      if (!length(&col.length, nullptr)) Syntax();
    } else if (type == "DATE") {
      col.type = ColumnType::kDate;
    } else if (type == "DATETIME" || type == "TIMESTAMP") {
      col.type = type == "DATETIME" ? ColumnType::kDatetime : ColumnType::kTimestamp;
      length(&col.scale, nullptr);
    } else {
      struct LobType { std::string_view name; ColumnType type; };
      static constexpr LobType kLobs[] = {{"TINYTEXT", ColumnType::kTinyText},     {"TEXT", ColumnType::kText},
                                          {"MEDIUMTEXT", ColumnType::kMediumText}, {"LONGTEXT", ColumnType::kLongText},
                                          {"TINYBLOB", ColumnType::kTinyBlob},     {"BLOB", ColumnType::kBlob},
                                          {"MEDIUMBLOB", ColumnType::kMediumBlob}, {"LONGBLOB", ColumnType::kLongBlob}};
      for (const LobType& lt : kLobs) {
        if (type == lt.name) {
          col.type = lt.type;
          length(&ignored_width, nullptr);
          found = true;
        }
      }
      if (!found) Unsupported("the column type " + type);
    }
    if (col.type == ColumnType::kBinary || col.type == ColumnType::kVarbinary || (col.is_lob() && !col.is_string())) {
      col.charset = Charset::kBinary;
    }
    // Attributes, in any order.
    while (true) {
      if (AcceptWord("UNSIGNED")) col.is_unsigned = true;
      else if (AcceptWord("SIGNED")) {}
      else if (AcceptWord("ZEROFILL")) col.is_unsigned = true;
      else if (AcceptWords({"NOT", "NULL"})) col.nullable = false;
      else if (AcceptWord("NULL")) col.nullable = true;
      else if (AcceptWord("AUTO_INCREMENT")) col.auto_increment = true;
      else if (AcceptWords({"CHARACTER", "SET"}) || AcceptWord("CHARSET")) {
        if (col.is_string()) col.charset = CharsetName();
        else OptionValue();
        *has_charset = true;
      } else if (AcceptWord("COLLATE")) {
        const std::string name = OptionValue();
        if (!*has_charset && col.is_string()) {
          if (auto cs = CharsetOfCollation(name)) col.charset = *cs;
          *has_charset = true;
        }
      } else if (AcceptWord("DEFAULT")) {
        if (AcceptWord("CURRENT_TIMESTAMP") || AcceptWord("NOW") || AcceptWord("LOCALTIMESTAMP")) {
          if (AcceptPunct("(")) {
            if (!Peek().IsPunct(")")) Unsigned();
            ExpectPunct(")");
          }
          *default_now = true;
        } else {
          ExprPtr e = Unary();  // folds -5 and -1.5 into literals
          if (e->kind != Expr::Kind::kLiteral) Unsupported("a DEFAULT that is not a literal");
          col.default_value = e->value;
        }
      } else if (AcceptWords({"ON", "UPDATE"})) {
        if (!AcceptWord("CURRENT_TIMESTAMP") && !AcceptWord("NOW")) Syntax();
        if (AcceptPunct("(")) {
          if (!Peek().IsPunct(")")) Unsigned();
          ExpectPunct(")");
        }
        c.ignored.push_back("ON UPDATE CURRENT_TIMESTAMP of `" + col.name + "`");
      } else if (AcceptWords({"PRIMARY", "KEY"})) {
        c.spec.primary_key = {col.name};
      } else if (AcceptWord("UNIQUE")) {
        AcceptWord("KEY");
        c.spec.indexes.push_back({"", {col.name}, true});
      } else if (AcceptWord("KEY")) {
        c.spec.primary_key = {col.name};
      } else if (AcceptWord("COMMENT")) {
        StringLiteral();
      } else if (AcceptWord("INVISIBLE") || AcceptWord("VISIBLE")) {
      } else if (Peek().IsWord("CHECK") || Peek().IsWord("REFERENCES") || Peek().IsWord("CONSTRAINT")) {
        c.ignored.push_back(Upper(Peek().text) + " on `" + col.name + "`");
        ++i_;
        if (Peek().IsPunct("(")) {
          ++i_;
          SkipBalanced();
          ExpectPunct(")");
        } else {
          SkipBalanced();
        }
      } else {
        break;
      }
    }
    if (col.is_string() && col.charset == Charset::kBinary) col.charset = Charset::kBinary;
    return col;
  }

  static Value Negate(const Value& v) {
    if (v.is_int()) return Value::Int(-v.as_int());
    if (v.is_uint()) {
      if (v.as_uint() == (std::uint64_t{1} << 63)) return Value::Int(INT64_MIN);
      return Value::Double(-static_cast<double>(v.as_uint()));
    }
    if (v.is_double()) return Value::Double(-v.as_double());
    if (v.is_string()) return Value::String("-" + v.as_string());
    return v;
  }

  sql::Statement ParseInsert() {
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
      if (Peek().IsWord("SELECT") || Peek().IsPunct("(")) Unsupported("INSERT ... SELECT");
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
    if (Peek().IsWord("ON")) Unsupported("INSERT ... ON DUPLICATE KEY UPDATE");
    return ins;
  }

  // A value in VALUES or SET: an expression or DEFAULT.
  ExprPtr ValueExpr() {
    if (Peek().IsWord("DEFAULT") && !Peek(1).IsPunct("(")) {
      auto e = std::make_unique<Expr>();
      e->kind = Expr::Kind::kDefault;
      e->offset = Take().offset;
      return e;
    }
    return Expression();
  }

  void OrderLimit(std::vector<OrderItem>* order, std::optional<std::uint64_t>* limit, std::uint64_t* offset) {
    if (AcceptWords({"ORDER", "BY"})) {
      do {
        OrderItem o;
        o.expr = Expression();
        if (AcceptWord("DESC")) o.descending = true;
        else AcceptWord("ASC");
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

  sql::Statement ParseUpdate() {
    ++i_;
    AcceptWord("LOW_PRIORITY");
    if (AcceptWord("IGNORE")) Unsupported("UPDATE IGNORE");
    Update u;
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

  sql::Statement ParseDelete() {
    ++i_;
    while (AcceptWord("LOW_PRIORITY") || AcceptWord("QUICK") || AcceptWord("IGNORE")) {}
    ExpectWord("FROM");
    Delete d;
    d.table = QualifiedName();
    if (Peek().IsPunct(",") || Peek().IsWord("USING")) Unsupported("multi-table DELETE");
    if (AcceptWord("WHERE")) d.where = Expression();
    OrderLimit(&d.order_by, &d.limit, nullptr);
    return d;
  }

  sql::Statement ParseSelect() {
    ++i_;
    Select s;
    while (AcceptWord("ALL") || AcceptWord("SQL_NO_CACHE") || AcceptWord("SQL_CACHE") || AcceptWord("STRAIGHT_JOIN") ||
           AcceptWord("HIGH_PRIORITY") || AcceptWord("SQL_CALC_FOUND_ROWS")) {
    }
    if (Peek().IsWord("DISTINCT") || Peek().IsWord("DISTINCTROW")) Unsupported("SELECT DISTINCT");
    do {
      SelectItem item;
      const std::size_t start = Peek().offset;
      if (AcceptPunct("*")) {
        item.text = "*";
      } else {
        item.expr = Expression();
        item.text = Trimmed(start, Peek().offset);
        if (AcceptWord("AS")) {
          item.alias = Peek().Is(TokenKind::kString) ? Take().text : Name();
        } else if (Peek().Is(TokenKind::kQuotedName) || Peek().Is(TokenKind::kString) ||
                   (Peek().Is(TokenKind::kWord) && !Reserved(Peek()))) {
          item.alias = Take().text;
        }
      }
      s.items.push_back(std::move(item));
    } while (AcceptPunct(","));
    if (AcceptWord("FROM")) {
      if (Peek().IsPunct("(")) Unsupported("subqueries");
      s.from = QualifiedName();
      if (AcceptWord("AS")) Name();
      else if (Peek().Is(TokenKind::kQuotedName) || (Peek().Is(TokenKind::kWord) && !Reserved(Peek()) && !Peek().IsWord("FORCE") && !Peek().IsWord("USE") && !Peek().IsWord("IGNORE") && !Peek().IsWord("JOIN"))) Name();
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
    if (Peek().IsWord("GROUP") || Peek().IsWord("HAVING")) Unsupported("GROUP BY");
    if (Peek().IsWord("UNION")) Unsupported("UNION");
    OrderLimit(&s.order_by, &s.limit, &s.offset);
    if (AcceptWords({"FOR", "UPDATE"})) s.lock = RowLock::kExclusive;
    else if (AcceptWords({"FOR", "SHARE"}) || AcceptWords({"LOCK", "IN", "SHARE", "MODE"})) s.lock = RowLock::kShared;
    if (s.lock != RowLock::kNone && (AcceptWord("NOWAIT") || AcceptWords({"SKIP", "LOCKED"}))) Unsupported("NOWAIT / SKIP LOCKED");
    return s;
  }

  std::string Trimmed(std::size_t from, std::size_t to) const {
    std::string_view v = text_.substr(from, to > from ? to - from : 0);
    while (!v.empty() && std::isspace(static_cast<unsigned char>(v.back()))) v.remove_suffix(1);
    return std::string(v);
  }

  static std::optional<Isolation> IsolationFromWords(const std::string& level) {
    const std::string l = Upper(level);
    if (l == "READ-UNCOMMITTED" || l == "READ UNCOMMITTED") return Isolation::kReadUncommitted;
    if (l == "READ-COMMITTED" || l == "READ COMMITTED") return Isolation::kReadCommitted;
    if (l == "REPEATABLE-READ" || l == "REPEATABLE READ") return Isolation::kRepeatableRead;
    if (l == "SERIALIZABLE") return Isolation::kSerializable;
    return std::nullopt;
  }

  sql::Statement ParseSet() {
    ++i_;
    bool global = false;
    if (AcceptWord("GLOBAL")) global = true;
    else AcceptWord("SESSION") || AcceptWord("LOCAL");
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
        if (AcceptWord("GLOBAL")) v.scope = SetVariable::Scope::kGlobal;
        else AcceptWord("SESSION") || AcceptWord("LOCAL");
      }
      first = false;
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
      } else {
        v.name = Lower(Name());
      }
      if (!AcceptPunct("=") && !AcceptPunct(":=")) Syntax();
      // SET x = ON / OFF / DEFAULT / a bare word: the word as a string.
      if (Peek().kind == TokenKind::kWord && !Peek(1).IsPunct("(") && !Peek(1).IsPunct(".") &&
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

  sql::Statement ParseShow() {
    ++i_;
    Show s;
    auto like = [&] {
      if (AcceptWord("LIKE")) s.like = StringLiteral();
      else if (Peek().IsWord("WHERE")) Unsupported("SHOW ... WHERE");
    };
    auto from = [&] {
      if (AcceptWord("FROM") || AcceptWord("IN")) s.database = Name();
    };
    if (AcceptWord("GLOBAL")) s.global = true;
    else AcceptWord("SESSION") || AcceptWord("LOCAL");
    const bool full = AcceptWord("FULL");
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
    (void)full;
    return s;
  }

  // ---- expressions, lowest precedence first ----
  ExprPtr Expression() {
    Nesting n(*this);
    return Or();
  }

  ExprPtr MakeBinary(std::string op, ExprPtr a, ExprPtr b) {
    auto e = std::make_unique<Expr>();
    e->kind = Expr::Kind::kBinary;
    e->offset = a->offset;
    e->op = std::move(op);
    Adopt(*e, std::move(a));
    Adopt(*e, std::move(b));
    return e;
  }

  // A chain of one logical operator (a OR b OR c ...) as a balanced tree, not a left-deep one:
  // generated queries OR together thousands of terms, which would pass the depth limit. AND,
  // OR and XOR give the same result however their terms are grouped (NULLs included), and
  // the terms are still evaluated left to right, stopping where AND and OR may.
  ExprPtr Balanced(const std::string& op, std::vector<ExprPtr>& terms, std::size_t from, std::size_t to) {
    if (to - from == 1) return std::move(terms[from]);
    const std::size_t mid = from + (to - from) / 2;
    ExprPtr left = Balanced(op, terms, from, mid);
    return MakeBinary(op, std::move(left), Balanced(op, terms, mid, to));
  }
  ExprPtr Chain(const std::string& op, ExprPtr (Parser::*term)(), const std::function<bool()>& accept) {
    std::vector<ExprPtr> terms;
    terms.push_back((this->*term)());
    while (accept()) terms.push_back((this->*term)());
    return Balanced(op, terms, 0, terms.size());
  }
  ExprPtr Or() {
    return Chain("OR", &Parser::Xor, [this] { return AcceptWord("OR") || AcceptPunct("||"); });
  }
  ExprPtr Xor() {
    return Chain("XOR", &Parser::And, [this] { return AcceptWord("XOR"); });
  }
  ExprPtr And() {
    return Chain("AND", &Parser::Not, [this] { return AcceptWord("AND") || AcceptPunct("&&"); });
  }
  ExprPtr Not() {
    if (Peek().IsWord("NOT")) {
      Nesting n(*this);
      auto e = std::make_unique<Expr>();
      e->kind = Expr::Kind::kUnary;
      e->offset = Take().offset;
      e->op = "NOT";
      Adopt(*e, Not());
      return e;
    }
    return Predicate();
  }

  ExprPtr Predicate() {
    ExprPtr e = Additive();
    while (true) {
      const std::size_t at = i_;
      const bool negated = AcceptWord("NOT");
      if (AcceptWord("IN")) {
        auto in = std::make_unique<Expr>();
        in->kind = Expr::Kind::kIn;
        in->offset = e->offset;
        in->negated = negated;
        Adopt(*in, std::move(e));
        ExpectPunct("(");
        if (Peek().IsWord("SELECT")) Unsupported("subqueries");
        do Adopt(*in, Expression());
        while (AcceptPunct(","));
        ExpectPunct(")");
        e = std::move(in);
      } else if (AcceptWord("BETWEEN")) {
        auto b = std::make_unique<Expr>();
        b->kind = Expr::Kind::kBetween;
        b->offset = e->offset;
        b->negated = negated;
        Adopt(*b, std::move(e));
        Adopt(*b, Additive());
        ExpectWord("AND");
        Adopt(*b, Additive());
        e = std::move(b);
      } else if (AcceptWord("LIKE")) {
        auto l = std::make_unique<Expr>();
        l->kind = Expr::Kind::kLike;
        l->offset = e->offset;
        l->negated = negated;
        Adopt(*l, std::move(e));
        Adopt(*l, Additive());
        e = std::move(l);
      } else if (negated) {
        i_ = at;
        return e;
      } else if (AcceptWord("IS")) {
        auto n = std::make_unique<Expr>();
        n->kind = Expr::Kind::kIsNull;
        n->offset = e->offset;
        n->negated = AcceptWord("NOT");
        ExpectWord("NULL");
        Adopt(*n, std::move(e));
        e = std::move(n);
      } else {
        static constexpr std::string_view kCompare[] = {"=", "<=>", "<>", "!=", "<", "<=", ">", ">="};
        bool matched = false;
        for (std::string_view op : kCompare) {
          if (AcceptPunct(op)) {
            e = MakeBinary(op == "!=" ? "<>" : std::string(op), std::move(e), Additive());
            matched = true;
            break;
          }
        }
        if (!matched) return e;
      }
    }
  }

  ExprPtr Additive() {
    ExprPtr e = Multiplicative();
    while (true) {
      if (AcceptPunct("+")) e = MakeBinary("+", std::move(e), Multiplicative());
      else if (AcceptPunct("-")) e = MakeBinary("-", std::move(e), Multiplicative());
      else return e;
    }
  }

  ExprPtr Multiplicative() {
    ExprPtr e = Unary();
    while (true) {
      if (AcceptPunct("*")) e = MakeBinary("*", std::move(e), Unary());
      else if (AcceptPunct("/")) e = MakeBinary("/", std::move(e), Unary());
      else if (AcceptWord("DIV")) e = MakeBinary("DIV", std::move(e), Unary());
      else if (AcceptPunct("%") || AcceptWord("MOD")) e = MakeBinary("%", std::move(e), Unary());
      else return e;
    }
  }

  ExprPtr Unary() {
    if (Peek().IsPunct("-") || Peek().IsPunct("~") || Peek().IsPunct("!") || Peek().IsPunct("+")) {
      const Token& t = Take();
      Nesting n(*this);
      ExprPtr operand = Unary();
      if (t.text == "+") return operand;
      // A negative number literal stays a literal (dumps write -5, and DEFAULT needs it).
      if (t.text == "-" && operand->kind == Expr::Kind::kLiteral && !operand->value.is_null() &&
          operand->literal_kind != LiteralKind::kBinary && !operand->value.is_string()) {
        operand->value = Negate(operand->value);
        operand->offset = t.offset;
        return operand;
      }
      if (t.text == "-" && operand->kind == Expr::Kind::kLiteral && operand->literal_kind == LiteralKind::kDecimal) {
        operand->value = Negate(operand->value);
        operand->offset = t.offset;
        return operand;
      }
      auto e = std::make_unique<Expr>();
      e->kind = Expr::Kind::kUnary;
      e->offset = t.offset;
      e->op = t.text == "!" ? "NOT" : t.text;
      Adopt(*e, std::move(operand));
      return e;
    }
    return Primary();
  }

  ExprPtr Literal(Value v, LiteralKind kind, std::size_t offset) {
    auto e = std::make_unique<Expr>();
    e->kind = Expr::Kind::kLiteral;
    e->value = std::move(v);
    e->literal_kind = kind;
    e->offset = offset;
    return e;
  }

  ExprPtr Primary() {
    const Token& t = Peek();
    const std::size_t at = t.offset;
    switch (t.kind) {
      case TokenKind::kString: {
        std::string s = Take().text;
        while (Peek().Is(TokenKind::kString)) s += Take().text;  // 'a' 'b' is 'ab'
        return Literal(Value::String(std::move(s)), LiteralKind::kPlain, at);
      }
      case TokenKind::kHex: return Literal(Value::String(Take().text), LiteralKind::kBinary, at);
      case TokenKind::kInteger: {
        const std::string& s = Take().text;
        std::int64_t v = 0;
        auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
        if (ec == std::errc()) return Literal(Value::Int(v), LiteralKind::kPlain, at);
        std::uint64_t u = 0;
        auto [p2, ec2] = std::from_chars(s.data(), s.data() + s.size(), u);
        if (ec2 == std::errc()) return Literal(Value::UInt(u), LiteralKind::kPlain, at);
        return Literal(Value::String(s), LiteralKind::kDecimal, at);
      }
      case TokenKind::kDecimal: return Literal(Value::String(Take().text), LiteralKind::kDecimal, at);
      case TokenKind::kFloat: {
        const std::string& s = Take().text;
        double d = 0;
        std::from_chars(s.data(), s.data() + s.size(), d);
        return Literal(Value::Double(d), LiteralKind::kPlain, at);
      }
      case TokenKind::kUserVar: {
        auto e = std::make_unique<Expr>();
        e->kind = Expr::Kind::kUserVar;
        e->name = Take().text;
        e->offset = at;
        if (AcceptPunct(":=")) Unsupported("assignment inside an expression");
        return e;
      }
      case TokenKind::kSystemVar: {
        auto e = std::make_unique<Expr>();
        e->kind = Expr::Kind::kSystemVar;
        std::string name = Lower(Take().text);
        if (name.rfind("global.", 0) == 0 || name.rfind("session.", 0) == 0 || name.rfind("local.", 0) == 0) {
          name = name.substr(name.find('.') + 1);
        }
        e->name = name;
        e->offset = at;
        return e;
      }
      case TokenKind::kPunct:
        if (t.IsPunct("(")) {
          ++i_;
          if (Peek().IsWord("SELECT")) Unsupported("subqueries");
          ExprPtr e = Expression();
          if (Peek().IsPunct(",")) Unsupported("row constructors");
          ExpectPunct(")");
          return e;
        }
        Syntax();
      case TokenKind::kQuotedName: return ColumnRef();
      case TokenKind::kWord: break;
      default: Syntax();
    }
    if (t.IsWord("NULL")) {
      ++i_;
      return Literal(Value::Null(), LiteralKind::kPlain, at);
    }
    if (t.IsWord("TRUE") || t.IsWord("FALSE")) {
      return Literal(Value::Int(Take().IsWord("TRUE") ? 1 : 0), LiteralKind::kPlain, at);
    }
    // Character set introducers: _binary '...', _utf8mb4 '...', _latin1 0x...
    if (t.text.size() > 1 && t.text[0] == '_' && (Peek(1).Is(TokenKind::kString) || Peek(1).Is(TokenKind::kHex))) {
      const bool binary = EqualsIgnoreCase(t.text, "_binary");
      ++i_;
      ExprPtr e = Primary();
      e->literal_kind = binary ? LiteralKind::kBinary : LiteralKind::kPlain;
      e->offset = at;
      AcceptWord("COLLATE") && (Name(), true);
      return e;
    }
    if (t.IsWord("CURRENT_TIMESTAMP") || t.IsWord("LOCALTIMESTAMP") || t.IsWord("CURRENT_DATE")) {
      if (!Peek(1).IsPunct("(")) {
        auto e = std::make_unique<Expr>();
        e->kind = Expr::Kind::kFunction;
        e->name = t.IsWord("CURRENT_DATE") ? "CURDATE" : "NOW";
        e->offset = Take().offset;
        return e;
      }
    }
    if (Peek(1).IsPunct("(") && !Reserved(t)) return Function();
    if (Reserved(t)) Syntax();
    return ColumnRef();
  }

  ExprPtr ColumnRef() {
    auto e = std::make_unique<Expr>();
    e->kind = Expr::Kind::kColumn;
    e->offset = Peek().offset;
    e->name = Name();
    if (AcceptPunct(".")) {
      e->table = std::move(e->name);
      e->name = Name();
      if (AcceptPunct(".")) {  // db.table.column: the database part is not needed
        e->table = std::move(e->name);
        e->name = Name();
      }
    }
    return e;
  }

  ExprPtr Function() {
    auto e = std::make_unique<Expr>();
    e->kind = Expr::Kind::kFunction;
    e->offset = Peek().offset;
    e->name = Upper(Take().text);
    ExpectPunct("(");
    if (e->name == "COUNT" && AcceptPunct("*")) {
      e->star = true;
    } else if (!Peek().IsPunct(")")) {
      if (Peek().IsWord("DISTINCT")) Unsupported("DISTINCT in aggregates");
      do Adopt(*e, Expression());
      while (AcceptPunct(","));
    }
    ExpectPunct(")");
    return e;
  }

  std::string_view text_;
  std::vector<Token> t_;
  std::size_t i_ = 0;
  std::uint32_t nesting_ = 0;  // Nesting levels open
};

bool StartsWithVersionedComment(std::string_view text) {
  std::size_t i = 0;
  while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
  return text.substr(i, 3) == "/*!";
}

}  // namespace

Parsed Parse(std::string_view text) {
  Parsed out;
  out.versioned = StartsWithVersionedComment(text);
  Lexed lexed = Lex(text);
  if (!lexed.ok) {
    out.error = SyntaxError(text, lexed.error.offset);
    return out;
  }
  out.hints = std::move(lexed.hints);
  try {
    Parser p(text, std::move(lexed.tokens));
    out.statement = p.Top();
  } catch (const Failure& f) {
    out.error = f.error;
  }
  return out;
}

}  // namespace strata::sql
