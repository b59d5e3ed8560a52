// Column values to and from the bytes InnoDB stores (innodb-format.md §9.3):
//   integers      big-endian, sign bit flipped when signed (memcmp order = numeric order)
//   DECIMAL(p,s)  MySQL's binary decimal: 4 bytes per 9 digits, sign bit flipped, negative
//                 numbers with every bit inverted
//   FLOAT/DOUBLE  IEEE little-endian
//   CHAR(n)       latin1/binary: n bytes padded (spaces; BINARY: zero bytes); utf8mb4: at
//                 least n bytes, space padded, variable up to 4n
//   VARCHAR/TEXT  the bytes as given
//   DATE          3 bytes: day + 32*month + 512*year, big-endian, sign bit flipped
//   DATETIME(f)   5 bytes of year*13+month, day, h, m, s packed + 0x8000000000, then
//                 ceil(f/2) bytes of the fraction
//   TIMESTAMP(f)  4 bytes of seconds since 1970-01-01 UTC, then the fraction
// Text collations compare case-insensitively with trailing spaces ignored (utf8mb4_general_ci,
// latin1_swedish_ci); binary ones byte by byte.
#pragma once

#include "engine/key.h"
#include "engine/schema.h"

namespace strata::engine {

ondisk::FieldDef StorageOf(const Column& c);
CompareKind CompareKindOf(const Column& c);
// MySQL's collation id for the column (45 utf8mb4_general_ci, 8 latin1_swedish_ci, 63 binary).
int CollationOf(const Column& c);

// InvalidArgument naming the column when the value does not fit ("Out of range value",
// "Data too long", "Incorrect datetime value", as MySQL words them).
Result<Datum> EncodeValue(const Column& c, const Value& v);
Result<Value> DecodeValue(const Column& c, const Datum& d);

}  // namespace strata::engine
