#include "sql/string_functions.h"

#include <algorithm>

#include "sql/decimal.h"
#include "sql/value_ops.h"

namespace strata::sql {

using namespace ops;

namespace {

bool Binary(const SqlValue& v) { return v.kind == LiteralKind::kBinary; }

// The start of each character of `s` (each byte of a binary string), and its end.
std::vector<std::size_t> CharacterStarts(const std::string& s, bool bytes) {
  std::vector<std::size_t> starts;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (bytes || (static_cast<unsigned char>(s[i]) & 0xC0) != 0x80) starts.push_back(i);
  }
  starts.push_back(s.size());
  return starts;
}

std::int64_t IntArg(const SqlValue& v) { return ClampToInt64(ToDouble(v.value)); }

// A piece of `from`'s text that compares by `from`'s collation.
SqlValue Piece(const SqlValue& from, std::string text) {
  SqlValue v = Str(std::move(text), from.kind);
  v.collation = from.collation;
  return v;
}

// Whether two texts are equal as the server compares them (collation; bytes when binary).
bool SameText(const SqlValue& a, const SqlValue& b) {
  if (Binary(a) || Binary(b)) return TextOf(a) == TextOf(b);
  return Compare(a, b) == std::optional<int>(0);
}

}  // namespace

std::string Characters(const std::string& s, bool bytes, std::int64_t from, std::int64_t count) {
  const std::vector<std::size_t> starts = CharacterStarts(s, bytes);
  const auto n = static_cast<std::int64_t>(starts.size() - 1);
  from = std::clamp<std::int64_t>(from, 0, n);
  const std::int64_t end = count > n - from ? n : from + std::max<std::int64_t>(count, 0);
  const std::size_t begin_byte = starts[static_cast<std::size_t>(from)];
  return s.substr(begin_byte, starts[static_cast<std::size_t>(end)] - begin_byte);
}

std::int64_t CharacterCount(const std::string& s, bool bytes) {
  if (bytes) return static_cast<std::int64_t>(s.size());
  return std::count_if(s.begin(), s.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; });
}

// CONCAT_WS(separator, ...): NULL when the separator is; NULL values left out.
SqlResult<SqlValue> ConcatWs(const std::string&, std::vector<SqlValue>& args) {
  if (args[0].value.is_null()) return Null();
  const std::string separator = TextOf(args[0]);
  std::string out;
  bool first = true;
  LiteralKind order = args[0].kind;
  for (std::size_t i = 1; i < args.size(); ++i) {
    if (args[i].value.is_null()) continue;
    out += (first ? "" : separator) + TextOf(args[i]);
    first = false;
    order = TextOrder(order, args[i].kind);
  }
  return Str(std::move(out), order);
}

