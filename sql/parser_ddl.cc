// CREATE (DATABASE, TABLE, INDEX), ALTER and DROP: the statements that define tables.
#include "sql/parser_internal.h"

#include "engine/elements.h"
#include "engine/uuid_inet.h"
#include "ondisk/charsets.h"
#include "ondisk/geometry.h"
#include "sql/ddl_check.h"
#include "sql/foreign_keys.h"

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
  if (Peek().IsWord("ALGORITHM") || Peek().IsWord("VIEW") || Peek().IsWord("SQL") || Peek().IsWord("DEFINER")) {
    CreateView v;
    v.alter = true;
    ViewOptions(v);
    return ParseCreateView(std::move(v));
  }
  AcceptWord("ONLINE");
  AcceptWord("IGNORE");
  if (!AcceptWord("TABLE")) Unsupported("ALTER " + Peek().text);
  return ParseAlterTable();
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
  if (AcceptWord("VIEW")) return ParseDropView();
  if (AcceptWord("PROCEDURE")) return ParseDropRoutine(false);
  if (AcceptWord("FUNCTION")) return ParseDropRoutine(true);
  if (AcceptWord("TRIGGER")) {
    DropTrigger d;
    d.if_exists = AcceptWords({"IF", "EXISTS"});
    d.name = QualifiedName();
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

namespace {

// The engine's character set for a set the server has (utf8mb3 is stored as utf8mb4, ascii as
// latin1); 1235 for one it has that the engine does not store, 1115 for a name it does not have.
[[noreturn]] void Unsupported(const std::string& what) { throw Failure{NotSupported(what)}; }

Charset EngineCharset(const std::string& name) {
  const ondisk::CharsetInfo cs = ondisk::CharsetNamed(name);
  const std::string_view n = cs.name ? cs.name : "";
  if (n == "utf8mb4" || n == "utf8mb3") return Charset::kUtf8mb4;
  if (n == "latin1" || n == "ascii") return Charset::kLatin1;
  if (n == "binary") return Charset::kBinary;
  if (!n.empty()) Unsupported("the character set " + std::string(n) + " (Strata stores utf8mb4, latin1 and binary)");
  throw Failure{{1115, "42000", fmt::format("Unknown character set: '{}' (Strata has utf8mb4, latin1, binary)", name)}};
}

struct Collation {
  Charset charset;
  bool binary;       // a *_bin collation (Column::binary_collation)
  std::uint16_t id;  // the server's id (Column::collation_id)
};

// COLLATE's name: a collation Strata compares by, else error 1273 (or 1253 when it is not one
// of `charset`'s).
Collation EngineCollation(const std::string& name, std::optional<Charset> charset) {
  std::optional<Collation> found;
  if (EqualsIgnoreCase(name, "binary")) {
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

// A default character set and collation (a table's or a database's) as the engine keeps them.
struct DefaultCharset {
  std::optional<Charset> charset;
  bool binary = false;
  std::uint16_t collation = 0;
};

DefaultCharset EngineDefault(const std::string& charset, const std::string& collation) {
  DefaultCharset d;
  if (!charset.empty()) d.charset = EngineCharset(charset);
  if (!collation.empty()) {
    const Collation c = EngineCollation(collation, d.charset);
    d.charset = c.charset, d.binary = c.binary, d.collation = c.id;
  }
  return d;
}

struct EngineType {
  std::string_view name;
  ColumnType type;
};

// The types the engine stores, by the grammar's names; the others are refused by name.
constexpr EngineType kEngineTypes[] = {{"TINYINT", ColumnType::kTinyInt},
                                       {"SMALLINT", ColumnType::kSmallInt},
                                       {"MEDIUMINT", ColumnType::kMediumInt},
                                       {"INT", ColumnType::kInt},
                                       {"BIGINT", ColumnType::kBigInt},
                                       {"DECIMAL", ColumnType::kDecimal},
                                       {"FLOAT", ColumnType::kFloat},
                                       {"DOUBLE", ColumnType::kDouble},
                                       {"CHAR", ColumnType::kChar},
                                       {"VARCHAR", ColumnType::kVarchar},
                                       {"BINARY", ColumnType::kBinary},
                                       {"VARBINARY", ColumnType::kVarbinary},
                                       {"DATE", ColumnType::kDate},
                                       {"YEAR", ColumnType::kYear},
                                       {"DATETIME", ColumnType::kDatetime},
                                       {"TIMESTAMP", ColumnType::kTimestamp},
                                       {"TINYTEXT", ColumnType::kTinyText},
                                       {"TEXT", ColumnType::kText},
                                       {"MEDIUMTEXT", ColumnType::kMediumText},
                                       {"LONGTEXT", ColumnType::kLongText},
                                       {"TINYBLOB", ColumnType::kTinyBlob},
                                       {"BLOB", ColumnType::kBlob},
                                       {"MEDIUMBLOB", ColumnType::kMediumBlob},
                                       {"LONGBLOB", ColumnType::kLongBlob},
                                       {"ENUM", ColumnType::kEnum},
                                       {"BIT", ColumnType::kBit},
                                       {"TIME", ColumnType::kTime},
                                       {"UUID", ColumnType::kUuid},
                                       {"JSON", ColumnType::kJson},
                                       {"INET4", ColumnType::kInet4},
                                       {"INET6", ColumnType::kInet6},
                                       {"SET", ColumnType::kSet}};

// CHARACTER SET binary (or COLLATE binary) makes text a byte string, as the server does:
// CHAR becomes BINARY, VARCHAR VARBINARY and each TEXT its BLOB (SHOW CREATE TABLE says so).
void MakeBinaryString(Column& col) {
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

// BLOB(n) and TEXT(n) are the smallest of their family that holds n bytes (TEXT: n characters).
void FitLobToLength(Column& col, std::uint64_t n) {
  if (col.is_string()) n *= col.charset == Charset::kLatin1 ? 1 : 4;
  const bool text = col.is_string();
  const int size = n < 256 ? 0 : n < 65536 ? 1 : n < (1u << 24) ? 2 : 3;  // TINY, plain, MEDIUM, LONG
  col.type = static_cast<ColumnType>(static_cast<int>(text ? ColumnType::kTinyText : ColumnType::kTinyBlob) + size);
}

// What a character set the engine stores as another lets through, said when a column is
// declared in it: utf8mb3 is kept as utf8mb4, ascii as latin1.
std::optional<std::string> WiderCharsetNote(const std::string& charset, const std::string& collation,
                                            const std::string& column) {
  const ondisk::CharsetInfo cs =
      !collation.empty() ? ondisk::CharsetOfCollationNamed(collation) : ondisk::CharsetNamed(charset);
  const std::string_view n = cs.name ? cs.name : "";
  if (n == "utf8mb3")
    return "CHARACTER SET utf8mb3 of `" + column + "` (stored as utf8mb4 here: characters of 4 bytes are accepted)";
  if (n == "ascii")
    return "CHARACTER SET ascii of `" + column + "` (stored as latin1 here: latin1's characters are accepted)";
  return std::nullopt;
}

// An ENUM's or SET's labels as the server keeps them (trailing spaces gone), refused as it
// refuses them: a SET of more than 64 (1097), a SET label with a comma (1367), a label twice
// by the column's collation (1291).
void CheckElements(Column& col) {
  const char* type = col.type == ColumnType::kEnum ? "ENUM" : "SET";
  if (col.elements.size() > (col.type == ColumnType::kEnum ? 65535u : 64u))
    throw Failure{{1097, "HY000", fmt::format("Too many strings for column {} and {}", col.name, type)}};
  const engine::TextRule rule = engine::TextRuleOf(col);
  for (std::size_t i = 0; i < col.elements.size(); ++i) {
    std::string& label = col.elements[i];
    label.erase(label.find_last_not_of(' ') + 1);
    if (col.type == ColumnType::kSet && label.find(',') != std::string::npos)
      throw Failure{{1367, "22007", fmt::format("Illegal set '{}' value found during parsing", label)}};
    for (std::size_t k = 0; k < i; ++k) {
      if (engine::CompareUtf8(rule, col.elements[k], label) == 0)
        throw Failure{{1291, "HY000",
                       fmt::format("Column '{}' has duplicated value '{}' in {}", col.name, col.elements[k], type)}};
    }
  }
}

// An ENUM's or SET's DEFAULT: the number of the label(s) it names, or NULL. A number, or text
// naming no label, is refused as the server refuses it (1067), though INSERT takes numbers.
Value ElementsDefault(const Column& col, const SqlValue& literal) {
  if (literal.value.is_null()) return literal.value;
  const engine::ElementMatch m =
      literal.value.is_string() && !literal.hex_number && literal.kind != LiteralKind::kDecimal
          ? engine::MatchElements(col, literal.value.as_string())
          : engine::ElementMatch{0, false};
  if (!m.complete) throw Failure{{1067, "42000", fmt::format("Invalid default value for '{}'", col.name)}};
  return Value::UInt(m.number);
}

std::vector<std::string> KeyColumnNames(const KeyText& k) {
  std::vector<std::string> names;
  for (const KeyPart& p : k.parts) names.push_back(p.column);
  return names;
}

}  // namespace

sql::Statement Parser::ParseCreate() {
  ++i_;
  const bool or_replace = AcceptWords({"OR", "REPLACE"});
  if (Peek().IsWord("ALGORITHM") || Peek().IsWord("VIEW") || Peek().IsWord("SQL") ||
      (Peek().IsWord("DEFINER") && ViewFollows())) {
    CreateView v;
    v.or_replace = or_replace;
    ViewOptions(v);
    return ParseCreateView(std::move(v));
  }
  const std::string definer = Definer();
  if (Peek().IsWord("PROCEDURE") || Peek().IsWord("FUNCTION")) return ParseCreateRoutine(definer, or_replace);
  if (Peek().IsWord("TRIGGER")) return ParseCreateTrigger(definer, or_replace);
  if (AcceptWord("DATABASE") || AcceptWord("SCHEMA")) {
    CreateDatabase c;
    c.if_not_exists = AcceptWords({"IF", "NOT", "EXISTS"});
    c.name = Name();
    // Checked as the server checks them; a database keeps no default collation here, so a
    // _bin one (which tables without their own COLLATE would take) is said to be ignored.
    std::string charset, collation;
    while (!AtEnd() && !Peek().IsPunct(";")) {
      AcceptWord("DEFAULT");
      if (!ReadCharsetOption(*this, &charset, &collation)) ++i_;  // COMMENT, ...: accepted
    }
    const DefaultCharset d = EngineDefault(charset, collation);
    if (d.charset && *d.charset != Charset::kUtf8mb4) {
      c.ignored.push_back("the database's default character set " + (charset.empty() ? collation : charset) +
                          " (tables in it are utf8mb4 unless their CREATE TABLE names another)");
    } else if (d.collation != 0 && d.collation != engine::DefaultCollation(d.charset == Charset::kLatin1).id) {
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
    for (const KeyPart& p : ReadKeyParts(*this)) {
      // The engine indexes whole columns, which orders and finds the same rows for a
      // non-unique key; a unique prefix would forbid rows a whole-column key allows.
      if (p.column.empty()) Unsupported("functional key parts");
      if (p.prefix && unique) Unsupported("prefix indexes (column(length)) in a unique or primary key");
      c.index.columns.push_back(p.column);
    }
    ReadIndexOptions(*this);
    return c;
  }
  if (unique) Syntax();
  if (AcceptWord("TEMPORARY")) Unsupported("CREATE TEMPORARY TABLE");
  if (!AcceptWord("TABLE")) Unsupported("CREATE " + Peek().text);
  return ParseCreateTable();
}

// DEFINER as dumps write it (routines and views here run with the caller's rights), kept as
// the server shows it: `user`@`host`.
std::string Parser::Definer() {
  std::string definer = "`root`@`localhost`";
  if (AcceptWord("DEFINER")) {
    ExpectPunct("=");
    if (AcceptWord("CURRENT_USER")) {
      if (AcceptPunct("(")) ExpectPunct(")");
    } else {
      const std::string user = Peek().Is(TokenKind::kString) ? Take().text : Name();
      const std::string host = Peek().Is(TokenKind::kUserVar) ? Take().text : "%";
      definer = ondisk::QuoteIdentifier(user) + "@" + ondisk::QuoteIdentifier(host);
    }
  }
  return definer;
}

// After DEFINER = user: whether SQL SECURITY or VIEW comes next (a view, not a routine).
bool Parser::ViewFollows() const {
  for (std::size_t k = 1; k < 8; ++k) {
    if (Peek(k).IsWord("VIEW") || (Peek(k).IsWord("SQL") && Peek(k + 1).IsWord("SECURITY"))) return true;
    if (Peek(k).IsWord("PROCEDURE") || Peek(k).IsWord("FUNCTION") || Peek(k).IsWord("TRIGGER")) return false;
  }
  return false;
}

sql::Statement Parser::ParseCreateTable() {
  TableText text = ReadCreateTable(*this, false, true);
  if (text.options.partitioned) Unsupported("partitioned tables");
  CreateTable c;
  c.if_not_exists = text.if_not_exists;
  c.table = {text.database, text.name};
  if (!text.like.empty()) {
    const std::size_t dot = text.like.find('.');  // names with a dot come quoted, and are refused
    c.like = dot == std::string::npos ? TableName{"", text.like}
                                      : TableName{text.like.substr(0, dot), text.like.substr(dot + 1)};
    return c;
  }
  const DefaultCharset table = EngineDefault(text.options.charset, text.options.collation);
  for (const ColumnText& col : text.columns) {
    c.spec.columns.push_back(EngineColumn(col, c));
    Column& added = c.spec.columns.back();
    const bool own_charset = !col.type.charset.empty() || !col.type.collation.empty();
    if (!own_charset && table.charset && added.has_collation()) {
      added.charset = *table.charset;
      added.binary_collation = table.binary;
      added.collation_id = table.collation;
    }
    const std::string& charset = own_charset ? col.type.charset : text.options.charset;
    const std::string& collation = own_charset ? col.type.collation : text.options.collation;
    if (added.has_collation()) {
      if (auto note = WiderCharsetNote(charset, collation, col.name)) c.ignored.push_back(*note);
    }
    c.default_now.push_back(col.default_now);
  }
  NameUnnamedKeys(text.keys);
  for (const KeyText& k : text.keys) AddKey(k, c);
  // A UNIQUE written on a column (SERIAL's) that repeats the primary key is dropped, as MariaDB does.
  std::erase_if(c.spec.indexes, [&](const IndexSpec& ix) {
    return ix.unique && ix.columns == c.spec.primary_key && ix.columns.size() == 1 &&
           std::any_of(text.keys.begin(), text.keys.end(),
                       [&](const KeyText& k) { return k.on_column && k.name == ix.name; });
  });
  if (!text.options.engine.empty() && !EqualsIgnoreCase(text.options.engine, "InnoDB"))
    c.ignored.push_back("ENGINE=" + text.options.engine + " (every table here is InnoDB)");
  if (text.options.auto_increment) c.spec.auto_increment = *text.options.auto_increment;
  if (text.select) {
    Seek(*text.select);
    c.select_ignore = AcceptWord("IGNORE");
    c.select_replace = !c.select_ignore && AcceptWord("REPLACE");
    AcceptWord("AS");
    if (!Peek().IsWord("SELECT")) Syntax();
    c.select = std::make_shared<const Select>(std::get<Select>(ParseSelect()));
  }
  c.spec.database = c.table.database;
  c.spec.name = c.table.name;
  UseDeclaredNames(c.spec, c.spec.primary_key);
  for (IndexSpec& ix : c.spec.indexes) UseDeclaredNames(c.spec, ix.columns);
  // Primary key columns are NOT NULL whether or not the definition says so, as in MySQL.
  for (const std::string& k : c.spec.primary_key) {
    for (Column& col : c.spec.columns) {
      if (EqualsIgnoreCase(col.name, k)) col.nullable = false;
    }
  }
  return c;
}

// A key of the definition into `c`: the engine's index, or what it keeps no trace of said.
void Parser::AddKey(const KeyText& k, CreateTable& c) {
  if (std::any_of(k.parts.begin(), k.parts.end(), [](const KeyPart& p) { return p.descending; }))
    c.ignored.push_back("DESC in " + (k.name.empty() ? std::string("the PRIMARY KEY") : "KEY `" + k.name + "`") +
                        " (indexes are ascending here)");
  switch (k.kind) {
    case KeyText::Kind::kPrimary:
      if (std::any_of(k.parts.begin(), k.parts.end(), [](const KeyPart& p) { return p.prefix; }))
        Unsupported("prefix indexes (column(length)) in a unique or primary key");
      c.spec.primary_key = KeyColumnNames(k);
      break;
    case KeyText::Kind::kUnique:
    case KeyText::Kind::kIndex: {
      const bool unique = k.kind == KeyText::Kind::kUnique;
      if (k.functional()) Unsupported("functional key parts");
      const bool prefixed = std::any_of(k.parts.begin(), k.parts.end(), [](const KeyPart& p) { return p.prefix; });
      if (prefixed && unique) Unsupported("prefix indexes (column(length)) in a unique or primary key");
      if (prefixed) c.ignored.push_back("the prefix length in KEY `" + k.name + "` (whole columns are indexed)");
      c.spec.indexes.push_back({k.name, KeyColumnNames(k), unique});
      break;
    }
    case KeyText::Kind::kFulltext:
    case KeyText::Kind::kSpatial:
      c.ignored.push_back(k.kind == KeyText::Kind::kSpatial
                              ? "SPATIAL KEY `" + k.name + "` (Strata keeps no R-tree; spatial queries scan the table)"
                              : "FULLTEXT KEY `" + k.name +
                                    "` (Strata keeps no full-text index; MATCH is not supported)");
      break;
    case KeyText::Kind::kForeign: {
      ForeignKeyDecl d;
      // MariaDB names the constraint after FOREIGN KEY's own name when CONSTRAINT gave none.
      d.spec.name = k.name.empty() ? k.index_name : k.name;
      d.index_name = k.name.empty() ? k.index_name : k.name;
      d.spec.columns = k.foreign.columns;
      d.spec.ref_database = k.foreign.ref_database;
      d.spec.ref_table = k.foreign.ref_table;
      d.spec.ref_columns = k.foreign.ref_columns;
      if (d.spec.ref_columns.empty()) Syntax();  // REFERENCES t without its columns
      d.spec.on_delete = ForeignKeyActionNamed(k.foreign.on_delete);
      d.spec.on_update = ForeignKeyActionNamed(k.foreign.on_update);
      for (const std::string* action : {&k.foreign.on_delete, &k.foreign.on_update}) {
        if (*action == "SET DEFAULT")  // InnoDB's too: the key refuses the change instead
          c.ignored.push_back(std::string("ON ") + (action == &k.foreign.on_delete ? "DELETE" : "UPDATE") +
                              " SET DEFAULT (InnoDB keeps the child rows' values and refuses the change)");
      }
      c.foreign_keys.push_back(std::move(d));
      break;
    }
    case KeyText::Kind::kCheck:
      c.ignored.push_back("CHECK constraint");
      break;
  }
}

// The engine's column for a definition: the types and character sets it stores, each other
// refused by name; clauses it keeps no trace of said in `c.ignored`.
Column Parser::EngineColumn(const ColumnText& text, CreateTable& c) {
  const TypeText& t = text.type;
  Column col;
  col.name = text.name;
  const auto found = std::find_if(std::begin(kEngineTypes), std::end(kEngineTypes),
                                  [&](const EngineType& e) { return e.name == t.name; });
  const auto shape = ondisk::GeometryTypeNamed(t.name == "GEOMCOLLECTION" ? "GEOMETRYCOLLECTION" : t.name);
  if (found == std::end(kEngineTypes) && !shape) Unsupported("the column type " + t.name);
  col.type = shape ? ColumnType::kGeometry : found->type;
  if (shape) col.length = static_cast<std::uint32_t>(*shape);  // the shape it takes
  if (col.is_integer()) {
    col.length = t.zerofill ? t.Arg(0, 0) : 0;  // the display width: what ZEROFILL pads to
  } else if (col.type == ColumnType::kDecimal) {
    col.length = t.Arg(0, 10), col.scale = t.Arg(1, 0);
  } else if (col.type == ColumnType::kFloat || col.type == ColumnType::kDouble) {
    if (t.args.size() == 2) col.length = t.Arg(0, 0), col.scale = t.Arg(1, 0);
  } else if (col.type == ColumnType::kDatetime || col.type == ColumnType::kTimestamp || col.type == ColumnType::kTime) {
    col.scale = t.Arg(0, 0);
  } else if (col.type == ColumnType::kYear) {
    if (t.Arg(0, 4) != 4) Unsupported("YEAR(" + t.args[0] + ")");  // MySQL 8.0 has only YEAR(4)
  } else if (col.has_elements()) {
    col.elements = t.args;  // checked once the collation they compare by is known
  } else if (col.type == ColumnType::kBit) {
    col.length = std::max(t.Arg(0, 1), 1u);  // BIT(0) is BIT(1), as the server has it
    if (col.length > 64)
      throw Failure{{1439, "42000", fmt::format("Display width out of range for '{}' (max = 64)", col.name)}};
  } else if (!col.is_lob() && col.type != ColumnType::kDate && !engine::IsUuidOrInet(col.type) &&
             col.type != ColumnType::kGeometry) {
    col.length = t.Arg(0, 1);
  }
  col.is_unsigned = t.is_unsigned;
  col.zerofill = t.zerofill;
  col.nullable = text.nullable;
  col.auto_increment = text.auto_increment;
  if (col.type == ColumnType::kBinary || col.type == ColumnType::kVarbinary || (col.is_lob() && !col.is_string()))
    col.charset = Charset::kBinary;
  if (col.has_collation()) {
    const DefaultCharset own = EngineDefault(t.charset, t.collation);
    if (own.charset) col.charset = *own.charset;
    col.binary_collation = own.binary;
    col.collation_id = own.collation;
    if (t.binary && !own.collation) {  // VARCHAR(10) BINARY: its charset's _bin collation
      const Collation bin = EngineCollation(col.charset == Charset::kLatin1 ? "latin1_bin" : "utf8mb4_bin", {});
      col.binary_collation = bin.binary, col.collation_id = bin.id;
    }
    if (col.charset == Charset::kBinary && col.is_string()) MakeBinaryString(col);
    if (col.has_elements()) CheckElements(col);
  } else if (!t.collation.empty()) {
    EngineCollation(t.collation, std::nullopt);  // checked as the server checks it, though unused
  }
  if (col.is_lob() && !t.args.empty()) FitLobToLength(col, t.Arg(0, 0));
  if (auto literal = DefaultValue(text)) {
    col.default_value = col.has_elements() ? ElementsDefault(col, *literal)
                                           : ToColumn(*literal, col);  // as a value assigned: 0x10 is 16 in an INT
    // A BIT's or TIME's default is kept as it is stored ('a' is b'1100001', '1:2' 01:02:00), as
    // the server shows it.
    if (auto stored = engine::StoredValue(col, *col.default_value);
        (col.type == ColumnType::kBit || col.type == ColumnType::kTime || engine::IsUuidOrInet(col.type)) &&
        stored.ok())
      col.default_value = std::move(*stored);
    // A YEAR's default is kept as the year it stands for ('24' is 2024), as the server shows it.
    if (auto year = col.type == ColumnType::kYear ? YearConstant(*literal) : std::nullopt; year && *year >= 0)
      col.default_value = Value::UInt(static_cast<std::uint64_t>(*year));
  }
  if (text.on_update_now) c.ignored.push_back("ON UPDATE CURRENT_TIMESTAMP of `" + col.name + "`");
  if (text.generated != ColumnText::Generated::kNo) Unsupported("generated columns");
  for (const std::string& constraint : text.constraints)
    c.ignored.push_back(Upper(constraint.substr(0, constraint.find_first_of(" ("))) + " on `" + col.name + "`");
  if (t.compressed) c.ignored.push_back("COMPRESSED of `" + col.name + "` (its values are stored uncompressed)");
  if (text.invisible) c.ignored.push_back("INVISIBLE of `" + col.name + "` (SELECT * shows it here)");
  return col;
}

// DEFAULT's value: a literal (signed numbers folded into one), else refused.
std::optional<SqlValue> Parser::DefaultValue(const ColumnText& text) {
  if (text.default_value.empty()) return std::nullopt;
  const std::size_t resume = i_;
  i_ = text.default_value.begin;
  ExprPtr e = Unary();
  if (e->kind != Expr::Kind::kLiteral || i_ != text.default_value.end) Unsupported("a DEFAULT that is not a literal");
  i_ = resume;
  SqlValue v{e->value, e->literal_kind};
  v.hex_number = e->hex_number;
  return v;
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
