#include "engine/key.h"

#include <algorithm>
#include <array>
#include <cstring>

namespace strata::engine {

using namespace strata::ondisk;

namespace {

ConstBytes TrimSpaces(ConstBytes b) {
  std::size_t n = b.size();
  while (n > 0 && b[n - 1] == std::byte{' '}) --n;
  return b.first(n);
}

int CompareBytes(ConstBytes a, ConstBytes b) {
  const std::size_t n = std::min(a.size(), b.size());
  if (n > 0) {
    if (int c = std::memcmp(a.data(), b.data(), n)) return c < 0 ? -1 : 1;
  }
  return a.size() < b.size() ? -1 : a.size() > b.size() ? 1 : 0;
}

// PAD SPACE (the _bin collations of CHAR/VARCHAR): the shorter string compares as if padded
// with spaces, so past a common prefix the longer one's first byte that is not a space
// decides against the space: "a\t" sorts before "a" and "a~" after it.
int ComparePadded(ConstBytes a, ConstBytes b) {
  a = TrimSpaces(a);
  b = TrimSpaces(b);
  const std::size_t n = std::min(a.size(), b.size());
  if (int c = n ? std::memcmp(a.data(), b.data(), n) : 0) return c < 0 ? -1 : 1;
  if (a.size() == b.size()) return 0;
  const ConstBytes rest = a.size() > b.size() ? a.subspan(n) : b.subspan(n);
  std::size_t k = 0;
  while (rest[k] == std::byte{' '}) ++k;  // trimmed: a byte that is not a space ends it
  const int longer = static_cast<unsigned char>(rest[k]) < ' ' ? -1 : 1;
  return a.size() > b.size() ? longer : -longer;
}

template <typename T>
T LoadLittle(ConstBytes b) {
  T v{};
  if (b.size() == sizeof(T)) std::memcpy(&v, b.data(), sizeof(T));  // host is little-endian (x86-64, arm64)
  return v;
}

}  // namespace

TextRule TextRuleOf(CompareKind kind) {
  switch (kind) {
    case CompareKind::kLatin1SwedishCi:
      return TextRule::kLatin1SwedishCi;
    case CompareKind::kUca400:
      return TextRule::kUca400;
    case CompareKind::kUca400NoPad:
      return TextRule::kUca400NoPad;
    case CompareKind::kUca520:
      return TextRule::kUca520;
    case CompareKind::kUca520NoPad:
      return TextRule::kUca520NoPad;
    case CompareKind::kUca1400:
      return TextRule::kUca1400;
    case CompareKind::kUca1400NoPad:
      return TextRule::kUca1400NoPad;
    case CompareKind::kPadSpace:
      return TextRule::kBin;
    case CompareKind::kGeneralCi:
      return TextRule::kGeneralCi;
    default:
      return TextRule::kBytes;
  }
}

int CompareField(CompareKind kind, bool a_null, ConstBytes a, bool b_null, ConstBytes b) {
  if (a_null || b_null) return a_null == b_null ? 0 : a_null ? -1 : 1;
  switch (kind) {
    case CompareKind::kBinary:
      return CompareBytes(a, b);
    case CompareKind::kPadSpace:
      return ComparePadded(a, b);
    case CompareKind::kGeneralCi:
    case CompareKind::kLatin1SwedishCi:
    case CompareKind::kUca400:
    case CompareKind::kUca400NoPad:
    case CompareKind::kUca520:
    case CompareKind::kUca520NoPad:
    case CompareKind::kUca1400:
    case CompareKind::kUca1400NoPad:
      return CompareText(TextRuleOf(kind), {reinterpret_cast<const char*>(a.data()), a.size()},
                         {reinterpret_cast<const char*>(b.data()), b.size()});
    case CompareKind::kFloat: {
      float x = LoadLittle<float>(a), y = LoadLittle<float>(b);
      return x < y ? -1 : x > y ? 1 : 0;
    }
    case CompareKind::kDouble: {
      double x = LoadLittle<double>(a), y = LoadLittle<double>(b);
      return x < y ? -1 : x > y ? 1 : 0;
    }
  }
  return 0;
}

namespace {
FieldValue ToFieldValue(const Datum& d) {
  return {d.null ? std::nullopt : std::optional<ConstBytes>(d.span()), d.external};
}
}  // namespace

EncodedRecord EncodeTuple(const RecordLayout& layout, const Tuple& t) {
  std::vector<FieldValue> values;
  values.reserve(t.size());
  for (const auto& d : t) values.push_back(ToFieldValue(d));
  return EncodeCompactRecord(layout, values);
}

std::size_t AppendTuple(const RecordLayout& layout, const Tuple& t, std::vector<std::byte>& out) {
  constexpr std::size_t kOnStack = 32;  // fields of most indexes: no allocation per record
  std::array<FieldValue, kOnStack> on_stack;
  std::vector<FieldValue> on_heap(t.size() > kOnStack ? t.size() : 0);
  const std::span<FieldValue> values = on_heap.empty() ? std::span<FieldValue>(on_stack.data(), t.size()) : on_heap;
  for (std::size_t i = 0; i < t.size(); ++i) values[i] = ToFieldValue(t[i]);
  return AppendCompactRecord(layout, values, out);
}

std::size_t EncodedSize(const RecordLayout& layout, const Tuple& t) {
  std::size_t nullable = 0, size = kCompactExtraBytes + (layout.row_version ? 1 : 0);
  for (std::size_t i = 0; i < t.size(); ++i) {
    const FieldDef& f = layout.fields[i];
    if (f.absent) continue;
    nullable += f.nullable;
    if (t[i].null) continue;
    size += t[i].bytes.size();
    if (f.is_variable()) size += f.big() && (t[i].bytes.size() >= 128 || t[i].external) ? 2 : 1;
  }
  return size + (layout.null_bitmap_bits.value_or(nullable) + 7) / 8;
}

}  // namespace strata::engine
