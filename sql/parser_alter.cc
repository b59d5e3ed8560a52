// ALTER TABLE, RENAME TABLE, TRUNCATE and CHECKSUM TABLE: the statements about a table that exists.
#include "sql/parser_internal.h"

namespace strata::sql::parser_internal {

using Change = AlterTable::Change;

namespace {
Change Make(Change::Kind kind) {
  Change c;
  c.kind = kind;
  return c;
}
}  // namespace

sql::Statement Parser::ParseAlterTable() {
  AlterTable a;
  a.table = QualifiedName();
  if (Peek().IsWord("DISABLE") || Peek().IsWord("ENABLE")) {
    Take();
    ExpectWord("KEYS");
    return NoOp{"ALTER TABLE ... KEYS"};
  }
  if (AtEnd() || Peek().IsPunct(";")) return a;  // ALTER TABLE t: nothing to do, as the server says
  do AlterClause(a);
  while (AcceptPunct(","));
  if (!AtEnd() && !Peek().IsPunct(";")) {
    if (Peek().IsWord("PARTITION") || Peek().IsWord("REMOVE")) Unsupported("partitioned tables");
    Syntax();
  }
  return a;
}

// FIRST or AFTER `column` after a column's definition.
void Parser::ColumnPosition(Change& c) {
  if (AcceptWord("FIRST"))
    c.first = true;
  else if (AcceptWord("AFTER"))
    c.after = Name();
}

// A column definition of ADD, MODIFY or CHANGE, into a.definitions; keys written on it too.
std::size_t Parser::AlterColumn(AlterTable& a) {
  const ColumnText text = ReadColumn(*this);
  a.definitions.spec.columns.push_back(EngineColumn(text, a.definitions));
  a.definitions.default_now.push_back(text.default_now);
  const std::size_t at = a.definitions.spec.columns.size() - 1;
  if (text.primary_key) {
    a.definitions.spec.primary_key = {text.name};
    a.changes.push_back(Make(Change::Kind::kAddPrimaryKey));
  }
  if (text.unique_key) {
    a.definitions.spec.indexes.push_back({text.name, {text.name}, true});
    Change c = Make(Change::Kind::kAddIndex);
    c.definition = a.definitions.spec.indexes.size() - 1;
    a.changes.push_back(c);
  }
  return at;
}

void Parser::AlterAdd(AlterTable& a) {
  if (Peek().IsWord("PARTITION")) Unsupported("partitioned tables");
  std::string constraint;
  if (AcceptWord("CONSTRAINT") && !StartsKey(*this)) constraint = Name();
  if (StartsKey(*this)) {
    KeyText k = ReadKey(*this, std::move(constraint));
    std::vector<KeyText> keys{k};
    NameUnnamedKeys(keys);
    const std::size_t indexes = a.definitions.spec.indexes.size();
    AddKey(keys[0], a.definitions);
    if (k.kind == KeyText::Kind::kForeign) {
      Change c = Make(Change::Kind::kAddForeignKey);
      c.definition = a.definitions.foreign_keys.size() - 1;
      a.changes.push_back(c);
    } else if (k.kind == KeyText::Kind::kPrimary) {
      a.changes.push_back(Make(Change::Kind::kAddPrimaryKey));
    } else if (a.definitions.spec.indexes.size() > indexes) {
      Change c = Make(Change::Kind::kAddIndex);
      c.definition = indexes;
      c.auto_named = !k.named;
      a.changes.push_back(c);
    }
    return;
  }
  AcceptWord("COLUMN");
  if (AcceptWords({"IF", "NOT", "EXISTS"})) Unsupported("ADD COLUMN IF NOT EXISTS");
  const bool list = AcceptPunct("(");
  do {
    Change c = Make(Change::Kind::kAddColumn);
    // The change is placed before the keys its definition carries (they need the column).
    const std::size_t slot = a.changes.size();
    a.changes.emplace_back();
    c.definition = AlterColumn(a);
    if (!list) ColumnPosition(c);
    a.changes[slot] = c;
  } while (list && AcceptPunct(","));
  if (list) ExpectPunct(")");
}

void Parser::AlterDrop(AlterTable& a) {
  Change c = Make(Change::Kind::kDropColumn);
  if (AcceptWords({"PRIMARY", "KEY"})) {
    a.changes.push_back(Make(Change::Kind::kDropPrimaryKey));
    return;
  }
  if (AcceptWords({"FOREIGN", "KEY"})) {
    c.kind = Change::Kind::kDropForeignKey;
    c.if_exists = AcceptWords({"IF", "EXISTS"});
    c.name = Name();
    a.changes.push_back(c);
    return;
  }
  if (AcceptWord("CHECK") || AcceptWord("CONSTRAINT")) {
    AcceptWords({"IF", "EXISTS"});
    const std::string name = Name();
    a.definitions.ignored.push_back("DROP of the constraint `" + name + "` (Strata keeps no checks)");
    return;
  }
  if (AcceptWord("INDEX") || AcceptWord("KEY")) c.kind = Change::Kind::kDropIndex;
  if (c.kind == Change::Kind::kDropColumn) AcceptWord("COLUMN");
  c.if_exists = AcceptWords({"IF", "EXISTS"});
  c.name = Name();
  if (c.kind == Change::Kind::kDropColumn) AcceptWord("RESTRICT") || AcceptWord("CASCADE");
  a.changes.push_back(c);
}

// ALTER [COLUMN] c SET DEFAULT x | DROP DEFAULT | SET VISIBLE | SET INVISIBLE.
void Parser::AlterColumnDefault(AlterTable& a) {
  Change c = Make(Change::Kind::kSetDefault);
  c.name = Name();
  if (AcceptWords({"DROP", "DEFAULT"})) {
    c.kind = Change::Kind::kDropDefault;
  } else {
    ExpectWord("SET");
    if (AcceptWord("VISIBLE") || AcceptWord("INVISIBLE")) {
      a.definitions.ignored.push_back("SET VISIBLE/INVISIBLE of `" + c.name + "` (SELECT * shows every column here)");
      return;
    }
    ExpectWord("DEFAULT");
    const bool parenthesised = AcceptPunct("(");
    ExprPtr e = Unary();
    if (e->kind != Expr::Kind::kLiteral) Unsupported("a DEFAULT that is not a literal");
    if (parenthesised) ExpectPunct(")");
    c.value = e->value;
    c.literal_kind = e->literal_kind;
  }
  a.changes.push_back(c);
}

// CONVERT TO CHARACTER SET x [COLLATE y]: a text column of them is what each column becomes.
void Parser::AlterConvert(AlterTable& a) {
  ExpectWord("TO");
  std::string charset, collation;
  if (!ReadCharsetOption(*this, &charset, &collation)) Syntax();
  ReadCharsetOption(*this, &charset, &collation);
  ColumnText text;
  text.name = "CONVERT TO";
  text.type.name = "VARCHAR";
  text.type.charset = charset;
  text.type.collation = collation;
  a.definitions.spec.columns.push_back(EngineColumn(text, a.definitions));
  a.definitions.default_now.push_back(false);
  Change c = Make(Change::Kind::kConvertCharset);
  c.definition = a.definitions.spec.columns.size() - 1;
  a.changes.push_back(c);
}

void Parser::AlterClause(AlterTable& a) {
  if (AcceptWord("ADD")) return AlterAdd(a);
  if (AcceptWord("DROP")) return AlterDrop(a);
  const bool change = Peek().IsWord("CHANGE");
  if (AcceptWord("MODIFY") || AcceptWord("CHANGE")) {
    AcceptWord("COLUMN");
    Change c = Make(Change::Kind::kChangeColumn);
    c.if_exists = AcceptWords({"IF", "EXISTS"});
    if (change) c.name = Name();
    const std::size_t slot = a.changes.size();
    a.changes.emplace_back();
    c.definition = AlterColumn(a);
    if (!change) c.name = a.definitions.spec.columns[c.definition].name;
    ColumnPosition(c);
    a.changes[slot] = c;
    return;
  }
  if (AcceptWord("RENAME")) {
    Change c = Make(Change::Kind::kRenameColumn);
    if (AcceptWord("COLUMN") ||
        ((AcceptWord("INDEX") || AcceptWord("KEY")) && (c.kind = Change::Kind::kRenameIndex, true))) {
      c.name = Name();
      ExpectWord("TO");
      c.new_name = Name();
      a.changes.push_back(c);
      return;
    }
    AcceptWord("TO") || AcceptWord("AS");
    a.rename_to = QualifiedName();
    return;
  }
  if (AcceptWord("ALTER")) {
    AcceptWord("COLUMN");
    if (Peek().IsWord("INDEX") || Peek().IsWord("KEY") || Peek().IsWord("CHECK") || Peek().IsWord("CONSTRAINT"))
      Unsupported("ALTER TABLE ... ALTER " + Upper(Peek().text));
    return AlterColumnDefault(a);
  }
  if (AcceptWord("CONVERT")) return AlterConvert(a);
  if (AcceptWord("FORCE")) {
    a.rebuild = true;
    return;
  }
  const bool algorithm = Peek().IsWord("ALGORITHM");
  if (AcceptWord("ALGORITHM") || AcceptWord("LOCK")) {
    AcceptPunct("=");
    const std::string value = Upper(Name());
    if (algorithm) a.algorithm = value;
    return;
  }
  if (Peek().IsWord("ORDER")) Unsupported("ALTER TABLE ... ORDER BY");
  if (Peek().IsWord("PARTITION") || Peek().IsWord("REMOVE")) Unsupported("partitioned tables");
  if (Peek().IsWord("DISCARD") || Peek().IsWord("IMPORT"))
    Unsupported("ALTER TABLE ... " + Upper(Peek().text) + " TABLESPACE");
  TableOptions o;
  ReadTableOption(*this, o);
  if (o.auto_increment) a.auto_increment = o.auto_increment;
  if (!o.engine.empty()) {
    a.rebuild = true;
    if (!EqualsIgnoreCase(o.engine, "InnoDB"))
      a.definitions.ignored.push_back("ENGINE=" + o.engine + " (every table here is InnoDB)");
  }
  if (!o.charset.empty() || !o.collation.empty())
    a.definitions.ignored.push_back(
        "the table's default character set (columns added later are utf8mb4 unless they name another)");
}

sql::Statement Parser::ParseRenameTable() {
  ++i_;
  if (!AcceptWord("TABLE") && !AcceptWord("TABLES")) Unsupported("RENAME " + Peek().text);
  RenameTable r;
  do {
    TableName from = QualifiedName();
    ExpectWord("TO");
    r.renames.emplace_back(std::move(from), QualifiedName());
  } while (AcceptPunct(","));
  return r;
}

sql::Statement Parser::ParseChecksum() {
  ++i_;
  ExpectWord("TABLE");
  ChecksumTable c;
  do c.tables.push_back(QualifiedName());
  while (AcceptPunct(","));
  if (AcceptWord("QUICK")) Unsupported("CHECKSUM TABLE ... QUICK (the table keeps no live checksum)");
  AcceptWord("EXTENDED");
  return c;
}

sql::Statement Parser::ParseLoadData() {
  ++i_;
  if (AcceptWord("XML")) Unsupported("LOAD XML");
  ExpectWord("DATA");
  AcceptWord("LOW_PRIORITY") || AcceptWord("CONCURRENT");
  LoadData l;
  l.local = AcceptWord("LOCAL");
  ExpectWord("INFILE");
  l.file = StringLiteral();
  l.replace = AcceptWord("REPLACE");
  l.ignore = !l.replace && AcceptWord("IGNORE");
  ExpectWord("INTO");
  ExpectWord("TABLE");
  l.table = QualifiedName();
  if (Peek().IsWord("PARTITION")) Unsupported("partitioned tables");
  if (AcceptWords({"CHARACTER", "SET"}) || AcceptWord("CHARSET")) {
    const std::string charset = Lower(Name());
    if (charset != "utf8mb4" && charset != "utf8mb3" && charset != "utf8" && charset != "binary")
      Unsupported("LOAD DATA ... CHARACTER SET " + charset + " (files are read as utf8mb4)");
  }
  if (AcceptWord("FIELDS") || AcceptWord("COLUMNS")) {
    for (bool more = true; more;) {
      if (AcceptWords({"TERMINATED", "BY"})) {
        l.fields_terminated = StringLiteral();
      } else if (AcceptWord("OPTIONALLY") || Peek().IsWord("ENCLOSED")) {
        ExpectWord("ENCLOSED");
        ExpectWord("BY");
        l.enclosed = StringLiteral();
      } else if (AcceptWords({"ESCAPED", "BY"})) {
        l.escaped = StringLiteral();
      } else {
        more = false;
      }
    }
  }
  if (AcceptWord("LINES")) {
    for (bool more = true; more;) {
      if (AcceptWords({"STARTING", "BY"}))
        l.lines_starting = StringLiteral();
      else if (AcceptWords({"TERMINATED", "BY"}))
        l.lines_terminated = StringLiteral();
      else
        more = false;
    }
  }
  if (AcceptWord("IGNORE")) {
    l.ignore_lines = Unsigned();
    if (!AcceptWord("LINES")) ExpectWord("ROWS");
  }
  if (AcceptPunct("(")) {
    if (!AcceptPunct(")")) {
      do {
        if (Peek().Is(TokenKind::kUserVar)) Unsupported("user variables in LOAD DATA's column list");
        l.columns.push_back(Name());
      } while (AcceptPunct(","));
      ExpectPunct(")");
    }
  }
  if (Peek().IsWord("SET")) Unsupported("LOAD DATA ... SET");
  if (l.enclosed.size() > 1 || l.escaped.size() > 1 || l.fields_terminated.empty() || l.lines_terminated.empty())
    Unsupported("LOAD DATA with an ENCLOSED or ESCAPED BY of more than one character or an empty TERMINATED BY");
  return l;
}

sql::Statement Parser::ParseTruncate() {
  ++i_;
  AcceptWord("TABLE");
  return Truncate{QualifiedName()};
}

}  // namespace strata::sql::parser_internal
