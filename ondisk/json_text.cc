#include "ondisk/json_text.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>

namespace strata::ondisk {

namespace {

// As deep as MySQL goes before it refuses a document.
constexpr int kMaxDepth = 100;

struct Fail {
  JsonTextError error;
};

class Parser {
 public:
  explicit Parser(std::string_view s) : s_(s) {}

  JsonNode Document() {
    Space();
    if (at_ == s_.size()) throw Fail{{"The document is empty.", at_}};
    JsonNode root = Value(0);
    Space();
    if (at_ != s_.size()) throw Fail{{"The document root must not be followed by other values.", at_}};
    return root;
  }

 private:
  void Space() {
    while (at_ < s_.size() && (s_[at_] == ' ' || s_[at_] == '\t' || s_[at_] == '\n' || s_[at_] == '\r')) ++at_;
  }
  bool Next(char c) {
    Space();
    if (at_ < s_.size() && s_[at_] == c) return ++at_, true;
    return false;
  }

  JsonNode Value(int depth) {
    Space();
    if (at_ >= s_.size()) throw Fail{{"Invalid value.", at_}};
    const char c = s_[at_];
    // A value inside 100 containers is one level too deep, as MySQL counts depth.
    if (depth >= kMaxDepth) throw Fail{{"The JSON document exceeds the maximum depth of 100.", at_}};
    if (c == '{') return Object(depth);
    if (c == '[') return Array(depth);
    if (c == '"') {
      JsonNode n;
      n.kind = JsonNode::Kind::kString;
      n.s = String();
      return n;
    }
    if (c == '-' || std::isdigit(static_cast<unsigned char>(c))) return Number();
    for (auto [word, kind] : {std::pair{std::string_view("null"), JsonNode::Kind::kNull},
                              {std::string_view("true"), JsonNode::Kind::kTrue},
                              {std::string_view("false"), JsonNode::Kind::kFalse}}) {
      if (s_.substr(at_, word.size()) == word) {
        at_ += word.size();
        JsonNode n;
        n.kind = kind;
        return n;
      }
    }
    throw Fail{{"Invalid value.", at_}};
  }

  JsonNode Object(int depth) {
    ++at_;
    JsonNode n;
    n.kind = JsonNode::Kind::kObject;
    if (Next('}')) return n;
    while (true) {
      Space();
      if (at_ >= s_.size() || s_[at_] != '"') throw Fail{{"Missing a name for object member.", at_}};
      std::string key = String();
      if (!Next(':')) throw Fail{{"Missing a colon after a name of object member.", at_}};
      JsonNode value = Value(depth + 1);
      const auto same = std::find(n.keys.begin(), n.keys.end(), key);
      if (same != n.keys.end()) {
        n.items[static_cast<std::size_t>(same - n.keys.begin())] = std::move(value);  // the last wins, as in MySQL 8.0
      } else {
        n.keys.push_back(std::move(key));
        n.items.push_back(std::move(value));
      }
      if (Next(',')) continue;
      if (Next('}')) return n;
      throw Fail{{"Missing a comma or '}' after an object member.", at_}};
    }
  }

  JsonNode Array(int depth) {
    ++at_;
    JsonNode n;
    n.kind = JsonNode::Kind::kArray;
    if (Next(']')) return n;
    while (true) {
      n.items.push_back(Value(depth + 1));
      if (Next(',')) continue;
      if (Next(']')) return n;
      throw Fail{{"Missing a comma or ']' after an array element.", at_}};
    }
  }

  unsigned Hex4() {
    unsigned v = 0;
    for (int k = 0; k < 4; ++k, ++at_) {
      const char c = at_ < s_.size() ? s_[at_] : '\0';
      const int d = std::isdigit(static_cast<unsigned char>(c)) ? c - '0'
                    : (c >= 'a' && c <= 'f')                    ? c - 'a' + 10
                    : (c >= 'A' && c <= 'F')                    ? c - 'A' + 10
                                                                : -1;
      if (d < 0) throw Fail{{"Incorrect hex digit after \\u escape in string.", at_}};
      v = v << 4 | static_cast<unsigned>(d);
    }
    return v;
  }

