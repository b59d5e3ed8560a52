#include "datasets/keys.h"

#include <algorithm>
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
    case KeyStrategy::kSeq:
      return "seq";
    case KeyStrategy::kAutoinc:
      return "autoinc";
    case KeyStrategy::kUuid:
      return "uuid";
    case KeyStrategy::kUuidBin:
      return "uuid-bin";
    case KeyStrategy::kUlid:
      return "ulid";
    case KeyStrategy::kUuid7:
      return "uuid7";
    case KeyStrategy::kUuid7Bin:
      return "uuid7-bin";
    case KeyStrategy::kUuid1SwapBin:
      return "uuid1-swap-bin";
  }
  return "?";
}

const std::vector<KeyStrategy>& AllKeyStrategies() {
  static const std::vector<KeyStrategy> all = {KeyStrategy::kSeq,      KeyStrategy::kAutoinc,     KeyStrategy::kUuid,
                                               KeyStrategy::kUuidBin,  KeyStrategy::kUlid,        KeyStrategy::kUuid7,
                                               KeyStrategy::kUuid7Bin, KeyStrategy::kUuid1SwapBin};
  return all;
}

std::string KeyStrategyNames() {
  std::string out;
  for (KeyStrategy s : AllKeyStrategies()) out += (out.empty() ? "" : ", ") + ToString(s);
  return out;
}

std::string_view KeyColumnType(KeyStrategy s) {
  switch (s) {
    case KeyStrategy::kSeq:
    case KeyStrategy::kAutoinc:
      return "int(11)";
    case KeyStrategy::kUuid:
    case KeyStrategy::kUuid7:
      return "char(36)";
    case KeyStrategy::kUlid:
      return "char(26)";
    case KeyStrategy::kUuidBin:
    case KeyStrategy::kUuid7Bin:
    case KeyStrategy::kUuid1SwapBin:
      return "binary(16)";
  }
  return {};
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
  for (int i = 25; i >= 0; --i)
    s[static_cast<std::size_t>(25 - i)] = kCrockford[static_cast<unsigned>(v >> (5 * i)) & 31];
  return s;
}

std::string ToHex(std::string_view bytes, HexCase hex_case) {
  const char* kHex = hex_case == HexCase::kUpper ? "0123456789ABCDEF" : "0123456789abcdef";
  std::string out;
  out.reserve(2 * bytes.size());
  for (unsigned char c : bytes) {
    out += kHex[c >> 4];
    out += kHex[c & 15];
  }
  return out;
}

bool KeyGenerator::IsBinary(KeyStrategy s) {
  return s == KeyStrategy::kUuidBin || s == KeyStrategy::kUuid7Bin || s == KeyStrategy::kUuid1SwapBin;
}

namespace {

std::uint64_t UnixMillis() {
  return static_cast<std::uint64_t>(
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
          .count());
}

// 16 bytes from two big-endian halves.
void Split(std::uint64_t hi, std::uint64_t lo, std::uint8_t (&b)[16]) {
  for (int i = 0; i < 8; ++i) {
    b[i] = static_cast<std::uint8_t>(hi >> (56 - 8 * i));
    b[8 + i] = static_cast<std::uint8_t>(lo >> (56 - 8 * i));
  }
}

}  // namespace

std::string KeyGenerator::Next() {
  switch (strategy_) {
    case KeyStrategy::kSeq:
      return std::to_string(++seq_);
    case KeyStrategy::kAutoinc:
      return {};
    case KeyStrategy::kUuid:
    case KeyStrategy::kUuidBin: {
      std::uint8_t b[16];
      Split(rng_(), rng_(), b);
      b[6] = static_cast<std::uint8_t>(0x40 | (b[6] & 0x0F));  // version 4
      b[8] = static_cast<std::uint8_t>(0x80 | (b[8] & 0x3F));  // RFC 4122 variant
      if (strategy_ == KeyStrategy::kUuid) return FormatUuid(b);
      return std::string(reinterpret_cast<const char*>(b), 16);
    }
    case KeyStrategy::kUuid7:
    case KeyStrategy::kUuid7Bin: {
      // unix_ts_ms (48) | ver 7 (4) | rand_a (12) || var 10 (2) | rand_b (62)
      const std::uint64_t now = UnixMillis();
      if (now > v7_ms_) {
        v7_ms_ = now;
        v7_a_ = rng_() & 0xFFF;
        v7_b_ = rng_() >> 2;
      } else if (++v7_b_ >> 62) {  // same millisecond: the 74 random bits count up
        v7_b_ = 0;
        v7_a_ = (v7_a_ + 1) & 0xFFF;
      }
      std::uint8_t b[16];
      Split((v7_ms_ & 0xFFFFFFFFFFFFull) << 16 | 0x7000 | v7_a_, std::uint64_t{2} << 62 | v7_b_, b);
      if (strategy_ == KeyStrategy::kUuid7) return FormatUuid(b);
      return std::string(reinterpret_cast<const char*>(b), 16);
    }
    case KeyStrategy::kUuid1SwapBin: {
      // A UUIDv1's 60-bit time counts 100 ns intervals from 1582-10-15; UUID() keeps it
      // increasing even when called twice in one tick. UUID_TO_BIN(u, 1) stores time_hi (with
      // the version), time_mid, then time_low, so consecutive values share their first bytes.
      constexpr std::uint64_t kGregorianOffset = 0x01B21DD213814000ull;
      const auto ns =
          std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch())
              .count();
      v1_ticks_ = std::max(v1_ticks_ + 1, static_cast<std::uint64_t>(ns) / 100 + kGregorianOffset);
      if (v1_node_ == 0) {
        v1_clock_seq_ = rng_() & 0x3FFF;
        v1_node_ = (rng_() & 0xFFFFFFFFFFFFull) | 0x010000000000ull;  // a random node has the multicast bit set
      }
      const std::uint64_t time_low = v1_ticks_ & 0xFFFFFFFF, time_mid = (v1_ticks_ >> 32) & 0xFFFF;
      const std::uint64_t time_hi = 0x1000 | ((v1_ticks_ >> 48) & 0x0FFF);
      std::uint8_t b[16];
      Split(time_hi << 48 | time_mid << 32 | time_low, (0x8000 | v1_clock_seq_) << 48 | v1_node_, b);
      return std::string(reinterpret_cast<const char*>(b), 16);
    }
    case KeyStrategy::kUlid: {
      const std::uint64_t now = UnixMillis();
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

std::string SbtestRowGenerator::Digits(int groups) {
  std::string s;
  for (int g = 0; g < groups; ++g) {
    if (g) s += '-';
    for (int i = 0; i < 11; ++i) s += static_cast<char>('0' + rng_() % 10);
  }
  return s;
}

SbtestRow SbtestRowGenerator::Next() {
  SbtestRow r;
  r.k = static_cast<std::uint32_t>(1 + rng_() % std::max<std::uint64_t>(rows_, 1));
  r.c = Digits(10);
  r.pad = Digits(5);
  return r;
}

}  // namespace strata::datasets
