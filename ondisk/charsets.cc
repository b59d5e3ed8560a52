#include "ondisk/charsets.h"

#include <iconv.h>

#include <array>
#include <cctype>
#include <cerrno>
#include <map>

namespace strata::ondisk {

namespace {

struct Range {
  int first, last;
  CharsetInfo cs;
};

constexpr CharsetInfo kUtf8mb3{"utf8mb3", "UTF-8", 3, false};
constexpr CharsetInfo kUtf8mb4{"utf8mb4", "UTF-8", 4, false};
constexpr CharsetInfo kLatin1{"latin1", "CP1252", 1, true};
constexpr CharsetInfo kAscii{"ascii", "ASCII", 1, true};  // printed as the UTF-8 it is a subset of

// MySQL's collation ids (INFORMATION_SCHEMA.COLLATIONS); MariaDB's are the same below 1024.
// A set's first row holds the id a name maps to.
constexpr Range kRanges[] = {
    {45, 46, kUtf8mb4},
    {224, 247, kUtf8mb4},
    {255, 323, kUtf8mb4},
    {33, 33, kUtf8mb3},
    {76, 76, kUtf8mb3},
    {83, 83, kUtf8mb3},
    {192, 223, kUtf8mb3},
    {8, 8, kLatin1},
    {5, 5, kLatin1},
    {15, 15, kLatin1},
    {31, 31, kLatin1},
    {47, 49, kLatin1},
    {94, 94, kLatin1},
    {11, 11, kAscii},
    {65, 65, kAscii},
    {63, 63, {"binary", nullptr, 1, true}},
    {1, 1, {"big5", "BIG5", 2, false}},
    {84, 84, {"big5", "BIG5", 2, false}},
    {2, 2, {"latin2", "ISO-8859-2", 1, true}},
    {9, 9, {"latin2", "ISO-8859-2", 1, true}},
    {21, 21, {"latin2", "ISO-8859-2", 1, true}},
    {27, 27, {"latin2", "ISO-8859-2", 1, true}},
    {77, 77, {"latin2", "ISO-8859-2", 1, true}},
    {4, 4, {"cp850", "CP850", 1, true}},
    {80, 80, {"cp850", "CP850", 1, true}},
    {7, 7, {"koi8r", "KOI8-R", 1, true}},
    {74, 74, {"koi8r", "KOI8-R", 1, true}},
    {12, 12, {"ujis", "EUC-JP", 3, false}},
    {91, 91, {"ujis", "EUC-JP", 3, false}},
    {13, 13, {"sjis", "SHIFT_JIS", 2, false}},
    {88, 88, {"sjis", "SHIFT_JIS", 2, false}},
    {14, 14, {"cp1251", "CP1251", 1, true}},
    {23, 23, {"cp1251", "CP1251", 1, true}},
    {50, 52, {"cp1251", "CP1251", 1, true}},
    {16, 16, {"hebrew", "ISO-8859-8", 1, true}},
    {71, 71, {"hebrew", "ISO-8859-8", 1, true}},
    {18, 18, {"tis620", "TIS-620", 1, true}},
    {89, 89, {"tis620", "TIS-620", 1, true}},
    {19, 19, {"euckr", "EUC-KR", 2, false}},
    {85, 85, {"euckr", "EUC-KR", 2, false}},
    {22, 22, {"koi8u", "KOI8-U", 1, true}},
    {75, 75, {"koi8u", "KOI8-U", 1, true}},
    {24, 24, {"gb2312", "GB2312", 2, false}},
    {86, 86, {"gb2312", "GB2312", 2, false}},
    {25, 25, {"greek", "ISO-8859-7", 1, true}},
    {70, 70, {"greek", "ISO-8859-7", 1, true}},
    {26, 26, {"cp1250", "CP1250", 1, true}},
    {34, 34, {"cp1250", "CP1250", 1, true}},
    {44, 44, {"cp1250", "CP1250", 1, true}},
    {66, 66, {"cp1250", "CP1250", 1, true}},
    {99, 99, {"cp1250", "CP1250", 1, true}},
    {28, 28, {"gbk", "GBK", 2, false}},
    {87, 87, {"gbk", "GBK", 2, false}},
    {30, 30, {"latin5", "ISO-8859-9", 1, true}},
    {78, 78, {"latin5", "ISO-8859-9", 1, true}},
    {35, 35, {"ucs2", "UCS-2BE", 2, true}},
    {90, 90, {"ucs2", "UCS-2BE", 2, true}},
    {128, 151, {"ucs2", "UCS-2BE", 2, true}},
    {159, 159, {"ucs2", "UCS-2BE", 2, true}},
    {36, 36, {"cp866", "CP866", 1, true}},
    {68, 68, {"cp866", "CP866", 1, true}},
    {40, 40, {"cp852", "CP852", 1, true}},
    {81, 81, {"cp852", "CP852", 1, true}},
    {20, 20, {"latin7", "ISO-8859-13", 1, true}},
    {41, 42, {"latin7", "ISO-8859-13", 1, true}},
    {79, 79, {"latin7", "ISO-8859-13", 1, true}},
    {57, 57, {"cp1256", "CP1256", 1, true}},
    {67, 67, {"cp1256", "CP1256", 1, true}},
    {29, 29, {"cp1257", "CP1257", 1, true}},
    {58, 59, {"cp1257", "CP1257", 1, true}},
    {54, 55, {"utf16", "UTF-16BE", 4, false}},
    {101, 124, {"utf16", "UTF-16BE", 4, false}},
    {56, 56, {"utf16le", "UTF-16LE", 4, false}},
    {62, 62, {"utf16le", "UTF-16LE", 4, false}},
    {60, 61, {"utf32", "UTF-32BE", 4, true}},
    {160, 183, {"utf32", "UTF-32BE", 4, true}},
    {95, 96, {"cp932", "CP932", 2, false}},
    {97, 98, {"eucjpms", "EUC-JP-MS", 3, false}},
    {248, 250, {"gb18030", "GB18030", 4, false}},
};

}  // namespace

CharsetInfo CharsetOfCollationId(int id) {
  if (id >= 1024 && id < 2048) id -= 1024;       // MariaDB's NO PAD collations: their PAD twin's set
  if (id >= 2048 && id < 2304) return kUtf8mb3;  // MariaDB's UCA 14.0 ones: utf8mb3, utf8mb4, then
  if (id >= 2304 && id < 2560) return kUtf8mb4;  // ucs2, utf16 and utf32, not known here
  for (const auto& r : kRanges) {
    if (id >= r.first && id <= r.last) return r.cs;
  }
  return {};
}

CharsetInfo CharsetNamed(std::string_view name, int* collation) {
  std::string lower(name);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (lower == "utf8") lower = "utf8mb3";
  for (const auto& r : kRanges) {
    if (lower != r.cs.name) continue;
    if (collation) *collation = r.first;
    return r.cs;
  }
  return {};
}

CharsetInfo CharsetOfCollationNamed(std::string_view collation, int* id) {
  return CharsetNamed(collation.substr(0, collation.find('_')), id);  // a collation's name starts with its set's
}

namespace {

// latin1's 0x80-0x9F are Windows-1252's typographic characters; the rest is ISO 8859-1. The
// five bytes 1252 leaves undefined stand for themselves, as in MySQL.
constexpr std::array<char16_t, 32> kLatin1High = {0x20AC, 0x81,   0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
                                                  0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x8D,   0x017D, 0x8F,
                                                  0x90,   0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
                                                  0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x9D,   0x017E, 0x0178};

char16_t Latin1Char(std::uint8_t b) { return b >= 0x80 && b < 0xA0 ? kLatin1High[b - 0x80] : b; }

}  // namespace

char32_t NextUtf8(std::string_view s, std::size_t& i) {
  const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = b(i);
  const std::size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
  if (n == 0 || i + n > s.size()) {
    ++i;
    return 0xFFFD;
  }
  char32_t cp = n == 1 ? c : c & (0x7F >> n);
  for (std::size_t k = 1; k < n; ++k) {
    if ((b(i + k) & 0xC0) != 0x80) {
      ++i;
      return 0xFFFD;
    }
    cp = (cp << 6) | (b(i + k) & 0x3F);
  }
  i += n;
  return cp;
}

void AppendUtf8(std::string& out, char32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

void AppendLatin1AsUtf8(std::string& out, ConstBytes latin1) {
  for (std::byte x : latin1) AppendUtf8(out, Latin1Char(static_cast<std::uint8_t>(x)));
}

Result<std::string> Utf8ToLatin1(std::string_view utf8, std::size_t* bad_at) {
  std::string out;
  out.reserve(utf8.size());
  for (std::size_t i = 0; i < utf8.size();) {
    const std::size_t at = i;
    const char32_t u = NextUtf8(utf8, i);  // U+FFFD, never latin1, for what is not UTF-8
    int byte = -1;
    if (u < 0x80) {
      byte = static_cast<int>(u);
    } else {
      for (int c = 0x80; c < 0x100 && byte < 0; ++c) {
        if (Latin1Char(static_cast<std::uint8_t>(c)) == u) byte = c;
      }
    }
    if (byte < 0) {
      if (bad_at) *bad_at = at;
      return Status::InvalidArgument("a character latin1 does not have at byte " + std::to_string(at));
    }
    out += static_cast<char>(byte);
  }
  return out;
}

Result<std::string> ToUtf8(const CharsetInfo& cs, ConstBytes bytes) {
  if (!cs.iconv) return Status::NotSupported("a character set not known here");
  // One converter per character set and thread: opening one costs more than a value.
  struct Converter {
    iconv_t cd;
    explicit Converter(const char* from) : cd(iconv_open("UTF-8", from)) {}
    ~Converter() {
      if (cd != reinterpret_cast<iconv_t>(-1)) iconv_close(cd);
    }
  };
  thread_local std::map<const char*, Converter> converters;
  auto it = converters.find(cs.iconv);
  if (it == converters.end()) it = converters.try_emplace(cs.iconv, cs.iconv).first;
  const iconv_t cd = it->second.cd;
  if (cd == reinterpret_cast<iconv_t>(-1)) return Status::NotSupported(std::string("iconv cannot convert ") + cs.name);
  iconv(cd, nullptr, nullptr, nullptr, nullptr);  // a fresh start: no state from an earlier value
  std::string out(bytes.size() * 4 + 4, '\0');
  char* in = reinterpret_cast<char*>(const_cast<std::byte*>(bytes.data()));
  std::size_t in_left = bytes.size();
  char* to = out.data();
  std::size_t out_left = out.size();
  if (iconv(cd, &in, &in_left, &to, &out_left) == static_cast<std::size_t>(-1)) {
    return Status::InvalidArgument(std::string("bytes that are not ") + cs.name + " at byte " +
                                   std::to_string(bytes.size() - in_left));
  }
  out.resize(out.size() - out_left);
  // The server's sjis and cp932 keep ASCII's backslash and tilde at 0x5C and 0x7E, where
  // glibc's SHIFT_JIS reads the yen sign and the overline.
  if (std::string(cs.name) == "sjis") {
    for (std::size_t at; (at = out.find("\xC2\xA5")) != std::string::npos;) out.replace(at, 2, "\\");
    for (std::size_t at; (at = out.find("\xE2\x80\xBE")) != std::string::npos;) out.replace(at, 3, "~");
  }
  return out;
}

}  // namespace strata::ondisk
