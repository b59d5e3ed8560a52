// MySQL's tablespace encryption (ENCRYPTION='Y', keys from a keyring such as keyring_file).
//
// Page 0 (never encrypted) holds the encryption info right after the XDES array
// (FspHeader::EncryptionInfoOffset; 10390 at 16 KiB):
//   3 magic "lCA" (5.7.11), "lCB" (5.7.12+), "lCC" (8.0.5+)   4 master key id
//   36 server UUID (not in "lCA"; "lCA"/"lCB" may carry 4 more key-id bytes, zero, first)
//   64 tablespace key (32) and IV (32), encrypted with the master key by AES-256-ECB
//   4 CRC-32C of those 64 bytes in clear
// The master key is the keyring's "INNODBKey-<server UUID>-<master key id>".
//
// Other pages are encrypted whole after the FIL header, trailer included, with AES-256-CBC
// under the tablespace key and the first 16 bytes of its IV (the same for every page). The
// type becomes 15 (ENCRYPTED; the type before at 28), 16 (a transparently compressed page,
// type 14, encrypted) or 17 (an R-tree page). The range is rarely whole blocks: the whole
// blocks are encrypted first, then the last 32 bytes again from the same IV, so decrypting
// goes the other way round. The page checksums are of the page in clear.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "ondisk/endian.h"
#include "ondisk/status.h"
#include "ondisk/types.h"

namespace strata::ondisk {

struct MySqlEncryptionInfo {
  std::size_t offset = 0;  // on page 0
  char version = 0;        // 'A', 'B' or 'C' of the magic
  std::uint32_t master_key_id = 0;
  std::string server_uuid;  // empty for "lCA"
  std::array<std::uint8_t, 64> wrapped{};
  std::uint32_t crc = 0;

  // The keyring id of its master key.
  std::string master_key_name() const;
};

// The encryption info of page 0, if the magic is where the geometry puts it.
std::optional<MySqlEncryptionInfo> FindMySqlEncryptionInfo(ConstBytes page0, PageSize geometry);

struct MySqlTablespaceKey {
  std::array<std::uint8_t, 32> key{};
  std::array<std::uint8_t, 16> iv{};
};
// Unwraps the tablespace key with the master key; InvalidArgument when the CRC says the
// master key is not the one it was wrapped with.
Result<MySqlTablespaceKey> UnwrapMySqlTablespaceKey(const MySqlEncryptionInfo& info,
                                                    std::span<const std::uint8_t> master_key);

// Decrypts an encrypted page (types 15-17, as stored) into `out` (the same size): the page
// as it was before encryption, its type restored (a type-16 page comes back as the type-14
// compressed page it was). Corruption when its fields say nothing sensible.
Status DecryptMySqlPage(ConstBytes stored, MutableBytes out, const MySqlTablespaceKey& key);

}  // namespace strata::ondisk
