// Dump files of generated tables, in mariadb-dump's layout: the header SETs, DROP/CREATE
// TABLE, LOCK TABLES, extended INSERTs split where mariadb-dump splits them (net_buffer_length),
// and the trailer that restores the session. `mariadb db < file` and `strata import` load it.
//
// Shapes: key-only (one key column, the primary key, as the UUID-vs-ULID study created its
// tables) and sbtest (the key, then sysbench's k, c and pad with KEY k_1 (k)).
// Binary keys are written as 0x... literals, as `mariadb-dump --hex-blob` writes them.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "datasets/keys.h"

namespace strata::datasets {

enum class TableShape { kKeyOnly, kSbtest };
std::optional<TableShape> ParseTableShape(const std::string& name);

struct DumpOptions {
  std::uint64_t rows = 0;
  KeyStrategy keys = KeyStrategy::kAutoinc;
  TableShape shape = TableShape::kKeyOnly;
  std::string database = "test";
  std::string table;  // empty: DefaultTableName(keys)
  std::uint64_t seed = 1;
  // mariadb-dump's default: 1 MiB less 1,025 bytes, rounded down to a multiple of 1,024 as
  // it rounds the option.
  std::size_t net_buffer_length = 1046528;
};

// "innodb_uuid", "innodb_uuid7_bin", ...: the study's naming.
std::string DefaultTableName(KeyStrategy keys);
// The CREATE TABLE the dump carries (SHOW CREATE TABLE's form).
std::string CreateTableStatement(const DumpOptions& options);

// The generated rows as VALUES tuples, in the order the application makes them: "('0f3c…')",
// "(0x0185…,412,'…','…')". An autoinc key is the row's number (a dump carries the values the
// server assigned) or, with `autoinc_as_null`, NULL (an application leaves it to the server).
class RowTuples {
 public:
  RowTuples(KeyStrategy keys, TableShape shape, std::uint64_t rows, std::uint64_t seed)
      : keys_(keys), shape_(shape), key_gen_(keys, seed), row_gen_(rows, seed + 1) {}
  std::string Next(bool autoinc_as_null = false);

 private:
  KeyStrategy keys_;
  TableShape shape_;
  KeyGenerator key_gen_;
  SbtestRowGenerator row_gen_;
  std::uint64_t row_ = 0;
};

// Writes the dump through `write` (false: stop, the write failed); `progress(rows done)` is
// called after each INSERT. False when a write failed.
bool WriteDump(const DumpOptions& options, const std::function<bool(std::string_view)>& write,
               const std::function<void(std::uint64_t)>& progress = nullptr);

}  // namespace strata::datasets
