#include "engine/collation.h"

#include <unicode/normalizer2.h>
#include <unicode/uchar.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <mutex>
#include <vector>

#include "engine/uca.h"
#include "ondisk/charsets.h"

namespace strata::engine {

namespace {

constexpr std::uint16_t kUtf8GeneralCi = 45, kUtf8Bin = 46, kLatin1SwedishCi = 8, kLatin1Bin = 47, kMysql0900AiCi = 255;

constexpr CollationInfo kCollations[] = {
    {kUtf8GeneralCi, "utf8mb4_general_ci", false, TextRule::kGeneralCi},
    {kUtf8Bin, "utf8mb4_bin", false, TextRule::kBin},
    {224, "utf8mb4_unicode_ci", false, TextRule::kUca400},
    {1248, "utf8mb4_unicode_nopad_ci", false, TextRule::kUca400NoPad},
    {246, "utf8mb4_unicode_520_ci", false, TextRule::kUca520},
    {1270, "utf8mb4_unicode_520_nopad_ci", false, TextRule::kUca520NoPad},
    {2304, "utf8mb4_uca1400_ai_ci", false, TextRule::kUca1400},
    {2308, "utf8mb4_uca1400_nopad_ai_ci", false, TextRule::kUca1400NoPad},
    {kMysql0900AiCi, "utf8mb4_0900_ai_ci", false, TextRule::kUca1400NoPad},
    {kLatin1SwedishCi, "latin1_swedish_ci", true, TextRule::kLatin1SwedishCi},
    {kLatin1Bin, "latin1_bin", true, TextRule::kBin},
};

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// Whether the character was in Unicode 3.0, whose data the general_ci tables were made from.
bool InUnicode30(char32_t c) {
  UVersionInfo age;
  u_charAge(static_cast<UChar32>(c), age);
  return (age[0] != 0 || age[1] != 0) && (age[0] < 3 || (age[0] == 3 && age[1] == 0));
}

// utf8mb4_general_ci's weight of each BMP character, made once from ICU's data.
const std::array<std::uint16_t, 0x10000>& GeneralCiWeights() {
  static std::array<std::uint16_t, 0x10000> weights;
  static std::once_flag made;
  std::call_once(made, [] {
    UErrorCode status = U_ZERO_ERROR;
    const icu::Normalizer2* nfd = icu::Normalizer2::getNFDInstance(status);
    for (char32_t c = 0; c < 0x10000; ++c) {
      weights[c] = static_cast<std::uint16_t>(c);
      if (!InUnicode30(c)) continue;  // newer (or unassigned): its own weight
      // A letter with a mark weighs as its base letter (é as E), except where the tables made
      // the combination a letter of its own (Й) or never split it (Hangul syllables).
      char32_t base = c;
      icu::UnicodeString parts;
      const bool hangul = c >= 0xAC00 && c <= 0xD7A3;
      if (U_SUCCESS(status) && !hangul && c != 0x0419 && c != 0x0439 &&
          nfd->getRawDecomposition(static_cast<UChar32>(c), parts) && parts.countChar32() >= 2) {
        UErrorCode e = U_ZERO_ERROR;
        const icu::UnicodeString full = nfd->normalize(icu::UnicodeString(static_cast<UChar32>(c)), e);
        const UChar32 first = full.char32At(0);
        const int8_t type = u_charType(first);
        if (U_SUCCESS(e) && (type == U_UPPERCASE_LETTER || type == U_LOWERCASE_LETTER)) base = first;
      }
      const auto upper = static_cast<char32_t>(u_toupper(static_cast<UChar32>(base)));
      weights[c] = static_cast<std::uint16_t>(InUnicode30(upper) ? upper : base);
    }
    weights[0x00DF] = 'S';     // ß sorts as S
    weights[0x03F2] = 0x03A3;  // lunate sigma as capital sigma
  });
  return weights;
}

std::uint16_t GeneralCiWeight(char32_t c) { return c > 0xFFFF ? 0xFFFD : GeneralCiWeights()[c]; }

// latin1_swedish_ci: a weight per byte (MariaDB's sort order for latin1, measured byte by byte):
// letters as their upper case without accents, except Å (0x5B), Ä = Æ (0x5C) and Ö (0x5D),
// which sort after Z, and Ü = Y; the rest, Ø, Þ, ß and ÿ among them, weigh themselves.
const std::array<std::uint8_t, 256>& Latin1SwedishWeights() {
  static const std::array<std::uint8_t, 256> weights = [] {
    std::array<std::uint8_t, 256> w{};
    for (int b = 0; b < 256; ++b) w[b] = static_cast<std::uint8_t>(b);
    for (int b = 'a'; b <= 'z'; ++b) w[b] = static_cast<std::uint8_t>(b - 'a' + 'A');
    const auto set = [&](std::string_view bytes, char weight) {
      for (char b : bytes) w[static_cast<unsigned char>(b)] = static_cast<std::uint8_t>(weight);
    };
    set("\xC0\xC1\xC2\xC3\xE0\xE1\xE2\xE3", 'A');
    set("\xC7\xE7", 'C');
    set("\xD0\xF0", 'D');
    set("\xC8\xC9\xCA\xCB\xE8\xE9\xEA\xEB", 'E');
    set("\xCC\xCD\xCE\xCF\xEC\xED\xEE\xEF", 'I');
    set("\xD1\xF1", 'N');
    set("\xD2\xD3\xD4\xD5\xF2\xF3\xF4\xF5", 'O');
    set("\xD9\xDA\xDB\xF9\xFA\xFB", 'U');
    set("\xDC\xDD\xFC\xFD", 'Y');
    set("\xC5\xE5", 0x5B);
    set("\xC4\xC6\xE4\xE6", 0x5C);
    set("\xD6\xF6", 0x5D);
    set("\xF8", static_cast<char>(0xD8));
    set("\xFE", static_cast<char>(0xDE));
    return w;
  }();
  return weights;
}

// The server's weights for a UCA rule; null for the others.
const UcaTable* UcaTableOf(TextRule rule) {
  switch (rule) {
    case TextRule::kUca400:
    case TextRule::kUca400NoPad:
      return &Uca400Table();
    case TextRule::kUca520:
    case TextRule::kUca520NoPad:
      return &Uca520Table();
    case TextRule::kUca1400:
    case TextRule::kUca1400NoPad:
      return &Uca1400Table();
    default:
      return nullptr;
  }
}

template <typename F>
std::string MapCase(std::string_view utf8, F map) {
  std::string out;
  out.reserve(utf8.size());
  for (std::size_t i = 0; i < utf8.size();) {
    const char32_t c = ondisk::NextUtf8(utf8, i);
    const auto mapped = static_cast<char32_t>(map(static_cast<UChar32>(c)));
    ondisk::AppendUtf8(out, InUnicode30(c) && InUnicode30(mapped) ? mapped : c);
  }
  return out;
}

}  // namespace

std::optional<CollationInfo> CollationByName(std::string_view name) {
  std::string n = Lower(name);
  for (const char* old : {"utf8mb3_", "utf8_"}) {
    if (n.rfind(old, 0) == 0) n = "utf8mb4_" + n.substr(std::strlen(old));
  }
  // ascii text is stored as latin1 here, and its two collations weigh ASCII as latin1's do.
  if (n == "ascii_general_ci") n = "latin1_swedish_ci";
  if (n == "ascii_bin") n = "latin1_bin";
  for (const CollationInfo& c : kCollations) {
    if (n == c.name) return c;
  }
  return std::nullopt;
}

std::optional<CollationInfo> CollationById(std::uint16_t id) {
  for (const CollationInfo& c : kCollations) {
    if (id == c.id) return c;
  }
  return std::nullopt;
}

CollationInfo DefaultCollation(bool latin1) { return *CollationById(latin1 ? kLatin1SwedishCi : kUtf8GeneralCi); }

std::vector<std::uint32_t> TextWeights(TextRule rule, std::string_view text) {
  std::vector<std::uint32_t> out;
  switch (rule) {
    case TextRule::kBytes:
    case TextRule::kBin:
      out.assign(reinterpret_cast<const unsigned char*>(text.data()),
                 reinterpret_cast<const unsigned char*>(text.data()) + text.size());
      break;
    case TextRule::kGeneralCi:
      out.reserve(text.size());
      for (std::size_t i = 0; i < text.size();) out.push_back(GeneralCiWeight(ondisk::NextUtf8(text, i)));
      break;
    case TextRule::kLatin1SwedishCi: {
      const auto& w = Latin1SwedishWeights();
      out.reserve(text.size());
      for (char b : text) out.push_back(w[static_cast<unsigned char>(b)]);
      break;
    }
    default:
      out = UcaWeights(*UcaTableOf(rule), text);
      break;
  }
  return out;
}

std::uint32_t SpaceWeight(TextRule rule) {
  const UcaTable* table = UcaTableOf(rule);
  return table ? table->space : ' ';
}

bool PadsSpace(TextRule rule) {
  return rule != TextRule::kBytes && rule != TextRule::kUca400NoPad && rule != TextRule::kUca520NoPad &&
         rule != TextRule::kUca1400NoPad;
}

// A weight per character, compared as they come (no allocation: keys are compared on every
// step down a B-tree), the rest of the longer against the space's weight (PAD SPACE).
template <typename Next>
int ComparePerCharacter(std::string_view a, std::string_view b, Next next) {
  std::size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    const std::uint32_t x = next(a, i), y = next(b, j);
    if (x != y) return x < y ? -1 : 1;
  }
  const bool a_longer = i < a.size();
  const std::string_view rest = a_longer ? a : b;
  std::size_t k = a_longer ? i : j;
  while (k < rest.size()) {
    const std::uint32_t w = next(rest, k);
    if (w != ' ') return (w < ' ') == a_longer ? -1 : 1;
  }
  return 0;
}

