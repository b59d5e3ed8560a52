#include "inspect/create_table.h"

#include <cctype>
#include <functional>
#include <optional>

#include "inspect/rows.h"
#include "inspect/table_layout.h"
#include "ondisk/fil_header.h"
#include "ondisk/index_page.h"
#include "ondisk/page_type.h"
#include "sqltext/column_layout.h"
#include "sqltext/definition.h"
#include "sqltext/script.h"

namespace strata::inspect {

using namespace strata::ondisk;

namespace {

// Whether a statement starts with `word` ("CREATE", "USE"), read past space and plain
// comments: a dump's INSERTs are never lexed.
bool StartsWithWord(std::string_view s, std::string_view word) {
  std::size_t i = 0;
  while (i < s.size()) {
    if (std::isspace(static_cast<unsigned char>(s[i]))) {
      ++i;
    } else if (s[i] == '#' || s.substr(i, 3) == "-- ") {
      i = std::min(s.find('\n', i), s.size());
    } else if (s.substr(i, 2) == "/*" && s.substr(i, 3) != "/*!" && s.substr(i, 4) != "/*M!") {
      i = std::min(s.find("*/", i), s.size()) + 2;
    } else {
      break;
    }
  }
  const std::size_t end = i + word.size();
  return end < s.size() && sqltext::EqualsIgnoreCase(s.substr(i, word.size()), word) &&
         (std::isspace(static_cast<unsigned char>(s[end])) || s[end] == '`');
}

// `t`'s columns and keys as InnoDB lays them out.
Result<TableDef> FromText(sqltext::TableText text, Flavor flavor, const std::function<std::string(std::size_t)>& at) {
  TableDef t;
  t.name = text.name;
  for (const sqltext::ColumnText& col : text.columns) {
    auto layout = sqltext::LayoutOf(col, text.options, flavor);
    if (!layout.ok()) return Status::InvalidArgument(at(col.offset) + layout.status().message());
    ColumnDef c;
    c.name = col.name;
    c.nullable = col.nullable;
    c.is_unsigned = col.type.is_unsigned;
    c.generated = col.generated != sqltext::ColumnText::Generated::kNo;
    c.is_virtual = col.generated == sqltext::ColumnText::Generated::kVirtual;
    c.field = std::move(layout->field);
    c.format = std::move(layout->format);
    c.sql_type = std::move(layout->sql_type);
    t.columns.push_back(std::move(c));
  }
  sqltext::NameUnnamedKeys(text.keys);
  std::vector<IndexSpec> specs;
  for (const sqltext::KeyText& key : text.keys) {
    using Kind = sqltext::KeyText::Kind;
    if (key.kind == Kind::kFulltext && !key.parts.empty()) t.fulltext_first_columns.push_back(key.parts[0].column);
    if (key.kind == Kind::kForeign || key.kind == Kind::kCheck || key.kind == Kind::kFulltext ||
        key.kind == Kind::kSpatial || key.functional())
      continue;  // no B-tree of its own, or one whose fields are not columns
    IndexSpec spec;
    spec.name = key.kind == Kind::kPrimary ? "PRIMARY" : key.name;
    spec.primary = key.kind == Kind::kPrimary;
    spec.unique = spec.primary || key.kind == Kind::kUnique;
    spec.prefix_in_chars = true;
    for (const sqltext::KeyPart& part : key.parts) spec.parts.push_back({part.column, part.prefix});
    specs.push_back(std::move(spec));
  }
  return LayOutTable(std::move(t), std::move(specs));
}

}  // namespace

namespace {

// Reads a script statement by statement for the CREATE TABLE of one table: `table` or
// `database.table` (the database as the statement names it, or the last USE), the first
// whose name is written exactly so, else the first whose name differs only in case.
class CreateTableFinder {
 public:
  CreateTableFinder(const std::string& name, Flavor flavor) : flavor_(flavor) {
    const std::size_t dot = name.find('.');
    table_ = dot == std::string::npos ? name : name.substr(dot + 1);
    if (dot != std::string::npos) database_ = name.substr(0, dot);
  }

