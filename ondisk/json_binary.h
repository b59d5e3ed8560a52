// MySQL's binary JSON (the JSON column type of MySQL 5.7+; MariaDB stores JSON as text), and
// the text MySQL prints for it: `{"a": 1, "b": [true, null]}` — ", " and ": " between items,
// keys in the stored order (MySQL sorts them by length, then bytewise, when it writes).
//
//   value   := type byte, then its body
//   0x00/01 small/large object   0x02/03 small/large array: element count, byte size (2 or 4
//           bytes each, little-endian), key entries {offset, 2-byte length} (objects), value
//           entries {type, offset or the value itself when it fits}, then keys and values;
//           offsets count from the first byte after the type
//   0x04    literal: 0 null, 1 true, 2 false      0x05-0x0a int16, uint16, int32, uint32,
//   0x0b    double (little-endian)                          int64, uint64 (little-endian)
//   0x0c    string: length in 7-bit groups, low group first, high bit = more; UTF-8 bytes
//   0x0f    opaque: a MySQL field type byte, a length as for strings, the field's bytes
#pragma once

#include <string>

#include "ondisk/endian.h"
#include "ondisk/status.h"

namespace strata::ondisk {

// Corruption (naming the offset) for bytes that are not binary JSON; NotSupported for opaque
// values of a type not decoded (geometry, bit strings and the like inside a document).
Result<std::string> JsonBinaryToText(ConstBytes doc);

}  // namespace strata::ondisk
