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

// Whether a statement creates a table, read from its first word past space and plain
// comments: a dump's INSERTs are never lexed.
bool CreatesTable(std::string_view s) {
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
  return i + 6 <= s.size() && sqltext::EqualsIgnoreCase(s.substr(i, 6), "CREATE") && s.substr(i).size() > 6 &&
         std::isspace(static_cast<unsigned char>(s[i + 6]));
}

// Whether the table a CREATE TABLE is about to name is `name` (any table when empty).
bool Named(const sqltext::Cursor& c, const std::string& name) {
  if (name.empty()) return true;
  std::size_t k = c.Peek().IsWord("IF") ? 3 : 0;  // IF NOT EXISTS
  if (c.Peek(k + 1).IsPunct(".")) k += 2;         // database.table
  return sqltext::EqualsIgnoreCase(c.Peek(k).text, name);
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

Result<TableDef> TableFromCreateTable(std::string_view sql, const std::string& name, Flavor flavor) {
  // The dump's server wrote its versioned comments for itself: all of them are its code.
  const sqltext::Dialect dialect{~0ull, flavor == Flavor::kMariaDb};
  std::optional<Result<TableDef>> found;
  sqltext::StatementSplitter splitter;
  auto read = [&](sqltext::ScriptStatement& s) {
    if (!CreatesTable(s.text)) return true;
    auto at = [&](std::size_t offset) {
      return "line " + std::to_string(s.line + sqltext::LineAt(s.text, offset) - 1) + ": ";
    };
    sqltext::Lexed lexed = sqltext::Lex(s.text, dialect);
    if (!lexed.ok) {
      found = Status::InvalidArgument(at(lexed.error.offset) + lexed.error.message);
      return false;
    }
    sqltext::Cursor c(s.text, std::move(lexed.tokens));
    c.AcceptWord("CREATE");
    const bool temporary = c.AcceptWord("TEMPORARY");
    if (!c.AcceptWord("TABLE") || !Named(c, name)) return true;
    try {
      sqltext::TableText text = sqltext::ReadCreateTable(c, temporary);
      if (!text.like.empty()) {
        found = Status::InvalidArgument(at(0) + "CREATE TABLE " + text.name + " LIKE " + text.like +
                                        " copies another table: give that table's CREATE TABLE under this name");
      } else {
        found = FromText(std::move(text), flavor, at);
      }
    } catch (const sqltext::Failure& f) {
      found = Status::InvalidArgument(at(c.Peek().offset) + f.error.message);
    }
    return false;
  };
  if (splitter.Feed(sql, read)) splitter.Finish(read);
  if (found) return std::move(*found);
  return Status::InvalidArgument(name.empty() ? "no CREATE TABLE statement in the SQL"
                                              : "no CREATE TABLE statement for table '" + name + "' in the SQL");
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
