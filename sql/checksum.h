// CHECKSUM TABLE as MariaDB computes it (handler::calculate_checksum), so that Strata's figure
// for a table equals the server's for the same rows: per row, the CRC-32 of the server's record
// image (its NULL bitmap, then each non-NULL column: fixed-size ones as the record holds them,
// VARCHAR, TEXT, BLOB, BIT and shapes as their bytes), the rows' CRCs summed modulo 2^32.
#pragma once

#include "sql/engine_api.h"

#include <cstdint>
#include <optional>
#include <string>

namespace strata::sql {

// Why the server's figure cannot be rebuilt for this table (a column type whose record image
// the server would not have: MySQL's binary JSON), else nullopt.
std::optional<std::string> ChecksumRefusal(const TableSpec& spec);

// One row's CRC-32, as the server adds it to the table's checksum.
Result<std::uint32_t> RowChecksum(const TableSpec& spec, const Row& row);

}  // namespace strata::sql
