// Rows as the engine's public API (engine/db.h) takes and gives them, and how a call reads or
// inserts them: the vocabulary of Table's methods.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/value.h"

namespace strata::engine {

using Row = std::vector<Value>;  // one value per column, in the table's column order

// What a read locks: nothing (a consistent read), or the rows it returns (and, under
// REPEATABLE READ and SERIALIZABLE, the gaps before them): FOR SHARE, FOR UPDATE.
enum class RowLock : std::uint8_t { kNone, kShared, kExclusive };

struct ScanOptions {
  std::string index = "PRIMARY";  // or a secondary index's name
  std::vector<Value> from;        // a key prefix to start at; empty: from an end
  bool forward = true;            // ascending from the first key >= from, or descending from the last <= from
  // A locking read locks each row it visits (the one `fn` stops at too) with next-key locks
  // under REPEATABLE READ and SERIALIZABLE, record locks under the others.
  RowLock lock = RowLock::kNone;
};

// How an INSERT treats its values (the session's sql_mode, for the flags that matter here).
struct InsertOptions {
  // An AUTO_INCREMENT column given 0 gets the next value, as NULL does; with
  // sql_mode=NO_AUTO_VALUE_ON_ZERO (which mysqldump files set) 0 is stored as 0.
  bool zero_generates_auto_increment = true;
};

}  // namespace strata::engine
