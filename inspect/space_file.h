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

#include "inspect/allocation_view.h"
#include "inspect/encryption_keys.h"
#include "inspect/finding.h"
#include "inspect/page_unpacker.h"
#include "inspect/space_shape.h"
#include "ondisk/checksum.h"
#include "ondisk/endian.h"
#include "ondisk/index_page.h"
#include "ondisk/zip_page.h"
#include "ondisk/status.h"
#include "ondisk/types.h"

namespace strata::inspect {

// The file, mapped; its shape (space_shape.h); its pages unpacked (page_unpacker.h); which
// are in use (allocation_view.h); and, for --apply-redo, pages made writable in memory.
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
  // What the file is; the most asked of it also directly.
  const SpaceShape& shape() const { return shape_; }
  std::size_t page_size() const { return shape_.page_size; }
  std::uint32_t n_pages() const { return shape_.n_pages; }
  ondisk::Flavor flavor() const { return shape_.flavor; }
  ondisk::SpaceId space_id() const { return shape_.space_id; }
  SpaceKind kind() const { return shape_.kind; }

  // Page n as the readers want it: decrypted and decompressed where Open could.
  ondisk::ConstBytes page(std::uint32_t n) const { return {data_ + std::size_t{n} * page_size(), page_size()}; }
  // Page n's bytes as the file stores them.
  ondisk::ConstBytes stored_page(std::uint32_t n) const {
    // (Pages past the stored ones exist only when --apply-redo grew the file: in memory.)
    const bool stored = stored_ && (std::size_t{n} + 1) * page_size() <= stored_size_;
    return stored ? ondisk::ConstBytes{stored_ + std::size_t{n} * page_size(), page_size()} : page(n);
  }
  // What unpacking found and did: encryption, keys, page compression.
  const UnpackedPages& unpacked() const { return unpacked_; }
  // Which pages are in use (valid while this SpaceFile is neither moved nor grown).
  AllocationView allocation() const { return AllocationView(shape_, data_, doublewrite_blocks_); }

  // PageRules (page_unpacker.h) for this file's pages.
  bool IsEncryptedPage(ondisk::ConstBytes page) const { return rules().IsEncryptedPage(page); }
  ondisk::PageCheck CheckPage(ondisk::ConstBytes page) const { return rules().CheckPage(page); }
  // Page bytes (from page() or a PageWindow) as a B-tree page: the page itself, or the logical
  // page a ROW_FORMAT=COMPRESSED one unpacks to (which the IndexPage then holds). Checksums
  // are for CheckPage on the bytes as stored.
  // `zip`, when given, receives where a compressed page's parts lie.
  ondisk::Result<ondisk::IndexPage> OpenIndexPage(ondisk::ConstBytes page, ondisk::ZipPageParts* zip = nullptr) const;

  // Copies pages [first, first + count) into `out` with one pread: the fast path for
  // sequential passes. False if the read fell short (callers then use page()).
  bool ReadPages(std::uint32_t first, std::uint32_t count, std::byte* out) const;
  // Whether pages [first, first + count) lie in a hole of a sparse file (SEEK_DATA finds no
  // data in them): all zeros, known without reading them. False when unsure.
  bool InHole(std::uint32_t first, std::uint32_t count) const;

  // --apply-redo. Page n made writable: the file's mapping becomes copy-on-write, so the
  // changes stay in this process and the file is never written. Empty if that fails.
  ondisk::MutableBytes MutablePage(std::uint32_t n);
  // The file as if `pages` long, for a log that extends it: the new pages zero, in memory.
  void Grow(std::uint32_t pages);
  // After MutablePage changes: page 0's FSP fields read again.
  void RereadHeader();

  // Problems met while opening (truncated tail, unreadable page 0, size mismatch, ...).
  const std::vector<Finding>& findings() const { return findings_; }

 private:
  SpaceFile() = default;
  void Release();
  PageRules rules() const { return PageRules(shape_, unpacked_.mariadb_crypt.has_value()); }

  std::filesystem::path path_;
  int fd_ = -1;
  const std::byte* data_ = nullptr;  // the file's pages (unpacked files: the unpacked copy)
  std::uint64_t size_ = 0;
  const std::byte* stored_ = nullptr;  // unpacked files: the mapping of the file itself
  bool copy_on_write_ = false;         // data_ is a private writable mapping of the file (--apply-redo)
  std::uint64_t stored_size_ = 0;
  SpaceShape shape_;
  UnpackedPages unpacked_;
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
