#include "tests/fuzz/sql_text.h"

#include <string_view>

#include "sqltext/lexer.h"
#include "sql/load_data.h"
#include "sql/expr_text.h"
#include "sql/parser.h"
#include "sqltext/script.h"
#include "sql/values_reader.h"
#include "inspect/create_table.h"

namespace strata::fuzz {

using namespace strata::sql;

void ReadSqlText(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return;
  const std::size_t piece = 1 + data[0] * 7u;
  std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  StatementSplitter splitter;
  auto sink = [](ScriptStatement& st) {
    const Parsed p = Parse(st.text);
    if (p.error) (void)p.error->message.size();
    // A SELECT printed back as a view keeps it: the printer takes whatever the parser builds.
    const Select* select = nullptr;
    if (const auto* view = p.statement ? std::get_if<CreateView>(&*p.statement) : nullptr) select = view->select.get();
    if (const auto* s = p.statement ? std::get_if<Select>(&*p.statement) : nullptr) select = s;
    if (select) (void)Parse(SelectText(*select, "fz"));
    const std::size_t values = FindValuesKeyword(st.text);
    if (values != std::string_view::npos) {
      std::size_t rows = 0;
      (void)ReadValues(st.text, values, [&](std::vector<std::optional<SqlValue>>& v) {
        rows += v.size();
        return rows < 100000;
      });
    }
    return true;
  };
  for (std::size_t at = 0; at < text.size(); at += piece) splitter.Feed(text.substr(at, piece), sink);
  splitter.Finish(sink);
  // The same text as `inspect rows --create-table` reads it.
  (void)inspect::TableFromCreateTable(text, "", data[0] & 1 ? ondisk::Flavor::kMariaDb : ondisk::Flavor::kMySql);
  // And as a file LOAD DATA reads: tab-separated, or CSV with quotes and a line prefix.
  LoadData l;
  if (data[0] & 2) {
    l.fields_terminated = ",", l.enclosed = "\"", l.lines_starting = data[0] & 4 ? "xx" : "";
    l.lines_terminated = data[0] & 8 ? "\r\n" : "\n", l.ignore_lines = data[0] >> 6;
  }
  std::size_t fields = 0;
  for (const LoadedRow& row : SplitLoadData(text, l)) fields += row.size();
  (void)fields;
}

}  // namespace strata::fuzz
