#include "inspect/row_output.h"

#include <array>
#include <charconv>

#include <fmt/format.h>

#include "ondisk/column_format.h"
#include "sqltext/lexer.h"

namespace strata::inspect {

using ondisk::ColumnType;

namespace {

bool Numeric(const ondisk::ColumnFormat& f) {
  switch (f.type) {
    case ColumnType::kInt:
    case ColumnType::kSystem:
    case ColumnType::kDecimal:
    case ColumnType::kFloat:
    case ColumnType::kDouble:
    case ColumnType::kYear:
      return true;
    default:
      return false;
  }
}

// Bytes that are not text in any character set: printed by the client as they are, restored
// from hex.
bool BinaryBytes(const ondisk::ColumnFormat& f) {
  switch (f.type) {
    case ColumnType::kBit:
    case ColumnType::kGeometry:
    case ColumnType::kVector:
      return true;
    case ColumnType::kChar:
    case ColumnType::kVarchar:
      return f.binary();
    default:
      return false;
  }
}

std::string Hex(const std::string& s) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(2 * s.size());
  for (unsigned char c : s) {
    out += kHex[c >> 4];
    out += kHex[c & 15];
  }
  return out;
}

std::string UnknownText(const RowCell& c) { return "(unknown: " + c.unknown + ")"; }

}  // namespace

std::string TsvHeader(const std::vector<RowColumn>& columns, bool with_deleted) {
  std::string out;
  for (std::size_t i = 0; i < columns.size(); ++i) {
    if (i) out += '\t';
    out += columns[i].name;
  }
  if (with_deleted) out += "\t(deleted)";
  return out + '\n';
}

std::string TsvLine(const Row& row, bool with_deleted) {
  std::string out;
  AppendTsvLine(out, row, with_deleted);
  return out;
}

void AppendTsvLine(std::string& out, const Row& row, bool with_deleted) {
  for (std::size_t i = 0; i < row.cells.size(); ++i) {
    if (i) out += '\t';
    const RowCell& c = row.cells[i];
    if (c.text)
      ondisk::AppendBatchEscaped(out, *c.text);
    else
      out += c.unknown.empty() ? "NULL" : UnknownText(c);
  }
  if (with_deleted) out += row.deleted ? "\t1" : "\t0";
  out += '\n';
}

std::string SqlInsertPrefix(const std::string& table, const std::vector<RowColumn>& columns) {
  auto quote_name = [](const std::string& n) {
    std::string q = "`";
    for (char c : n) q += c == '`' ? std::string("``") : std::string(1, c);
    return q + "`";
  };
  std::string out = "INSERT INTO " + quote_name(table) + " (";
  bool first = true;
  for (const auto& c : columns) {
    if (c.generated) continue;  // the server computes it, and refuses a value for it
    out += (first ? "" : ",") + quote_name(c.name);
    first = false;
  }
  return out + ") VALUES\n";
}

void AppendSqlTuple(std::string& out, const std::vector<RowColumn>& columns, const Row& row) {
  out += '(';
  bool first = true;
  for (std::size_t i = 0; i < columns.size(); ++i) {
    if (columns[i].generated) continue;
    if (!first) out += ',';
    first = false;
    const RowCell& c = row.cells[i];
    if (!c.text) {
      out += "NULL";
    } else if (Numeric(*columns[i].format)) {
      out += *c.text;
    } else if (BinaryBytes(*columns[i].format)) {
      if (c.text->empty()) {
        out += "''";
        continue;
      }
      out += "0x" + Hex(*c.text);
    } else {
      sqltext::AppendQuotedString(out, *c.text);
    }
  }
  out += ')';
}

std::string SqlInsert(const std::string& table, const std::vector<RowColumn>& columns, const std::vector<Row>& rows) {
  std::string out = SqlInsertPrefix(table, columns);
  for (std::size_t r = 0; r < rows.size(); ++r) {
    if (r) out += ",\n";
    AppendSqlTuple(out, columns, rows[r]);
  }
  return out + ";\n";
}

nlohmann::json RowJson(const std::vector<RowColumn>& columns, const Row& row) {
  nlohmann::json values = nlohmann::json::array();
  nlohmann::json unknown = nlohmann::json::object();
  for (std::size_t i = 0; i < row.cells.size(); ++i) {
    const RowCell& c = row.cells[i];
    const ondisk::ColumnFormat& f = *columns[i].format;
    if (!c.text) {
      values.push_back(nullptr);
      if (!c.unknown.empty()) unknown[columns[i].name] = c.unknown;
      continue;
    }
    const std::string& t = *c.text;
    if (f.type == ColumnType::kInt || f.type == ColumnType::kSystem) {
      std::int64_t s = 0;
      std::uint64_t u = 0;
      if (std::from_chars(t.data(), t.data() + t.size(), s).ec == std::errc())
        values.push_back(s);
      else if (std::from_chars(t.data(), t.data() + t.size(), u).ec == std::errc())
        values.push_back(u);
      else
        values.push_back(t);
    } else if (BinaryBytes(f)) {
      values.push_back({{"hex", Hex(t)}});
    } else {
      values.push_back(t);
    }
  }
  return {{"values", values},     {"deleted", row.deleted},           {"page", row.page},
          {"offset", row.offset}, {"page_damaged", row.page_damaged}, {"unknown", unknown}};
}

std::string TsvHistoryHeader(const std::vector<RowColumn>& columns) {
  std::string out = TsvHeader(columns, true);
  out.pop_back();
  return out + "\t(version)\t(DB_TRX_ID)\t(change)\n";
}

void AppendTsvVersion(std::string& out, const RecordVersion& v, std::size_t version) {
  AppendTsvLine(out, v.row, true);
  out.pop_back();
  out += fmt::format("\t{}\t{}\t", version, v.trx_id);
  out += !v.change.empty() ? v.change : v.purged ? "(purged)" : "(unknown: " + v.unknown + ")";
  if (!v.committed) out += " (not committed)";
  if (v.intermediate) out += " (changed again by the same transaction)";
  out += '\n';
}

nlohmann::json VersionJson(const std::vector<RowColumn>& columns, const RecordVersion& v) {
  nlohmann::json j = RowJson(columns, v.row);
  j["trx_id"] = v.trx_id;
  j["change"] = v.change.empty() ? nlohmann::json(nullptr) : nlohmann::json(v.change);
  j["change_unknown"] = v.unknown.empty() ? nlohmann::json(nullptr) : nlohmann::json(v.unknown);
  j["purged"] = v.purged;
  j["committed"] = v.committed;
  j["intermediate"] = v.intermediate;
  if (v.undo) {
    j["undo"] = {{"file", v.undo->file->path().string()},
                 {"space_id", v.undo->space_id},
                 {"page", v.undo->page},
                 {"offset", v.undo->offset},
                 {"trx_no", v.undo->trx_no}};
  }
  return j;
}

}  // namespace strata::inspect
