#include "datasets/dump_writer.h"

#include <fmt/format.h>

#include "ondisk/identifier.h"

namespace strata::datasets {

std::optional<TableShape> ParseTableShape(const std::string& name) {
  if (name == "key-only") return TableShape::kKeyOnly;
  if (name == "sbtest") return TableShape::kSbtest;
  return std::nullopt;
}

std::string DefaultTableName(KeyStrategy keys) {
  std::string name = "innodb_" + ToString(keys);
  for (char& c : name) {
    if (c == '-') c = '_';
  }
  return name;
}

namespace {

constexpr std::string_view kSessionSave =
    "/*!40101 SET @OLD_CHARACTER_SET_CLIENT=@@CHARACTER_SET_CLIENT */;\n"
    "/*!40101 SET @OLD_CHARACTER_SET_RESULTS=@@CHARACTER_SET_RESULTS */;\n"
    "/*!40101 SET @OLD_COLLATION_CONNECTION=@@COLLATION_CONNECTION */;\n"
    "/*!40101 SET NAMES utf8mb4 */;\n"
    "/*!40103 SET @OLD_TIME_ZONE=@@TIME_ZONE */;\n"
    "/*!40103 SET TIME_ZONE='+00:00' */;\n"
    "/*!40014 SET @OLD_UNIQUE_CHECKS=@@UNIQUE_CHECKS, UNIQUE_CHECKS=0 */;\n"
    "/*!40014 SET @OLD_FOREIGN_KEY_CHECKS=@@FOREIGN_KEY_CHECKS, FOREIGN_KEY_CHECKS=0 */;\n"
    "/*!40101 SET @OLD_SQL_MODE=@@SQL_MODE, SQL_MODE='NO_AUTO_VALUE_ON_ZERO' */;\n"
    "/*!40111 SET @OLD_SQL_NOTES=@@SQL_NOTES, SQL_NOTES=0 */;\n\n";

constexpr std::string_view kSessionRestore =
    "/*!40103 SET TIME_ZONE=@OLD_TIME_ZONE */;\n\n"
    "/*!40101 SET SQL_MODE=@OLD_SQL_MODE */;\n"
    "/*!40014 SET FOREIGN_KEY_CHECKS=@OLD_FOREIGN_KEY_CHECKS */;\n"
    "/*!40014 SET UNIQUE_CHECKS=@OLD_UNIQUE_CHECKS */;\n"
    "/*!40101 SET CHARACTER_SET_CLIENT=@OLD_CHARACTER_SET_CLIENT */;\n"
    "/*!40101 SET CHARACTER_SET_RESULTS=@OLD_CHARACTER_SET_RESULTS */;\n"
    "/*!40101 SET COLLATION_CONNECTION=@OLD_COLLATION_CONNECTION */;\n"
    "/*!40111 SET SQL_NOTES=@OLD_SQL_NOTES */;\n\n";

std::string QuotedTable(const DumpOptions& o) {
  return ondisk::QuoteIdentifier(o.table.empty() ? DefaultTableName(o.keys) : o.table);
}

}  // namespace

std::string RowTuples::Next(bool autoinc_as_null) {
  ++row_;
  // Numbers bare, text quoted (the generators' alphabets need no escaping), bytes in hex as
  // --hex-blob writes them.
  const std::string key = key_gen_.Next();
  std::string tuple = "(";
  if (keys_ == KeyStrategy::kAutoinc) {
    tuple += autoinc_as_null ? "NULL" : std::to_string(row_);
  } else if (keys_ == KeyStrategy::kSeq) {
    tuple += key;
  } else if (!KeyGenerator::IsBinary(keys_)) {
    tuple += "'" + key + "'";
  } else {
    tuple += "0x" + ToHex(key, HexCase::kUpper);
  }
  if (shape_ == TableShape::kSbtest) {
    const SbtestRow r = row_gen_.Next();
    tuple += fmt::format(",{},'{}','{}'", r.k, r.c, r.pad);
  }
  return tuple + ")";
}

std::string CreateTableStatement(const DumpOptions& o) {
  std::string s = fmt::format("CREATE TABLE {} (\n  `id` {} NOT NULL{},\n", QuotedTable(o), KeyColumnType(o.keys),
                              o.keys == KeyStrategy::kAutoinc ? " AUTO_INCREMENT" : "");
  if (o.shape == TableShape::kSbtest) {
    s += "  `k` int(10) unsigned NOT NULL DEFAULT 0,\n"
         "  `c` char(120) NOT NULL DEFAULT '',\n"
         "  `pad` char(60) NOT NULL DEFAULT '',\n"
         "  PRIMARY KEY (`id`),\n"
         "  KEY `k_1` (`k`)\n";
  } else {
    s += "  PRIMARY KEY (`id`)\n";
  }
  // The server's next AUTO_INCREMENT value, which SHOW CREATE TABLE (and so the dump) names.
  const std::string next_id =
      o.keys == KeyStrategy::kAutoinc && o.rows > 0 ? fmt::format(" AUTO_INCREMENT={}", o.rows + 1) : "";
  return s + ") ENGINE=InnoDB" + next_id + " DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci";
}

bool WriteDump(const DumpOptions& o, const std::function<bool(std::string_view)>& write,
               const std::function<void(std::uint64_t)>& progress) {
  const std::string table = QuotedTable(o);
  std::string head = fmt::format(
      "-- Strata gen dump: {} rows, keys {}, shape {}, seed {} (mariadb-dump's layout)\n--\n"
      "-- Host: localhost    Database: {}\n"
      "-- ------------------------------------------------------\n\n",
      o.rows, ToString(o.keys), o.shape == TableShape::kSbtest ? "sbtest" : "key-only", o.seed, o.database);
  head += kSessionSave;
  head += fmt::format(
      "--\n-- Table structure for table {0}\n--\n\n"
      "DROP TABLE IF EXISTS {0};\n"
      "/*!40101 SET @saved_cs_client     = @@character_set_client */;\n"
      "/*!40101 SET character_set_client = utf8mb4 */;\n"
      "{1};\n"
      "/*!40101 SET character_set_client = @saved_cs_client */;\n\n"
      "--\n-- Dumping data for table {0}\n--\n\n"
      "LOCK TABLES {0} WRITE;\n"
      "/*!40000 ALTER TABLE {0} DISABLE KEYS */;\n",
      table, CreateTableStatement(o));
  if (!write(head)) return false;

  RowTuples tuples(o.keys, o.shape, o.rows, o.seed);
  // mariadb-dump's extended INSERTs (dump_table in its source): a row to a line, and a new
  // statement when the running length (the INSERT text plus 4, then each row plus 2) would
  // reach net_buffer_length.
  const std::string pattern = fmt::format("INSERT INTO {} VALUES\n", table);
  std::string statement;
  std::size_t length = 0;
  for (std::uint64_t i = 1; i <= o.rows; ++i) {
    const std::string row = tuples.Next();
    const std::size_t row_length = row.size() + 2;
    if (!statement.empty() && length + row_length < o.net_buffer_length) {
      statement += ",\n";
      statement += row;
      length += row_length;
      continue;
    }
    if (!statement.empty()) {
      statement += ";\n";
      if (!write(statement)) return false;
      if (progress) progress(i - 1);
    }
    statement = pattern + row;
    length = pattern.size() + 4 + row_length;
  }
  if (!statement.empty()) {
    statement += ";\n";
    if (!write(statement)) return false;
  }
  if (progress) progress(o.rows);
  std::string tail = fmt::format("/*!40000 ALTER TABLE {0} ENABLE KEYS */;\nUNLOCK TABLES;\n", table);
  tail += kSessionRestore;
  tail += "-- Dump completed\n";
  return write(tail);
}

}  // namespace strata::datasets
