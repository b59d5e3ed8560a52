// Primary-key generators for the key-strategy experiments: the orders in which applications
// produce keys, which decide how InnoDB's B-tree pages split and fill.
//   seq       1, 2, 3, ... given explicitly (INT)
//   autoinc   left to AUTO_INCREMENT (the generator yields nothing)
//   uuid      UUIDv4 as char(36) text, lowercase: random order
//   uuid-bin  UUIDv4 as binary(16): random order, 16 bytes instead of 36
//   ulid      ULID as char(26) Crockford base32: 48-bit millisecond time, then 80 random bits,
//             incremented within one millisecond (monotonic), so nearly sequential
//   uuid7     UUIDv7 (RFC 9562) as char(36): 48-bit millisecond time, version, then 74 bits
//             random at each new millisecond and counted up within one (monotonic)
//   uuid7-bin the same as binary(16)
//   uuid1-swap-bin  MySQL's UUID_TO_BIN(UUID(), 1): a time-based UUIDv1 with its time fields
//             swapped so the high ones come first (binary(16)), nearly sequential
#pragma once

#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

namespace strata::datasets {

enum class KeyStrategy { kSeq, kAutoinc, kUuid, kUuidBin, kUlid, kUuid7, kUuid7Bin, kUuid1SwapBin };

std::optional<KeyStrategy> ParseKeyStrategy(const std::string& name);
std::string ToString(KeyStrategy s);
const std::vector<KeyStrategy>& AllKeyStrategies();
// "seq, autoinc, uuid, ...": every strategy's name, for help texts and errors.
std::string KeyStrategyNames();
// The key column's SQL type as mariadb-dump writes it: int(11), char(36), char(26), binary(16).
// (kAutoinc's column is also AUTO_INCREMENT.)
std::string_view KeyColumnType(KeyStrategy s);

class KeyGenerator {
 public:
  explicit KeyGenerator(KeyStrategy s, std::uint64_t seed = 1) : strategy_(s), rng_(seed) {}
  // The next key: decimal text (seq), 36 or 26 characters (uuid, uuid7, ulid), 16 raw bytes
  // (the -bin strategies), or empty (autoinc).
  std::string Next();
  // True when keys are 16 raw bytes (binary(16) columns).
  static bool IsBinary(KeyStrategy s);

  static std::string FormatUuid(const std::uint8_t (&b)[16]);
  static std::string Ulid(std::uint64_t millis, std::uint64_t hi16, std::uint64_t lo64);

 private:
  KeyStrategy strategy_;
  std::mt19937_64 rng_;
  std::uint64_t seq_ = 0;
  std::uint64_t ulid_ms_ = 0, ulid_hi_ = 0, ulid_lo_ = 0;  // the random part: 16 + 64 bits
  std::uint64_t v7_ms_ = 0, v7_a_ = 0, v7_b_ = 0;          // rand_a (12 bits), rand_b (62 bits)
  std::uint64_t v1_ticks_ = 0, v1_clock_seq_ = 0, v1_node_ = 0;
};

// Bytes as hex ("0aff...", or "0AFF..." as mariadb-dump --hex-blob writes them): binary keys
// where text is wanted.
enum class HexCase { kLower, kUpper };
std::string ToHex(std::string_view bytes, HexCase hex_case = HexCase::kLower);

// A row of sysbench's sbtest table without its key: k random in [1, rows], c and pad made of
// 10 and 5 groups of 11 digits joined by '-' (119 and 59 characters), as sysbench's
// oltp_common.lua fills them.
struct SbtestRow {
  std::uint32_t k = 0;
  std::string c, pad;
};

class SbtestRowGenerator {
 public:
  SbtestRowGenerator(std::uint64_t rows, std::uint64_t seed = 2) : rows_(rows), rng_(seed) {}
  SbtestRow Next();

 private:
  std::string Digits(int groups);
  std::uint64_t rows_;
  std::mt19937_64 rng_;
};

}  // namespace strata::datasets