  static void AppendUtf8(std::string& out, unsigned cp) {
    if (cp < 0x80) {
      out += static_cast<char>(cp);
    } else if (cp < 0x800) {
      out += static_cast<char>(0xC0 | cp >> 6), out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      out += static_cast<char>(0xE0 | cp >> 12), out += static_cast<char>(0x80 | (cp >> 6 & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | cp >> 18), out += static_cast<char>(0x80 | (cp >> 12 & 0x3F));
      out += static_cast<char>(0x80 | (cp >> 6 & 0x3F)), out += static_cast<char>(0x80 | (cp & 0x3F));
    }
  }

  std::string String() {
    const std::size_t start = at_++;
    std::string out;
    while (true) {
      if (at_ >= s_.size()) throw Fail{{"Missing a closing quotation mark in string.", start}};
      const auto c = static_cast<unsigned char>(s_[at_]);
      if (c == '"') {
        ++at_;
        return out;
      }
      if (c < 0x20) throw Fail{{"Invalid encoding in string.", at_}};
      if (c != '\\') {
        out += static_cast<char>(c);
        ++at_;
        continue;
      }
      const std::size_t escape = at_++;
      const char e = at_ < s_.size() ? s_[at_++] : '\0';
      switch (e) {
        case '"':
          out += '"';
          break;
        case '\\':
          out += '\\';
          break;
        case '/':
          out += '/';
          break;
        case 'b':
          out += '\b';
          break;
        case 'f':
          out += '\f';
          break;
        case 'n':
          out += '\n';
          break;
        case 'r':
          out += '\r';
          break;
        case 't':
          out += '\t';
          break;
        case 'u': {
          unsigned cp = Hex4();
          if (cp >= 0xD800 && cp <= 0xDBFF) {  // a high surrogate: its low one must follow
            if (s_.substr(at_, 2) != "\\u") throw Fail{{"The surrogate pair in string is invalid.", at_}};
            at_ += 2;
            const unsigned low = Hex4();
            if (low < 0xDC00 || low > 0xDFFF) throw Fail{{"The surrogate pair in string is invalid.", at_}};
            cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
          }
          AppendUtf8(out, cp);
          break;
        }
        default:
          throw Fail{{"Invalid escape character in string.", escape}};
      }
    }
  }

  JsonNode Number() {
    const std::size_t start = at_;
    if (s_[at_] == '-') ++at_;
    const auto digits = [&] {
      const std::size_t from = at_;
      while (at_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[at_]))) ++at_;
      return at_ - from;
    };
    if (at_ >= s_.size() || !std::isdigit(static_cast<unsigned char>(s_[at_]))) throw Fail{{"Invalid value.", start}};
    if (s_[at_] == '0')
      ++at_;
    else
      digits();
    bool integral = true;
    if (at_ < s_.size() && s_[at_] == '.') {
      ++at_;
      integral = false;
      if (!digits()) throw Fail{{"Miss fraction part in number.", at_}};
    }
    if (at_ < s_.size() && (s_[at_] == 'e' || s_[at_] == 'E')) {
      ++at_;
      integral = false;
      if (at_ < s_.size() && (s_[at_] == '+' || s_[at_] == '-')) ++at_;
      if (!digits()) throw Fail{{"Miss exponent in number.", at_}};
    }
    const std::string_view text = s_.substr(start, at_ - start);
    JsonNode n;
    if (integral) {
      std::int64_t i = 0;
      std::uint64_t u = 0;
      if (auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), i); ec == std::errc()) {
        // A positive number past 2^32 - 1 is kept unsigned, as MySQL's parser hands it over.
        if (i > 0xFFFFFFFFll) {
          n.kind = JsonNode::Kind::kUInt, n.u = static_cast<std::uint64_t>(i);
        } else {
          n.kind = JsonNode::Kind::kInt, n.i = i;
        }
        return n;
      }
      if (auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), u); ec == std::errc()) {
        n.kind = JsonNode::Kind::kUInt, n.u = u;
        return n;
      }
    }
    n.kind = JsonNode::Kind::kDouble;
    n.d = std::strtod(std::string(text).c_str(), nullptr);
    if (!std::isfinite(n.d)) throw Fail{{"Number too big to be stored in double.", start}};
    return n;
  }

  std::string_view s_;
  std::size_t at_ = 0;
};

}  // namespace

std::variant<JsonNode, JsonTextError> ReadJsonText(std::string_view text) {
  try {
    return Parser(text).Document();
  } catch (const Fail& f) {
    return f.error;
  }
}

}  // namespace strata::ondisk
