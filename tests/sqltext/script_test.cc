// Cutting SQL text into statements as the mysql client does.
#include <gtest/gtest.h>

#include "sqltext/script.h"

namespace strata::sqltext {
namespace {

std::vector<ScriptStatement> Split(const std::vector<std::string>& pieces) {
  std::vector<ScriptStatement> out;
  StatementSplitter s;
  auto sink = [&](ScriptStatement& st) {
    out.push_back(st);
    return true;
  };
  for (const auto& p : pieces) s.Feed(p, sink);
  s.Finish(sink);
  return out;
}

TEST(SqlScriptTest, SplitsAtDelimitersOutsideQuotesAndComments) {
  auto st = Split({"-- header\n\nSELECT 'a;b', \"c;d\", `e;f`; /* x; y */ SELECT 2;\n# done\nSELECT 3"});
  ASSERT_EQ(st.size(), 3u);
  EXPECT_EQ(st[0].text, "SELECT 'a;b', \"c;d\", `e;f`");
  EXPECT_EQ(st[0].line, 3u);
  EXPECT_EQ(st[1].text, "SELECT 2");
  EXPECT_EQ(st[2].text, "SELECT 3");  // the last one needs no delimiter
  EXPECT_EQ(st[2].line, 5u);
}

TEST(SqlScriptTest, EscapedQuotesAndMultiLineStringsKeepTheStatementWhole) {
  auto st = Split({"INSERT INTO t VALUES ('it\\'s;', 'two\nlines;');\nSELECT 1;"});
  ASSERT_EQ(st.size(), 2u);
  EXPECT_EQ(st[0].text, "INSERT INTO t VALUES ('it\\'s;', 'two\nlines;')");
  EXPECT_EQ(st[1].line, 3u);
}

TEST(SqlScriptTest, PiecesOfAnySizeGiveTheSameStatements) {
  const std::string text = "CREATE TABLE t (a int);\nINSERT INTO t VALUES (1),\n(2);\nSELECT 'x;y'\\G";
  auto whole = Split({text});
  std::vector<std::string> bytes;
  for (char c : text) bytes.emplace_back(1, c);
  auto pieces = Split(bytes);
  ASSERT_EQ(whole.size(), 3u);
  ASSERT_EQ(pieces.size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(whole[i].text, pieces[i].text);
    EXPECT_EQ(whole[i].line, pieces[i].line);
  }
  EXPECT_TRUE(whole[2].vertical);
}

TEST(SqlScriptTest, DelimiterCommandChangesTheDelimiter) {
  auto st = Split({"DELIMITER ;;\nCREATE TRIGGER x BEGIN SET a=1; SET b=2; END ;;\nDELIMITER ;\nSELECT 1;"});
  ASSERT_EQ(st.size(), 2u);
  EXPECT_EQ(st[0].text, "CREATE TRIGGER x BEGIN SET a=1; SET b=2; END ");
  EXPECT_EQ(st[1].text, "SELECT 1");
  EXPECT_EQ(st[1].line, 4u);
}

TEST(SqlScriptTest, VersionedCommentsStayInTheStatement) {
  auto st = Split({"/*!40101 SET NAMES utf8mb4 */;\n/*M!999999\\- enable the sandbox mode */ \nSELECT 1;"});
  ASSERT_EQ(st.size(), 2u);
  EXPECT_EQ(st[0].text, "/*!40101 SET NAMES utf8mb4 */");
  EXPECT_EQ(st[1].text, "SELECT 1");
  EXPECT_EQ(st[1].line, 3u);
}

// A reader of MariaDB's dumps keeps its /*M!...*/ comments for its lexer to read as code.
TEST(SqlScriptTest, MariadbsVersionedCommentsStayForAMariadbReader) {
  StatementSplitter splitter(/*mariadb=*/true);
  std::vector<std::string> texts;
  auto sink = [&](ScriptStatement& s) {
    texts.push_back(s.text);
    return true;
  };
  splitter.Feed("CREATE TABLE t (c BLOB /*M!100301 COMPRESSED*/);\n", sink);
  ASSERT_EQ(texts.size(), 1u);
  EXPECT_EQ(texts[0], "CREATE TABLE t (c BLOB /*M!100301 COMPRESSED*/)");
}

TEST(SqlScriptTest, PendingWhileAStatementIsOpen) {
  StatementSplitter s;
  auto sink = [](ScriptStatement&) { return true; };
  s.Feed("SELECT\n", sink);
  EXPECT_TRUE(s.pending());
  s.Feed("1;\n", sink);
  EXPECT_FALSE(s.pending());
  s.Feed("SELECT 'open\n", sink);
  EXPECT_TRUE(s.pending());
}

}  // namespace
}  // namespace strata::sqltext
