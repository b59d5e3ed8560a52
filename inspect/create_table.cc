#include "inspect/create_table.h"

#include <algorithm>
#include <cctype>
#include <optional>

#include "inspect/rows.h"
#include "inspect/sys_columns.h"
#include "ondisk/charsets.h"
#include "ondisk/column_format.h"
#include "ondisk/fil_header.h"
#include "ondisk/index_page.h"
#include "ondisk/page_type.h"

namespace strata::inspect {

using namespace strata::ondisk;

namespace {

struct Token {
  enum Kind { kWord, kQuoted, kString, kNumber, kSymbol, kEnd } kind = kEnd;
  std::string text;  // words upper-cased for matching are compared with Is()
  int line = 1;
};

// MySQL's lexical rules, as much as table definitions need: `quoted` and "quoted" names or
// strings, '' and \ escapes, --, # and /* */ comments, and /*!NNNNN ... */ version comments
// read as the SQL inside them (mysqldump wraps options in them).
std::vector<Token> Tokenize(std::string_view s) {
  std::vector<Token> out;
  int line = 1;
  for (std::size_t i = 0; i < s.size();) {
    const char c = s[i];
    if (c == '\n') ++line;
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
      continue;
    }
    if ((c == '-' && s.substr(i, 3) == "-- ") || c == '#') {
      while (i < s.size() && s[i] != '\n') ++i;
      continue;
    }
    if (s.substr(i, 3) == "/*!" || s.substr(i, 4) == "/*M!") {  // MySQL's and MariaDB's versioned SQL
      i += s[i + 2] == 'M' ? 4 : 3;
      while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i;
      continue;
    }
    if (s.substr(i, 2) == "/*") {
      const auto end = s.find("*/", i + 2);
      for (std::size_t k = i; k < std::min(end, s.size()); ++k) line += s[k] == '\n';
      i = end == std::string_view::npos ? s.size() : end + 2;
      continue;
    }
    if (s.substr(i, 2) == "*/") {
      i += 2;
      continue;
    }
    Token t;
    t.line = line;
    if (c == '`' || c == '\'' || c == '"') {
      t.kind = c == '`' ? Token::kQuoted : Token::kString;
      for (++i; i < s.size(); ++i) {
        if (s[i] == '\n') ++line;
        if (s[i] == '\\' && c != '`' && i + 1 < s.size()) {
          bool keep = false;
          const char u = ondisk::UnescapeSqlChar(s[++i], &keep);
          if (keep) t.text += '\\';
          t.text += u;
        } else if (s[i] == c) {
          if (i + 1 < s.size() && s[i + 1] == c)
            t.text += s[++i];
          else
            break;
        } else {
          t.text += s[i];
        }
      }
      ++i;
    } else if (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' ||
               static_cast<unsigned char>(c) >= 0x80) {
      const bool digits_first = std::isdigit(static_cast<unsigned char>(c));
      while (i < s.size() && (std::isalnum(static_cast<unsigned char>(s[i])) || s[i] == '_' || s[i] == '$' ||
                              static_cast<unsigned char>(s[i]) >= 0x80 || (digits_first && s[i] == '.'))) {
        t.text += s[i++];
      }
      t.kind =
          digits_first && std::all_of(t.text.begin(), t.text.end(),
                                      [](char ch) { return std::isdigit(static_cast<unsigned char>(ch)) || ch == '.'; })
              ? Token::kNumber
              : Token::kWord;
    } else {
      t.kind = Token::kSymbol;
      t.text = std::string(1, c);
      ++i;
    }
    out.push_back(std::move(t));
  }
  Token end;
  end.line = line;
  out.push_back(end);
  return out;
}

std::string Upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

struct CharsetInfo {
  const char* name;
  std::uint32_t mbmaxlen;
  int collation;  // its default collation's id: enough to know how its bytes print
  bool fixed_width;
};

std::optional<CharsetInfo> Charset(const std::string& name) {
  // The sets printed as they are stored (or as cp1252); the others come from ondisk/charsets.
  static const CharsetInfo kKnown[] = {{"LATIN1", 1, 8, true}, {"UTF8MB4", 4, 45, false}, {"UTF8MB3", 3, 33, false},
                                       {"UTF8", 3, 33, false}, {"BINARY", 1, 63, true},   {"ASCII", 1, 11, true}};
  std::string n = Upper(name);
  for (const auto& c : kKnown) {
    if (n == c.name) return c;
  }
  // The other character sets the column codec converts (koi8r, big5, ...).
  int collation = 0;
  const ondisk::CharsetInfo other = ondisk::OtherCharsetByName(name, &collation);
  if (other.name) return CharsetInfo{other.name, other.mbmaxlen, collation, other.fixed || other.mbmaxlen == 1};
  return std::nullopt;
}

// A collation's character set: the part of its name before the first '_'.
std::optional<CharsetInfo> CharsetOfCollationName(const std::string& collation) {
  return Charset(collation.substr(0, collation.find('_')));
}

class Parser {
 public:
  Parser(std::vector<Token> tokens, Flavor flavor) : t_(std::move(tokens)), flavor_(flavor) {}

