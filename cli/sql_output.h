// Results printed as the mysql client prints them: boxed tables and "N rows in set (0.00 sec)"
// at a terminal, one column per line after \G, and tab-separated lines with a header in batch
// mode (`strata sql < file`), where each row goes out as soon as it is read.
#pragma once

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "sql/session.h"

namespace strata::cli {

enum class OutputMode { kTable, kVertical, kBatch };

struct OutputOptions {
  bool column_names = true;  // -N turns the header off
  bool raw = false;          // -r: batch values without escaping
  bool summaries = true;     // "Query OK, ...", "N rows in set": interactive only
};

class ResultPrinter : public sql::ResultSink {
 public:
  ResultPrinter(std::ostream& out, OutputMode mode, OutputOptions options)
      : out_(out), mode_(mode), options_(options) {}
  void Header(const std::vector<sql::ColumnHeader>& columns) override;
  void Row(const std::vector<std::optional<std::string>>& values) override;
  // Prints what was buffered and the statement's summary line(s).
  void Done(const sql::StatementOutcome& outcome, double seconds);

 private:
  void PrintTable();
  void PrintVertical();
  std::ostream& out_;
  OutputMode mode_;
  OutputOptions options_;
  std::vector<sql::ColumnHeader> columns_;
  std::vector<std::vector<std::optional<std::string>>> rows_;
  bool header_printed_ = false;
};

// "ERROR 1146 (42S02) at line 3: Table 'a.b' doesn't exist" (the line when reading a script).
std::string FormatError(const sql::SqlError& e, std::optional<std::uint64_t> line);

}  // namespace strata::cli
