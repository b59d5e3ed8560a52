#include "sql/load_data.h"

namespace strata::sql {

namespace {

class Splitter {
 public:
  Splitter(std::string_view text, const LoadData& l) : s_(text), l_(l) {}

  // The next line's fields; false at the end of the text.
  bool Line(LoadedRow& row) {
    row.clear();
    if (!l_.lines_starting.empty()) {  // what comes before the prefix is no data
      const std::size_t at = s_.find(l_.lines_starting, p_);
      if (at == std::string_view::npos) return false;
      p_ = at + l_.lines_starting.size();
    }
    if (p_ >= s_.size()) return false;
    for (;;) {
      row.push_back(Field());
      if (At(l_.fields_terminated)) {
        p_ += l_.fields_terminated.size();
        continue;
      }
      if (At(l_.lines_terminated)) p_ += l_.lines_terminated.size();
      return true;
    }
  }

 private:
  bool At(std::string_view what) const { return !what.empty() && s_.substr(p_, what.size()) == what; }
  bool AtEnd() const { return p_ >= s_.size(); }
  char Escape() const { return l_.escaped.empty() ? '\0' : l_.escaped[0]; }

  static char Unescaped(char c) {
    switch (c) {
      case '0':
        return '\0';
      case 'b':
        return '\b';
      case 'n':
        return '\n';
      case 'r':
        return '\r';
      case 't':
        return '\t';
      case 'Z':
        return '\x1a';
      default:
        return c;
    }
  }

  std::optional<std::string> Field() {
    const bool escapes = !l_.escaped.empty();
    if (escapes && At(std::string(1, Escape()) + "N")) {  // \N alone is NULL
      const std::size_t after = p_ + 2;
      const std::string_view rest = s_.substr(after);
      if (after >= s_.size() || rest.starts_with(l_.fields_terminated) || rest.starts_with(l_.lines_terminated)) {
        p_ = after;
        return std::nullopt;
      }
    }
    std::string out;
    if (!l_.enclosed.empty() && At(l_.enclosed)) {
      ++p_;
      while (!AtEnd()) {
        const char c = s_[p_];
        if (escapes && c == Escape() && p_ + 1 < s_.size()) {
          out += Unescaped(s_[p_ + 1]);
          p_ += 2;
        } else if (c == l_.enclosed[0]) {
          ++p_;
          if (!AtEnd() && s_[p_] == l_.enclosed[0]) {  // doubled: the character itself
            out += c;
            ++p_;
          } else if (AtEnd() || At(l_.fields_terminated) || At(l_.lines_terminated)) {
            return out;
          } else {
            out += c;
          }
        } else {
          out += c;
          ++p_;
        }
      }
      return out;
    }
    while (!AtEnd() && !At(l_.fields_terminated) && !At(l_.lines_terminated)) {
      const char c = s_[p_];
      if (escapes && c == Escape() && p_ + 1 < s_.size()) {
        out += Unescaped(s_[p_ + 1]);
        p_ += 2;
      } else {
        out += c;
        ++p_;
      }
    }
    if (!l_.enclosed.empty() && out == "NULL") return std::nullopt;
    return out;
  }

  std::string_view s_;
  const LoadData& l_;
  std::size_t p_ = 0;
};

}  // namespace

std::vector<LoadedRow> SplitLoadData(std::string_view text, const LoadData& l) {
  Splitter split(text, l);
  std::vector<LoadedRow> rows;
  LoadedRow row;
  for (std::uint64_t skipped = 0; skipped < l.ignore_lines && split.Line(row);) ++skipped;
  while (split.Line(row)) rows.push_back(row);
  return rows;
}

}  // namespace strata::sql
