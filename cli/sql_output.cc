#include "cli/sql_output.h"

#include <fmt/format.h>

#include <algorithm>
#include <ostream>

namespace strata::cli {

namespace {

// Terminal columns a value takes: one per character (UTF-8 continuation bytes take none).
std::size_t Width(const std::string& s) {
  return static_cast<std::size_t>(
      std::count_if(s.begin(), s.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

// The mysql client's batch escapes: the bytes that would break the tab-separated layout.
void PutEscaped(std::ostream& out, const std::string& s) {
  std::size_t run = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char* esc = nullptr;
    switch (s[i]) {
      case '\0':
        esc = "\\0";
        break;
      case '\t':
        esc = "\\t";
        break;
      case '\n':
        esc = "\\n";
        break;
      case '\\':
        esc = "\\\\";
        break;
      default:
        continue;
    }
    out.write(s.data() + run, static_cast<std::streamsize>(i - run));
    out << esc;
    run = i + 1;
  }
  out.write(s.data() + run, static_cast<std::streamsize>(s.size() - run));
}

std::string Seconds(double s) { return fmt::format("({:.2f} sec)", s); }

std::string Plural(std::uint64_t n, const char* one, const char* many) {
  return fmt::format("{} {}", n, n == 1 ? one : many);
}

}  // namespace

std::string FormatError(const sql::SqlError& e, std::optional<std::uint64_t> line) {
  if (line) return fmt::format("ERROR {} ({}) at line {}: {}", e.code, e.sqlstate, *line, e.message);
  return fmt::format("ERROR {} ({}): {}", e.code, e.sqlstate, e.message);
}

void ResultPrinter::Header(const std::vector<sql::ColumnHeader>& columns) {
  columns_ = columns;
  rows_.clear();
  header_printed_ = false;
}

void ResultPrinter::Row(const std::vector<std::optional<std::string>>& values) {
  if (mode_ != OutputMode::kBatch) {
    rows_.push_back(values);
    return;
  }
  if (!header_printed_ && options_.column_names) {
    for (std::size_t i = 0; i < columns_.size(); ++i) {
      if (i) out_ << '\t';
      out_ << columns_[i].name;  // as the client prints names: not escaped, unlike values
    }
    out_ << '\n';
  }
  header_printed_ = true;
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i) out_ << '\t';
    if (!values[i])
      out_ << "NULL";
    else if (options_.raw)
      out_ << *values[i];
    else
      PutEscaped(out_, *values[i]);
  }
  out_ << '\n';
}

void ResultPrinter::PrintTable() {
  std::vector<std::size_t> width(columns_.size());
  for (std::size_t i = 0; i < columns_.size(); ++i) width[i] = Width(columns_[i].name);
  for (const auto& r : rows_) {
    for (std::size_t i = 0; i < r.size() && i < width.size(); ++i)
      width[i] = std::max(width[i], r[i] ? Width(*r[i]) : 4);
  }
  std::string rule = "+";
  for (std::size_t w : width) rule += std::string(w + 2, '-') + "+";
  auto line = [&](const std::vector<std::optional<std::string>>& cells, bool header) {
    out_ << "|";
    for (std::size_t i = 0; i < width.size(); ++i) {
      const std::string text = cells[i] ? *cells[i] : "NULL";
      const std::size_t pad = width[i] - Width(text);
      if (!header && columns_[i].numeric)
        out_ << " " << std::string(pad, ' ') << text << " |";
      else
        out_ << " " << text << std::string(pad, ' ') << " |";
    }
    out_ << "\n";
  };
  out_ << rule << "\n";
  if (options_.column_names) {
    std::vector<std::optional<std::string>> names;
    for (const auto& c : columns_) names.emplace_back(c.name);
    line(names, true);
    out_ << rule << "\n";
  }
  for (const auto& r : rows_) line(r, false);
  out_ << rule << "\n";
}

void ResultPrinter::PrintVertical() {
  std::size_t name_width = 0;
  for (const auto& c : columns_) name_width = std::max(name_width, Width(c.name));
  for (std::size_t n = 0; n < rows_.size(); ++n) {
    out_ << "*************************** " << n + 1 << ". row ***************************\n";
    for (std::size_t i = 0; i < columns_.size(); ++i) {
      out_ << std::string(name_width - Width(columns_[i].name), ' ') << columns_[i].name << ": "
           << (rows_[n][i] ? *rows_[n][i] : "NULL") << "\n";
    }
  }
}

void ResultPrinter::Done(const sql::StatementOutcome& o, double seconds) {
  if (o.error) return;
  const std::string warnings = o.warnings.empty() ? "" : ", " + Plural(o.warnings.size(), "warning", "warnings");
  if (o.result_set) {
    if (mode_ == OutputMode::kBatch) return;
    if (!rows_.empty()) {
      if (mode_ == OutputMode::kVertical)
        PrintVertical();
      else
        PrintTable();
      if (options_.summaries)
        out_ << Plural(rows_.size(), "row", "rows") << " in set" << warnings << " " << Seconds(seconds) << "\n\n";
    } else if (options_.summaries) {
      out_ << "Empty set" << warnings << " " << Seconds(seconds) << "\n\n";
    }
    rows_.clear();
    return;
  }
  if (!options_.summaries || mode_ == OutputMode::kBatch || o.skipped) return;
  if (o.info == "Database changed") {
    out_ << "Database changed\n";
    return;
  }
  out_ << "Query OK, " << Plural(o.rows, "row", "rows") << " affected" << warnings << " " << Seconds(seconds) << "\n";
  if (!o.info.empty()) out_ << o.info << "\n";
  out_ << "\n";
}

}  // namespace strata::cli
