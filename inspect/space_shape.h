// What a tablespace file is, as its name, its size and its page 0 say: page size, flavour,
// space id, flags, sizes. With page 0 unreadable the other pages are asked (their page numbers
// give the page size, their checksums full_crc32, their headers the space id) and the finding
// says so. Nothing here reads a page beyond the first few.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "inspect/finding.h"
#include "ondisk/endian.h"
#include "ondisk/fsp_header.h"
#include "ondisk/types.h"

namespace strata::inspect {

// What kind of tablespace a file is, by name and page 0.
// kTemporary: ibtmp1 and MySQL 8.0's session files #innodb_temp/temp_N.ibt, recreated at every
// start and never flushed for durability.
enum class SpaceKind { kFilePerTable, kSystem, kUndo, kDictionary, kTemporary, kOther };
std::string ToString(SpaceKind k);
// By file name: ibdata1.., undo001 / undo_001 / *.ibu, mysql.ibd, *.ibd, ibtmp1 / *.ibt.
SpaceKind KindFromName(const std::filesystem::path& p);

struct SpaceShape {
  std::size_t page_size = ondisk::kDefaultPageSize;  // as stored (KEY_BLOCK_SIZE when compressed)
  std::uint32_t n_pages = 0;                         // whole pages in the file
  ondisk::Flavor flavor = ondisk::Flavor::kUnknown;
  bool full_crc32 = false;
  ondisk::SpaceId space_id;
  bool space_id_known = true;             // false: page 0 unreadable and the other pages disagree (space_id 0)
  std::optional<ondisk::FspFlags> flags;  // page 0's, when it is readable
  std::uint32_t fsp_size = 0;
  std::uint32_t free_limit = 0;      // FSP_FREE_LIMIT: pages past it were never initialised
  std::uint32_t server_version = 0;  // MySQL 8.0's page 0; 0 otherwise
  SpaceKind kind = SpaceKind::kOther;

  // ROW_FORMAT=COMPRESSED: pages are page_size bytes on disk (KEY_BLOCK_SIZE), and B-tree
  // pages hold their records zlib-compressed; logical_page_size() is what they decompress to.
  bool compressed() const { return flags && !flags->full_crc32 && flags->zip_ssize != 0; }
  std::size_t logical_page_size() const { return flags ? flags->page_size : page_size; }
  // Extents and descriptor pages as this tablespace lays them out.
  ondisk::PageSize geometry() const {
    return compressed() ? ondisk::PageSize::Compressed(page_size, logical_page_size()) : ondisk::PageSize(page_size);
  }
  // MariaDB's PAGE_COMPRESSED=1: each page's slot starts with the page compressed whole.
  bool page_compressed() const {
    return flags && (flags->full_crc32 ? flags->compression_algorithm != 0 : flags->page_compression);
  }
  // MySQL's ENCRYPTION='Y': pages after page 0 are typed ENCRYPTED and unreadable without the
  // tablespace key (kept in page 0, itself encrypted by the server's keyring master key).
  bool encrypted_by_mysql() const { return flags && !flags->full_crc32 && flags->encryption; }
  std::string flavor_name() const;  // "MySQL 8.0", "MariaDB (full_crc32)", ...

  // FSP_SIZE and FSP_FREE_LIMIT read again from page 0 (after --apply-redo changed it).
  void RereadHeader(ondisk::ConstBytes page0);
};

// The shape of the file `path` whose bytes are `file`; what does not fit (page 0 unreadable, a
// cut tail, sizes that disagree) added to `findings`.
SpaceShape DetectShape(const std::filesystem::path& path, ondisk::ConstBytes file, std::vector<Finding>& findings);

}  // namespace strata::inspect
