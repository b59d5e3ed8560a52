// CREATE (DATABASE, TABLE, INDEX), ALTER and DROP: the statements that define tables.
#include "sql/parser_internal.h"

namespace strata::sql::parser_internal {

sql::Statement Parser::ParseAlter() {
  ++i_;
  if (AcceptWord("INSTANCE")) {
    AlterInstanceRedo a;
    if (AcceptWord("DISABLE"))
      a.enable = false;
    else
      ExpectWord("ENABLE");
    ExpectWord("INNODB");
    ExpectWord("REDO_LOG");
    return a;
  }
  AcceptWord("ONLINE");
  AcceptWord("IGNORE");
  if (!AcceptWord("TABLE")) Unsupported("ALTER " + Peek().text);
  const TableName table = QualifiedName();
  if ((AcceptWord("DISABLE") || AcceptWord("ENABLE")) && AcceptWord("KEYS")) return NoOp{"ALTER TABLE ... KEYS"};
  Unsupported("ALTER TABLE " + (table.name.empty() ? std::string() : "`" + table.name + "` ") +
              "other than DISABLE/ENABLE KEYS");
}

sql::Statement Parser::ParseDrop() {
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

sql::Statement Parser::ParseCreate() {
  ++i_;
  AcceptWords({"OR", "REPLACE"});
  if (AcceptWord("DATABASE") || AcceptWord("SCHEMA")) {
    CreateDatabase c;
    c.if_not_exists = AcceptWords({"IF", "NOT", "EXISTS"});
    c.name = Name();
    // Checked as the server checks them; a database keeps no default collation here, so a
    // _bin one (which tables without their own COLLATE would take) is said to be ignored.
    std::optional<Charset> charset;
    bool binary = false;
    std::uint16_t collation = 0;
    while (!Peek().Is(TokenKind::kEnd) && !Peek().IsPunct(";")) {
      AcceptWord("DEFAULT");
      if (!CharsetOrCollateOption(charset, binary, &collation)) ++i_;  // COMMENT, ...: accepted
    }
    if (collation != 0 && collation != engine::DefaultCollation(charset == Charset::kLatin1).id) {
      c.ignored.push_back(
          "the database's default collation (tables in it take their charset's default collation unless their "
          "CREATE TABLE names a COLLATE)");
    }
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
std::vector<std::string> Parser::KeyColumns(bool* prefixed) {
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

void Parser::IndexOptions() {
  while (true) {
    if (AcceptWord("USING"))
      Name();
    else if (AcceptWord("COMMENT"))
      StringLiteral();
    else if (AcceptWord("KEY_BLOCK_SIZE")) {
      AcceptPunct("=");
      Unsigned();
    } else if (AcceptWord("VISIBLE") || AcceptWord("INVISIBLE")) {
    } else
      break;
  }
}

std::optional<Charset> Parser::CharsetNamed(const std::string& name) {
  const std::string n = Lower(name);
  if (n == "utf8mb4" || n == "utf8" || n == "utf8mb3") return Charset::kUtf8mb4;
  if (n == "latin1" || n == "ascii") return Charset::kLatin1;
  if (n == "binary") return Charset::kBinary;
  return std::nullopt;
}

Charset Parser::CharsetName() {
  const Token& at = Peek();
  const std::string name = OptionValue();
  auto c = CharsetNamed(name);
  if (!c)
    throw Failure{
        {1115, "42000", fmt::format("Unknown character set: '{}' (Strata has utf8mb4, latin1, binary)", name)}};
  (void)at;
  return *c;
}

bool Parser::CharsetOrCollateOption(std::optional<Charset>& charset, bool& binary, std::uint16_t* collation_id) {
  if (AcceptWord("CHARSET") || AcceptWords({"CHARACTER", "SET"})) {
    AcceptPunct("=");
    charset = CharsetName();
    return true;
  }
  if (!AcceptWord("COLLATE")) return false;
  AcceptPunct("=");
  const Collation collation = CollationName(charset);
  charset = collation.charset;
  binary = collation.binary;
  if (collation_id) *collation_id = collation.id;
  return true;
}

Parser::Collation Parser::CollationName(std::optional<Charset> charset) {
  const std::string name = OptionValue();
  std::optional<Collation> found;
  if (Lower(name) == "binary") {
    found = Collation{Charset::kBinary, true, 63};
  } else if (auto info = engine::CollationByName(name)) {
    found =
        Collation{info->latin1 ? Charset::kLatin1 : Charset::kUtf8mb4, info->rule == engine::TextRule::kBin, info->id};
  }
  if (!found) {
    throw Failure{{1273, "HY000",
                   fmt::format("Unknown collation: '{}' (Strata compares text by utf8mb4's general_ci, unicode_ci, "
                               "unicode_520_ci, uca1400_ai_ci, their _nopad_ forms, 0900_ai_ci and bin, latin1's "
                               "swedish_ci and bin)",
                               name)}};
  }
  if (charset && *charset != found->charset) {
    const char* named = *charset == Charset::kLatin1 ? "latin1" : *charset == Charset::kBinary ? "binary" : "utf8mb4";
    throw Failure{{1253, "42000", fmt::format("COLLATION '{}' is not valid for CHARACTER SET '{}'", name, named)}};
  }
  return *found;
}

sql::Statement Parser::ParseCreateTable() {
  CreateTable c;
  c.if_not_exists = AcceptWords({"IF", "NOT", "EXISTS"});
  c.table = QualifiedName();
  if (Peek().IsWord("LIKE") || Peek().IsWord("AS") || Peek().IsWord("SELECT"))
    Unsupported("CREATE TABLE ... LIKE/SELECT");
  ExpectPunct("(");
  std::vector<bool> explicit_charset;
  do {
    const Token& t = Peek();
    std::string constraint;
    if (t.IsWord("CONSTRAINT")) {
      ++i_;
      if (!Peek().IsWord("PRIMARY") && !Peek().IsWord("UNIQUE") && !Peek().IsWord("FOREIGN") && !Peek().IsWord("CHECK"))
        constraint = Name();
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
      const std::size_t from = Peek().offset;
      SkipBalanced();
      c.ignored.push_back(
          fmt::format("{}{} (Strata neither checks foreign keys nor keeps them)",
                      constraint.empty() ? "" : "CONSTRAINT " + ondisk::QuoteIdentifier(constraint) + " ",
                      Trimmed(from, Peek().offset)));
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
  bool table_binary_collation = false;
  std::uint16_t table_collation = 0;
  while (!Peek().Is(TokenKind::kEnd) && !Peek().IsPunct(";")) {
    AcceptPunct(",");
    AcceptWord("DEFAULT");
    if (CharsetOrCollateOption(table_charset, table_binary_collation, &table_collation)) {
    } else if (AcceptWord("AUTO_INCREMENT")) {
      AcceptPunct("=");
      c.spec.auto_increment = Unsigned();
    } else if (AcceptWord("ENGINE")) {
      AcceptPunct("=");
      const std::string engine = OptionValue();
      if (!EqualsIgnoreCase(engine, "InnoDB"))
        c.ignored.push_back("ENGINE=" + engine + " (every table here is InnoDB)");
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
    if (!explicit_charset[k] && table_charset && (col.is_string())) {
      col.charset = *table_charset;
      col.binary_collation = table_binary_collation;
      col.collation_id = table_collation;
    }
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
    for (int n = 2;
         std::any_of(c.spec.indexes.begin(), c.spec.indexes.end(), [&](const IndexSpec& o) { return o.name == name; });
         ++n) {
      name = ix.columns.front() + "_" + std::to_string(n);
    }
    ix.name = name;
  }
  return c;
}

void Parser::SkipBalanced() {
  int depth = 0;
  while (!Peek().Is(TokenKind::kEnd)) {
    if (Peek().IsPunct("("))
      ++depth;
    else if (Peek().IsPunct(")")) {
      if (depth == 0) return;
      --depth;
    } else if (Peek().IsPunct(",") && depth == 0) {
      return;
    }
    ++i_;
  }
}

Column Parser::ColumnDefinition(CreateTable& c, bool* has_charset, bool* default_now) {
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
  struct IntType {
    std::string_view name;
    ColumnType type;
  };
  static constexpr IntType kInts[] = {{"TINYINT", ColumnType::kTinyInt},     {"SMALLINT", ColumnType::kSmallInt},
                                      {"MEDIUMINT", ColumnType::kMediumInt}, {"INT", ColumnType::kInt},
                                      {"INTEGER", ColumnType::kInt},         {"BIGINT", ColumnType::kBigInt},
                                      {"BOOL", ColumnType::kTinyInt},        {"BOOLEAN", ColumnType::kTinyInt}};
  bool found = false;
  std::uint32_t display_width = 0;  // of an integer: what ZEROFILL pads to, and nothing else
  for (const IntType& it : kInts) {
    if (type == it.name) {
      col.type = it.type;
      length(&display_width, nullptr);
      if (display_width > 255)
        throw Failure{{1439, "42000", fmt::format("Display width out of range for '{}' (max = 255)", col.name)}};
      found = true;
    }
  }
  if (found) {
  } else if (type == "DECIMAL" || type == "NUMERIC" || type == "DEC" || type == "FIXED") {
    col.type = ColumnType::kDecimal;
    col.length = 10;
    length(&col.length, &col.scale);
  } else if (type == "FLOAT" || type == "DOUBLE" || type == "REAL") {
    // FLOAT(p) is a FLOAT up to 24 bits of precision and a DOUBLE above; FLOAT(M,D) and
    // DOUBLE(M,D) keep M digits, D of them decimals (Column::length and scale).
    col.type = type == "FLOAT" ? ColumnType::kFloat : ColumnType::kDouble;
    if (type != "FLOAT") AcceptWord("PRECISION");
    constexpr std::uint32_t kNoScale = UINT32_MAX;
    std::uint32_t p = 0, s = kNoScale;
    if (AcceptPunct("(")) {
      p = static_cast<std::uint32_t>(Unsigned());
      if (AcceptPunct(","))
        s = static_cast<std::uint32_t>(Unsigned());
      else if (type != "FLOAT")
        Syntax();  // DOUBLE and REAL take (M,D) or nothing
      ExpectPunct(")");
      if (s == kNoScale && p > 53)
        throw Failure{{1063, "42000", fmt::format("Incorrect column specifier for column '{}'", col.name)}};
      if (s == kNoScale && p > 24) col.type = ColumnType::kDouble;
      if (s != kNoScale) {
        if (p > 255)
          throw Failure{{1439, "42000", fmt::format("Display width out of range for '{}' (max = 255)", col.name)}};
        if (s > p)
          throw Failure{
              {1427, "42000",
               fmt::format("For float(M,D), double(M,D) or decimal(M,D), M must be >= D (column '{}')", col.name)}};
        if (s > 30)
          throw Failure{{1425, "42000", fmt::format("Too big scale specified for '{}'. Maximum is 30", col.name)}};
        col.length = p;
        col.scale = s;
      }
    }
  } else if (type == "CHAR" || type == "CHARACTER" || type == "NCHAR") {
    if (AcceptWord("VARYING"))
      col.type = ColumnType::kVarchar;
    else
      col.type = ColumnType::kChar;
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
    struct LobType {
      std::string_view name;
      ColumnType type;
    };
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
    if (AcceptWord("UNSIGNED"))
      col.is_unsigned = true;
    else if (AcceptWord("SIGNED")) {
    } else if (Peek().IsWord("ZEROFILL")) {
      if (!col.is_integer() && col.type != ColumnType::kDecimal && col.type != ColumnType::kFloat &&
          col.type != ColumnType::kDouble)
        Syntax();  // a number's attribute only
      ++i_;
      col.is_unsigned = col.zerofill = true;
      if (col.is_integer()) col.length = display_width;
    } else if (AcceptWords({"NOT", "NULL"}))
      col.nullable = false;
    else if (AcceptWord("NULL"))
      col.nullable = true;
    else if (AcceptWord("AUTO_INCREMENT"))
      col.auto_increment = true;
    else if (AcceptWords({"CHARACTER", "SET"}) || AcceptWord("CHARSET")) {
      if (col.is_string())
        col.charset = CharsetName();
      else
        OptionValue();
      *has_charset = true;
    } else if (AcceptWord("COLLATE")) {
      const Collation collation =
          CollationName(*has_charset && col.is_string() ? std::optional(col.charset) : std::nullopt);
      if (col.is_string()) {
        col.charset = collation.charset;
        col.binary_collation = collation.binary;
        col.collation_id = collation.id;
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
  // CHARACTER SET binary (or COLLATE binary) makes text a byte string, as the server does:
  // CHAR becomes BINARY, VARCHAR VARBINARY and each TEXT its BLOB (SHOW CREATE TABLE says so).
  if (col.is_string() && col.charset == Charset::kBinary) {
    switch (col.type) {
      case ColumnType::kChar:
        col.type = ColumnType::kBinary;
        break;
      case ColumnType::kVarchar:
        col.type = ColumnType::kVarbinary;
        break;
      default:  // the TEXT types, in the order of their BLOBs
        col.type = static_cast<ColumnType>(static_cast<int>(col.type) - static_cast<int>(ColumnType::kTinyText) +
                                           static_cast<int>(ColumnType::kTinyBlob));
        break;
    }
    col.binary_collation = false;
    col.collation_id = 0;
  }
  return col;
}

Value Parser::Negate(const Value& v) {
  if (v.is_int()) return v.as_int() == INT64_MIN ? Value::UInt(std::uint64_t{1} << 63) : Value::Int(-v.as_int());
  if (v.is_uint()) {
    if (v.as_uint() == (std::uint64_t{1} << 63)) return Value::Int(INT64_MIN);
    // Below BIGINT's range: the exact number as text, which a BIGINT refuses as out of range
    // (as a double it was rounded to -9223372036854775808 and stored).
    return Value::String("-" + std::to_string(v.as_uint()));
  }
  if (v.is_double()) return Value::Double(-v.as_double());
  if (v.is_string()) return Value::String("-" + v.as_string());
  return v;
}

}  // namespace strata::sql::parser_internal
