// A tablespace file opened read-only for inspection: memory-mapped, page size and flavour
// detected, damage noted instead of refused. The inspector opens files the engine would
// refuse (truncated, zeroed page 0, foreign flavours), so opening fails only when not a single
// page can be read.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "inspect/encryption_keys.h"
#include "inspect/finding.h"
#include "ondisk/checksum.h"
#include "ondisk/endian.h"
#include "ondisk/fsp_header.h"
#include "ondisk/index_page.h"
#include "ondisk/mariadb_encryption.h"
#include "ondisk/mysql_encryption.h"
#include "ondisk/zip_page.h"
#include "ondisk/status.h"
#include "ondisk/types.h"

namespace strata::inspect {

// What kind of tablespace a file is, by name and page 0.
// kTemporary: ibtmp1 and MySQL 8.0's session files #innodb_temp/temp_N.ibt, recreated at every
// start and never flushed for durability.
enum class SpaceKind { kFilePerTable, kSystem, kUndo, kDictionary, kTemporary, kOther };
std::string ToString(SpaceKind k);
// By file name: ibdata1.., undo001 / undo_001 / *.ibu, mysql.ibd, *.ibd, ibtmp1 / *.ibt.
SpaceKind KindFromName(const std::filesystem::path& p);

class SpaceFile {
 public:
  // `keys`, when given, decrypt what they can: page() then gives the pages decrypted.
  static ondisk::Result<SpaceFile> Open(const std::filesystem::path& path, const EncryptionKeys* keys = nullptr);
  SpaceFile(SpaceFile&& other) noexcept;
  SpaceFile& operator=(SpaceFile&& other) noexcept;
  SpaceFile(const SpaceFile&) = delete;
  SpaceFile& operator=(const SpaceFile&) = delete;
  ~SpaceFile();

  const std::filesystem::path& path() const { return path_; }
  std::uint64_t file_bytes() const { return size_; }
  std::size_t page_size() const { return page_size_; }
  std::uint32_t n_pages() const { return n_pages_; }  // whole pages in the file
  ondisk::ConstBytes page(std::uint32_t n) const { return {data_ + std::size_t{n} * page_size_, page_size_}; }

  // Page n made writable for --apply-redo: the file's mapping becomes copy-on-write, so the
  // changes stay in this process and the file is never written. Empty if that fails.
  ondisk::MutableBytes MutablePage(std::uint32_t n);
  // The file as if `pages` long, for a log that extends it: the new pages zero, in memory.
  void Grow(std::uint32_t pages);
  // After MutablePage changes: page 0's FSP fields read again.
  void RereadHeader();

  ondisk::Flavor flavor() const { return flavor_; }
  std::string flavor_name() const;  // "MySQL 8.0", "MariaDB (full_crc32)", ...
  bool full_crc32() const { return full_crc32_; }
  // ROW_FORMAT=COMPRESSED: pages are page_size() bytes on disk (KEY_BLOCK_SIZE), and B-tree
  // pages hold their records zlib-compressed; logical_page_size() is what they decompress to.
  bool compressed() const { return flags_ && !flags_->full_crc32 && flags_->zip_ssize != 0; }
  std::size_t logical_page_size() const { return flags_ ? flags_->page_size : page_size_; }
  // Extents and descriptor pages as this tablespace lays them out.
  ondisk::PageSize geometry() const {
    return compressed() ? ondisk::PageSize::Compressed(page_size_, logical_page_size()) : ondisk::PageSize(page_size_);
  }
  // MariaDB's PAGE_COMPRESSED=1: each page's slot starts with the page compressed whole.
  // page() and ReadPages() give the pages decompressed (an in-memory copy of the file made
  // at Open, decrypted too when a key was given); CheckPage knows how each was stored.
  bool page_compressed() const {
    return flags_ && (flags_->full_crc32 ? flags_->compression_algorithm != 0 : flags_->page_compression);
  }
  // Page-compressed pages read, by algorithm (the older format names it on each page).
  const std::map<std::string, std::uint32_t>& compressed_pages() const { return compressed_pages_; }
  // Page n's bytes as the file stores them (page() gives them decompressed).
  ondisk::ConstBytes stored_page(std::uint32_t n) const {
    // (Pages past the stored ones exist only when --apply-redo grew the file: in memory.)
    const bool stored = stored_ && (std::size_t{n} + 1) * page_size_ <= stored_size_;
    return stored ? ondisk::ConstBytes{stored_ + std::size_t{n} * page_size_, page_size_} : page(n);
  }
  // MySQL's ENCRYPTION='Y': pages after page 0 are typed ENCRYPTED and unreadable without the
  // tablespace key (kept in page 0, itself encrypted by the server's keyring master key).
  bool encrypted_by_mysql() const { return flags_ && !flags_->full_crc32 && flags_->encryption; }
  // MariaDB's encryption: the crypt data on page 0, when the tablespace has it.
  const std::optional<ondisk::MariaDbCryptData>& mariadb_crypt() const { return mariadb_crypt_; }
  // Pages decrypted with a key at Open (page() gives them in clear, stored_page() as stored),
  // and how: "key id 1 of keys.txt, AES-CBC". Empty when nothing was decrypted.
  std::uint32_t decrypted_pages() const { return decrypted_pages_; }
  const std::string& decrypted_with() const { return decrypted_with_; }
  // Whether page bytes are an encrypted page, MySQL's (by its type) or MariaDB's (by its key
  // version): no checksum is computed.
  bool IsEncryptedPage(ondisk::ConstBytes page) const;
  // Page bytes checked as this tablespace's pages are written (full_crc32, compressed or not;
  // MySQL-encrypted pages come back `encrypted`, neither valid nor damaged).
  ondisk::PageCheck CheckPage(ondisk::ConstBytes page) const;
  // Page bytes (from page() or a PageWindow) as a B-tree page: the page itself, or the logical
  // page a ROW_FORMAT=COMPRESSED one unpacks to (which the IndexPage then holds). Checksums
  // are for CheckPage on the bytes as stored.
  // `zip`, when given, receives where a compressed page's parts lie.
  ondisk::Result<ondisk::IndexPage> OpenIndexPage(ondisk::ConstBytes page, ondisk::ZipPageParts* zip = nullptr) const;
  ondisk::SpaceId space_id() const { return space_id_; }
  // False when page 0 is unreadable and the other pages do not agree on one; space_id() is 0 then.
  bool space_id_known() const { return space_id_known_; }
  // Decoded page-0 flags, when page 0 is readable.
  const std::optional<ondisk::FspFlags>& flags() const { return flags_; }
  std::uint32_t fsp_size() const { return fsp_size_; }
  std::uint32_t free_limit() const { return free_limit_; }  // FSP_FREE_LIMIT: pages past it were never initialised
  std::uint32_t server_version() const { return server_version_; }  // MySQL 8.0 page 0; 0 otherwise
  SpaceKind kind() const { return kind_; }