  Result<TableDef> Find(const std::string& want) {
    while (Peek().kind != Token::kEnd) {
      if (!(Is("CREATE") && StartsTable())) {
        SkipStatement();
        continue;
      }
      Next();
      if (Is("TEMPORARY")) Next();
      Next();  // TABLE
      if (Is("IF")) {
        Next(), Next(), Next();  // IF NOT EXISTS
      }
      std::string name = Next().text;
      if (Peek().text == ".") {
        Next();
        name = Next().text;
      }
      const bool named = want.empty() || Upper(name) == Upper(want);
      if (named && Is("LIKE")) {
        return Status::InvalidArgument("line " + std::to_string(Peek().line) + ": CREATE TABLE " + name + " LIKE " +
                                       Peek(1).text +
                                       " copies another table: give that table's CREATE TABLE under this name");
      }
      if (!named || Peek().text != "(") {
        SkipStatement();
        continue;
      }
      return Table(name);
    }
    return Status::InvalidArgument(want.empty() ? "no CREATE TABLE statement in the SQL"
                                                : "no CREATE TABLE statement for table '" + want + "' in the SQL");
  }

 private:
  const Token& Peek(std::size_t ahead = 0) const { return t_[std::min(at_ + ahead, t_.size() - 1)]; }
  const Token& Next() { return t_[at_ < t_.size() - 1 ? at_++ : at_]; }
  bool Is(const char* word, std::size_t ahead = 0) const {
    return Peek(ahead).kind == Token::kWord && Upper(Peek(ahead).text) == word;
  }
  bool StartsTable() const { return Is("TABLE", 1) || (Is("TEMPORARY", 1) && Is("TABLE", 2)); }
  Status Error(const std::string& what) const {
    return Status::InvalidArgument("line " + std::to_string(Peek().line) + ": " + what + " (at '" + Peek().text + "')");
  }
  void SkipStatement() {
    int depth = 0;
    while (Peek().kind != Token::kEnd) {
      const Token& k = Next();
      if (k.kind != Token::kSymbol) continue;
      if (k.text == "(")
        ++depth;
      else if (k.text == ")")
        --depth;
      else if (k.text == ";" && depth <= 0)
        return;
    }
  }
  // Skips a parenthesised group starting at the current "(".
  void SkipGroup() {
    int depth = 0;
    do {
      const Token& k = Next();
      if (k.kind == Token::kSymbol && k.text == "(") ++depth;
      if (k.kind == Token::kSymbol && k.text == ")") --depth;
    } while (depth > 0 && Peek().kind != Token::kEnd);
  }
  std::vector<std::string> Args() {  // "(a, b, 'c')" -> its items' texts
    std::vector<std::string> out;
    if (Peek().text != "(") return out;
    Next();
    while (Peek().kind != Token::kEnd && Peek().text != ")") {
      if (Peek().text != ",")
        out.push_back(Next().text);
      else
        Next();
    }
    Next();
    return out;
  }
  static std::uint32_t Num(const std::vector<std::string>& a, std::size_t i, std::uint32_t def) {
    return i < a.size() ? static_cast<std::uint32_t>(std::strtoul(a[i].c_str(), nullptr, 10)) : def;
  }

