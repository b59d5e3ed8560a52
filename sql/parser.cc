#include "sql/parser.h"

#include "sql/parser_internal.h"

namespace strata::sql {

const char* LevelName(SqlWarning::Level level) {
  switch (level) {
    case SqlWarning::Level::kNote:
      return "Note";
    case SqlWarning::Level::kWarning:
      return "Warning";
    case SqlWarning::Level::kError:
      return "Error";
  }
  return "Warning";
}

namespace parser_internal {

sql::Statement Parser::ParseStartTransaction() {
  ++i_;
  ExpectWord("TRANSACTION");
  Begin b;
  do {
    if (AcceptWords({"WITH", "CONSISTENT", "SNAPSHOT"}))
      b.consistent_snapshot = true;
    else if (AcceptWords({"READ", "WRITE"})) {
    } else if (AcceptWords({"READ", "ONLY"})) {
    }
  } while (AcceptPunct(","));
  return b;
}

sql::Statement Parser::ParseStatement() {
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
  if (t.IsWord("START")) return ParseStartTransaction();
  if (t.IsWord("COMMIT")) {
    ++i_;
    AcceptWord("WORK");
    return Commit{};
  }
  if (t.IsWord("ROLLBACK")) {
    ++i_;
    AcceptWord("WORK");
    if (AcceptWord("TO")) {
      AcceptWord("SAVEPOINT");
      return Savepoint{Savepoint::Kind::kRollbackTo, Name()};
    }
    return Rollback{};
  }
  if (t.IsWord("SAVEPOINT") || t.IsWord("RELEASE")) {
    const bool release = Take().IsWord("RELEASE");
    if (release) ExpectWord("SAVEPOINT");
    return Savepoint{release ? Savepoint::Kind::kRelease : Savepoint::Kind::kSet, Name()};
  }
  if (t.IsWord("RENAME")) return ParseRenameTable();
  if (t.IsWord("TRUNCATE")) return ParseTruncate();
  if (t.IsWord("CHECKSUM")) return ParseChecksum();
  if (t.IsWord("LOAD")) return ParseLoadData();
  if (t.IsWord("CALL")) return ParseCall();
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
    static constexpr std::string_view kKnown[] = {"GRANT", "REVOKE", "PREPARE", "EXECUTE", "HANDLER", "XA", "INSTALL"};
    for (std::string_view k : kKnown) {
      if (t.IsWord(k)) Unsupported(k);
    }
  }
  Syntax();
}

void Parser::SkipToEnd() {
  while (!Peek().Is(TokenKind::kEnd) && !Peek().IsPunct(";")) ++i_;
}

}  // namespace parser_internal

namespace {

using parser_internal::Parser;

bool StartsWithVersionedComment(std::string_view text) {
  std::size_t i = 0;
  while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
  return text.substr(i, 3) == "/*!";
}

// "VIEW `v`": what a CREATE or DROP of a view, trigger or routine names, for the warning that
// says it was skipped.
std::string ObjectNamed(const std::vector<Token>& tokens) {
  for (std::size_t i = 0; i + 1 < tokens.size(); ++i) {
    for (const char* kind : {"VIEW", "TRIGGER", "PROCEDURE", "FUNCTION", "EVENT"}) {
      if (!tokens[i].IsWord(kind)) continue;
      std::size_t n = i + 1;
      if (tokens[n].IsWord("IF")) n += tokens[n + 1].IsWord("NOT") ? 3 : 2;  // IF [NOT] EXISTS
      if (n >= tokens.size() || tokens[n].kind == TokenKind::kEnd) return kind;
      std::string name = ondisk::QuoteIdentifier(tokens[n].text);
      if (n + 2 < tokens.size() && tokens[n + 1].IsPunct("."))
        name += "." + ondisk::QuoteIdentifier(tokens[n + 2].text);
      return std::string(kind) + " " + name;
    }
  }
  return "";
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
  if (out.versioned) out.object = ObjectNamed(lexed.tokens);
  try {
    Parser p(text, std::move(lexed.tokens));
    out.statement = p.Top();
  } catch (const Failure& f) {
    out.error = f.error;
  }
  return out;
}

}  // namespace strata::sql
