// The bytes a column's value takes in an InnoDB record, for readers above the engine that must
// rebuild what a server builds from them (CHECKSUM TABLE's record image).
#pragma once

#include <string>

#include "engine/schema.h"
#include "engine/value.h"

namespace strata::engine {

// As the engine stores `v` in column `c` (MySQL 8.0's form, which `inspect rows` decodes):
// DECIMAL, DATETIME, TIMESTAMP and TIME in their binary forms, UUID and INET as MariaDB keeps
// them, a shape as SRID + WKB, text in its character set. InvalidArgument when it does not fit.
Result<std::string> StoredBytes(const Column& c, const Value& v);

}  // namespace strata::engine