  Result<TableDef> Table(const std::string& name) {
    TableDef t;
    t.name = name;
    struct Pending {
      ColumnDef col;
      std::string type;
      std::vector<std::string> args;
      std::optional<CharsetInfo> charset;
      int line = 0;
      bool zerofill = false;
      bool compressed = false;   // MariaDB's column compression: values stored zlib-compressed
      std::string charset_name;  // as given, when given
      bool stored = false;       // a generated column's STORED (its default is VIRTUAL)
    };
    std::vector<Pending> cols;
    std::vector<IndexSpec> indexes;
    Next();  // (
    while (true) {
      if (Peek().kind == Token::kEnd) return Error("the column list does not end");
      if (Is("PRIMARY") || Is("KEY") || Is("INDEX") || Is("UNIQUE") || Is("FULLTEXT") || Is("SPATIAL") ||
          Is("CONSTRAINT") || Is("FOREIGN") || Is("CHECK")) {
        IndexSpec ix;
        std::string constraint;  // names the index when the key itself is not named
        if (Is("CONSTRAINT")) {
          Next();
          if (!Is("PRIMARY") && !Is("UNIQUE") && !Is("FOREIGN") && !Is("CHECK")) constraint = Next().text;
        }
        if (Is("FOREIGN") || Is("CHECK")) {
          ix.skip = true;
        }
        ix.primary = Is("PRIMARY");
        ix.unique = ix.primary || Is("UNIQUE");
        const bool fulltext = Is("FULLTEXT");
        ix.skip |= fulltext || Is("SPATIAL");
        // The index's name: the word before its column list that is not a keyword.
        while (Peek().kind != Token::kEnd && Peek().text != "(") {
          const bool keyword = Peek().kind == Token::kWord &&
                               (Is("PRIMARY") || Is("KEY") || Is("INDEX") || Is("UNIQUE") || Is("FULLTEXT") ||
                                Is("SPATIAL") || Is("USING") || Is("BTREE") || Is("HASH"));
          if (!keyword && (Peek().kind == Token::kWord || Peek().kind == Token::kQuoted)) ix.name = Peek().text;
          Next();
        }
        if (ix.name.empty()) ix.name = constraint;
        if (ix.primary) ix.name = "PRIMARY";
        // Key parts: `col`, `col`(n), `col` DESC; an expression part makes a functional index.
        Next();
        while (Peek().kind != Token::kEnd && Peek().text != ")") {
          if (Peek().text == "(") {
            ix.skip = true;
            SkipGroup();
            continue;
          }
          std::string col = Next().text;
          std::uint32_t prefix = 0;
          if (Peek().text == "(") prefix = Num(Args(), 0, 0);
          while (Is("ASC") || Is("DESC")) Next();
          ix.parts.push_back({col, prefix});
          ix.prefix_in_chars = true;
          if (Peek().text == ",") Next();
        }
        Next();
        while (Peek().kind != Token::kEnd && Peek().text != "," && Peek().text != ")") {
          if (Peek().text == "(")
            SkipGroup();
          else
            Next();
        }
        if (fulltext && !ix.parts.empty()) t.fulltext_first_columns.push_back(ix.parts.front().first);
        if (!ix.skip) indexes.push_back(ix);
      } else {
        Pending p;
        p.line = Peek().line;
        p.col.name = Next().text;
        p.type = Upper(Next().text);
        p.args = Args();
        p.col.nullable = true;
        while (Peek().kind != Token::kEnd && Peek().text != "," && Peek().text != ")") {
          if (Is("UNSIGNED"))
            p.col.is_unsigned = true, Next();
          else if (Is("ZEROFILL"))
            p.zerofill = true, p.col.is_unsigned = true, Next();
          else if (Is("COMPRESSED"))
            p.compressed = true, Next();
          else if (Is("NOT") && Is("NULL", 1))
            p.col.nullable = false, Next(), Next();
          else if (Is("CHARACTER") && Is("SET", 1))
            Next(), Next(), p.charset_name = Peek().text, p.charset = Charset(Next().text);
          else if (Is("CHARSET"))
            Next(), p.charset_name = Peek().text, p.charset = Charset(Next().text);
          else if (Is("COLLATE"))
            Next(), p.charset_name = Peek().text, p.charset = CharsetOfCollationName(Next().text);
          else if (Is("VIRTUAL"))
            p.col.is_virtual = p.col.generated = true, Next();
          else if (Is("STORED") || Is("PERSISTENT"))
            p.stored = p.col.generated = true, Next();
          else if (Is("AS") && Peek(1).text == "(")
            p.col.generated = true, Next();
          else if (Is("PRIMARY") && Is("KEY", 1)) {
            Next(), Next();
            p.col.nullable = false;
            indexes.push_back({"PRIMARY", true, true, false, {{p.col.name, 0}}});
          } else if (Is("UNIQUE")) {
            Next();
            if (Is("KEY")) Next();
            indexes.push_back({"", false, true, false, {{p.col.name, 0}}});
          } else if (Peek().text == "(")
            SkipGroup();
          else
            Next();
        }
        if (p.type == "SERIAL") p.type = "BIGINT", p.col.is_unsigned = true, p.col.nullable = false;
        if (p.col.generated && !p.stored) p.col.is_virtual = true;  // AS (...) alone is VIRTUAL
        cols.push_back(std::move(p));
      }
      if (Peek().text == ",") {
        Next();
        continue;
      }
      if (Peek().text == ")") break;
      return Error("expected ',' or ')' in the column list");
    }
    Next();  // )
    // Table options: the default character set the columns inherit.
    std::optional<CharsetInfo> table_charset;
    while (Peek().kind != Token::kEnd && Peek().text != ";") {
      if ((Is("CHARSET") || (Is("CHARACTER") && Is("SET", 1)))) {
        if (Is("CHARACTER")) Next();
        Next();
        if (Peek().text == "=") Next();
        table_charset = Charset(Peek().text);
        if (!table_charset) return Error("character set " + Peek().text + " is not one this reader knows");
      } else if (Is("COLLATE")) {
        Next();
        if (Peek().text == "=") Next();
        table_charset = CharsetOfCollationName(Peek().text);
        if (!table_charset) return Error("collation " + Peek().text + " is not one this reader knows");
      }
      Next();
    }
    for (auto& p : cols) {
      // A character set not known here: its width, so where every later column is, is unknown.
      if (!p.charset_name.empty() && !p.charset) {
        return Status::InvalidArgument("line " + std::to_string(p.line) + ": column " + p.col.name +
                                       ": character set or collation " + p.charset_name +
                                       " is not one this reader knows");
      }
      auto col = Column(p.col, p.type, p.args, p.charset ? p.charset : table_charset);
      if (!col.ok()) return Status::InvalidArgument("line " + std::to_string(p.line) + ": " + col.status().message());
      ColumnFormat& f = col->format;
      if (p.zerofill) {
        f.zerofill_width = f.type == ColumnType::kDecimal ? f.precision + (f.scale ? 1 : 0)
                           : !p.args.empty()              ? Num(p.args, 0, 0)
                                                          : DefaultDisplayWidth(f);
      }
      if (p.compressed) {
        f.type = ColumnType::kUnknown;  // says so for every value instead of printing zlib bytes
        f.name = "MariaDB COMPRESSED " + f.name + " (decompression is not done yet)";
      }
      t.columns.push_back(std::move(*col));
    }
    return LayOutTable(std::move(t), indexes);
  }

