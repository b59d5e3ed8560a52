#include "inspect/page_unpacker.h"

#include <sys/mman.h>

#include <cstring>

#include "ondisk/crc32c.h"
#include "ondisk/fil_header.h"
#include "ondisk/page_compressed.h"

namespace strata::inspect {

using namespace strata::ondisk;

bool PageRules::IsMySqlEncryptedType(ConstBytes page) const {
  // MySQL's types are its alone, so they say it even when page 0 cannot be read.
  const PageType type = FilHeader(page).type();
  return !shape_.full_crc32 && (type == PageType::kEncrypted || type == PageType::kCompressedAndEncrypted ||
                                type == PageType::kEncryptedRtree);
}

bool PageRules::IsEncryptedPage(ConstBytes page) const {
  if (IsMySqlEncryptedType(page)) return true;
  if (!mariadb_encrypted_) return false;
  if (shape_.page_compressed() && IsPageCompressed(page, shape_.full_crc32)) {
    auto c =
        ReadCompressedPage(page, shape_.full_crc32, static_cast<PageCompression>(shape_.flags->compression_algorithm));
    return c.ok() && c->encrypted;
  }
  return MariaDbKeyVersion(page, shape_.full_crc32) != 0;
}

PageCheck PageRules::CheckPage(ConstBytes page) const {
  if (IsMySqlEncryptedType(page)) {
    // MySQL checksums the clear page and encrypts everything after the FIL header, trailer
    // included: without the key the page can be neither verified nor called damaged.
    PageCheck r;
    r.encrypted = r.unverifiable = true;
    r.stored = Load32(page, 0);
    return r;
  }
  if (shape_.page_compressed() && IsPageCompressed(page, shape_.full_crc32)) {
    // Still as stored: it did not decompress, or it is encrypted (MariaDB checksums the
    // stored bytes: 37401 pages at 30, full_crc32 ones at the end of what is stored).
    PageCheck r;
    r.stored = Load32(page, 0);
    auto c =
        ReadCompressedPage(page, shape_.full_crc32, static_cast<PageCompression>(shape_.flags->compression_algorithm));
    r.encrypted = c.ok() && c->encrypted;
    if (r.encrypted)
      r.valid = shape_.full_crc32 ? CompressedPageCrcHolds(page, *c) : MariaDbEncryptedChecksumHolds(page);
    return r;
  }
  if (mariadb_encrypted_ && MariaDbKeyVersion(page, shape_.full_crc32) != 0) {
    // MariaDB checksums the encrypted page as stored: verified without the key.
    PageCheck r = shape_.full_crc32 ? ValidatePage(page, true) : PageCheck{};
    if (!shape_.full_crc32) {
      r.stored = Load32(page, FilHeader::kFlushLsn + 4);
      r.lsn_mismatch = Load32(page, FilHeader::kLsn + 4) != Load32(page, page.size() - 4);
      r.valid = MariaDbEncryptedChecksumHolds(page) && !r.lsn_mismatch;
      if (r.valid) r.algorithm = ChecksumAlgorithm::kCrc32;
    }
    r.encrypted = true;
    return r;
  }
  return shape_.compressed() ? ValidateCompressedPage(page) : ValidatePage(page, shape_.full_crc32);
}

std::optional<MariaDbPageKey> PageUnpacker::MariaDbKey(const EncryptionKeys* keys, MariaDbCipher* cipher) {
  if (!keys || !out_.mariadb_crypt || keys->mariadb.empty()) return std::nullopt;
  const std::string& file = name_;
  const std::string keyfile = keys->mariadb_file.filename().string();
  auto it = keys->mariadb.find(out_.mariadb_crypt->key_id);
  if (it == keys->mariadb.end()) {
    findings_.push_back({Severity::kWarning, file, 0, out_.mariadb_crypt->offset, "no key",
                         "encrypted with key id " + std::to_string(out_.mariadb_crypt->key_id) + ", which " + keyfile +
                             " does not have: its pages stay encrypted"});
    return std::nullopt;
  }
  auto key = DeriveMariaDbPageKey(it->second, *out_.mariadb_crypt);
  if (!key.ok()) return std::nullopt;
  // The cipher (file_key_management_encryption_algorithm) is recorded nowhere: the first
  // encrypted page whose stored checksum holds must decrypt to a page that reads right.
  std::vector<std::byte> clear(shape_.page_size), inflated(shape_.page_size);
  const auto algorithm = static_cast<PageCompression>(shape_.flags ? shape_.flags->compression_algorithm : 0);
  for (std::uint32_t n = 1; n < shape_.n_pages; ++n) {
    ConstBytes stored = Page(n);
    if (MariaDbKeyVersion(stored, shape_.full_crc32) != 1 || !rules_.CheckPage(stored).valid) continue;
    for (MariaDbCipher c : {MariaDbCipher::kCbc, MariaDbCipher::kCtr}) {
      if (!DecryptMariaDbPage(stored, clear, *key, c, shape_.space_id.value(), shape_.full_crc32).ok()) break;
      bool reads_right;
      if (shape_.page_compressed() && IsPageCompressed(clear, shape_.full_crc32)) {
        auto cp = ReadCompressedPage(clear, shape_.full_crc32, algorithm);
        if (cp.ok()) cp->encrypted = false;
        reads_right = cp.ok() && DecompressPage(clear, *cp, inflated).ok();
      } else if (shape_.full_crc32) {
        reads_right = Load32(clear, FilHeader::kSpaceId) == shape_.space_id.value();  // full_crc32 encrypts it
      } else {
        reads_right = ValidatePage(clear, false).valid;
      }
      if (reads_right) {
        *cipher = c;
        out_.decrypted_with = "key id " + std::to_string(it->first) + " of " + keyfile + ", " + ToString(c);
        return *key;
      }
    }
    findings_.push_back({Severity::kError, file, n, std::nullopt, "wrong key",
                         "key id " + std::to_string(it->first) + " of " + keyfile +
                             " does not decrypt this page (neither AES-CBC nor AES-CTR): not the key it was encrypted "
                             "with; pages stay encrypted"});
    return std::nullopt;
  }
  // No page encrypted with version 1: another key management plugin's tablespace.
  for (std::uint32_t n = 1; n < shape_.n_pages; ++n) {
    if (const std::uint32_t v = MariaDbKeyVersion(Page(n), shape_.full_crc32); v > 1) {
      findings_.push_back(
          {Severity::kWarning, file, n, std::nullopt, "key version",
           "pages are encrypted with key version " + std::to_string(v) +
               "; file_key_management keys are version 1 only (another key plugin's?): pages stay encrypted"});
      break;
    }
  }
  return std::nullopt;
}

std::optional<MySqlTablespaceKey> PageUnpacker::MySqlKey(const EncryptionKeys* keys) {
  if (!keys || keys->mysql.empty() || !shape_.encrypted_by_mysql()) return std::nullopt;
  const std::string& file = name_;
  const std::string keyring = keys->mysql_file.filename().string();
  const auto info = FindMySqlEncryptionInfo(Page(0), shape_.geometry());
  if (!info) {
    findings_.push_back({Severity::kError, file, 0, FspHeader::EncryptionInfoOffset(shape_.geometry()),
                         "encryption info",
                         "the flags say ENCRYPTION='Y' but page 0 has no encryption info (magic lCA/lCB/lCC) here: "
                         "pages stay encrypted"});
    return std::nullopt;
  }
  auto it = keys->mysql.find(info->master_key_name());
  if (it == keys->mysql.end()) {
    findings_.push_back({Severity::kWarning, file, 0, info->offset, "no key",
                         "encrypted with master key " + info->master_key_name() + ", which " + keyring +
                             " does not have: its pages stay encrypted"});
    return std::nullopt;
  }
  auto key = UnwrapMySqlTablespaceKey(*info, it->second);
  if (!key.ok()) {
    findings_.push_back(
        {Severity::kError, file, 0, info->offset, "wrong key", key.status().message() + "; pages stay encrypted"});
    return std::nullopt;
  }
  out_.decrypted_with = "master key " + info->master_key_name() + " of " + keyring + ", AES-256-CBC";
  return *key;
}

// The page as stored carries the checksum that counts; the copy is made to check as it did.
// full_crc32 keeps no checksum of the page inside (it is stale or encrypted away): one is
// written. The older format's page inside keeps its own, spoiled when the stored page's failed.
void PageUnpacker::CheckAsStored(ConstBytes stored, MutableBytes into, bool was_decrypted) const {
  bool stored_ok;
  if (!IsPageCompressed(stored, shape_.full_crc32)) {
    stored_ok = rules_.CheckPage(stored).valid;
  } else if (shape_.full_crc32) {
    const std::size_t kept = std::size_t{Load16(stored, FilHeader::kType) & 0x7FFFu} << 8;
    stored_ok = kept > 4 && kept < shape_.page_size && Crc32c(stored.first(kept - 4)) == Load32(stored, kept - 4);
  } else if (was_decrypted) {
    stored_ok = MariaDbEncryptedChecksumHolds(stored);
  } else {
    return;  // no checksum over the compressed bytes: the page inside has its own
  }
  if (shape_.full_crc32) {
    const std::uint32_t crc = Crc32c(ConstBytes(into).first(shape_.page_size - 4));
    Store32(into, shape_.page_size - 4, stored_ok ? crc : ~crc);
  } else if (!stored_ok) {
    Store32(into, FilHeader::kChecksum, ~Load32(into, FilHeader::kChecksum));
  }
}

std::byte* PageUnpacker::Unpack(const EncryptionKeys* keys) {
  if (shape_.n_pages == 0) return nullptr;
  MariaDbCipher cipher = MariaDbCipher::kCbc;
  const std::optional<MariaDbPageKey> key = MariaDbKey(keys, &cipher);
  const std::optional<MySqlTablespaceKey> mysql_key = MySqlKey(keys);
  if (!shape_.page_compressed() && !key && !mysql_key) return nullptr;
  const std::size_t bytes = std::size_t{shape_.n_pages} * shape_.page_size;
  void* m = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (m == MAP_FAILED) {
    findings_.push_back({Severity::kError, name_, std::nullopt, std::nullopt, "no memory",
                         "no memory for the decompressed or decrypted pages: they are read as stored"});
    return nullptr;
  }
  auto* out = static_cast<std::byte*>(m);
  const auto algorithm = static_cast<PageCompression>(shape_.flags ? shape_.flags->compression_algorithm : 0);
  std::vector<std::byte> decrypted(shape_.page_size);
  for (std::uint32_t n = 0; n < shape_.n_pages; ++n) {
    const ConstBytes stored = Page(n);
    MutableBytes into(out + std::size_t{n} * shape_.page_size, shape_.page_size);
    auto keep_stored = [&] {
      std::memcpy(into.data(), stored.data(), shape_.page_size);
    };  // CheckPage judges it as stored
    ConstBytes clear = stored;
    bool was_decrypted = false;
    if (mysql_key && rules_.IsMySqlEncryptedType(stored)) {
      // MySQL checksums the page in clear: decrypted, it checks as any page.
      if (Status st = DecryptMySqlPage(stored, into, *mysql_key); st.ok()) {
        ++out_.decrypted_pages;
      } else {
        findings_.push_back({Severity::kError, name_, n, std::nullopt, "encrypted page", st.message()});
        keep_stored();
      }
      continue;
    }
    if (key && rules_.IsEncryptedPage(stored)) {
      const std::uint32_t version = MariaDbKeyVersion(stored, shape_.full_crc32);
      if (version != 1) {
        // file_key_management has version 1 of every key only, and this tablespace has pages
        // it encrypted (MariaDbKey found one): another version here is damage.
        findings_.push_back({Severity::kError, name_, n, shape_.full_crc32 ? 0 : FilHeader::kFlushLsn, "key version",
                             "key version " + std::to_string(version) +
                                 " where the tablespace's other pages have 1, the only one file_key_management has"});
        keep_stored();
        continue;
      }
      Status st = DecryptMariaDbPage(stored, decrypted, *key, cipher, shape_.space_id.value(), shape_.full_crc32);
      if (!st.ok()) {
        findings_.push_back({Severity::kError, name_, n, std::nullopt, "encrypted page", st.message()});
        keep_stored();
        continue;
      }
      clear = decrypted;
      was_decrypted = true;
    }
    bool changed = was_decrypted;
    if (shape_.page_compressed() && IsPageCompressed(clear, shape_.full_crc32)) {
      auto c = ReadCompressedPage(clear, shape_.full_crc32, algorithm);
      if (c.ok() && was_decrypted) c->encrypted = false;
      Status st = c.ok() ? DecompressPage(clear, *c, into) : c.status();
      if (!st.ok()) {
        keep_stored();
        if (!c.ok() || !c->encrypted) {
          findings_.push_back({Severity::kError, name_, n, std::nullopt, "page-compressed page", st.message()});
        }
        continue;
      }
      ++out_.compressed_pages[ToString(c->algorithm)];
      changed = true;
    } else if (!AllZero(clear)) {
      std::memcpy(into.data(), clear.data(), shape_.page_size);
    }
    if (was_decrypted) ++out_.decrypted_pages;
    if (!changed) continue;
    CheckAsStored(stored, into, was_decrypted);
  }
  if (out_.decrypted_pages) {
    findings_.push_back(
        {Severity::kInfo, name_, std::nullopt, std::nullopt, "decrypted",
         std::to_string(out_.decrypted_pages) + " encrypted pages read decrypted, with " + out_.decrypted_with});
  }
  return out;
}

}  // namespace strata::inspect