int CompareText(TextRule rule, std::string_view a, std::string_view b) {
  switch (rule) {
    case TextRule::kBytes: {
      const int c = a.compare(b);
      return c < 0 ? -1 : c > 0;
    }
    case TextRule::kBin:
      return ComparePerCharacter(a, b, [](std::string_view s, std::size_t& i) {
        return static_cast<std::uint32_t>(static_cast<unsigned char>(s[i++]));
      });
    case TextRule::kGeneralCi: {
      const auto& weights = GeneralCiWeights();
      return ComparePerCharacter(a, b, [&weights](std::string_view s, std::size_t& i) -> std::uint32_t {
        const auto c = static_cast<unsigned char>(s[i]);
        if (c < 0x80) {  // ASCII, most text: no decoding
          ++i;
          return weights[c];
        }
        const char32_t cp = ondisk::NextUtf8(s, i);
        return cp > 0xFFFF ? 0xFFFD : weights[cp];
      });
    }
    case TextRule::kLatin1SwedishCi: {
      const auto& weights = Latin1SwedishWeights();
      return ComparePerCharacter(a, b, [&weights](std::string_view s, std::size_t& i) -> std::uint32_t {
        return weights[static_cast<unsigned char>(s[i++])];
      });
    }
    default:
      return UcaCompare(*UcaTableOf(rule), a, b, PadsSpace(rule));
  }
}

