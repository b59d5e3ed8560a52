#include "ondisk/mariadb_encryption.h"

#include <algorithm>
#include <cstring>

#include "ondisk/aes.h"
#include "ondisk/crc32c.h"
#include "ondisk/fil_header.h"
#include "ondisk/page_compressed.h"
#include "ondisk/page_type.h"

namespace strata::ondisk {

namespace {
constexpr std::uint8_t kMagic[6] = {'s', 0x0E, 0x0C, 'R', 'E', 't'};
constexpr std::size_t kCryptDataSize = 6 + 1 + 1 + 16 + 4 + 4 + 1;
constexpr std::size_t kKeyVersion = FilHeader::kFlushLsn;  // older format
constexpr std::size_t kEncryptedChecksum = FilHeader::kFlushLsn + 4;
}  // namespace

std::optional<MariaDbCryptData> FindMariaDbCryptData(ConstBytes page0) {
  const auto* b = reinterpret_cast<const std::uint8_t*>(page0.data());
  const auto* end = b + page0.size();
  const auto* at = std::search(b, end, std::begin(kMagic), std::end(kMagic));
  if (at == end || static_cast<std::size_t>(end - at) < kCryptDataSize) return std::nullopt;
  MariaDbCryptData c;
  c.offset = static_cast<std::size_t>(at - b);
  c.type = at[6];
  if (at[7] != 16) return std::nullopt;  // the IV is 16 bytes in every version
  std::memcpy(c.iv.data(), at + 8, 16);
  c.min_key_version = Load32(page0, c.offset + 24);
  c.key_id = Load32(page0, c.offset + 28);
  c.encryption = at[32];
  return c;
}

std::uint32_t MariaDbKeyVersion(ConstBytes page, bool full_crc32) {
  if (page.size() < FilHeader::kSpaceId + 4) return 0;
  if (full_crc32) return Load32(page, 0);
  const auto type = static_cast<PageType>(Load16(page, FilHeader::kType));
  if (Load32(page, FilHeader::kPageNo) == 0 || type == PageType::kFspHdr || type == PageType::kXdes) return 0;
  return Load32(page, kKeyVersion);
}

bool MariaDbEncryptedChecksumHolds(ConstBytes page) {
  const std::uint32_t crc =
      Crc32c(page.subspan(4, FilHeader::kFlushLsn - 4)) ^ Crc32c(page.subspan(38, page.size() - 38 - 8));
  return crc == Load32(page, kEncryptedChecksum);
}

std::string ToString(MariaDbCipher c) { return c == MariaDbCipher::kCbc ? "AES-CBC" : "AES-CTR"; }

Result<MariaDbPageKey> DeriveMariaDbPageKey(std::span<const std::uint8_t> plugin_key, const MariaDbCryptData& crypt) {
  MariaDbPageKey key;
  Status st = aes::EncryptEcb(plugin_key, crypt.iv, key);
  if (!st.ok()) return st;
  return key;
}

Status DecryptMariaDbPage(ConstBytes stored, MutableBytes out, const MariaDbPageKey& key, MariaDbCipher cipher,
                          std::uint32_t space_id, bool full_crc32) {
  const std::size_t size = stored.size();
  if (out.size() != size || size < 4096) return Status::InvalidArgument("decrypting into a buffer that is not a page");
  std::size_t begin = 0, end = 0;
  if (full_crc32) {
    begin = FilHeader::kFlushLsn;
    end = size - 4;
    const std::uint16_t type = Load16(stored, FilHeader::kType);
    if (IsPageCompressed(stored, true)) {
      const std::size_t kept = std::size_t{type & 0x7FFFu} << 8;
      if (kept <= begin + 4 || kept > size)
        return Status::CorruptionAt(FilHeader::kType, "the compressed page's stored size does not fit the page");
      end = kept - 4;
    }
  } else {
    space_id = Load32(stored, FilHeader::kSpaceId);
    begin = kFilHeaderSize;
    end = size - 8;
    if (Load16(stored, FilHeader::kType) == kPageCompressedEncryptedType) {
      begin = 42;
      end = begin + Load16(stored, kFilHeaderSize);
      if (end > size)
        return Status::CorruptionAt(kFilHeaderSize, "the compressed payload's length does not fit the page");
    }
  }
  aes::Block iv{};
  const std::uint32_t page_no = Load32(stored, FilHeader::kPageNo);
  const std::uint64_t lsn = Load64(stored, FilHeader::kLsn);
  for (int i = 0; i < 4; ++i) iv[i] = static_cast<std::uint8_t>(space_id >> (8 * i));
  for (int i = 0; i < 4; ++i) iv[4 + i] = static_cast<std::uint8_t>(page_no >> (8 * i));
  for (int i = 0; i < 8; ++i) iv[8 + i] = static_cast<std::uint8_t>(lsn >> (8 * i));

  std::copy(stored.begin(), stored.end(), out.begin());
  const auto* in = reinterpret_cast<const std::uint8_t*>(stored.data()) + begin;
  auto* to = reinterpret_cast<std::uint8_t*>(out.data()) + begin;
  const std::size_t n = end - begin;
  Status st;
  if (cipher == MariaDbCipher::kCtr) {
    st = aes::Ctr(key, iv, {in, n}, {to, n});
  } else {
    const std::size_t whole = n / 16 * 16;
    st = aes::DecryptCbc(key, iv, {in, whole}, {to, whole});
    if (st.ok() && whole < n) {
      aes::Block mask;
      st = aes::EncryptEcb(key, iv, mask);
      for (std::size_t i = whole; i < n; ++i) to[i] = in[i] ^ mask[i - whole];
    }
  }
  if (!st.ok()) return st;
  // What encryption wrote in clear goes back to what the page had: no key version, and (older
  // format) no checksum of the encrypted page in the flush LSN field.
  if (full_crc32) {
    Store32(out, 0, 0);
  } else {
    Store64(out, FilHeader::kFlushLsn, 0);
  }
  return Status::Ok();
}

}  // namespace strata::ondisk
