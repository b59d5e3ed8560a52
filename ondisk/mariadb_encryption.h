// MariaDB's tablespace encryption (ENCRYPTED=YES, innodb_encrypt_tables; keys from a key
// management plugin such as file_key_management): which pages are encrypted and how their
// stored checksums are checked without the key.
//
// Page 0 (never encrypted) holds the tablespace's crypt data after the extent descriptors:
//   6 magic "s\x0e\x0cREt"  1 type  1 IV length (16)  16 IV  4 min key version  4 key id
//   1 encryption (0 default, 1 on, 2 off)
// FSP_HDR/XDES pages are never encrypted either. Other pages keep their FIL header (type,
// page number, LSN) and trailer in clear:
// - older format: key version at 26 (0: not encrypted), at 30 the crc32 checksum
//   (CRC-32C of [4, 26) xor of [38, size-8)) of the page as stored, encrypted;
// - full_crc32: key version at 0 (0: not encrypted); bytes from 26 (the space id too) are
//   encrypted; the CRC-32C at the end is of the page as stored.
//
// With the key (file_key_management gives key id -> key, always key version 1): the page key
// is AES-ECB of the crypt data's IV under that key (16 bytes: pages use AES-128). A page is
// encrypted with AES-128 in CBC mode (the default) or CTR mode (the plugin's
// encryption_algorithm, recorded nowhere on disk) with the IV
//   4 space id  4 page number  8 page LSN   (little-endian)
// over [38, size-8) in the older format (37401 pages: the payload, [42, 42 + length at 38)),
// and over [26, end-4) in full_crc32 (end: the page size, or a compressed page's stored size).
// CBC without padding leaves up to 15 bytes at the end: those are XORed with AES-ECB of the
// IV under the page key.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "ondisk/endian.h"
#include "ondisk/status.h"

namespace strata::ondisk {

struct MariaDbCryptData {
  std::size_t offset = 0;  // where on page 0
  std::uint8_t type = 0;
  std::array<std::uint8_t, 16> iv{};
  std::uint32_t min_key_version = 0;
  std::uint32_t key_id = 0;
  std::uint8_t encryption = 0;  // 0 default, 1 on, 2 off
};

// The crypt data on page 0, found by its magic; nullopt when the tablespace has none.
std::optional<MariaDbCryptData> FindMariaDbCryptData(ConstBytes page0);

// The key version a page was encrypted with; 0 when it is not encrypted.
std::uint32_t MariaDbKeyVersion(ConstBytes page, bool full_crc32);

// Older format: whether the checksum at 30 matches the page as stored.
bool MariaDbEncryptedChecksumHolds(ConstBytes page);

// The plugin's encryption_algorithm (file_key_management_encryption_algorithm).
enum class MariaDbCipher { kCbc, kCtr };
std::string ToString(MariaDbCipher c);

using MariaDbPageKey = std::array<std::uint8_t, 16>;
// The key pages are encrypted with, from the key management plugin's key (16, 24 or 32 bytes).
Result<MariaDbPageKey> DeriveMariaDbPageKey(std::span<const std::uint8_t> plugin_key, const MariaDbCryptData& crypt);

// Decrypts an encrypted page (stored, as read) into `out` (the same size): the encrypted range
// decrypted, the rest copied, and the key version (and the older format's checksum of the
// encrypted page) cleared, so that `out` reads as the page before encryption. `space_id` is
// the tablespace's (full_crc32 encrypts the page's own copy). Corruption when the page's
// fields cannot say what was encrypted.
Status DecryptMariaDbPage(ConstBytes stored, MutableBytes out, const MariaDbPageKey& key, MariaDbCipher cipher,
                          std::uint32_t space_id, bool full_crc32);

}  // namespace strata::ondisk
