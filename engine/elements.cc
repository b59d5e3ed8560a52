#include "engine/elements.h"

#include "engine/collation.h"
#include "ondisk/column_format.h"

namespace strata::engine {

namespace {

// The 0-based position of `label` among the column's labels, by its collation.
std::optional<std::size_t> LabelAt(const Column& c, TextRule rule, std::string_view label) {
  for (std::size_t i = 0; i < c.elements.size(); ++i) {
    if (CompareUtf8(rule, c.elements[i], label) == 0) return i;
  }
  return std::nullopt;
}

}  // namespace

ElementMatch MatchElements(const Column& c, std::string_view text) {
  const TextRule rule = TextRuleOf(c);
  ElementMatch m;
  if (c.type == ColumnType::kEnum) {
    const auto at = LabelAt(c, rule, text);
    if (at) m.number = *at + 1;
    m.complete = at.has_value();
    return m;
  }
  if (text.empty()) return m;
  for (std::size_t from = 0;;) {
    const std::size_t comma = std::min(text.find(',', from), text.size());
    if (const auto at = LabelAt(c, rule, text.substr(from, comma - from)))
      m.number |= std::uint64_t{1} << *at;
    else
      m.complete = false;
    if (comma == text.size()) return m;
    from = comma + 1;
  }
}

std::string ElementsText(const Column& c, std::uint64_t number) {
  if (c.type == ColumnType::kEnum)
    return number >= 1 && number <= c.elements.size() ? c.elements[number - 1] : std::string();
  std::string out;
  for (std::size_t i = 0; i < c.elements.size() && i < 64; ++i) {
    if (!(number >> i & 1)) continue;
    if (!out.empty()) out += ',';
    out += c.elements[i];
  }
  return out;
}

std::uint32_t ElementsBytes(const Column& c) {
  return c.type == ColumnType::kEnum ? ondisk::EnumBytes(c.elements.size()) : ondisk::SetBytes(c.elements.size());
}

std::uint64_t ElementsMax(const Column& c) {
  if (c.type == ColumnType::kEnum) return c.elements.size();
  return c.elements.size() >= 64 ? UINT64_MAX : (std::uint64_t{1} << c.elements.size()) - 1;
}

std::string ElementsSqlType(const Column& c) {
  std::string out = c.type == ColumnType::kEnum ? "enum(" : "set(";
  for (std::size_t i = 0; i < c.elements.size(); ++i) {
    if (i) out += ',';
    out += '\'';
    for (char ch : c.elements[i]) {
      if (ch == '\'' || ch == '\\') out += ch;  // doubled, as SHOW CREATE TABLE writes them
      out += ch;
    }
    out += '\'';
  }
  return out + ")";
}

}  // namespace strata::engine