  // False once the search is over: the table found, or a statement that does not read.
  bool Read(sqltext::ScriptStatement& s) {
    const bool use = StartsWithWord(s.text, "USE");
    if (!use && !StartsWithWord(s.text, "CREATE")) return true;
    auto at = [&](std::size_t offset) {
      return "line " + std::to_string(s.line + sqltext::LineAt(s.text, offset) - 1) + ": ";
    };
    sqltext::Lexed lexed = sqltext::Lex(s.text, kDialect);
    if (!lexed.ok) {  // the server's words for it, which show a NUL byte as one
      found_ =
          Status::InvalidArgument(at(lexed.error.offset) + sqltext::SyntaxError(s.text, lexed.error.offset).message);
      return false;
    }
    sqltext::Cursor c(s.text, std::move(lexed.tokens));
    if (use) {
      c.Take();
      current_database_ = c.Peek().text;
      return true;
    }
    c.Take();  // CREATE
    const bool temporary = c.AcceptWord("TEMPORARY");
    if (!c.AcceptWord("TABLE")) return true;
    const Match match = Matches(c);
    if (match == Match::kNo || (match == Match::kCaseless && caseless_)) return true;
    auto read = [&]() -> Result<TableDef> {
      try {
        sqltext::TableText text = sqltext::ReadCreateTable(c, temporary);
        if (text.like.empty()) return FromText(std::move(text), flavor_, at);
        return Status::InvalidArgument(at(0) + "CREATE TABLE " + text.name + " LIKE " + text.like +
                                       " copies another table: give that table's CREATE TABLE under this name");
      } catch (const sqltext::Failure& f) {
        return Status::InvalidArgument(at(c.Peek().offset) + f.error.message);
      }
    };
    Result<TableDef> table = read();
    (match == Match::kExact ? found_ : caseless_) = std::move(table);
    return match != Match::kExact;
  }

  Result<TableDef> Take() && {
    if (found_) return std::move(*found_);
    if (caseless_) return std::move(*caseless_);
    return Status::NotFound(table_.empty() ? "no CREATE TABLE statement in the SQL"
                                           : "no CREATE TABLE statement for table '" +
                                                 (database_.empty() ? "" : database_ + ".") + table_ + "' in the SQL");
  }

 private:
  // The dump's server wrote its versioned comments for itself: all of them are its code (a
  // MySQL dump has no /*M!...*/ ones, and a MariaDB file's flavour is not always known).
  static constexpr sqltext::Dialect kDialect{~0ull, true};
  enum class Match { kNo, kCaseless, kExact };

  // How the table a CREATE TABLE is about to name matches the one looked for.
  Match Matches(const sqltext::Cursor& c) const {
    if (table_.empty()) return Match::kExact;
    std::size_t k = c.Peek().IsWord("IF") ? 3 : 0;  // IF NOT EXISTS
    std::string database = current_database_;
    if (c.Peek(k + 1).IsPunct(".")) database = c.Peek(k).text, k += 2;
    if (!database_.empty() && !sqltext::EqualsIgnoreCase(database, database_)) return Match::kNo;
    const std::string& name = c.Peek(k).text;
    if (name == table_ && (database_.empty() || database == database_)) return Match::kExact;
    return sqltext::EqualsIgnoreCase(name, table_) ? Match::kCaseless : Match::kNo;
  }

  Flavor flavor_;
  std::string database_, table_;  // looked for
  std::string current_database_;  // the last USE's
  std::optional<Result<TableDef>> found_, caseless_;
};

}  // namespace

Result<TableDef> TableFromCreateTable(std::string_view sql, const std::string& name, Flavor flavor) {
  CreateTableFinder finder(name, flavor);
  sqltext::StatementSplitter splitter(/*mariadb=*/true);
  auto read = [&](sqltext::ScriptStatement& s) { return finder.Read(s); };
  if (splitter.Feed(sql, read)) splitter.Finish(read);
  return std::move(finder).Take();
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
