#include "inspect/space_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <regex>

#include "inspect/path_check.h"
#include "ondisk/checksum.h"
#include "ondisk/crc32c.h"
#include "ondisk/doublewrite.h"
#include "ondisk/fil_header.h"
#include "ondisk/page_compressed.h"
#include "ondisk/undo.h"
#include "ondisk/xdes.h"
#include "ondisk/zip_page.h"

namespace strata::inspect {

using namespace strata::ondisk;

std::string ToString(SpaceKind k) {
  switch (k) {
    case SpaceKind::kFilePerTable:
      return "file-per-table";
    case SpaceKind::kSystem:
      return "system";
    case SpaceKind::kUndo:
      return "undo";
    case SpaceKind::kDictionary:
      return "dictionary";
    case SpaceKind::kTemporary:
      return "temporary";
    case SpaceKind::kOther:
      return "other";
  }
  return "?";
}

SpaceKind KindFromName(const std::filesystem::path& p) {
  const std::string name = p.filename().string();
  static const std::regex system_re("ibdata[0-9]+");
  static const std::regex undo_re("undo_?[0-9]+|.*\\.ibu");
  if (std::regex_match(name, system_re)) return SpaceKind::kSystem;
  if (std::regex_match(name, undo_re)) return SpaceKind::kUndo;
  if (name == "mysql.ibd") return SpaceKind::kDictionary;
  if (p.extension() == ".ibd") return SpaceKind::kFilePerTable;
  if (name == "ibtmp1" || p.extension() == ".ibt") return SpaceKind::kTemporary;
  return SpaceKind::kOther;
}

namespace {

int KindOrder(SpaceKind k) {
  switch (k) {
    case SpaceKind::kSystem:
      return 0;
    case SpaceKind::kUndo:
      return 1;
    case SpaceKind::kDictionary:
      return 2;
    default:
      return 3;
  }
}

}  // namespace

ondisk::Result<SpaceFile> SpaceFile::Open(const std::filesystem::path& path, const EncryptionKeys* keys) {
  SpaceFile f;
  f.path_ = path;
  // Non-blocking, so that a FIFO is refused below instead of waiting for a writer.
  f.fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (f.fd_ < 0) return Status::IoError(path.string() + ": " + std::strerror(errno));
  struct stat st;
  if (::fstat(f.fd_, &st) != 0) return Status::IoError(path.string() + ": " + std::strerror(errno));
  if (!S_ISREG(st.st_mode)) return Status::InvalidArgument(path.string() + ": not a regular file");
  f.size_ = static_cast<std::uint64_t>(st.st_size);
  if (f.size_ < kMinPageSize) {
    return Status::Corruption(path.string() + ": " + std::to_string(f.size_) +
                              " bytes, shorter than the smallest page (4096); not a tablespace or truncated");
  }
  void* m = ::mmap(nullptr, f.size_, PROT_READ, MAP_SHARED, f.fd_, 0);
  if (m == MAP_FAILED) return Status::IoError(path.string() + ": mmap: " + std::strerror(errno));
  ::madvise(m, f.size_, MADV_SEQUENTIAL);
  f.data_ = static_cast<const std::byte*>(m);
  f.kind_ = KindFromName(path);
  f.DetectPageSize();
  f.DetectFlavor();
  // MariaDB's encryption leaves its crypt data on page 0 (MySQL's files keep their own there).
  if (f.n_pages_ && f.server_version_ == 0) f.mariadb_crypt_ = FindMariaDbCryptData(f.page(0));
  f.UnpackPages(keys);
  f.DetectDoublewrite();
  return f;
}

SpaceFile::SpaceFile(SpaceFile&& o) noexcept { *this = std::move(o); }

SpaceFile& SpaceFile::operator=(SpaceFile&& o) noexcept {
  if (this == &o) return *this;
  Release();
  path_ = std::move(o.path_);
  fd_ = std::exchange(o.fd_, -1);
  data_ = std::exchange(o.data_, nullptr);
  size_ = std::exchange(o.size_, 0);
  stored_ = std::exchange(o.stored_, nullptr);
  copy_on_write_ = o.copy_on_write_;
  stored_size_ = std::exchange(o.stored_size_, 0);
  compressed_pages_ = o.compressed_pages_;
  mariadb_crypt_ = o.mariadb_crypt_;
  decrypted_pages_ = o.decrypted_pages_;
  decrypted_with_ = std::move(o.decrypted_with_);
  page_size_ = o.page_size_;
  n_pages_ = o.n_pages_;
  flavor_ = o.flavor_;
  full_crc32_ = o.full_crc32_;
  space_id_ = o.space_id_;
  space_id_known_ = o.space_id_known_;
  flags_ = o.flags_;
  fsp_size_ = o.fsp_size_;
  server_version_ = o.server_version_;
  kind_ = o.kind_;
  free_limit_ = o.free_limit_;
  doublewrite_blocks_ = std::move(o.doublewrite_blocks_);
  findings_ = std::move(o.findings_);
  return *this;
}

SpaceFile::~SpaceFile() { Release(); }

void SpaceFile::Release() {
  if (data_) ::munmap(const_cast<std::byte*>(data_), size_);
  if (stored_) ::munmap(const_cast<std::byte*>(stored_), stored_size_);
  stored_ = nullptr;
  if (fd_ >= 0) ::close(fd_);
  data_ = nullptr;
  fd_ = -1;
}

// With page 0 unreadable, the space id is the one most of the next pages that carry their own
// page number name (zeroed or misplaced pages among them cannot outvote the rest). None when
// they disagree: where encryption or compression hides the field, every page names another.
std::optional<SpaceId> SpaceFile::SpaceIdOfMostPages(std::size_t page_size) const {
  std::map<std::uint32_t, int> votes;
  int all = 0;
  for (std::uint32_t n = 1; n < 64 && (n + 1) * page_size <= size_; ++n) {
    ConstBytes p(data_ + n * page_size, page_size);
    if (!AllZero(p) && Load32(p, FilHeader::kPageNo) == n) ++votes[Load32(p, FilHeader::kSpaceId)], ++all;
  }
  auto most = std::max_element(votes.begin(), votes.end(), [](auto& a, auto& b) { return a.second < b.second; });
  if (most == votes.end() || most->second < 2 || 2 * most->second <= all) return std::nullopt;
  return SpaceId(most->first);
}

void SpaceFile::DetectPageSize() {
  const std::string file = path_.filename().string();
  ConstBytes head(data_, std::min<std::uint64_t>(size_, kMaxPageSize));
  auto flags = FspFlags::Decode(Load32(head, FspHeader::kFlags));
  // Page 0 is trusted only when it passes its own checksum: zeroed or damaged, its flags
  // would mislead every later step. (A compressed tablespace's pages are its KEY_BLOCK_SIZE
  // on disk, each with the compressed-page checksum.)
  std::string why;
  if (!flags.ok()) {
    why = flags.status().message();
  } else if (flags->physical_page_size > size_) {
    why = "flags name a page larger than the file";
  } else {
    const ConstBytes p0(data_, flags->physical_page_size);
    PageCheck c =
        !flags->full_crc32 && flags->zip_ssize ? ValidateCompressedPage(p0) : ValidatePage(p0, flags->full_crc32);
    if (c.all_zero)
      why = "page 0 is all zeros";
    else if (!c.valid)
      why = c.lsn_mismatch ? "page 0 is torn" : "page 0 fails its checksum";
  }
  if (why.empty()) {
    page_size_ = flags->physical_page_size;
    flags_ = *flags;
  } else {
    // Page 0 is unreadable: pick the page size under which the next pages carry their own
    // page numbers.
    std::size_t best = kDefaultPageSize;
    int best_hits = -1;
    for (std::size_t s : {16384u, 4096u, 8192u, 32768u, 65536u}) {
      int hits = 0;
      for (std::uint32_t n = 1; n <= 8 && (n + 1) * s <= size_; ++n) {
        hits += Load32(ConstBytes(data_ + n * s, s), FilHeader::kPageNo) == n;
      }
      if (hits > best_hits) best = s, best_hits = hits;
    }
    page_size_ = best;
    // Which checksum format the other pages use tells full_crc32 apart.
    int full = 0, normal = 0;
    for (std::uint32_t n = 1; n <= 8 && (n + 1) * best <= size_; ++n) {
      ConstBytes p(data_ + n * best, best);
      full += ValidatePage(p, true).valid && !ValidatePage(p, true).all_zero;
      normal += ValidatePage(p, false).valid && !ValidatePage(p, false).all_zero;
    }
    full_crc32_ = full > normal;
    const std::optional<SpaceId> voted = SpaceIdOfMostPages(best);
    space_id_ = voted.value_or(SpaceId(0));
    space_id_known_ = voted.has_value();
    findings_.push_back({Severity::kError, file, 0, std::size_t{0}, "page 0 unreadable",
                         why + "; page size " + std::to_string(best) + " inferred from page numbers" +
                             (full_crc32_ ? ", full_crc32 from the other pages' checksums" : "") +
                             (voted ? ", space id " + std::to_string(voted->value()) + " from the other pages' headers"
                                    : ", space id unknown (the other pages' headers disagree)")});
  }
  n_pages_ = static_cast<std::uint32_t>(size_ / page_size_);
  if (size_ % page_size_) {
    findings_.push_back({Severity::kError, file, std::nullopt, std::size_t{n_pages_} * page_size_, "truncated file",
                         "ends with " + std::to_string(size_ % page_size_) + " bytes of a partial page"});
  }
  ConstBytes p0 = page(0);
  if (flags_) {
    space_id_ = FilHeader(p0).space_id();
    full_crc32_ = flags_->full_crc32;
    fsp_size_ = Load32(p0, FspHeader::kSize);
    free_limit_ = Load32(p0, FspHeader::kFreeLimit);
    if (Load32(p0, FspHeader::kSpaceId) != space_id_.value()) {
      findings_.push_back({Severity::kError, file, 0, FspHeader::kSpaceId, "space id mismatch",
                           "FSP header says " + std::to_string(Load32(p0, FspHeader::kSpaceId)) + ", FIL header says " +
                               std::to_string(space_id_.value())});
    }
    // The system tablespace may span several files; its size covers them all.
    // A file longer than its FSP size is not damage: the file grows before the change to
    // FSP_SIZE is durable, so a crash in between leaves unused pages at its end (InnoDB
    // allocates within FSP_SIZE and grows over them later).
    if (fsp_size_ > n_pages_ && kind_ != SpaceKind::kSystem) {
      findings_.push_back(
          {Severity::kError, file, 0, FspHeader::kSize, "size mismatch",
           "FSP header says " + std::to_string(fsp_size_) + " pages, the file holds " + std::to_string(n_pages_)});
    } else if (fsp_size_ < n_pages_) {
      findings_.push_back({Severity::kInfo, file, 0, FspHeader::kSize, "pages past the FSP size",
                           "FSP header says " + std::to_string(fsp_size_) + " pages, the file holds " +
                               std::to_string(n_pages_) +
                               "; the rest are unused (a crash while the file grew leaves them)"});
    }
  }
}

bool SpaceFile::IsMySqlEncryptedType(ConstBytes page) const {
  // MySQL's types are its alone, so they say it even when page 0 cannot be read.
  const PageType type = FilHeader(page).type();
  return !full_crc32_ && (type == PageType::kEncrypted || type == PageType::kCompressedAndEncrypted ||
                          type == PageType::kEncryptedRtree);
}

bool SpaceFile::IsEncryptedPage(ConstBytes page) const {
  if (IsMySqlEncryptedType(page)) return true;
  if (!mariadb_crypt_) return false;
  if (page_compressed() && IsPageCompressed(page, full_crc32_)) {
    auto c = ReadCompressedPage(page, full_crc32_, static_cast<PageCompression>(flags_->compression_algorithm));
    return c.ok() && c->encrypted;
  }
  return MariaDbKeyVersion(page, full_crc32_) != 0;
}

PageCheck SpaceFile::CheckPage(ConstBytes page) const {
  if (IsMySqlEncryptedType(page)) {
    // MySQL checksums the clear page and encrypts everything after the FIL header, trailer
    // included: without the key the page can be neither verified nor called damaged.
    PageCheck r;
    r.encrypted = r.unverifiable = true;
    r.stored = Load32(page, 0);
    return r;
  }
  if (page_compressed() && IsPageCompressed(page, full_crc32_)) {
    // Still as stored: it did not decompress, or it is encrypted (MariaDB checksums the
    // stored bytes: 37401 pages at 30, full_crc32 ones at the end of what is stored).
    PageCheck r;
    r.stored = Load32(page, 0);
    auto c = ReadCompressedPage(page, full_crc32_, static_cast<PageCompression>(flags_->compression_algorithm));
    r.encrypted = c.ok() && c->encrypted;
    if (r.encrypted) r.valid = full_crc32_ ? CompressedPageCrcHolds(page, *c) : MariaDbEncryptedChecksumHolds(page);
    return r;
  }
  if (mariadb_crypt_ && MariaDbKeyVersion(page, full_crc32_) != 0) {
    // MariaDB checksums the encrypted page as stored: verified without the key.
    PageCheck r = full_crc32_ ? ValidatePage(page, true) : PageCheck{};
    if (!full_crc32_) {
      r.stored = Load32(page, FilHeader::kFlushLsn + 4);
      r.lsn_mismatch = Load32(page, FilHeader::kLsn + 4) != Load32(page, page.size() - 4);
      r.valid = MariaDbEncryptedChecksumHolds(page) && !r.lsn_mismatch;
      if (r.valid) r.algorithm = ChecksumAlgorithm::kCrc32;
    }
    r.encrypted = true;
    return r;
  }
  return compressed() ? ValidateCompressedPage(page) : ValidatePage(page, full_crc32_);
}

std::optional<MariaDbPageKey> SpaceFile::MariaDbKey(const EncryptionKeys* keys, MariaDbCipher* cipher) {
  if (!keys || !mariadb_crypt_ || keys->mariadb.empty()) return std::nullopt;
  const std::string file = path_.filename().string();
  const std::string keyfile = keys->mariadb_file.filename().string();
  auto it = keys->mariadb.find(mariadb_crypt_->key_id);
  if (it == keys->mariadb.end()) {
    findings_.push_back({Severity::kWarning, file, 0, mariadb_crypt_->offset, "no key",
                         "encrypted with key id " + std::to_string(mariadb_crypt_->key_id) + ", which " + keyfile +
                             " does not have: its pages stay encrypted"});
    return std::nullopt;
  }
  auto key = DeriveMariaDbPageKey(it->second, *mariadb_crypt_);
  if (!key.ok()) return std::nullopt;
  // The cipher (file_key_management_encryption_algorithm) is recorded nowhere: the first
  // encrypted page whose stored checksum holds must decrypt to a page that reads right.
  std::vector<std::byte> clear(page_size_), inflated(page_size_);
  const auto algorithm = static_cast<PageCompression>(flags_ ? flags_->compression_algorithm : 0);
  for (std::uint32_t n = 1; n < n_pages_; ++n) {
    ConstBytes stored = page(n);
    if (MariaDbKeyVersion(stored, full_crc32_) != 1 || !CheckPage(stored).valid) continue;
    for (MariaDbCipher c : {MariaDbCipher::kCbc, MariaDbCipher::kCtr}) {
      if (!DecryptMariaDbPage(stored, clear, *key, c, space_id_.value(), full_crc32_).ok()) break;
      bool reads_right;
      if (page_compressed() && IsPageCompressed(clear, full_crc32_)) {
        auto cp = ReadCompressedPage(clear, full_crc32_, algorithm);
        if (cp.ok()) cp->encrypted = false;
        reads_right = cp.ok() && DecompressPage(clear, *cp, inflated).ok();
      } else if (full_crc32_) {
        reads_right = Load32(clear, FilHeader::kSpaceId) == space_id_.value();  // full_crc32 encrypts it
      } else {
        reads_right = ValidatePage(clear, false).valid;
      }
      if (reads_right) {
        *cipher = c;
        decrypted_with_ = "key id " + std::to_string(it->first) + " of " + keyfile + ", " + ToString(c);
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
  for (std::uint32_t n = 1; n < n_pages_; ++n) {
    if (const std::uint32_t v = MariaDbKeyVersion(page(n), full_crc32_); v > 1) {
      findings_.push_back(
          {Severity::kWarning, file, n, std::nullopt, "key version",
           "pages are encrypted with key version " + std::to_string(v) +
               "; file_key_management keys are version 1 only (another key plugin's?): pages stay encrypted"});
      break;
    }
  }
  return std::nullopt;
}

std::optional<MySqlTablespaceKey> SpaceFile::MySqlKey(const EncryptionKeys* keys) {
  if (!keys || keys->mysql.empty() || !encrypted_by_mysql()) return std::nullopt;
  const std::string file = path_.filename().string();
  const std::string keyring = keys->mysql_file.filename().string();
  const auto info = FindMySqlEncryptionInfo(page(0), geometry());
  if (!info) {
    findings_.push_back({Severity::kError, file, 0, FspHeader::EncryptionInfoOffset(geometry()), "encryption info",
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
  decrypted_with_ = "master key " + info->master_key_name() + " of " + keyring + ", AES-256-CBC";
  return *key;
}

void SpaceFile::UnpackPages(const EncryptionKeys* keys) {
  if (n_pages_ == 0) return;
  MariaDbCipher cipher = MariaDbCipher::kCbc;
  const std::optional<MariaDbPageKey> key = MariaDbKey(keys, &cipher);
  const std::optional<MySqlTablespaceKey> mysql_key = MySqlKey(keys);
  if (!page_compressed() && !key && !mysql_key) return;
  const std::size_t bytes = std::size_t{n_pages_} * page_size_;
  void* m = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (m == MAP_FAILED) {
    findings_.push_back({Severity::kError, path_.filename().string(), std::nullopt, std::nullopt, "no memory",
                         "no memory for the decompressed or decrypted pages: they are read as stored"});
    return;
  }
  auto* out = static_cast<std::byte*>(m);
  const auto algorithm = static_cast<PageCompression>(flags_ ? flags_->compression_algorithm : 0);
  std::vector<std::byte> decrypted(page_size_);
  for (std::uint32_t n = 0; n < n_pages_; ++n) {
    const ConstBytes stored = page(n);
    MutableBytes into(out + std::size_t{n} * page_size_, page_size_);
    auto keep_stored = [&] { std::memcpy(into.data(), stored.data(), page_size_); };  // CheckPage judges it as stored
    ConstBytes clear = stored;
    bool was_decrypted = false;
    if (mysql_key && IsMySqlEncryptedType(stored)) {
      // MySQL checksums the page in clear: decrypted, it checks as any page.
      if (Status st = DecryptMySqlPage(stored, into, *mysql_key); st.ok()) {
        ++decrypted_pages_;
      } else {
        findings_.push_back(
            {Severity::kError, path_.filename().string(), n, std::nullopt, "encrypted page", st.message()});
        keep_stored();
      }
      continue;
    }
    if (key && IsEncryptedPage(stored)) {
      const std::uint32_t version = MariaDbKeyVersion(stored, full_crc32_);
      if (version != 1) {
        // file_key_management has version 1 of every key only, and this tablespace has pages
        // it encrypted (MariaDbKey found one): another version here is damage.
        findings_.push_back({Severity::kError, path_.filename().string(), n, full_crc32_ ? 0 : FilHeader::kFlushLsn,
                             "key version",
                             "key version " + std::to_string(version) +
                                 " where the tablespace's other pages have 1, the only one file_key_management has"});
        keep_stored();
        continue;
      }
      Status st = DecryptMariaDbPage(stored, decrypted, *key, cipher, space_id_.value(), full_crc32_);
      if (!st.ok()) {
        findings_.push_back(
            {Severity::kError, path_.filename().string(), n, std::nullopt, "encrypted page", st.message()});
        keep_stored();
        continue;
      }
      clear = decrypted;
      was_decrypted = true;
    }
    bool changed = was_decrypted;
    if (page_compressed() && IsPageCompressed(clear, full_crc32_)) {
      auto c = ReadCompressedPage(clear, full_crc32_, algorithm);
      if (c.ok() && was_decrypted) c->encrypted = false;
      Status st = c.ok() ? DecompressPage(clear, *c, into) : c.status();
      if (!st.ok()) {
        keep_stored();
        if (!c.ok() || !c->encrypted) {
          findings_.push_back(
              {Severity::kError, path_.filename().string(), n, std::nullopt, "page-compressed page", st.message()});
        }
        continue;
      }
      ++compressed_pages_[ToString(c->algorithm)];
      changed = true;
    } else if (!AllZero(clear)) {
      std::memcpy(into.data(), clear.data(), page_size_);
    }
    if (was_decrypted) ++decrypted_pages_;
    if (!changed) continue;
    // The page as stored carries the checksum that counts; the copy is made to check as it
    // did. full_crc32 keeps no checksum of the page inside (it is stale or encrypted away):
    // one is written. The older format's page inside keeps its own, spoiled when the stored
    // page's failed.
    bool stored_ok;
    if (!IsPageCompressed(stored, full_crc32_)) {
      stored_ok = CheckPage(stored).valid;
    } else if (full_crc32_) {
      const std::size_t kept = std::size_t{Load16(stored, FilHeader::kType) & 0x7FFFu} << 8;
      stored_ok = kept > 4 && kept < page_size_ && Crc32c(stored.first(kept - 4)) == Load32(stored, kept - 4);
    } else if (was_decrypted) {
      stored_ok = MariaDbEncryptedChecksumHolds(stored);
    } else {
      continue;  // no checksum over the compressed bytes: the page inside has its own
    }
    if (full_crc32_) {
      const std::uint32_t crc = Crc32c(ConstBytes(into).first(page_size_ - 4));
      Store32(into, page_size_ - 4, stored_ok ? crc : ~crc);
    } else if (!stored_ok) {
      Store32(into, FilHeader::kChecksum, ~Load32(into, FilHeader::kChecksum));
    }
  }
  if (decrypted_pages_) {
    findings_.push_back(
        {Severity::kInfo, path_.filename().string(), std::nullopt, std::nullopt, "decrypted",
         std::to_string(decrypted_pages_) + " encrypted pages read decrypted, with " + decrypted_with_});
  }
  stored_ = data_;
  stored_size_ = size_;
  data_ = out;
  size_ = bytes;
}

Result<IndexPage> SpaceFile::OpenIndexPage(ConstBytes page, ZipPageParts* zip) const {
  if (!compressed()) return IndexPage::Open(page);
  auto logical = std::make_shared<std::vector<std::byte>>(logical_page_size());
  auto parts = DecompressIndexPage(page, *logical);
  if (!parts.ok()) return parts.status();
  if (zip) *zip = std::move(*parts);
  return IndexPage::Open(std::shared_ptr<const std::vector<std::byte>>(std::move(logical)));
}

void SpaceFile::DetectFlavor() {
  if (!flags_) {
    if (full_crc32_) flavor_ = Flavor::kMariaDb;  // inferred from the other pages' checksums
    return;
  }
  if (flags_->full_crc32) {
    flavor_ = Flavor::kMariaDb;
    return;
  }
  // MySQL 8.0 stamps page 0's FIL prev field with the server version that made the file.
  const std::uint32_t v = Load32(page(0), FilHeader::kPrev);
  if (v == kStrataServerVersion) {
    flavor_ = Flavor::kStrata;
  } else if (v >= 80000 && v < 1000000) {
    server_version_ = v;
    flavor_ = Flavor::kMySql;
  } else if (flags_->sdi) {
    flavor_ = Flavor::kMySql;
  }
}

void SpaceFile::DetectDoublewrite() {
  if (space_id_.value() != kSystemSpaceId || n_pages_ <= 5 || !PageSize::IsValid(page_size_)) return;
  ConstBytes trx = page(5);
  if (FilHeader(trx).type() != PageType::kTrxSys) return;
  const auto area = FindDoublewriteArea(trx);
  if (!area) return;
  for (std::uint32_t b : {area->block1, area->block2}) {
    if (b < n_pages_) doublewrite_blocks_.push_back(b);
  }
}

ondisk::MutableBytes SpaceFile::MutablePage(std::uint32_t n) {
  if (n >= n_pages_) return {};
  if (!stored_ && !copy_on_write_) {  // still the file's shared read-only mapping
    void* m = ::mmap(nullptr, size_, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd_, 0);
    if (m == MAP_FAILED) return {};
    ::munmap(const_cast<std::byte*>(data_), size_);
    data_ = static_cast<const std::byte*>(m);
    copy_on_write_ = true;
  }
  return {const_cast<std::byte*>(data_) + std::size_t{n} * page_size_, page_size_};
}

void SpaceFile::Grow(std::uint32_t pages) {
  if (pages <= n_pages_) return;
  const std::size_t bytes = std::size_t{pages} * page_size_;
  void* m = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (m == MAP_FAILED) return;
  std::memcpy(m, data_, std::size_t{n_pages_} * page_size_);
  ::munmap(const_cast<std::byte*>(data_), size_);  // the file's mapping, or an earlier copy
  data_ = static_cast<const std::byte*>(m);
  size_ = bytes;
  n_pages_ = pages;
  copy_on_write_ = true;
}

void SpaceFile::RereadHeader() {
  if (n_pages_ == 0 || !flags_) return;
  fsp_size_ = Load32(page(0), FspHeader::kSize);
  free_limit_ = Load32(page(0), FspHeader::kFreeLimit);
}

bool SpaceFile::ReadPages(std::uint32_t first, std::uint32_t count, std::byte* out) const {
  const std::size_t want = std::size_t{count} * page_size_;
  if (stored_ || copy_on_write_) {  // the decompressed or decrypted copy, or pages --apply-redo changed
    if (std::size_t{first} + count > n_pages_) return false;
    std::memcpy(out, data_ + std::size_t{first} * page_size_, want);
    return true;
  }
  std::size_t done = 0;
  while (done < want) {
    const ssize_t n = ::pread(fd_, out + done, want - done, static_cast<off_t>(std::size_t{first} * page_size_ + done));
    if (n <= 0) {
      if (n < 0 && errno == EINTR) continue;
      return false;
    }
    done += static_cast<std::size_t>(n);
  }
  return true;
}

bool SpaceFile::InHole(std::uint32_t first, std::uint32_t count) const {
  if (stored_ || copy_on_write_ || fd_ < 0) return false;  // pages in memory may differ from the file
  const off_t start = static_cast<off_t>(std::size_t{first} * page_size_);
  const off_t end = static_cast<off_t>(std::size_t{first + count} * page_size_);
  const off_t data = ::lseek(fd_, start, SEEK_DATA);
  if (data < 0) return errno == ENXIO;  // no data at or after start: a hole to the end
  return data >= end;
}

bool SpaceFile::IsFree(std::uint32_t n) const {
  if (!flags_ || n >= n_pages_) return false;
  if (n >= free_limit_) return true;
  XdesLocation loc = LocateXdes(PageNo(n), geometry());
  ConstBytes desc = page(loc.descriptor_page.value());
  if (loc.descriptor_page.value() != 0 && FilHeader(desc).type() != PageType::kXdes) return false;
  XdesEntry e(desc, loc.entry, geometry());
  // Entries outside the free lists' reach (never initialised) describe free pages too.
  return e.state() == XdesState::kFree || e.state() == XdesState::kNotInited || e.is_free(loc.bit);
}

bool SpaceFile::IsUsed(std::uint32_t n) const {
  if (!flags_ || n >= n_pages_ || n >= free_limit_) return false;
  XdesLocation loc = LocateXdes(PageNo(n), geometry());
  ConstBytes desc = page(loc.descriptor_page.value());
  if (AllZero(desc) || (loc.descriptor_page.value() != 0 && FilHeader(desc).type() != PageType::kXdes)) return false;
  XdesEntry e(desc, loc.entry, geometry());
  switch (e.state()) {
    case XdesState::kFreeFrag:
    case XdesState::kFullFrag:
    case XdesState::kFseg:
    case XdesState::kFsegFrag:
      return !e.is_free(loc.bit);
    default:
      return false;
  }
}

std::string SpaceFile::flavor_name() const {
  switch (flavor_) {
    case Flavor::kMariaDb:
      return "MariaDB (full_crc32)";
    case Flavor::kStrata:
      return "Strata";
    case Flavor::kMySql:
      if (server_version_) {
        return "MySQL " + std::to_string(server_version_ / 10000) + "." + std::to_string(server_version_ / 100 % 100) +
               "." + std::to_string(server_version_ % 100);
      }
      return "MySQL 8.0";
    case Flavor::kUnknown:
      break;
  }
  return flags_ ? "MySQL 5.x or MariaDB (not full_crc32)" : "unknown";
}

std::vector<SpaceFile> OpenSpaces(const std::vector<std::filesystem::path>& paths, std::vector<Finding>* findings,
                                  const EncryptionKeys* keys) {
  std::vector<SpaceFile> files;
  for (const auto& path : ExpandPaths(paths, findings)) {
    auto f = SpaceFile::Open(path, keys);
    if (f.ok()) {
      files.push_back(std::move(*f));
    } else if (findings) {
      findings->push_back(
          {Severity::kError, path.string(), std::nullopt, std::nullopt, "cannot open", f.status().ToString()});
    }
  }
  return files;
}

std::vector<std::filesystem::path> ExpandPaths(const std::vector<std::filesystem::path>& paths,
                                               std::vector<Finding>* findings) {
  std::vector<std::filesystem::path> out;
  for (const auto& p : paths) {
    std::error_code ec;
    if (auto refused = RefusedPath(p)) {
      if (findings)
        findings->push_back({Severity::kError, p.string(), std::nullopt, std::nullopt, "not read", *refused});
    } else if (std::filesystem::is_directory(p, ec)) {
      std::vector<std::filesystem::path> found;
      // Every level (links to directories are not followed, so no loop is walked).
      for (auto it = std::filesystem::recursive_directory_iterator(p, ec);
           !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
        if (KindFromName(it->path()) == SpaceKind::kOther) continue;
        if (auto refused = RefusedPath(it->path())) {
          if (findings) {
            findings->push_back(
                {Severity::kWarning, it->path().string(), std::nullopt, std::nullopt, "not read", *refused});
          }
          continue;
        }
        std::error_code file_ec;
        if (it->is_regular_file(file_ec)) found.push_back(it->path());
      }
      if (ec && findings) {
        findings->push_back({Severity::kError, p.string(), std::nullopt, std::nullopt, "cannot list", ec.message()});
      }
      std::sort(found.begin(), found.end(), [](const auto& a, const auto& b) {
        int ka = KindOrder(KindFromName(a)), kb = KindOrder(KindFromName(b));
        return ka != kb ? ka < kb : a < b;
      });
      if (found.empty() && findings) {
        findings->push_back({Severity::kError, p.string(), std::nullopt, std::nullopt, "no tablespaces",
                             "the directory holds no ibdata, undo or .ibd files"});
      }
      out.insert(out.end(), found.begin(), found.end());
    } else if (ParseDoublewriteFileName(p.filename().string())) {
      if (findings) {
        findings->push_back({Severity::kInfo, p.string(), std::nullopt, std::nullopt, "doublewrite file",
                             "not a tablespace: `strata inspect doublewrite` lists the page copies it holds"});
      }
    } else if (std::filesystem::exists(p, ec)) {
      out.push_back(p);
    } else if (findings) {
      findings->push_back(
          {Severity::kError, p.string(), std::nullopt, std::nullopt, "not found", "no such file or directory"});
    }
  }
  return out;
}

}  // namespace strata::inspect
