#include "cli/rows_printer.h"

#include <iostream>

#include <nlohmann/json.hpp>

namespace strata::cli {

using namespace strata::inspect;

namespace {

constexpr std::size_t kRowsPerInsert = 1000;
constexpr std::size_t kFlushBytes = 1 << 20;

bool Complete(const inspect::Row& row) {
  for (const auto& c : row.cells) {
    if (!c.unknown.empty()) return false;
  }
  return true;
}

std::string JsonElement(const nlohmann::json& j) {
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace

RowsPrinter::RowsPrinter(RowFormat format, std::vector<RowColumn> columns, bool with_deleted, bool history,
                         Target target)
    : format_(format),
      columns_(std::move(columns)),
      with_deleted_(with_deleted),
      history_(history),
      target_(std::move(target)) {
  if (format_ == RowFormat::kSql) insert_ = SqlInsertPrefix(target_.insert_table, columns_);
}

void RowsPrinter::Begin() {
  switch (format_) {
    case RowFormat::kTsv:
      out_ += history_ ? TsvHistoryHeader(columns_) : TsvHeader(columns_, with_deleted_);
      break;
    case RowFormat::kSql:
      // TIMESTAMPs are printed in UTC and text as UTF-8: a restore must read them so.
      out_ += "SET NAMES utf8mb4;\nSET time_zone = '+00:00';\n";
      break;
    case RowFormat::kJson: {
      nlohmann::json names = nlohmann::json::array();
      for (const auto& c : columns_) names.push_back(c.name);
      out_ += "{\"command\": \"rows\", \"schema_version\": 1, \"file\": " + nlohmann::json(target_.file).dump() +
              ", \"table\": " + nlohmann::json(target_.table).dump() +
              ", \"index\": " + nlohmann::json(target_.index).dump() + ", \"columns\": " + names.dump() +
              ", \"rows\": [";
      break;
    }
  }
}

void RowsPrinter::Append(const std::string& json_element) { out_ += (first_ ? "\n  " : ",\n  ") + json_element; }

void RowsPrinter::Row(const inspect::Row& row) {
  switch (format_) {
    case RowFormat::kTsv:
      AppendTsvLine(out_, row, with_deleted_);
      break;
    case RowFormat::kJson:
      Append(JsonElement(RowJson(columns_, row)));
      break;
    case RowFormat::kSql:
      SqlRow(row);
      break;
  }
  first_ = false;
  Flush(false);
}

void RowsPrinter::SqlRow(const inspect::Row& row) {
  if (!Complete(row)) {
    EndInsert();
    ++rows_left_out_;
    out_ += "-- the row at page " + std::to_string(row.page) + " offset " + std::to_string(row.offset) +
            " is left out: a value in it cannot be decoded\n";
    return;
  }
  // Said where the rows are, so a restore can be checked: the values may be wrong.
  if (row.page_damaged && row.page != damaged_page_said_) {
    EndInsert();
    damaged_page_said_ = row.page;
    out_ += "-- the rows below, up to the next such line, are from page " + std::to_string(row.page) +
            ", which fails its checksum: their values may be damaged\n";
  } else if (!row.page_damaged && damaged_page_said_ != ondisk::kFilNull) {
    EndInsert();
    damaged_page_said_ = ondisk::kFilNull;
    out_ += "-- the rows below are from pages that pass their checksums\n";
  }
  out_ += in_insert_ ? ",\n" : insert_;
  AppendSqlTuple(out_, columns_, row);
  if (++in_insert_ == kRowsPerInsert) EndInsert();
}

void RowsPrinter::Versions(const std::vector<RecordVersion>& versions) {
  if (format_ == RowFormat::kTsv) {
    for (std::size_t i = 0; i < versions.size(); ++i) AppendTsvVersion(out_, versions[i], i);
  } else {
    nlohmann::json j = VersionJson(columns_, versions[0]);
    j["older"] = nlohmann::json::array();
    for (std::size_t i = 1; i < versions.size(); ++i) {
      nlohmann::json older = VersionJson(columns_, versions[i]);
      older.erase("page");  // the record's place; the version came from the newer one's "undo"
      older.erase("offset");
      j["older"].push_back(std::move(older));
    }
    Append(JsonElement(j));
    first_ = false;
  }
  Flush(false);
}

void RowsPrinter::End(const std::vector<Finding>& findings) {
  if (format_ == RowFormat::kJson) {
    nlohmann::json list = nlohmann::json::array();
    for (const auto& f : findings) list.push_back(ToJson(f));
    out_ += std::string(first_ ? "" : "\n") + "], \"findings\": " + list.dump() + "}\n";
  }
  Flush(true);
  std::cout.flush();
}

void RowsPrinter::EndInsert() {
  if (in_insert_) out_ += ";\n";
  in_insert_ = 0;
}

void RowsPrinter::Flush(bool all) {
  if (all) EndInsert();
  if (all || out_.size() >= kFlushBytes) {
    std::cout << out_;
    out_.clear();
  }
}

}  // namespace strata::cli
