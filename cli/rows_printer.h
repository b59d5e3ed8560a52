// How `strata inspect rows` writes what it read: rows (and older versions) as `mysql -B` prints
// them (TSV), as JSON, or as INSERT statements that restore them, buffered onto stdout.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "inspect/finding.h"
#include "inspect/record_history.h"
#include "inspect/row_output.h"
#include "inspect/rows.h"

namespace strata::cli {

using inspect::RowFormat;

class RowsPrinter {
 public:
  struct Target {
    std::string file;   // as the user named it
    std::string table;  // schema.table
    std::string index;
    std::string insert_table;  // the table INSERTs name
  };
  RowsPrinter(RowFormat format, std::vector<inspect::RowColumn> columns, bool with_deleted, bool history,
              Target target);

  // The header: TSV's column names, SQL's session settings, JSON's opening object.
  void Begin();
  void Row(const inspect::Row& row);
  // --history: a row and its older versions.
  void Versions(const std::vector<inspect::RecordVersion>& versions);
  // The rest, with JSON's findings, onto stdout.
  void End(const std::vector<inspect::Finding>& findings);

  // INSERT output: rows left out because a value in them cannot be decoded.
  std::uint64_t rows_left_out() const { return rows_left_out_; }

 private:
  void Append(const std::string& json_element);
  void SqlRow(const inspect::Row& row);
  void EndInsert();
  void Flush(bool all);

  RowFormat format_;
  std::vector<inspect::RowColumn> columns_;
  bool with_deleted_;
  bool history_;
  Target target_;
  std::string out_;
  bool first_ = true;
  std::string insert_;                                  // "INSERT INTO t (...) VALUES\n"
  std::size_t in_insert_ = 0;                           // rows of the INSERT being written
  std::uint32_t damaged_page_said_ = ondisk::kFilNull;  // the failing page whose rows follow
  std::uint64_t rows_left_out_ = 0;
};

}  // namespace strata::cli