  Result<ColumnDef> Column(ColumnDef c, const std::string& type, const std::vector<std::string>& args,
                           std::optional<CharsetInfo> charset) {
    ColumnFormat& f = c.format;
    f.is_unsigned = c.is_unsigned;
    f.name = type;
    const bool n = c.nullable;
    const CharsetInfo cs = charset.value_or(*Charset("utf8mb4"));
    auto fixed = [&](std::uint32_t bytes) { c.field = FieldDef::Fixed(c.name, bytes, n); };
    auto integer = [&](std::uint32_t bytes) {
      f.type = ColumnType::kInt;
      f.length = bytes;
      fixed(bytes);
    };
    auto fsp = [&] { return std::min<std::uint32_t>(Num(args, 0, 0), 6); };
    if (type == "TINYINT" || type == "BOOL" || type == "BOOLEAN")
      integer(1);
    else if (type == "SMALLINT")
      integer(2);
    else if (type == "MEDIUMINT")
      integer(3);
    else if (type == "INT" || type == "INTEGER")
      integer(4);
    else if (type == "BIGINT")
      integer(8);
    else if (type == "DECIMAL" || type == "NUMERIC" || type == "DEC" || type == "FIXED") {
      f.type = ColumnType::kDecimal;
      f.precision = std::clamp<std::uint32_t>(Num(args, 0, 10), 1, 65);
      f.scale = std::min<std::uint32_t>(Num(args, 1, 0), std::min<std::uint32_t>(30, f.precision));
      fixed(DecimalBytes(f.precision, f.scale));
    } else if (type == "FLOAT" && Num(args, 0, 0) > 24 && args.size() == 1) {
      f.type = ColumnType::kDouble;
      fixed(8);
    } else if (type == "FLOAT" || type == "DOUBLE" || type == "REAL" || type == "DOUBLE PRECISION") {
      f.type = type == "FLOAT" ? ColumnType::kFloat : ColumnType::kDouble;
      fixed(type == "FLOAT" ? 4 : 8);
      if (args.size() == 2) {  // FLOAT(M,D): printed with D decimals
        f.fixed_decimals = true;
        f.scale = std::min<std::uint32_t>(Num(args, 1, 0), 30);
      }
    } else if (type == "BIT") {
      f.type = ColumnType::kBit;
      f.length = std::clamp<std::uint32_t>(Num(args, 0, 1), 1, 64);
      fixed((f.length + 7) / 8);
    } else if (type == "YEAR") {
      f.type = ColumnType::kYear;
      fixed(1);
    } else if (type == "DATE") {
      f.type = ColumnType::kDate;
      fixed(3);
    } else if (type == "TIME" || type == "DATETIME" || type == "TIMESTAMP") {
      f.type = type == "TIME" ? ColumnType::kTime : type == "DATETIME" ? ColumnType::kDatetime : ColumnType::kTimestamp;
      f.fsp = fsp();
      fixed((type == "TIME" ? 3 : type == "DATETIME" ? 5 : 4) + (f.fsp + 1) / 2);
    } else if (type == "CHAR" || type == "CHARACTER" || type == "NCHAR" || type == "BINARY") {
      f.type = ColumnType::kChar;
      f.length = Num(args, 0, 1);
      const CharsetInfo used = type == "BINARY" ? *Charset("binary") : cs;
      f.collation = used.collation;
      // CHAR in a character set of varying width is stored with a length, like VARCHAR.
      if (used.fixed_width || used.mbmaxlen == 1)
        fixed(f.length * used.mbmaxlen);
      else
        c.field = FieldDef::Variable(c.name, f.length * used.mbmaxlen, n);
    } else if (type == "VARCHAR" || type == "NVARCHAR" || type == "VARBINARY") {
      f.type = ColumnType::kVarchar;
      f.length = Num(args, 0, 1);
      const CharsetInfo used = type == "VARBINARY" ? *Charset("binary") : cs;
      f.collation = used.collation;
      c.field = FieldDef::Variable(c.name, f.length * used.mbmaxlen, n);
    } else if (type == "TINYTEXT" || type == "TEXT" || type == "MEDIUMTEXT" || type == "LONGTEXT" || type == "LONG" ||
               type == "TINYBLOB" || type == "BLOB" || type == "MEDIUMBLOB" || type == "LONGBLOB" ||
               (type == "JSON" && flavor_ == Flavor::kMariaDb)) {
      f.type = ColumnType::kVarchar;
      f.collation = type.find("BLOB") != std::string::npos ? 63 : type == "JSON" ? 45 : cs.collation;
      c.field = FieldDef::Variable(c.name, type.rfind("TINY", 0) == 0 ? 255 : 0xFFFFFFFF, n, true);
    } else if (type == "JSON") {
      f.type = ColumnType::kJson;
      c.field = FieldDef::Variable(c.name, 0xFFFFFFFF, n, true);
    } else if (type == "GEOMETRY" || type == "POINT" || type == "LINESTRING" || type == "POLYGON" ||
               type == "MULTIPOINT" || type == "MULTILINESTRING" || type == "MULTIPOLYGON" ||
               type == "GEOMETRYCOLLECTION" || type == "GEOMCOLLECTION") {
      f.type = ColumnType::kGeometry;
      c.field = FieldDef::Variable(c.name, 0xFFFFFFFF, n, true);
    } else if (type == "ENUM" || type == "SET") {
      f.type = type == "ENUM" ? ColumnType::kEnum : ColumnType::kSet;
      f.elements = args;
      f.collation = cs.collation;
      fixed(*f.FixedBytes());
    } else if (type == "UUID" || type == "INET6" || type == "INET4") {
      f.type = type == "UUID" ? ColumnType::kUuid : type == "INET6" ? ColumnType::kInet6 : ColumnType::kInet4;
      fixed(*f.FixedBytes());
    } else {
      std::string lower = type;
      for (char& ch : lower) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
      return Status::InvalidArgument("column '" + c.name + "': type " + lower + " is not one this reader knows");
    }
    if (f.name != "ENUM" && f.name != "SET") {
      f.name = Upper(type);
      if (!args.empty()) {
        f.name += "(";
        for (std::size_t i = 0; i < args.size(); ++i) f.name += (i ? "," : "") + args[i];
        f.name += ")";
      }
    }
    for (char& ch : f.name) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    c.sql_type = f.name + (c.is_unsigned ? " unsigned" : "");
    return c;
  }

