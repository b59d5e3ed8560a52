#include "datasets/keys.h"

#include <chrono>

namespace strata::datasets {

std::optional<KeyStrategy> ParseKeyStrategy(const std::string& name) {
  for (KeyStrategy s : AllKeyStrategies()) {
    if (ToString(s) == name) return s;
  }
  return std::nullopt;
}

std::string ToString(KeyStrategy s) {
  switch (s) {
    case KeyStrategy::kSeq: return "seq";
    case KeyStrategy::kAutoinc: return "autoinc";
    case KeyStrategy::kUuid: return "uuid";
    case KeyStrategy::kUuidBin: return "uuid-bin";
    case KeyStrategy::kUlid: return "ulid";
  }
  return "?";
}

const std::vector<KeyStrategy>& AllKeyStrategies() {
  static const std::vector<KeyStrategy> all = {KeyStrategy::kSeq, KeyStrategy::kAutoinc, KeyStrategy::kUuid,
                                               KeyStrategy::kUuidBin, KeyStrategy::kUlid};
  return all;
}

std::string KeyGenerator::FormatUuid(const std::uint8_t (&b)[16]) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string s;
  for (int i = 0; i < 16; ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) s += '-';
    s += kHex[b[i] >> 4];
    s += kHex[b[i] & 15];
  }
  return s;
}

// 26 Crockford base32 digits of the 128-bit value (millis << 80 | hi16 << 64 | lo64).
std::string KeyGenerator::Ulid(std::uint64_t millis, std::uint64_t hi16, std::uint64_t lo64) {
  static constexpr char kCrockford[] = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
  const unsigned __int128 v = (static_cast<unsigned __int128>(millis & 0xFFFFFFFFFFFFull) << 80) |
                              (static_cast<unsigned __int128>(hi16 & 0xFFFF) << 64) | lo64;
  std::string s(26, '0');
  for (int i = 25; i >= 0; --i) s[static_cast<std::size_t>(25 - i)] = kCrockford[static_cast<unsigned>(v >> (5 * i)) & 31];
  return s;
}

std::string KeyGenerator::Next() {
  switch (strategy_) {
    case KeyStrategy::kSeq: return std::to_string(++seq_);
    case KeyStrategy::kAutoinc: return {};
    case KeyStrategy::kUuid:
    case KeyStrategy::kUuidBin: {
      std::uint8_t b[16];
      const std::uint64_t hi = rng_(), lo = rng_();
      for (int i = 0; i < 8; ++i) {
        b[i] = static_cast<std::uint8_t>(hi >> (56 - 8 * i));
        b[8 + i] = static_cast<std::uint8_t>(lo >> (56 - 8 * i));
      }
      b[6] = static_cast<std::uint8_t>(0x40 | (b[6] & 0x0F));  // version 4
      b[8] = static_cast<std::uint8_t>(0x80 | (b[8] & 0x3F));  // RFC 4122 variant
      if (strategy_ == KeyStrategy::kUuid) return FormatUuid(b);
      return std::string(reinterpret_cast<const char*>(b), 16);
    }
    case KeyStrategy::kUlid: {
      const auto now = static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::milliseconds>(
                                                       std::chrono::system_clock::now().time_since_epoch()).count());
      if (now > ulid_ms_) {
        ulid_ms_ = now;
        ulid_hi_ = rng_() & 0xFFFF;
        ulid_lo_ = rng_();
      } else if (++ulid_lo_ == 0) {  // same millisecond: the random part counts up
        ulid_hi_ = (ulid_hi_ + 1) & 0xFFFF;
      }
      return Ulid(ulid_ms_, ulid_hi_, ulid_lo_);
    }
  }
  return {};
}

std::string SbtestRowGenerator::Digits(int groups, int tail) {
  std::string s;
  for (int g = 0; g < groups; ++g) {
    if (g) s += '-';
    for (int i = 0; i < 11; ++i) s += static_cast<char>('0' + rng_() % 10);
  }
  for (int i = 0; i < tail; ++i) s += static_cast<char>('0' + rng_() % 10);
  return s;
}

SbtestRow SbtestRowGenerator::Next() {
  SbtestRow r;
  r.k = static_cast<std::uint32_t>(1 + rng_() % std::max<std::uint64_t>(rows_, 1));
  r.c = Digits(10, 1);
  r.pad = Digits(5, 1);
  return r;
}

}  // namespace strata::datasets
