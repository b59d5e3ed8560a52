// Column values to and from the bytes InnoDB stores. The byte formats are
// ondisk/column_format.h (the inspector decodes with the same code); what is the engine's own
// here is taking a Value apart as MySQL does on INSERT (strings to numbers and dates, rounding
// DECIMALs half up, "Data too long"), and how columns sort: CHAR in utf8mb4 is at least n bytes,
// space padded, variable up to 4n; text collations compare case-insensitively with trailing
// spaces ignored (utf8mb4_general_ci, latin1_swedish_ci), binary ones byte by byte.
#pragma once

#include "engine/key.h"
#include "engine/schema.h"
#include "ondisk/column_format.h"

namespace strata::engine {

ondisk::FieldDef StorageOf(const Column& c);
// The column as ondisk describes it, for ColumnText and the inspector.
ondisk::ColumnFormat FormatOf(const Column& c);
CompareKind CompareKindOf(const Column& c);
// The server's collation id for the column (45 utf8mb4_general_ci, 46 utf8mb4_bin, 8
// latin1_swedish_ci, 47 latin1_bin, 63 binary, or the collation_id it was given).
int CollationOf(const Column& c);

// InvalidArgument naming the column when the value does not fit ("Out of range value",
// "Data too long", "Incorrect datetime value", as MySQL words them).
Result<Datum> EncodeValue(const Column& c, const Value& v);
Result<Value> DecodeValue(const Column& c, const Datum& d);

}  // namespace strata::engine