  // The width ZEROFILL pads to when the type gives none: the widest value's digits.
  static std::uint32_t DefaultDisplayWidth(const ColumnFormat& f) {
    if (f.type != ColumnType::kInt) return 0;
    switch (f.length) {
      case 1:
        return 3;
      case 2:
        return 5;
      case 3:
        return 8;
      case 4:
        return 10;
      default:
        return 20;
    }
  }

  std::vector<Token> t_;
  std::size_t at_ = 0;
  Flavor flavor_;
};

}  // namespace

// The field a key part stores: the whole column, or its first `prefix` bytes (lengths still
// take two bytes when the whole column's may).
static FieldDef KeyPartField(const ColumnDef& c, std::uint32_t prefix) {
  if (prefix == 0) return c.field;
  if (!c.field.is_variable()) return FieldDef::Fixed(c.name, std::min(prefix, c.field.fixed_length), c.nullable);
  return FieldDef::Variable(c.name, std::min(prefix, c.field.max_length), c.nullable, c.field.big());
}

// The server names a key given without a name after its first column, or `col_2`, `col_3`, ...
// when a key before it has that name already.
static void NameUnnamedKeys(std::vector<IndexSpec>& indexes) {
  for (std::size_t i = 0; i < indexes.size(); ++i) {
    IndexSpec& ix = indexes[i];
    if (!ix.name.empty() || ix.parts.empty()) continue;
    auto taken = [&](const std::string& name) {
      if (Upper(name) == "PRIMARY") return true;
      for (std::size_t j = 0; j < i; ++j) {
        if (Upper(indexes[j].name) == Upper(name)) return true;
      }
      return false;
    };
    const std::string& first = ix.parts.front().first;
    ix.name = first;
    for (int n = 2; taken(ix.name) && n < 100; ++n) ix.name = first + "_" + std::to_string(n);
  }
}

