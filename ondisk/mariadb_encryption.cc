#include "ondisk/mariadb_encryption.h"

#include <algorithm>
#include <cstring>

#include "ondisk/crc32c.h"
#include "ondisk/fil_header.h"
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
  const std::uint32_t crc = Crc32c(page.subspan(4, FilHeader::kFlushLsn - 4)) ^ Crc32c(page.subspan(38, page.size() - 38 - 8));
  return crc == Load32(page, kEncryptedChecksum);
}

}  // namespace strata::ondisk
