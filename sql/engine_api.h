// The SQL front end is a client of the engine's public API and of sqltext/ (the lexer, the
// definition grammar, MySQL's errors) and of nothing else below it: it is written against
// Database, Table, Transaction, Value, Status and the schema types, named here once for the
// whole module (the layering probe proves the engine cannot see sql/).
#pragma once

#include "engine/db.h"
#include "engine/schema.h"
#include "engine/value.h"
#include "sqltext/errors.h"
#include "sqltext/lexer.h"

namespace strata::sql {
using namespace strata::engine;
using namespace strata::sqltext;
}  // namespace strata::sql