Result<TableDef> LayOutTable(TableDef t, std::vector<IndexSpec> indexes) {
  auto column = [&](const std::string& name) -> std::optional<std::size_t> {
    for (std::size_t i = 0; i < t.columns.size(); ++i) {
      if (Upper(t.columns[i].name) == Upper(name)) return i;
    }
    return std::nullopt;
  };
  // A table with a FULLTEXT index and no FTS_DOC_ID of its own gets one from InnoDB: the last
  // column, BIGINT UNSIGNED NOT NULL, not in SELECT *.
  if (!t.fulltext_first_columns.empty() && !column("FTS_DOC_ID")) {
    ColumnDef doc;
    doc.name = "FTS_DOC_ID";
    doc.hidden = true;
    doc.is_unsigned = doc.format.is_unsigned = true;
    doc.format.type = ColumnType::kInt;
    doc.format.length = 8;
    doc.format.name = doc.sql_type = "bigint unsigned";
    doc.field = FieldDef::Fixed(doc.name, 8);
    t.columns.push_back(std::move(doc));
  }
  NameUnnamedKeys(indexes);
  const IndexSpec* key = nullptr;
  for (const auto& ix : indexes) {
    if (ix.primary) key = &ix;
  }
  for (const auto& ix : indexes) {
    if (key || !ix.unique) continue;
    bool not_null = true;
    for (const auto& [c, prefix] : ix.parts) not_null &= column(c) && !t.columns[*column(c)].nullable && prefix == 0;
    if (not_null) key = &ix;
  }
  IndexDef clustered;
  clustered.name = key ? (key->primary ? "PRIMARY" : key->name) : "GEN_CLUST_INDEX";
  clustered.table = t.name;
  clustered.clustered = true;
  clustered.unique = true;
  auto add = [&](IndexDef& ix, std::size_t c, FieldDef f) {
    ix.fields.push_back(t.columns[c].name);
    ix.leaf.fields.push_back(std::move(f));
    ix.columns.push_back(c);
    ix.formats.push_back(t.columns[c].format);
  };
  auto add_system = [&](IndexDef& ix, const char* name, std::uint32_t bytes) {
    ColumnDef sys;
    sys.name = name;
    sys.hidden = true;
    sys.field = FieldDef::Fixed(name, bytes);
    sys.format.type = ColumnType::kSystem;
    sys.format.length = bytes;
    t.columns.push_back(sys);
    add(ix, t.columns.size() - 1, sys.field);
  };
  std::vector<bool> whole(t.columns.size(), false);
  const std::size_t user_columns = t.columns.size();
  auto prefix_bytes = [&](const IndexSpec& spec, const ColumnDef& col, std::uint32_t prefix) {
    return spec.prefix_in_chars ? prefix * std::max<std::uint32_t>(WidthOfCollation(col.format.collation).mbmaxlen, 1)
                                : prefix;
  };
  if (key) {
    for (const auto& [name, prefix] : key->parts) {
      auto c = column(name);
      if (!c) return Status::InvalidArgument("key " + key->name + " names no column '" + name + "'");
      add(clustered, *c, KeyPartField(t.columns[*c], prefix_bytes(*key, t.columns[*c], prefix)));
      whole[*c] = prefix == 0;
    }
  } else {
    add_system(clustered, "DB_ROW_ID", kDbRowIdSize);
  }
  clustered.n_unique_in_tree = clustered.fields.size();
  add_system(clustered, "DB_TRX_ID", kDbTrxIdSize);
  add_system(clustered, "DB_ROLL_PTR", kDbRollPtrSize);
  for (std::size_t c = 0; c < user_columns; ++c) {
    if (!whole[c] && !t.columns[c].is_virtual) add(clustered, c, t.columns[c].field);
  }
  // A secondary index ends with the primary key's fields it lacks, prefixes kept as they are.
  const std::size_t key_fields = clustered.n_unique_in_tree;
  const std::vector<std::size_t> clustered_key(clustered.columns.begin(),
                                               clustered.columns.begin() + static_cast<std::ptrdiff_t>(key_fields));
  const std::vector<FieldDef> clustered_key_fields(
      clustered.leaf.fields.begin(), clustered.leaf.fields.begin() + static_cast<std::ptrdiff_t>(key_fields));
  t.indexes.push_back(std::move(clustered));
  for (const auto& spec : indexes) {
    if (&spec == key || spec.skip) continue;
    IndexDef ix;
    ix.name = spec.name;
    ix.table = t.name;
    ix.unique = spec.unique;
    std::vector<bool> held(t.columns.size(), false);
    for (const auto& [name, prefix] : spec.parts) {
      auto c = column(name);
      if (!c) return Status::InvalidArgument("key " + spec.name + " names no column '" + name + "'");
      add(ix, *c, KeyPartField(t.columns[*c], prefix_bytes(spec, t.columns[*c], prefix)));
      held[*c] = held[*c] || prefix == 0;
    }
    for (std::size_t k = 0; k < key_fields; ++k) {
      if (!held[clustered_key[k]]) add(ix, clustered_key[k], clustered_key_fields[k]);
    }
    ix.n_unique_in_tree = ix.fields.size();  // node pointers of a secondary index hold every field
    t.indexes.push_back(std::move(ix));
  }
  return t;
}

