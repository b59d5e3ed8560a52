// Where InnoDB keeps its doublewrite copies (docs/research/doublewrite.md): page images written,
// and synced, before the pages themselves, so a page torn by a crash can be mended from them.
//
// 1. The system tablespace's area (MariaDB; MySQL up to 8.0.19). TRX_SYS (page 5) describes
//    it at page_size - 200 (TrxSysPage::doublewrite in undo.h):
//      +0 FSEG header   +10 magic 0x1FFFBD5F   +14 block 1   +18 block 2
//      +22 .. +33 magic, block 1, block 2 again    +34 0x6A5073AA: space ids stored in copies
//    Two blocks of one extent's pages each (64 pages of 16 KiB): slot i is page block1 + i, or
//    block2 + i - extent for the second half.
// 2. MySQL 8.0.20+: files #ib_<page size>_<n>.dblwr, page-size slots with no header at all
//    (and with innodb_doublewrite=DETECT_ONLY, #ib_<page size>_<n>.bdblwr: page ids only).
// 3. Strata's own ib_doublewrite: page-size slots, as MySQL's files.
//
// A slot holds a page as it went to its tablespace: a ROW_FORMAT=COMPRESSED page fills the
// first KEY_BLOCK_SIZE bytes, a MariaDB page-compressed one its compressed length; the rest is
// zero (MariaDB) or whatever an earlier copy left (MySQL 8.0.20+). No slot has a header or a
// checksum of its own: the page's own checksum says whether the copy is whole. Unused slots are
// zero, or in an area MySQL made, a page naming space 0 and the slot's own page number.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "ondisk/endian.h"
#include "ondisk/types.h"

namespace strata::ondisk {

inline constexpr std::uint32_t kDoublewriteSpaceIdsStored = 0x6A5073AA;

struct DoublewriteArea {
  std::uint32_t block1 = 0, block2 = 0;  // first page of each block
  std::uint32_t block_pages = 0;         // pages per block: one extent
  bool repeat_matches = false;           // the second copy of magic and block numbers agrees
  bool space_ids_stored = false;

  std::uint32_t slots() const { return 2 * block_pages; }
  std::uint32_t SlotPage(std::uint32_t slot) const {
    return slot < block_pages ? block1 + slot : block2 + (slot - block_pages);
  }
};

// The area TRX_SYS page bytes describe; nullopt when the magic is absent (no area).
std::optional<DoublewriteArea> FindDoublewriteArea(ConstBytes trx_sys_page);

enum class DoublewriteFileKind : std::uint8_t { kMySqlPages, kMySqlDetectOnly, kStrata };

struct DoublewriteFileName {
  DoublewriteFileKind kind;
  std::uint32_t page_size = 0;  // from the name (Strata's: not in its name, 0)
};

// #ib_16384_0.dblwr, #ib_16384_0.bdblwr, ib_doublewrite; nullopt for any other name.
std::optional<DoublewriteFileName> ParseDoublewriteFileName(std::string_view name);

// How many leading bytes of a slot hold the copy: up to its last non-zero byte.
std::size_t DoublewritePayloadLength(ConstBytes slot);

}  // namespace strata::ondisk
