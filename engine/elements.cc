#include "engine/elements.h"

#include <charconv>

#include "engine/collation.h"
#include "ondisk/column_format.h"

namespace strata::engine {

namespace {

// The 0-based position of `label` among the column's labels, by its collation but not padded
// with spaces (labels have none at their end, so 'a ' names no label), as the server matches.
std::optional<std::size_t> LabelAt(const Column& c, TextRule rule, std::string_view label) {
  if (!label.empty() && label.back() == ' ') return std::nullopt;
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
    text = text.substr(0, text.find_last_not_of(' ') + 1);  // an ENUM's value loses its trailing spaces
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

std::optional<std::uint64_t> ElementsNumberText(std::string_view s) {
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  if (!s.empty() && s.front() == '+') s.remove_prefix(1);
  std::int64_t number = 0;
  const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), number);
  if (ec != std::errc() || p != s.data() + s.size() || s.empty()) return std::nullopt;
  return static_cast<std::uint64_t>(number);
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
    for (char ch : c.elements[i]) {  // as SHOW CREATE TABLE writes them: 'it''s', 'a\\b', 'c\nd'
      if (ch == '\0' || ch == '\n' || ch == '\r') {
        out += ch == '\0' ? "\\0" : ch == '\n' ? "\\n" : "\\r";
        continue;
      }
      if (ch == '\'' || ch == '\\') out += ch;
      out += ch;
    }
    out += '\'';
  }
  return out + ")";
}

}  // namespace strata::engine
