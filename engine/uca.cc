#include "engine/uca.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <memory>

#include "ondisk/charsets.h"

namespace strata::engine {

namespace {

// The most weights one character or contraction has in the server's tables (U+FDFA's expansion
// is cut to 8 there).
constexpr std::size_t kMaxWeights = 16;

// A table with a direct index for the BMP, where nearly all text lives.
class Weigher {
 public:
  explicit Weigher(const UcaTable& table) : table_(table), bmp_(std::make_unique<std::uint16_t[]>(0x10000)) {
    assert(table.runs.size() <= 0x10000);
    for (std::size_t r = 0; r < table.runs.size(); ++r) {
      const UcaRun& run = table.runs[r];
      assert(run.n <= kMaxWeights);
      for (char32_t c = run.first; c < run.first + run.count && c < 0x10000; ++c)
        bmp_[c] = static_cast<std::uint16_t>(r);
    }
    for (const UcaContraction& c : table.contractions) {
      assert(c.n <= kMaxWeights && c.length >= 2);
      if (c.code_points[0] < 0x10000)
        starts_contraction_[c.code_points[0] >> 6] |= std::uint64_t{1} << (c.code_points[0] & 63);
    }
  }

  // The weights of the character (or contraction) at s[i] into `out`, advancing i past it.
  std::size_t Next(std::string_view s, std::size_t& i, std::uint16_t* out) const {
    const auto byte = static_cast<unsigned char>(s[i]);
    const char32_t cp = byte < 0x80 ? (++i, byte) : ondisk::NextUtf8(s, i);
    if (cp < 0x10000 && (starts_contraction_[cp >> 6] >> (cp & 63) & 1)) {
      if (const std::size_t n = Contraction(cp, s, i, out); n != kNone) return n;
    }
    const UcaRun& run = Run(cp);
    std::copy_n(table_.weights.begin() + run.offset, run.n, out);
    if (run.n > 0) out[run.n - 1] = static_cast<std::uint16_t>(out[run.n - 1] + run.step * (cp - run.first));
    return run.n;
  }

 private:
  static constexpr std::size_t kNone = ~std::size_t{0};

  const UcaRun& Run(char32_t cp) const {
    if (cp < 0x10000) return table_.runs[bmp_[cp]];
    const auto after = std::upper_bound(table_.runs.begin(), table_.runs.end(), cp,
                                        [](char32_t c, const UcaRun& run) { return c < run.first; });
    return *(after - 1);  // runs start at U+0000 and cover every code point
  }

  // The longest contraction that starts with `first` and goes on at s[i]: its weights, i past
  // it; kNone when none matches.
  std::size_t Contraction(char32_t first, std::string_view s, std::size_t& i, std::uint16_t* out) const {
    char32_t next[2] = {0, 0};
    std::size_t ends[2] = {i, i};
    for (std::size_t k = 0, at = i; k < 2 && at < s.size(); ++k) {
      next[k] = ondisk::NextUtf8(s, at);
      ends[k] = at;
    }
    const UcaContraction* best = nullptr;
    const auto from = std::lower_bound(table_.contractions.begin(), table_.contractions.end(), first,
                                       [](const UcaContraction& c, char32_t cp) { return c.code_points[0] < cp; });
    for (auto c = from; c != table_.contractions.end() && c->code_points[0] == first; ++c) {
      const bool match = c->code_points[1] == next[0] && (c->length == 2 || c->code_points[2] == next[1]);
      if (match && (!best || c->length > best->length)) best = &*c;
    }
    if (!best) return kNone;
    i = ends[best->length - 2];
    std::copy_n(table_.contraction_weights.begin() + best->offset, best->n, out);
    return best->n;
  }

  const UcaTable& table_;
  std::unique_ptr<std::uint16_t[]> bmp_;  // run index per BMP code point
  std::array<std::uint64_t, 0x10000 / 64> starts_contraction_{};
};

const Weigher& WeigherOf(const UcaTable& table) {
  static const Weigher w400(Uca400Table()), w520(Uca520Table()), w1400(Uca1400Table());
  return &table == &Uca400Table() ? w400 : &table == &Uca520Table() ? w520 : w1400;
}

// The weights of one text, one at a time (0 at its end: no character weighs 0).
class Cursor {
 public:
  Cursor(const Weigher& w, std::string_view s) : weigher_(w), s_(s) {}
  std::uint32_t Next() {
    while (at_ == size_) {
      if (i_ >= s_.size()) return 0;
      size_ = weigher_.Next(s_, i_, buffer_.data());
      at_ = 0;
    }
    return buffer_[at_++];
  }

 private:
  const Weigher& weigher_;
  std::string_view s_;
  std::size_t i_ = 0, at_ = 0, size_ = 0;
  std::array<std::uint16_t, kMaxWeights> buffer_{};
};

}  // namespace

std::vector<std::uint32_t> UcaWeights(const UcaTable& table, std::string_view utf8) {
  std::vector<std::uint32_t> out;
  out.reserve(utf8.size());
  Cursor cursor(WeigherOf(table), utf8);
  for (std::uint32_t w = cursor.Next(); w != 0; w = cursor.Next()) out.push_back(w);
  return out;
}

int UcaCompare(const UcaTable& table, std::string_view a, std::string_view b, bool pad) {
  const Weigher& weigher = WeigherOf(table);
  Cursor x(weigher, a), y(weigher, b);
  std::uint32_t wa = x.Next(), wb = y.Next();
  for (; wa != 0 && wb != 0; wa = x.Next(), wb = y.Next()) {
    if (wa != wb) return wa < wb ? -1 : 1;
  }
  if (wa == wb) return 0;  // both ended
  const bool a_longer = wa != 0;
  if (!pad) return a_longer ? 1 : -1;
  Cursor& rest = a_longer ? x : y;
  for (std::uint32_t w = a_longer ? wa : wb; w != 0; w = rest.Next()) {
    if (w != table.space) return (w < table.space) == a_longer ? -1 : 1;
  }
  return 0;
}

}  // namespace strata::engine
