#include "sqltext/definition.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <string_view>
#include <utility>

#include "ondisk/identifier.h"

namespace strata::sqltext {

namespace {

bool IsNumberType(std::string_view t) {
  static constexpr std::string_view kNumbers[] = {"TINYINT", "SMALLINT", "MEDIUMINT", "INT",
                                                  "BIGINT",  "DECIMAL",  "FLOAT",     "DOUBLE"};
  return std::find(std::begin(kNumbers), std::end(kNumbers), t) != std::end(kNumbers);
}

bool IsIntegerType(std::string_view t) {
  return t == "TINYINT" || t == "SMALLINT" || t == "MEDIUMINT" || t == "INT" || t == "BIGINT";
}

// The server's word for a type's synonym, and the multi-word spellings folded into one.
std::string CanonicalTypeName(Cursor& c, std::string word) {
  struct Synonym {
    std::string_view word, name;
  };
  static constexpr Synonym kSynonyms[] = {{"INTEGER", "INT"},
                                          {"INT1", "TINYINT"},
                                          {"INT2", "SMALLINT"},
                                          {"INT3", "MEDIUMINT"},
                                          {"INT4", "INT"},
                                          {"INT8", "BIGINT"},
                                          {"FLOAT4", "FLOAT"},
                                          {"FLOAT8", "DOUBLE"},
                                          {"MIDDLEINT", "MEDIUMINT"},
                                          {"BOOL", "TINYINT"},
                                          {"BOOLEAN", "TINYINT"},
                                          {"DEC", "DECIMAL"},
                                          {"NUMERIC", "DECIMAL"},
                                          {"FIXED", "DECIMAL"},
                                          {"REAL", "DOUBLE"},
                                          {"CHARACTER", "CHAR"},
                                          {"NCHAR", "CHAR"},
                                          {"NVARCHAR", "VARCHAR"},
                                          {"GEOMCOLLECTION", "GEOMETRYCOLLECTION"}};
  if (word == "NATIONAL") {  // NATIONAL CHAR [VARYING], NATIONAL VARCHAR: utf8 text
    word = Upper(c.Take().text);
    if (word == "CHARACTER") word = "CHAR";
  }
  if (word == "LONG") {  // LONG, LONG VARCHAR: MEDIUMTEXT; LONG VARBINARY: MEDIUMBLOB
    if (c.AcceptWord("VARBINARY")) return "MEDIUMBLOB";
    c.AcceptWord("VARCHAR");
    return "MEDIUMTEXT";
  }
  if (word == "DOUBLE") c.AcceptWord("PRECISION");
  for (const Synonym& s : kSynonyms) {
    if (word == s.word) word = s.name;
  }
  if (word == "CHAR" && (c.AcceptWord("VARYING") || c.AcceptWord("VARCHAR"))) return "VARCHAR";  // NCHAR VARCHAR too
  return word;
}

[[noreturn]] void Refuse(unsigned code, const char* sqlstate, std::string message) {
  throw Failure{{code, sqlstate, std::move(message)}};
}

// FLOAT(p), FLOAT(M,D), DOUBLE(M,D) as the server reads them: FLOAT(p) is a FLOAT up to 24
// bits of precision and a DOUBLE above, with no (M,D) of its own.
void CheckFloat(TypeText& t, const std::string& column) {
  if (t.args.size() == 1) {
    const std::uint32_t p = t.Arg(0, 0);
    if (p > 53) Refuse(1063, "42000", fmt::format("Incorrect column specifier for column '{}'", column));
    if (p > 24) t.name = "DOUBLE";
    t.args.clear();
  } else if (t.args.size() == 2) {
    const std::uint32_t m = t.Arg(0, 0), d = t.Arg(1, 0);
    if (m > 255) Refuse(1439, "42000", fmt::format("Display width out of range for '{}' (max = 255)", column));
    if (d > m)
      Refuse(1427, "42000",
             fmt::format("For float(M,D), double(M,D) or decimal(M,D), M must be >= D (column '{}')", column));
    if (d > 30) Refuse(1425, "42000", fmt::format("Too big scale specified for '{}'. Maximum is 30", column));
  }
}

void ReadTypeArgs(Cursor& c, TypeText& t) {
  if (!c.AcceptPunct("(")) return;
  const bool labels = t.name == "ENUM" || t.name == "SET";
  do {
    if (labels)
      t.args.push_back(c.StringLiteral());
    else
      t.args.push_back(std::to_string(c.Unsigned()));
  } while (c.AcceptPunct(","));
  if (t.name == "DOUBLE" && t.args.size() == 1) c.Syntax();  // DOUBLE takes (M,D) or nothing
  c.ExpectPunct(")");
}

// DEFAULT's value: the current time (CURRENT_TIMESTAMP, NOW(), LOCALTIME, LOCALTIMESTAMP,
// each with an optional precision), or a literal, a signed number, a function call or a
// parenthesised expression whose tokens are left to the reader that evaluates them.
void ReadDefault(Cursor& c, ColumnText& col) {
  for (std::string_view now : {"CURRENT_TIMESTAMP", "NOW", "LOCALTIME", "LOCALTIMESTAMP"}) {
    if (c.AcceptWord(now)) {
      if (c.Peek().IsPunct("(")) c.SkipGroup();
      col.default_now = true;
      return;
    }
  }
  col.default_value.begin = c.position();
  while (c.AcceptPunct("-") || c.AcceptPunct("+")) {
  }
  if (c.Peek().IsPunct("(")) {
    c.SkipGroup();
  } else {
    if (c.AtEnd() || c.Peek().Is(TokenKind::kPunct)) c.Syntax();
    const TokenKind first = c.Take().kind;
    const bool word = first == TokenKind::kWord;
    // _utf8mb4'x', b'01', DATE '2020-01-01': a word and the string it qualifies; 'a' 'b': one
    // string written in parts; f(x): a call.
    if (word || first == TokenKind::kString) {
      while (c.Peek().Is(TokenKind::kString) || (word && c.Peek().Is(TokenKind::kHex))) c.Take();
    }
    if (word && c.Peek().IsPunct("(")) c.SkipGroup();
  }
  col.default_value.end = c.position();
}

// CHECK (...), REFERENCES t (...) [ON ...], CONSTRAINT name CHECK (...): the clause as written.
// REFERENCES [db.]table [(columns)] [MATCH ...] [ON DELETE|UPDATE action]..., into `fk`.
void ReadReferences(Cursor& c, ForeignKeyText& fk) {
  c.ExpectWord("REFERENCES");
  fk.ref_table = c.Name();
  if (c.AcceptPunct(".")) fk.ref_database = std::exchange(fk.ref_table, c.Name());
  if (c.Peek().IsPunct("(")) {
    for (const KeyPart& p : ReadKeyParts(c)) {
      if (p.column.empty()) c.Syntax();
      fk.ref_columns.push_back(p.column);
    }
  }
  if (c.AcceptWord("MATCH") && !(c.AcceptWord("FULL") || c.AcceptWord("PARTIAL") || c.AcceptWord("SIMPLE"))) c.Syntax();
  while (c.AcceptWord("ON")) {
    const bool del = c.AcceptWord("DELETE");
    if (!del) c.ExpectWord("UPDATE");
    std::string& action = del ? fk.on_delete : fk.on_update;
    if (c.AcceptWord("RESTRICT"))
      action = "RESTRICT";
    else if (c.AcceptWord("CASCADE"))
      action = "CASCADE";
    else if (c.AcceptWords({"SET", "NULL"}))
      action = "SET NULL";
    else if (c.AcceptWords({"SET", "DEFAULT"}))
      action = "SET DEFAULT";
    else if (c.AcceptWords({"NO", "ACTION"}))
      action = "NO ACTION";
    else
      c.Syntax();
  }
}

// CHECK (...) or REFERENCES ... written on a column: the CHECK's text, or nothing when the
// column's `references` took it.
std::optional<std::string> ReadColumnConstraint(Cursor& c, ColumnText& col) {
  const std::size_t from = c.Peek().offset;
  if (c.AcceptWord("CONSTRAINT") && !c.Peek().IsWord("CHECK")) c.Name();
  if (c.AcceptWord("CHECK")) {
    c.SkipGroup();
    c.AcceptWords({"NOT", "ENFORCED"}) || c.AcceptWord("ENFORCED");
    return c.Trimmed(from, c.Peek().offset);
  }
  ForeignKeyText fk;
  fk.columns.push_back(col.name);
  ReadReferences(c, fk);
  col.references = std::move(fk);
  return std::nullopt;
}

// GENERATED ALWAYS AS (expr) or AS (expr), then VIRTUAL, STORED or PERSISTENT (VIRTUAL when
// not said).
void ReadGenerated(Cursor& c, ColumnText& col) {
  c.SkipGroup();
  const bool stored = c.AcceptWord("STORED") || c.AcceptWord("PERSISTENT");
  if (!stored) c.AcceptWord("VIRTUAL");
  col.generated = stored ? ColumnText::Generated::kStored : ColumnText::Generated::kVirtual;
}

// One attribute after the type; false when the next token starts none.
bool ReadColumnAttribute(Cursor& c, ColumnText& col) {
  TypeText& type = col.type;
  if (c.AcceptWords({"NOT", "NULL"})) {
    col.nullable = false;
  } else if (c.AcceptWord("NULL")) {
    col.nullable = true;
  } else if (c.AcceptWord("AUTO_INCREMENT")) {
    col.auto_increment = true;
  } else if (c.AcceptWords({"CHARACTER", "SET"}) || c.AcceptWord("CHARSET")) {
    type.charset = c.OptionValue();
    if (c.AcceptWord("BINARY")) type.binary = true;  // CHARACTER SET latin1 BINARY: its _bin collation
  } else if (c.AcceptWord("COLLATE")) {
    type.collation = c.OptionValue();
  } else if (c.AcceptWord("DEFAULT")) {
    ReadDefault(c, col);
  } else if (c.AcceptWords({"ON", "UPDATE"})) {
    if (!c.AcceptWord("CURRENT_TIMESTAMP") && !c.AcceptWord("NOW") && !c.AcceptWord("LOCALTIMESTAMP") &&
        !c.AcceptWord("LOCALTIME"))
      c.Syntax();
    if (c.Peek().IsPunct("(")) c.SkipGroup();
    col.on_update_now = true;
  } else if (c.AcceptWords({"PRIMARY", "KEY"}) || c.AcceptWord("KEY")) {
    col.primary_key = true;
    col.nullable = false;
  } else if (c.AcceptWord("UNIQUE")) {
    c.AcceptWord("KEY");
    col.unique_key = true;
  } else if (c.AcceptWord("COMMENT")) {
    col.comment = c.StringLiteral();
  } else if (c.AcceptWord("INVISIBLE")) {
    col.invisible = true;
  } else if (c.AcceptWord("VISIBLE")) {
  } else if (c.AcceptWords({"GENERATED", "ALWAYS", "AS"}) || (c.Peek(1).IsPunct("(") && c.AcceptWord("AS"))) {
    ReadGenerated(c, col);
  } else if (c.AcceptWord("COMPRESSED")) {
    type.compressed = true;
    if (c.AcceptPunct("=")) c.OptionValue();  // MariaDB names the method: zlib
  } else if (c.AcceptWord("COLUMN_FORMAT") || c.AcceptWord("STORAGE") || c.AcceptWord("SRID")) {
    c.OptionValue();  // how NDB stores it; a spatial column's reference system: no bytes change
  } else if (c.AcceptWords({"SERIAL", "DEFAULT", "VALUE"})) {
    col.nullable = false, col.auto_increment = true, col.unique_key = true;
  } else if (c.Peek().IsWord("CHECK") || c.Peek().IsWord("REFERENCES") || c.Peek().IsWord("CONSTRAINT")) {
    if (auto check = ReadColumnConstraint(c, col)) col.constraints.push_back(std::move(*check));
  } else {
    return false;
  }
  return true;
}

// A key's name, when written: what stands before its parts or USING.
void ReadKeyName(Cursor& c, KeyText& k) {
  if (c.Peek().IsPunct("(") || c.Peek().IsWord("USING")) return;
  k.name = c.Name();
  k.named = true;
}

}  // namespace

KeyText ReadKey(Cursor& c, std::string constraint) {
  using Kind = KeyText::Kind;
  KeyText k;
  k.offset = c.Peek().offset;
  if (c.AcceptWord("FOREIGN")) {
    k.kind = Kind::kForeign;
    c.ExpectWord("KEY");
    if (!c.Peek().IsPunct("(")) k.index_name = c.Name();
    for (const KeyPart& p : ReadKeyParts(c)) {
      if (p.column.empty()) c.Syntax();
      k.foreign.columns.push_back(p.column);
    }
    ReadReferences(c, k.foreign);
    k.text = (constraint.empty() ? "" : "CONSTRAINT " + ondisk::QuoteIdentifier(constraint) + " ") +
             c.Trimmed(k.offset, c.Peek().offset);
    k.name = std::move(constraint);
    return k;
  }
  if (c.Peek().IsWord("CHECK")) {
    k.kind = Kind::kCheck;
    c.Take();
    c.SkipBalanced();
    k.text = (constraint.empty() ? "" : "CONSTRAINT " + ondisk::QuoteIdentifier(constraint) + " ") +
             c.Trimmed(k.offset, c.Peek().offset);
    k.name = std::move(constraint);
    return k;
  }
  if (c.AcceptWords({"PRIMARY", "KEY"})) {
    k.kind = Kind::kPrimary;
  } else if (c.AcceptWord("UNIQUE")) {
    k.kind = Kind::kUnique;
    c.AcceptWord("KEY") || c.AcceptWord("INDEX");
    ReadKeyName(c, k);
  } else if (c.Peek().IsWord("FULLTEXT") || c.Peek().IsWord("SPATIAL")) {
    k.kind = c.Take().IsWord("FULLTEXT") ? Kind::kFulltext : Kind::kSpatial;
    c.AcceptWord("KEY") || c.AcceptWord("INDEX");
    ReadKeyName(c, k);
  } else {
    c.AcceptWord("KEY") || c.AcceptWord("INDEX");
    ReadKeyName(c, k);
  }
  if (c.AcceptWord("USING")) c.Name();
  k.parts = ReadKeyParts(c);
  ReadIndexOptions(c);
  if (k.name.empty() && k.kind != Kind::kPrimary) k.name = std::move(constraint);
  return k;
}

bool StartsKey(const Cursor& c) {
  for (std::string_view w : {"PRIMARY", "UNIQUE", "KEY", "INDEX", "FULLTEXT", "SPATIAL", "FOREIGN", "CHECK"}) {
    if (c.Peek().IsWord(w)) return true;
  }
  return false;
}

void ReadTableOption(Cursor& c, TableOptions& o) {
  c.AcceptWord("DEFAULT");
  if (ReadCharsetOption(c, &o.charset, &o.collation)) return;
  if (c.Peek().IsWord("PARTITION")) {  // each partition's file has the table's layout
    o.partitioned = true;
    while (!c.AtEnd() && !c.Peek().IsPunct(";")) c.Take();
    return;
  }
  if (!c.Peek().Is(TokenKind::kWord)) c.Syntax();
  const std::string option = Upper(c.Take().text);
  if (option == "DATA" || option == "INDEX") c.AcceptWord("DIRECTORY");
  c.AcceptPunct("=");
  if (option == "AUTO_INCREMENT") {
    o.auto_increment = c.Unsigned();
    return;
  }
  const std::string value = c.OptionValue();  // KEY_BLOCK_SIZE, STATS_*, PAGE_CHECKSUM, ...: read
  if (option == "ENGINE") o.engine = value;
  if (option == "ROW_FORMAT") o.row_format = value;
  if (option == "COMMENT") o.comment = value;
}

namespace {

bool StartsSelect(const Cursor& c) {
  return c.Peek().IsWord("SELECT") || c.Peek().IsWord("AS") || c.Peek().IsWord("IGNORE") || c.Peek().IsWord("REPLACE");
}

// The options, up to the end or to the SELECT of CREATE TABLE ... SELECT (its position kept in
// `select` when the caller reads it).
void ReadTableOptions(Cursor& c, TableOptions& o, bool with_select, std::optional<std::size_t>& select) {
  while (!c.AtEnd() && !c.Peek().IsPunct(";")) {
    c.AcceptPunct(",");
    if (StartsSelect(c)) {
      if (!with_select) c.Unsupported("CREATE TABLE ... SELECT");
      select = c.position();
      return;
    }
    ReadTableOption(c, o);
    if (o.partitioned) return;
  }
}

}  // namespace

std::uint32_t TypeText::Arg(std::size_t i, std::uint32_t otherwise) const {
  return i < args.size() ? static_cast<std::uint32_t>(std::strtoul(args[i].c_str(), nullptr, 10)) : otherwise;
}

bool KeyText::functional() const {
  return std::any_of(parts.begin(), parts.end(), [](const KeyPart& p) { return p.column.empty(); });
}

TypeText ReadType(Cursor& c, const std::string& column) {
  if (!c.Peek().Is(TokenKind::kWord)) c.Syntax();
  TypeText t;
  const std::string word = Upper(c.Take().text);
  const bool boolean = word == "BOOL" || word == "BOOLEAN";
  t.name = CanonicalTypeName(c, word);
  ReadTypeArgs(c, t);
  if (boolean) t.args = {"1"};
  if ((t.name == "VARCHAR" || t.name == "VARBINARY") && t.args.empty()) c.Syntax();
  if (IsIntegerType(t.name) && t.Arg(0, 0) > 255)
    Refuse(1439, "42000", fmt::format("Display width out of range for '{}' (max = 255)", column));
  if (t.name == "FLOAT" || t.name == "DOUBLE") CheckFloat(t, column);
  while (true) {
    if (c.AcceptWord("UNSIGNED")) {
      t.is_unsigned = true;
    } else if (c.AcceptWord("SIGNED")) {
    } else if (c.Peek().IsWord("ZEROFILL")) {
      if (!IsNumberType(t.name)) c.Syntax();  // a number's attribute only
      c.Take();
      t.zerofill = t.is_unsigned = true;
    } else if (c.AcceptWord("BINARY")) {
      t.binary = true;
    } else if (c.AcceptWord("ASCII")) {  // CHARACTER SET latin1, as the server reads it
      t.charset = "latin1";
    } else if (c.AcceptWord("UNICODE")) {  // CHARACTER SET ucs2
      t.charset = "ucs2";
    } else if (c.AcceptWord("BYTE")) {  // CHARACTER SET binary
      t.charset = "binary";
    } else {
      return t;
    }
  }
}

std::vector<KeyPart> ReadKeyParts(Cursor& c) {
  std::vector<KeyPart> parts;
  c.ExpectPunct("(");
  do {
    KeyPart p;
    if (c.Peek().IsPunct("(")) {
      c.SkipGroup();  // an expression: a functional key part
    } else {
      p.column = c.Name();
      if (c.AcceptPunct("(")) {
        p.prefix = static_cast<std::uint32_t>(c.Unsigned());
        c.ExpectPunct(")");
      }
    }
    if (c.AcceptWord("DESC"))
      p.descending = true;
    else
      c.AcceptWord("ASC");
    parts.push_back(std::move(p));
  } while (c.AcceptPunct(","));
  c.ExpectPunct(")");
  return parts;
}

void ReadIndexOptions(Cursor& c) {
  while (true) {
    if (c.AcceptWord("USING") || c.AcceptWord("WITH") || c.AcceptWord("ALGORITHM") || c.AcceptWord("LOCK")) {
      c.AcceptWord("PARSER");
      c.AcceptPunct("=");
      c.OptionValue();
    } else if (c.AcceptWord("COMMENT")) {
      c.StringLiteral();
    } else if (c.AcceptWord("KEY_BLOCK_SIZE")) {
      c.AcceptPunct("=");
      c.Unsigned();
    } else if (c.AcceptWord("VISIBLE") || c.AcceptWord("INVISIBLE") || c.AcceptWord("IGNORED") ||
               c.AcceptWords({"NOT", "IGNORED"})) {
    } else {
      return;
    }
  }
}

bool ReadCharsetOption(Cursor& c, std::string* charset, std::string* collation) {
  if (c.AcceptWord("CHARSET") || c.AcceptWords({"CHARACTER", "SET"})) {
    c.AcceptPunct("=");
    *charset = c.OptionValue();
    return true;
  }
  if (!c.AcceptWord("COLLATE")) return false;
  c.AcceptPunct("=");
  *collation = c.OptionValue();
  return true;
}

ColumnText ReadColumn(Cursor& c) {
  ColumnText col;
  col.offset = c.Peek().offset;
  col.name = c.Name();
  const bool serial = c.Peek().IsWord("SERIAL");  // BIGINT UNSIGNED NOT NULL AUTO_INCREMENT UNIQUE
  if (serial) {
    c.Take();
    col.type.name = "BIGINT";
    col.type.is_unsigned = true;
    col.nullable = false, col.auto_increment = true, col.unique_key = true;
  } else {
    col.type = ReadType(c, col.name);
  }
  while (ReadColumnAttribute(c, col)) {
  }
  return col;
}

TableText ReadCreateTable(Cursor& c, bool temporary, bool with_select) {
  TableText t;
  t.temporary = temporary;
  t.if_not_exists = c.AcceptWords({"IF", "NOT", "EXISTS"});
  t.name = c.Name();
  if (c.AcceptPunct(".")) t.database = std::exchange(t.name, c.Name());
  const bool parenthesised_like = c.Peek().IsPunct("(") && c.Peek(1).IsWord("LIKE");
  if (parenthesised_like) c.Take();
  if (c.AcceptWord("LIKE")) {
    t.like = c.Name();
    if (c.AcceptPunct(".")) t.like += "." + c.Name();
    if (parenthesised_like) c.ExpectPunct(")");
    return t;
  }
  if (StartsSelect(c) || c.Peek().IsPunct(";") || c.AtEnd()) {  // no columns: the SELECT's (or options first)
    if (!StartsSelect(c)) c.ExpectPunct("(");
    if (!with_select) c.Unsupported("CREATE TABLE ... SELECT");
    t.select = c.position();
    return t;
  }
  if (!c.Peek().IsPunct("(")) {  // options, then the SELECT
    ReadTableOptions(c, t.options, with_select, t.select);
    if (!t.select) c.ExpectPunct("(");
    return t;
  }
  c.ExpectPunct("(");
  do {
    std::string constraint;
    if (c.AcceptWord("CONSTRAINT") && !StartsKey(c)) constraint = c.Name();
    if (StartsKey(c)) {
      t.keys.push_back(ReadKey(c, std::move(constraint)));
    } else {
      t.columns.push_back(ReadColumn(c));
      const ColumnText& col = t.columns.back();
      auto on_column = [&](KeyText::Kind kind) {
        KeyText k;
        k.kind = kind;
        k.parts = {{col.name}};
        k.offset = col.offset;
        k.on_column = true;
        return k;
      };
      if (col.primary_key) t.keys.push_back(on_column(KeyText::Kind::kPrimary));
      if (col.unique_key) t.keys.push_back(on_column(KeyText::Kind::kUnique));
      if (col.references) {  // MariaDB keeps it as a FOREIGN KEY of the table
        KeyText k = on_column(KeyText::Kind::kForeign);
        k.parts.clear();
        k.foreign = *col.references;
        t.keys.push_back(std::move(k));
      }
    }
  } while (c.AcceptPunct(","));
  c.ExpectPunct(")");
  ReadTableOptions(c, t.options, with_select, t.select);
  if (std::count_if(t.keys.begin(), t.keys.end(), [](const KeyText& k) { return k.kind == KeyText::Kind::kPrimary; }) >
      1)
    Refuse(1068, "42000", "Multiple primary key defined");
  return t;
}

void NameUnnamedKeys(std::vector<KeyText>& keys) {
  for (std::size_t i = 0; i < keys.size(); ++i) {
    KeyText& k = keys[i];
    if (!k.name.empty() || k.named || k.kind == KeyText::Kind::kPrimary || k.kind == KeyText::Kind::kForeign ||
        k.kind == KeyText::Kind::kCheck || k.parts.empty() || k.parts.front().column.empty())
      continue;
    auto taken = [&](const std::string& name) {
      if (Upper(name) == "PRIMARY") return true;
      for (std::size_t j = 0; j < i; ++j) {  // as the server: only the keys before it
        if (Upper(keys[j].name) == Upper(name)) return true;
      }
      return false;
    };
    const std::string& first = k.parts.front().column;
    k.name = first;
    for (int n = 2; taken(k.name); ++n) k.name = first + "_" + std::to_string(n);
  }
}

}  // namespace strata::sqltext
