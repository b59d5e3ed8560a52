#include "sqltext/lexer.h"

#include <array>
#include <cctype>

#include "ondisk/column_format.h"

namespace strata::sqltext {

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (std::toupper(static_cast<unsigned char>(a[i])) != std::toupper(static_cast<unsigned char>(b[i]))) return false;
  }
  return true;
}

std::string Upper(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool Token::IsWord(std::string_view w) const { return kind == TokenKind::kWord && EqualsIgnoreCase(text, w); }

namespace {

bool WordChar(unsigned char c) { return std::isalnum(c) || c == '_' || c == '$' || c >= 0x80; }

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

std::size_t ScanString(std::string_view s, std::size_t start, std::string* out) {
  const char quote = s[start];
  std::size_t i = start + 1;
  while (true) {
    // Copy the run up to the next quote or backslash at once: dump strings are long.
    std::size_t j = i;
    while (j < s.size() && s[j] != quote && s[j] != '\\') ++j;
    out->append(s.data() + i, j - i);
    i = j;
    if (i >= s.size()) return std::string_view::npos;
    if (s[i] == '\\') {
      if (i + 1 >= s.size()) return std::string_view::npos;
      bool keep = false;
      const char u = ondisk::UnescapeSqlChar(s[i + 1], &keep);
      if (keep) out->push_back('\\');
      out->push_back(u);
      i += 2;
    } else if (i + 1 < s.size() && s[i + 1] == quote) {  // '' inside '...'
      out->push_back(quote);
      i += 2;
    } else {
      return i + 1;
    }
  }
}

void AppendQuotedString(std::string& out, std::string_view v) {
  // The escapes of a quoted string literal, by byte (0: the byte stands for itself).
  static constexpr auto kEscape = [] {
    std::array<char, 256> t{};
    t[0] = '0';
    t['\n'] = 'n';
    t['\r'] = 'r';
    t['\\'] = '\\';
    t['\''] = '\'';
    t[0x1a] = 'Z';
    return t;
  }();
  out += '\'';
  std::size_t run = 0;
  for (std::size_t k = 0; k < v.size(); ++k) {
    const char e = kEscape[static_cast<unsigned char>(v[k])];
    if (!e) continue;
    out.append(v, run, k - run);
    out += '\\';
    out += e;
    run = k + 1;
  }
  out.append(v, run, v.size() - run);
  out += '\'';
}

bool DecodeHex(std::string_view digits, std::string* out) {
  std::size_t k = 0;
  if (digits.size() % 2) {  // 0xABC is 0x0ABC
    if (HexDigit(digits[0]) < 0) return false;
    out->push_back(static_cast<char>(HexDigit(digits[k++])));
  }
  for (; k + 1 < digits.size(); k += 2) {
    const int hi = HexDigit(digits[k]), lo = HexDigit(digits[k + 1]);
    if (hi < 0 || lo < 0) return false;
    out->push_back(static_cast<char>(hi * 16 + lo));
  }
  return true;
}

bool DecodeBits(std::string_view digits, std::string* out) {
  if (digits.find_first_not_of("01") != std::string_view::npos) return false;
  std::size_t k = 0;
  for (std::size_t first = digits.size() % 8 ? digits.size() % 8 : 8; k < digits.size(); first = 8) {
    unsigned byte = 0;
    for (std::size_t end = k + first; k < end; ++k) byte = byte << 1 | static_cast<unsigned>(digits[k] - '0');
    out->push_back(static_cast<char>(byte));
  }
  return true;
}

namespace {

class Lexer {
 public:
  Lexer(std::string_view s, Dialect dialect) : s_(s), dialect_(dialect) {}

  Lexed Run() {
    Lexed out;
    // Extended INSERTs are mostly literals of a few bytes each: reserve in proportion.
    out.tokens.reserve(s_.size() / 6 + 4);
    while (true) {
      if (!SkipSpaceAndComments(out)) break;
      if (i_ >= s_.size()) break;
      if (!Next(out)) break;
    }
    out.tokens.push_back({TokenKind::kEnd, "", s_.size()});
    return out;
  }

 private:
  bool Fail(Lexed& out, std::size_t at, std::string message) {
    out.ok = false;
    out.error = {at, std::move(message)};
    return false;
  }

  bool SkipSpaceAndComments(Lexed& out) {
    while (i_ < s_.size()) {
      const char c = s_[i_];
      if (std::isspace(static_cast<unsigned char>(c))) {
        ++i_;
      } else if (c == '#' || (c == '-' && At(1) == '-' &&
                              (i_ + 2 >= s_.size() || std::isspace(static_cast<unsigned char>(At(2)))))) {
        while (i_ < s_.size() && s_[i_] != '\n') ++i_;
      } else if (c == '*' && At(1) == '/' && versioned_ > 0) {
        --versioned_;  // the end of a versioned comment whose body was code
        i_ += 2;
      } else if (c == '/' && At(1) == '*') {
        const std::size_t start = i_;
        // A server runs the body of /*!NNNNN ... */ when its version is at least NNNNN.
        // /*M!...*/ is MariaDB's alone, a comment to MySQL.
        const bool mariadb = dialect_.mariadb && At(2) == 'M' && At(3) == '!';
        if (At(2) == '!' || mariadb) {
          i_ += mariadb ? 4 : 3;
          const std::size_t digits = i_;
          while (i_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[i_]))) ++i_;
          if (i_ == digits ||
              std::stoull(std::string(s_.substr(digits, std::min<std::size_t>(i_ - digits, 9)))) <= dialect_.version) {
            ++versioned_;
            continue;
          }
        }
        i_ = start;
        const std::size_t end = s_.find("*/", start + 2);
        if (end == std::string_view::npos) return Fail(out, start, "unterminated comment");
        if (At(2) == '+') out.hints.emplace_back(s_.substr(start + 3, end - start - 3));
        i_ = end + 2;
      } else {
        return true;
      }
    }
    return true;
  }

  char At(std::size_t ahead) const { return i_ + ahead < s_.size() ? s_[i_ + ahead] : '\0'; }

  bool Next(Lexed& out) {
    const std::size_t start = i_;
    const char c = s_[i_];
    const auto uc = static_cast<unsigned char>(c);
    if (c == '\'' || c == '"') return String(out, TokenKind::kString);
    if (c == '`') return QuotedName(out);
    if ((c == 'x' || c == 'X') && At(1) == '\'') {
      ++i_;
      if (!String(out, TokenKind::kHex)) return false;
      return HexBytes(out, start, out.tokens.back().text, true);  // the token starts at its X
    }
    if ((c == 'b' || c == 'B') && At(1) == '\'') {
      ++i_;
      if (!String(out, TokenKind::kHex)) return false;
      return BitBytes(out, start, out.tokens.back().text);  // the token starts at its B
    }
    if (c == '0' && At(1) == 'b' && (At(2) == '0' || At(2) == '1')) {
      i_ += 2;
      const std::size_t b = i_;
      while (At(0) == '0' || At(0) == '1') ++i_;
      if (i_ < s_.size() && WordChar(static_cast<unsigned char>(s_[i_]))) return Word(out, start);
      out.tokens.push_back({TokenKind::kHex, "", start});
      return BitBytes(out, start, std::string(s_.substr(b, i_ - b)));
    }
    if (c == '0' && (At(1) == 'x' || At(1) == 'X') && HexDigit(At(2)) >= 0) {
      i_ += 2;
      const std::size_t b = i_;
      while (i_ < s_.size() && HexDigit(s_[i_]) >= 0) ++i_;
      if (i_ < s_.size() && WordChar(static_cast<unsigned char>(s_[i_]))) return Word(out, start);
      out.tokens.push_back({TokenKind::kHex, "", start});
      return HexBytes(out, start, std::string(s_.substr(b, i_ - b)), false);
    }
    if (std::isdigit(uc) || (c == '.' && std::isdigit(static_cast<unsigned char>(At(1))) && !AfterName(out))) {
      return Number(out);
    }
    if (WordChar(uc)) return Word(out, start);
    if (c == '@') return Variable(out);
    static constexpr std::string_view kThree[] = {"<=>"};
    static constexpr std::string_view kTwo[] = {"<=", ">=", "<>", "!=", ":=", "&&", "||", "<<", ">>"};
    for (std::string_view p : kThree) {
      if (s_.substr(i_, 3) == p) return Punct(out, p);
    }
    for (std::string_view p : kTwo) {
      if (s_.substr(i_, 2) == p) return Punct(out, p);
    }
    if (std::string_view("(),;.=<>+-*/%!~&|^:").find(c) != std::string_view::npos) return Punct(out, s_.substr(i_, 1));
    return Fail(out, start, std::string("unexpected character '") + c + "'");
  }

  bool AfterName(const Lexed& out) const {
    if (out.tokens.empty()) return false;
    const Token& t = out.tokens.back();
    return (t.kind == TokenKind::kWord || t.kind == TokenKind::kQuotedName) && t.offset + t.text.size() >= i_;
  }

  bool Punct(Lexed& out, std::string_view p) {
    out.tokens.push_back({TokenKind::kPunct, std::string(p), i_});
    i_ += p.size();
    return true;
  }

  bool String(Lexed& out, TokenKind kind) {
    const std::size_t start = i_;
    std::string text;
    const std::size_t end = ScanString(s_, start, &text);
    if (end == std::string_view::npos) return Fail(out, start, "unterminated string");
    i_ = end;
    out.tokens.push_back({kind, std::move(text), start});
    return true;
  }

  bool HexBytes(Lexed& out, std::size_t at, const std::string& digits, bool quoted) {
    if (quoted && digits.size() % 2) return Fail(out, at, "a hex string needs an even number of digits");
    std::string bytes;
    if (!DecodeHex(digits, &bytes)) return Fail(out, at, "not a hex digit in a hex string");
    out.tokens.back().text = std::move(bytes);
    out.tokens.back().offset = at;
    return true;
  }

  bool BitBytes(Lexed& out, std::size_t at, const std::string& digits) {
    std::string bytes;
    if (!DecodeBits(digits, &bytes)) return Fail(out, at, "not a binary digit in a bit string");
    out.tokens.back().text = std::move(bytes);
    out.tokens.back().offset = at;
    return true;
  }

  bool QuotedName(Lexed& out) {
    const std::size_t start = i_++;
    std::string text;
    while (true) {
      const std::size_t j = s_.find('`', i_);
      if (j == std::string_view::npos) return Fail(out, start, "unterminated quoted name");
      text.append(s_.substr(i_, j - i_));
      i_ = j + 1;
      if (At(0) != '`') break;
      text.push_back('`');
      ++i_;
    }
    out.tokens.push_back({TokenKind::kQuotedName, std::move(text), start});
    return true;
  }

  bool Number(Lexed& out) {
    const std::size_t start = i_;
    TokenKind kind = TokenKind::kInteger;
    while (i_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[i_]))) ++i_;
    if (At(0) == '.') {
      kind = TokenKind::kDecimal;
      ++i_;
      while (i_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[i_]))) ++i_;
    }
    if ((At(0) == 'e' || At(0) == 'E') &&
        (std::isdigit(static_cast<unsigned char>(At(1))) ||
         ((At(1) == '+' || At(1) == '-') && std::isdigit(static_cast<unsigned char>(At(2)))))) {
      kind = TokenKind::kFloat;
      i_ += 2;
      while (i_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[i_]))) ++i_;
    }
    // MySQL allows names that start with digits (`1st_column`): a word after all.
    if (kind == TokenKind::kInteger && i_ < s_.size() && WordChar(static_cast<unsigned char>(s_[i_])))
      return Word(out, start);
    out.tokens.push_back({kind, std::string(s_.substr(start, i_ - start)), start});
    return true;
  }

  bool Word(Lexed& out, std::size_t start) {
    i_ = start;
    while (i_ < s_.size() && WordChar(static_cast<unsigned char>(s_[i_]))) ++i_;
    out.tokens.push_back({TokenKind::kWord, std::string(s_.substr(start, i_ - start)), start});
    return true;
  }

  bool Variable(Lexed& out) {
    const std::size_t start = i_;
    const bool system = At(1) == '@';
    i_ += system ? 2 : 1;
    if (!system && (At(0) == '\'' || At(0) == '"' || At(0) == '`')) {  // @'name'
      const char q = At(0);
      if (q == '`' ? !QuotedName(out) : !String(out, TokenKind::kString)) return false;
      out.tokens.back().kind = TokenKind::kUserVar;
      out.tokens.back().offset = start;
      return true;
    }
    const std::size_t b = i_;
    while (i_ < s_.size() && (WordChar(static_cast<unsigned char>(s_[i_])) || (system && s_[i_] == '.'))) ++i_;
    if (i_ == b) return Fail(out, start, "a variable needs a name after @");
    out.tokens.push_back(
        {system ? TokenKind::kSystemVar : TokenKind::kUserVar, std::string(s_.substr(b, i_ - b)), start});
    return true;
  }

  std::string_view s_;
  std::size_t i_ = 0;
  Dialect dialect_;
  int versioned_ = 0;  // open /*! ... */ comments whose body is being read as code
};

}  // namespace

Lexed Lex(std::string_view text, Dialect dialect) { return Lexer(text, dialect).Run(); }

std::string DecimalText(std::string_view literal) {
  const std::size_t sign = !literal.empty() && (literal[0] == '-' || literal[0] == '+') ? 1 : 0;
  std::string out(literal.substr(0, sign));
  if (literal.size() > sign && literal[sign] == '.') out += '0';
  out += literal.substr(sign);
  if (out.size() > 1 && out.back() == '.') out.pop_back();  // 5. is 5
  return out;
}

}  // namespace strata::sqltext
