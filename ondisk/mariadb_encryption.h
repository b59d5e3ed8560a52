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
#pragma once

#include <array>
#include <cstdint>
#include <optional>

#include "ondisk/endian.h"

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

}  // namespace strata::ondisk
