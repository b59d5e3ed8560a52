// Runs untrusted SQL in a client session on a real database, as `strata sql` runs a script,
// and then checks what the statements left: every index of every table must pass
// Table::Check (B+tree structure, and each row's secondary entries present). A crash, a
// sanitizer report or a failed check is a finding; an SQL error is not.
//
// Each input starts from the same two tables (see kPrelude in sql_exec.cc) in a database the
// harness drops afterwards, in one Database opened once per process with a small buffer pool
// and redo log, so that inputs also reach eviction and checkpoints.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace strata::fuzz {

// Input: SQL text, cut into statements as the mysql client cuts a script. At most 64
// statements run. Aborts (the finding) when a table fails its check afterwards. With
// STRATA_FUZZ_VERBOSE set, prints each statement and what became of it.
void RunSqlStatements(const std::uint8_t* data, std::size_t size);

// The seed scripts: statements over the prelude's tables that reach each kind of statement.
std::string SqlSeedScript(std::size_t k);
std::size_t SqlSeedScripts();

}  // namespace strata::fuzz
