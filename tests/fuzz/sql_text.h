// Feeds untrusted SQL text (a dump, a script) through everything that reads it before a
// statement runs: the statement splitter, the lexer and parser, and the fast reader of
// INSERT rows; and as a file LOAD DATA INFILE splits. Shared by the libFuzzer target and the replay test.
#pragma once

#include <cstddef>
#include <cstdint>

namespace strata::fuzz {

// Input: one byte choosing the size of the pieces the text arrives in, then the text.
// Never crashes on any input.
void ReadSqlText(const std::uint8_t* data, std::size_t size);

}  // namespace strata::fuzz