Result<TableDef> TableFromCreateTable(std::string_view sql, const std::string& name, Flavor flavor) {
  return Parser(Tokenize(sql), flavor).Find(name);
}

Status PlaceInFile(TableDef& t, const SpaceFile& file) {
  // Page 3, or 4 when MySQL 8.0 keeps its SDI tree at 3.
  const std::uint32_t n = file.n_pages() > 3 && FilHeader(file.page(3)).type() == PageType::kSdi ? 4 : 3;
  const std::string where = file.path().string() + " page " + std::to_string(n);
  auto root = file.n_pages() > n && IsIndexPage(file, n) ? file.OpenIndexPage(file.page(n))
                                                         : Result<IndexPage>(Status::Corruption("not an index page"));
  if (!root.ok()) {
    // A damaged root: the clustered index was made first, so it has the smallest index id of
    // the file's pages; the scan reads its leaves by their chain (and says so).
    std::optional<std::uint64_t> first_id;
    for (std::uint32_t p = n + 1; p < file.n_pages(); ++p) {
      if (!IsIndexPage(file, p)) continue;
      if (auto ip = file.OpenIndexPage(file.page(p)); ip.ok())
        first_id = std::min(first_id.value_or(ip->index_id()), ip->index_id());
    }
    if (!first_id)
      return root.status().WithContext(where +
                                       ", where the clustered index starts, and no other page is an index page");
    for (auto& ix : t.indexes) {
      if (ix.clustered) ix.root_page = n, ix.id = *first_id;
    }
    return Status::Ok();
  }
  if (FilHeader(file.page(n)).prev().value() != kFilNull || FilHeader(file.page(n)).next().value() != kFilNull) {
    return Status::Corruption(where + " has B-tree neighbours, so it is not the clustered index's root");
  }
  for (auto& ix : t.indexes) {
    if (!ix.clustered) continue;
    ix.root_page = n;
    ix.id = root->index_id();
  }
  return Status::Ok();
}

}  // namespace strata::inspect