  // Copies pages [first, first + count) into `out` with one pread: the fast path for
  // sequential passes. False if the read fell short (callers then use page()).
  bool ReadPages(std::uint32_t first, std::uint32_t count, std::byte* out) const;
  // Whether pages [first, first + count) lie in a hole of a sparse file (SEEK_DATA finds no
  // data in them): all zeros, known without reading them. False when unsure.
  bool InHole(std::uint32_t first, std::uint32_t count) const;

  // Whether the extent descriptors mark page n free (or it lies at or past the free limit).
  // Freed pages keep their old bytes, so a freed INDEX page still looks like one; analyzers
  // must not count it in its old tree. False when the descriptor page is unreadable.
  bool IsFree(std::uint32_t n) const;
  // Whether a readable extent descriptor marks page n in use (false when none can tell).
  bool IsUsed(std::uint32_t n) const;
  // System tablespace pages that hold the doublewrite buffer: copies of other pages.
  bool InDoublewrite(std::uint32_t n) const {
    for (auto b : doublewrite_blocks_) {
      if (n >= b && n < b + ondisk::PageSize(page_size_).pages_per_extent()) return true;  // a block is an extent
    }
    return false;
  }

  // Problems met while opening (truncated tail, unreadable page 0, size mismatch, ...).
  const std::vector<Finding>& findings() const { return findings_; }

 private:
  SpaceFile() = default;
  void Release();
  void DetectPageSize();
  std::optional<ondisk::SpaceId> SpaceIdOfMostPages(std::size_t page_size) const;
  void DetectFlavor();
  void DetectDoublewrite();
  void UnpackPages(const EncryptionKeys* keys);
  std::optional<ondisk::MariaDbPageKey> MariaDbKey(const EncryptionKeys* keys, ondisk::MariaDbCipher* cipher);
  std::optional<ondisk::MySqlTablespaceKey> MySqlKey(const EncryptionKeys* keys);
  bool IsMySqlEncryptedType(ondisk::ConstBytes page) const;

  std::filesystem::path path_;
  int fd_ = -1;
  const std::byte* data_ = nullptr;  // the file's pages (page-compressed files: decompressed)
  std::uint64_t size_ = 0;
  const std::byte* stored_ = nullptr;  // page-compressed files: the mapping of the file itself
  bool copy_on_write_ = false;         // data_ is a private writable mapping of the file (--apply-redo)
  std::uint64_t stored_size_ = 0;
  std::map<std::string, std::uint32_t> compressed_pages_;
  std::optional<ondisk::MariaDbCryptData> mariadb_crypt_;
  std::uint32_t decrypted_pages_ = 0;
  std::string decrypted_with_;
  std::size_t page_size_ = ondisk::kDefaultPageSize;
  std::uint32_t n_pages_ = 0;
  ondisk::Flavor flavor_ = ondisk::Flavor::kUnknown;
  bool full_crc32_ = false;
  ondisk::SpaceId space_id_;
  bool space_id_known_ = true;
  std::optional<ondisk::FspFlags> flags_;
  std::uint32_t fsp_size_ = 0;
  std::uint32_t server_version_ = 0;
  SpaceKind kind_ = SpaceKind::kOther;
  std::uint32_t free_limit_ = 0;
  std::vector<std::uint32_t> doublewrite_blocks_;
  std::vector<Finding> findings_;
};

// Opens every tablespace ExpandPaths finds; the ones that cannot be opened become findings.
std::vector<SpaceFile> OpenSpaces(const std::vector<std::filesystem::path>& paths, std::vector<Finding>* findings,
                                  const EncryptionKeys* keys = nullptr);

// Every tablespace under a data directory (ibdata*, undo tablespaces, mysql.ibd, */*.ibd),
// or the path itself when it is a file. Sorted, system and undo files first.
std::vector<std::filesystem::path> ExpandPaths(const std::vector<std::filesystem::path>& paths,
                                               std::vector<Finding>* findings);

}  // namespace strata::inspect