// REPLACE(s, from, to): every occurrence, byte for byte (case matters, whatever the collation).
SqlResult<SqlValue> Replace(const std::string&, std::vector<SqlValue>& args) {
  std::string s = TextOf(args[0]);
  const std::string from = TextOf(args[1]), to = TextOf(args[2]);
  if (!from.empty()) {
    for (std::size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
      s.replace(at, from.size(), to);
  }
  return Piece(args[0], std::move(s));
}

// LTRIM and RTRIM take spaces; TRIM([BOTH | LEADING | TRAILING] [remove] FROM s) every
// repetition of `remove` (a space without one) at those ends, byte for byte.
SqlResult<SqlValue> Trim(const std::string& name, std::vector<SqlValue>& args) {
  std::string s = TextOf(args[0]);
  const std::string remove = args.size() > 1 ? TextOf(args[1]) : " ";
  const auto ends = args.size() > 2   ? static_cast<TrimEnds>(IntArg(args[2]))
                    : name == "LTRIM" ? TrimEnds::kLeading
                    : name == "RTRIM" ? TrimEnds::kTrailing
                                      : TrimEnds::kBoth;
  if (!remove.empty()) {
    std::size_t from = 0, to = s.size();
    if (ends != TrimEnds::kTrailing) {
      while (to - from >= remove.size() && s.compare(from, remove.size(), remove) == 0) from += remove.size();
    }
    if (ends != TrimEnds::kLeading) {
      while (to - from >= remove.size() && s.compare(to - remove.size(), remove.size(), remove) == 0)
        to -= remove.size();
    }
    s = s.substr(from, to - from);
  }
  return Piece(args[0], std::move(s));
}

// LPAD(s, n, pad) and RPAD: s cut or padded to n characters; NULL for a negative n, or for an
// empty pad that would have to pad.
SqlResult<SqlValue> Pad(const std::string& name, std::vector<SqlValue>& args) {
  const std::string s = TextOf(args[0]);
  const bool bytes = Binary(args[0]) || (args.size() > 2 && Binary(args[2]));
  const std::int64_t n = IntArg(args[1]);
  if (n < 0 || n > (1 << 24)) return Null();
  const std::int64_t have = CharacterCount(s, bytes);
  if (have >= n) return Piece(args[0], Characters(s, bytes, 0, n));
  const std::string pad = args.size() > 2 ? TextOf(args[2]) : " ";
  const std::int64_t pad_chars = CharacterCount(pad, bytes);
  if (pad_chars == 0) return Null();
  std::string padding;
  for (std::int64_t left = n - have; left > 0; left -= pad_chars) padding += Characters(pad, bytes, 0, left);
  return Piece(args[0], name == "LPAD" ? padding + s : s + padding);
}

// LOCATE(sub, s [, from]) and INSTR(s, sub): where sub first starts in s at or after character
// `from`, counting from 1 (0: nowhere). As the server searches: at each character, the bytes
// as long as sub compared with it by the collation ('ö' finds 'Ö', 'o' does not).
SqlResult<SqlValue> Locate(const std::string& name, std::vector<SqlValue>& args) {
  const SqlValue& sub = name == "INSTR" ? args[1] : args[0];
  const SqlValue& in = name == "INSTR" ? args[0] : args[1];
  const std::int64_t from = args.size() > 2 ? IntArg(args[2]) : 1;
  const bool bytes = Binary(sub) || Binary(in);
  const std::string s = TextOf(in), needle = TextOf(sub);
  const std::vector<std::size_t> starts = CharacterStarts(s, bytes);
  const auto n = static_cast<std::int64_t>(starts.size() - 1);
  if (from < 1 || from > n + 1) return Int(0);
  for (auto i = static_cast<std::size_t>(from - 1); i < starts.size(); ++i) {
    if (starts[i] + needle.size() > s.size()) break;
    const std::string window = s.substr(starts[i], needle.size());
    if (bytes ? window == needle : SameText(Piece(in, window), sub)) return Int(static_cast<std::int64_t>(i) + 1);
  }
  return Int(0);
}

// SUBSTRING_INDEX(s, delimiter, count): before the count-th delimiter from the left, or after
// the count-th from the right when count is negative; byte for byte.
SqlResult<SqlValue> SubstringIndex(const std::string&, std::vector<SqlValue>& args) {
  const std::string s = TextOf(args[0]), delimiter = TextOf(args[1]);
  const std::int64_t count = IntArg(args[2]);
  if (delimiter.empty() || count == 0) return Piece(args[0], "");
  if (count > 0) {
    std::size_t at = 0;
    for (std::int64_t k = 0; k < count; ++k, at += delimiter.size()) {
      at = s.find(delimiter, at);
      if (at == std::string::npos) return Piece(args[0], s);
    }
    return Piece(args[0], s.substr(0, at - delimiter.size()));
  }
  std::size_t end = s.size();
  for (std::int64_t k = 0; k < -count; ++k) {
    if (end < delimiter.size()) return Piece(args[0], s);
    const std::size_t at = s.rfind(delimiter, end - delimiter.size());
    if (at == std::string::npos) return Piece(args[0], s);
    end = at;
  }
  return Piece(args[0], s.substr(end + delimiter.size()));
}

SqlResult<SqlValue> Reverse(const std::string&, std::vector<SqlValue>& args) {
  const std::string s = TextOf(args[0]);
  const std::vector<std::size_t> starts = CharacterStarts(s, Binary(args[0]));
  std::string out;
  for (std::size_t i = starts.size() - 1; i-- > 0;) out += s.substr(starts[i], starts[i + 1] - starts[i]);
  return Piece(args[0], std::move(out));
}

SqlResult<SqlValue> Space(const std::string&, std::vector<SqlValue>& args) {
  const std::int64_t n = IntArg(args[0]);
  if (n > (1 << 24)) return Null();
  return Str(std::string(static_cast<std::size_t>(std::max<std::int64_t>(n, 0)), ' '));
}

// ASCII(s): its first byte (0 for '').
SqlResult<SqlValue> Ascii(const std::string&, std::vector<SqlValue>& args) {
  const std::string s = TextOf(args[0]);
  return Int(s.empty() ? 0 : static_cast<unsigned char>(s[0]));
}

// FIELD(x, a, b, ...): the position of the first argument equal to x (0: none, or x NULL).
SqlResult<SqlValue> Field(const std::string&, std::vector<SqlValue>& args) {
  if (args[0].value.is_null()) return Int(0);
  for (std::size_t i = 1; i < args.size(); ++i) {
    if (args[i].value.is_null()) continue;
    const bool text = args[0].value.is_string() && args[i].value.is_string();
    if (text ? SameText(args[0], args[i]) : Compare(args[0], args[i]) == std::optional<int>(0))
      return Int(static_cast<std::int64_t>(i));
  }
  return Int(0);
}

// FIND_IN_SET(x, 'a,b,c'): the position of x among the comma-separated items (0: none, or x
// holds a comma).
SqlResult<SqlValue> FindInSet(const std::string&, std::vector<SqlValue>& args) {
  const std::string list = TextOf(args[1]);
  if (TextOf(args[0]).find(',') != std::string::npos || list.empty()) return Int(0);
  std::int64_t position = 1;
  for (std::size_t from = 0;; ++position) {
    const std::size_t comma = std::min(list.find(',', from), list.size());
    if (SameText(args[0], Piece(args[1], list.substr(from, comma - from)))) return Int(position);
    if (comma == list.size()) return Int(0);
    from = comma + 1;
  }
}

// ELT(n, a, b, ...): the n-th of them (NULL past them).
SqlResult<SqlValue> Elt(const std::string&, std::vector<SqlValue>& args) {
  if (args[0].value.is_null()) return Null();
  const std::int64_t n = IntArg(args[0]);
  if (n < 1 || static_cast<std::size_t>(n) >= args.size()) return Null();
  return args[static_cast<std::size_t>(n)];
}

SqlResult<SqlValue> Strcmp(const std::string&, std::vector<SqlValue>& args) {
  if (Binary(args[0]) || Binary(args[1])) {
    const int c = TextOf(args[0]).compare(TextOf(args[1]));
    return Int(c < 0 ? -1 : c > 0);
  }
  return Int(Compare(args[0], args[1]).value_or(0));
}

// NULLIF(a, b): NULL when a equals b, else a.
SqlResult<SqlValue> NullIf(const std::string&, std::vector<SqlValue>& args) {
  if (args[0].value.is_null()) return Null();
  if (!args[1].value.is_null() && Compare(args[0], args[1]) == std::optional<int>(0)) return Null();
  return args[0];
}

// GREATEST and LEAST: text by its collation when all are text, numbers otherwise; the result
// takes the type the arguments share (integers stay integers, an integer beside a DECIMAL
// shows the DECIMAL's scale, anything beside a double or text a double).
SqlResult<SqlValue> Extreme(const std::string& name, std::vector<SqlValue>& args) {
  bool all_text = true, all_exact = true, all_integer = true;
  int scale = 0;
  for (const SqlValue& a : args) {
    const bool text = a.value.is_string() && a.kind != LiteralKind::kDecimal;
    all_text = all_text && text;
    all_exact = all_exact && Exact(a);
    all_integer = all_integer && Integral(a);
    if (Exact(a)) scale = std::max(scale, ExactOf(a).scale());
  }
  std::size_t best = 0;
  for (std::size_t i = 1; i < args.size(); ++i) {
    std::optional<int> c;
    if (all_text || all_exact) {
      c = Compare(args[i], args[best]);
    } else {
      const double x = ToDouble(args[i].value), y = ToDouble(args[best].value);
      c = x < y ? -1 : x > y;
    }
    if (c && (name == "GREATEST" ? *c > 0 : *c < 0)) best = i;
  }
  if (all_text) {
    LiteralKind order = LiteralKind::kPlain;
    for (const SqlValue& a : args) order = TextOrder(order, a.kind);
    SqlValue out = args[best];
    out.kind = order;
    return out;
  }
  if (all_integer) return args[best];
  if (all_exact) return OfDecimal(ExactOf(args[best]).Rounded(scale));
  return SqlValue{Value::Double(ToDouble(args[best].value))};
}

}  // namespace strata::sql