int CompareUtf8(TextRule rule, std::string_view a, std::string_view b) {
  if (rule != TextRule::kLatin1SwedishCi) return CompareText(rule, a, b);
  // latin1's weights are per byte: each character as its latin1 byte ('?' where it has none,
  // as the server converts text for a latin1 column).
  const auto latin1 = [](std::string_view utf8) {
    if (auto whole = ondisk::Utf8ToLatin1(utf8); whole.ok()) return *whole;
    std::string out;
    for (std::size_t i = 0; i < utf8.size();) {
      const std::size_t from = i;
      ondisk::NextUtf8(utf8, i);
      auto one = ondisk::Utf8ToLatin1(utf8.substr(from, i - from));
      out += one.ok() ? *one : "?";
    }
    return out;
  };
  return CompareText(rule, latin1(a), latin1(b));
}

std::string UpperCase(std::string_view utf8) { return MapCase(utf8, u_toupper); }
std::string LowerCase(std::string_view utf8) { return MapCase(utf8, u_tolower); }

std::string UnicodeWarning(const CollationInfo& c) {
  if (c.id != kMysql0900AiCi) return "";
  return "utf8mb4_0900_ai_ci is compared as MariaDB 11.4 compares it, by utf8mb4_uca1400_nopad_ai_ci's weights "
         "(Unicode 14.0); MySQL's own (Unicode 9.0) order characters added since Unicode 9.0 differently";
}

}  // namespace strata::engine
