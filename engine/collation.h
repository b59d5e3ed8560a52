// How text compares under a column's collation: the weights MySQL's and MariaDB's collations
// give characters (general_ci's computed from the Unicode data ICU carries, the UCA ones the
// server's own tables). Keys are ordered, unique keys checked and WHERE clauses compared by
// these rules, so 'Zoë', 'ZOË' and 'Zoe' are one value under utf8mb4_general_ci, as on the server.
//
//   general_ci         one weight per character: the upper case of its base letter as Unicode 3.0
//                      had them (ß = S, é = E, characters newer than 3.0 weigh themselves, those
//                      above U+FFFF all weigh U+FFFD); measured equal to MariaDB 10.11's weights
//                      for all 63,488 BMP code points.
//   latin1_swedish_ci  one weight per byte from the server's table (Å Ä Ö after Z, Ü = Y).
//   unicode_ci, unicode_520_ci, uca1400_ai_ci and their _nopad_ forms
//                      the Unicode Collation Algorithm's primary weights as the server's tables
//                      have them (UCA 4.0.0, 5.2.0 and 14.0.0: uca_tables.h), measured equal to
//                      MariaDB 10.11's for every code point: accents and case do not count, and
//                      each version has its own letters (æ is one of its own in 4.0.0).
//   0900_ai_ci         MySQL 8.0's, compared as MariaDB 11.4 does: uca1400_nopad_ai_ci's weights.
//                      CREATE TABLE says so with a note (UnicodeWarning).
//   _bin               bytes (code point order for UTF-8).
// All but 0900_ai_ci and the _nopad_ ones are PAD SPACE: the shorter string is compared as if
// padded with spaces, so trailing spaces do not count and 'a\t' < 'a'.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace strata::engine {

enum class TextRule : std::uint8_t {
  kBytes,            // binary strings: bytes, every one counts
  kBin,              // utf8mb4_bin, latin1_bin: bytes, PAD SPACE
  kGeneralCi,        // utf8mb4_general_ci (UTF-8 text)
  kLatin1SwedishCi,  // latin1_swedish_ci (latin1 bytes)
  kUca400,           // utf8mb4_unicode_ci (UTF-8 text, as all the UCA ones)
  kUca400NoPad,      // utf8mb4_unicode_nopad_ci
  kUca520,           // utf8mb4_unicode_520_ci
  kUca520NoPad,      // utf8mb4_unicode_520_nopad_ci
  kUca1400,          // utf8mb4_uca1400_ai_ci
  kUca1400NoPad,     // utf8mb4_uca1400_nopad_ai_ci, utf8mb4_0900_ai_ci
};

struct CollationInfo {
  std::uint16_t id = 0;   // the server's id (SHOW COLLATION, the SDI's collation_id)
  const char* name = "";  // "utf8mb4_general_ci"
  bool latin1 = false;    // a latin1 collation; else utf8mb4's
  TextRule rule = TextRule::kGeneralCi;
};

// The collations Strata compares by, by name (case-insensitive; utf8mb3_ and utf8_ names are
// their utf8mb4_ collation, as Strata stores utf8mb3 text as utf8mb4) or by id.
std::optional<CollationInfo> CollationByName(std::string_view name);
std::optional<CollationInfo> CollationById(std::uint16_t id);
// The charset's default: utf8mb4_general_ci (45) or latin1_swedish_ci (8).
CollationInfo DefaultCollation(bool latin1);

// <0, 0 or >0, as the rule orders `a` and `b` (UTF-8, or latin1 bytes for kLatin1SwedishCi).
int CompareText(TextRule rule, std::string_view a, std::string_view b);
// The same for UTF-8 text under any rule (latin1's: the text converted to latin1 first), as
// expressions hold text.
int CompareUtf8(TextRule rule, std::string_view a, std::string_view b);
// What CompareText compares: the text's weights in order (a weight per character for
// general_ci and latin1, UCA primary weights for the Unicode rules, bytes for _bin), the
// space's weight, and whether the rule pads with it (PAD SPACE).
std::vector<std::uint32_t> TextWeights(TextRule rule, std::string_view text);
std::uint32_t SpaceWeight(TextRule rule);
bool PadsSpace(TextRule rule);

// UPPER() and LOWER() of UTF-8 text: each character's simple case mapping, for the characters
// Unicode 3.0 had (as utf8mb4_general_ci's tables, which leave ß, ŉ and newer letters as they are).
std::string UpperCase(std::string_view utf8);
std::string LowerCase(std::string_view utf8);

// The note CREATE TABLE gives for utf8mb4_0900_ai_ci (see above); empty for the others.
std::string UnicodeWarning(const CollationInfo& c);

}  // namespace strata::engine
