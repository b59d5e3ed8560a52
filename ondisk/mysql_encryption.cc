#include "ondisk/mysql_encryption.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "ondisk/aes.h"
#include "ondisk/crc32c.h"
#include "ondisk/fil_header.h"
#include "ondisk/fsp_header.h"
#include "ondisk/page_type.h"

namespace strata::ondisk {

namespace {
constexpr std::size_t kUuidSize = 36;
constexpr std::size_t kMinEncrypted = 2 * 16;  // a type-16 page encrypts at least this much
}  // namespace

std::string MySqlEncryptionInfo::master_key_name() const {
  return "INNODBKey-" + server_uuid + "-" + std::to_string(master_key_id);
}

std::optional<MySqlEncryptionInfo> FindMySqlEncryptionInfo(ConstBytes page0, PageSize geometry) {
  MySqlEncryptionInfo info;
  info.offset = FspHeader::EncryptionInfoOffset(geometry);
  if (!Fits(page0.size(), info.offset, FspHeader::kEncryptionInfoSize)) return std::nullopt;
  const auto* b = reinterpret_cast<const std::uint8_t*>(page0.data()) + info.offset;
  if (b[0] != 'l' || b[1] != 'C' || (b[2] != 'A' && b[2] != 'B' && b[2] != 'C')) return std::nullopt;
  info.version = static_cast<char>(b[2]);
  std::size_t at = info.offset + 3;
  info.master_key_id = Load32(page0, at);
  at += 4;
  // 5.7's first versions wrote the key id in 8 bytes: zero high half first.
  if (info.version != 'C' && info.master_key_id == 0 && Load32(page0, at) != 0) {
    info.master_key_id = Load32(page0, at);
    at += 4;
  }
  if (info.version != 'A') {
    info.server_uuid.assign(reinterpret_cast<const char*>(page0.data()) + at, kUuidSize);
    at += kUuidSize;
  }
  if (!Fits(page0.size(), at, 64 + 4)) return std::nullopt;
  std::memcpy(info.wrapped.data(), page0.data() + at, 64);
  info.crc = Load32(page0, at + 64);
  return info;
}

Result<MySqlTablespaceKey> UnwrapMySqlTablespaceKey(const MySqlEncryptionInfo& info,
                                                    std::span<const std::uint8_t> master_key) {
  std::array<std::uint8_t, 64> clear;
  if (Status st = aes::DecryptEcb(master_key, info.wrapped, clear); !st.ok()) return st;
  if (Crc32c(std::as_bytes(std::span(clear))) != info.crc) {
    return Status::InvalidArgument(
        "master key " + info.master_key_name() +
        " does not unwrap the tablespace key (its CRC-32C does not match): not the key it was encrypted with");
  }
  MySqlTablespaceKey key;
  std::copy_n(clear.begin(), 32, key.key.begin());
  std::copy_n(clear.begin() + 32, 16, key.iv.begin());
  return key;
}

Status DecryptMySqlPage(ConstBytes stored, MutableBytes out, const MySqlTablespaceKey& key) {
  const std::size_t size = stored.size();
  if (out.size() != size || size < 1024) return Status::InvalidArgument("decrypting into a buffer that is not a page");
  const auto type = static_cast<PageType>(Load16(stored, FilHeader::kType));
  std::size_t n = size - kFilHeaderSize;
  if (type == PageType::kCompressedAndEncrypted) {
    // Transparent compression ran first: only the compressed bytes (at least 32) were encrypted.
    if (Load8(stored, FilHeader::kFlushLsn) != 2) {
      return Status::NotSupported("page compressed by MySQL 5.7 (header version " +
                                  std::to_string(Load8(stored, FilHeader::kFlushLsn)) +
                                  "): what it encrypted depends on the server's file system block size");
    }
    n = std::max<std::size_t>(Load16(stored, 32), kMinEncrypted);
    if (n > size - kFilHeaderSize) return Status::CorruptionAt(32, "the compressed length does not fit the page");
  } else if (type != PageType::kEncrypted && type != PageType::kEncryptedRtree) {
    return Status::InvalidArgument("not an encrypted page (type " + std::to_string(static_cast<unsigned>(type)) + ")");
  }
  std::copy(stored.begin(), stored.end(), out.begin());
  auto* data = reinterpret_cast<std::uint8_t*>(out.data()) + kFilHeaderSize;
  std::vector<std::uint8_t> tmp(n);
  const std::size_t whole = n / 16 * 16;
  if (whole != n) {
    // The last 32 bytes were encrypted a second time, after the whole blocks: undone first.
    std::copy_n(data + n - 32, 32, tmp.begin());
    if (Status st = aes::DecryptCbc(key.key, key.iv, {tmp.data(), 32}, {data + n - 32, 32}); !st.ok()) return st;
  }
  std::copy_n(data, whole, tmp.begin());
  if (Status st = aes::DecryptCbc(key.key, key.iv, {tmp.data(), whole}, {data, whole}); !st.ok()) return st;
  switch (type) {
    case PageType::kEncrypted:
      Store16(out, FilHeader::kType, Load16(out, FilHeader::kEncryptedOriginalType));
      Store16(out, FilHeader::kEncryptedOriginalType, 0);
      break;
    case PageType::kEncryptedRtree:
      Store16(out, FilHeader::kType, static_cast<std::uint16_t>(PageType::kRtree));
      break;
    default:
      Store16(out, FilHeader::kType, static_cast<std::uint16_t>(PageType::kCompressed));
      break;
  }
  return Status::Ok();
}

}  // namespace strata::ondisk
