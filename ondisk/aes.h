// AES through OpenSSL's libcrypto, in the modes InnoDB's encryptions use. Keys are 16, 24 or
// 32 bytes (AES-128/192/256, chosen by length). No padding anywhere: InnoDB encrypts whole
// ranges of a page in place, and lengths that are not whole blocks are each format's own
// business (see mariadb_encryption.cc and mysql_encryption.cc).
#pragma once

#include <array>
#include <cstdint>
#include <span>

#include "ondisk/status.h"

namespace strata::ondisk::aes {

using Key = std::span<const std::uint8_t>;
using Block = std::array<std::uint8_t, 16>;
using In = std::span<const std::uint8_t>;
using Out = std::span<std::uint8_t>;

// Whole blocks only (in.size() a multiple of 16, out at least as long).
Status EncryptEcb(Key key, In in, Out out);
Status DecryptEcb(Key key, In in, Out out);
Status DecryptCbc(Key key, const Block& iv, In in, Out out);
// CTR works on any length (encrypting and decrypting are the same operation).
Status Ctr(Key key, const Block& iv, In in, Out out);

}  // namespace strata::ondisk::aes
