// Rows as text: the `mysql -B` batch format (tab-separated, a header line, NULL, the client's
// escapes), INSERT statements that restore them, and JSON.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "inspect/record_history.h"
#include "inspect/rows.h"

namespace strata::inspect {

enum class RowFormat { kTsv, kJson, kSql };

// A cell the definition could not decode prints as "(unknown: REASON)" in the batch format
// (it cannot look like a value) and stops its row from becoming an INSERT.
std::string TsvHeader(const std::vector<RowColumn>& columns, bool with_deleted);
std::string TsvLine(const Row& row, bool with_deleted);
void AppendTsvLine(std::string& out, const Row& row, bool with_deleted);

// One `INSERT INTO` for `rows` (each complete: no unknown cells). Numbers are bare, binary
// strings 0x-hex, text quoted with the escapes mysqldump uses.
std::string SqlInsert(const std::string& table, const std::vector<RowColumn>& columns, const std::vector<Row>& rows);
// Its parts, for output streamed a row at a time: "INSERT INTO `t` (`a`,...) VALUES\n", and
// one row's "(...)" appended to `out`.
std::string SqlInsertPrefix(const std::string& table, const std::vector<RowColumn>& columns);
void AppendSqlTuple(std::string& out, const std::vector<RowColumn>& columns, const Row& row);

// {"values": [...], "deleted", "page", "offset", "unknown": {column: reason}}: integers as
// JSON numbers, binary strings as {"hex": "..."}, everything else as the client's text.
nlohmann::json RowJson(const std::vector<RowColumn>& columns, const Row& row);

// --history: a line per version, the row's columns then (deleted), (version) (0: the record,
// 1: the version before, ...), (DB_TRX_ID) and (change), what that transaction did:
// insert, update, delete, "(purged)" when the undo records that would tell are gone, or
// "(unknown: REASON)"; " (not committed)" follows a change of a transaction that was active,
// " (changed again by the same transaction)" a version no other transaction saw.
std::string TsvHistoryHeader(const std::vector<RowColumn>& columns);
void AppendTsvVersion(std::string& out, const RecordVersion& v, std::size_t version);
// RowJson's object with "trx_id", "change" (null when unknown), "change_unknown", "purged",
// "committed", "intermediate"
// and "undo": where the undo record holding what the change overwrote is (the next version
// is rebuilt from it).
nlohmann::json VersionJson(const std::vector<RowColumn>& columns, const RecordVersion& v);

}  // namespace strata::inspect
