// One row per page: what `strata inspect pages` prints and every other analyzer aggregates.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <span>
#include <string>

#include "inspect/space_file.h"
#include "ondisk/checksum.h"
#include "ondisk/page_type.h"

namespace strata::inspect {

struct PageInfo {
  std::uint32_t page_no = 0;
  std::uint16_t type = 0;  // FIL_PAGE_TYPE code
  std::uint64_t lsn = 0;
  std::uint64_t flush_lsn_field = 0;  // FIL bytes 26..33
  std::uint32_t prev = ondisk::kFilNull;
  std::uint32_t next = ondisk::kFilNull;

  // Checksum and placement.
  bool all_zero = false;  // never written
  bool checksum_ok = false;
  std::optional<ondisk::ChecksumAlgorithm> algorithm;
  bool torn = false;                 // header and trailer LSN differ
  bool encrypted = false;            // contents encrypted (MySQL or MariaDB)
  bool unverifiable = false;         // MySQL-encrypted: not even its checksum can be checked without the key
  std::uint16_t encrypted_type = 0;  // the type it had before encryption (FIL bytes 28-29)
  bool misplaced = false;            // FIL page number or space id differ from the page's place
  bool free = false;                 // the extent descriptor marks the page free: old bytes, no tree
  bool doublewrite = false;          // a doublewrite-buffer copy of another page (system tablespace)

  // B-tree pages whose header decodes (is_btree false otherwise; fields below then 0).
  bool is_btree = false;
  std::uint64_t index_id = 0;
  std::uint16_t level = 0;
  std::uint16_t n_recs = 0;
  bool is_root = false;
  std::uint32_t data_size = 0;      // INNODB_BUFFER_PAGE.DATA_SIZE: HEAP_TOP - supremum end - GARBAGE
  std::uint32_t used_bytes = 0;     // innodb_ruby: page size - free
  std::uint32_t free_bytes = 0;     // innodb_ruby: GARBAGE + gap between heap top and directory
  std::uint32_t garbage_bytes = 0;  // PAGE_GARBAGE
  std::string header_error;         // why a B-tree page's header did not decode
  std::string structure_error;      // deep scans: first problem in the record chain or directory

  bool checksum_failed() const { return !all_zero && !unverifiable && (!checksum_ok || torn); }
};

// Decodes the FIL header, checksum and (for B-tree pages) the page header of page n.
// `deep` also walks the records and directory of B-tree pages (IndexPage::CheckStructure).
PageInfo AnalyzePage(const SpaceFile& file, std::uint32_t n, bool deep = false);
// The same over a copy of page n's bytes (what ScanPages reads with pread).
PageInfo AnalyzePage(const SpaceFile& file, std::uint32_t n, ondisk::ConstBytes page, bool deep);

// Record space of an empty page: what a page's data_size is measured against as "fill".
double PageFill(const PageInfo& p, std::size_t page_size);

// Analyzes every page on all cores, in batches of pages; `consume` sees each batch in page
// order, on the calling thread. Memory stays bounded whatever the file size.
void ScanPages(const SpaceFile& file, const std::function<void(std::span<const PageInfo>)>& consume, bool deep = false);

// Progress of long scans, for front ends: while a ScanProgress lives, every ScanPages call
// reports (pages done, pages in the file, file) after each batch, on the calling thread.
class ScanProgress {
 public:
  using Callback = std::function<void(std::uint64_t done, std::uint64_t total, const std::filesystem::path& file)>;
  explicit ScanProgress(Callback cb);
  ~ScanProgress();
  ScanProgress(const ScanProgress&) = delete;
  ScanProgress& operator=(const ScanProgress&) = delete;
  static void Report(std::uint64_t done, std::uint64_t total, const std::filesystem::path& file);

 private:
  Callback previous_;
};

// The type name as the file's flavour spells it.
std::string PageTypeName(std::uint16_t type, ondisk::Flavor flavor);
// What the page is now: its type, or FREE / DOUBLEWRITE when its bytes are not what they say.
std::string PageTypeName(const PageInfo& p, ondisk::Flavor flavor);

}  // namespace strata::inspect
