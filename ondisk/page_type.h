// FIL_PAGE_TYPE codes (innodb-format.md §2.3). Frozen on disk.
//
// One value means different things by product: 18 is MySQL's SDI BLOB page and MariaDB's
// "instant" clustered root. MariaDB full_crc32 page_compressed pages set bit 15 and keep the
// stored size in the low byte; IsFullCrc32Compressed() recognises them.
#pragma once

#include <cstdint>
#include <string>

#include "ondisk/types.h"

namespace strata::ondisk {

enum class PageType : std::uint16_t {
  kAllocated = 0,
  kUndoLog = 2,
  kInode = 3,
  kIbufFreeList = 4,
  kIbufBitmap = 5,
  kSys = 6,
  kTrxSys = 7,
  kFspHdr = 8,
  kXdes = 9,
  kBlob = 10,
  kZBlob = 11,
  kZBlob2 = 12,
  kUnknown = 13,
  kCompressed = 14,
  kEncrypted = 15,
  kCompressedAndEncrypted = 16,
  kEncryptedRtree = 17,
  kSdiBlobOrInstant = 18,  // MySQL: SDI_BLOB. MariaDB: TYPE_INSTANT.
  kSdiZBlob = 19,
  kUnused = 20,
  kRsegArray = 21,
  kLobIndex = 22,
  kLobData = 23,
  kLobFirst = 24,
  kZLobFirst = 25,
  kZLobData = 26,
  kZLobIndex = 27,
  kZLobFrag = 28,
  kZLobFragEntry = 29,
  kSdi = 17853,
  kRtree = 17854,
  kIndex = 17855,
  kMariaPageCompressed = 34354,
  kMariaPageCompressedEncrypted = 37401,
};

// InnoDB's constant name without the FIL_PAGE_ prefix ("INDEX", "UNDO_LOG", "SDI_BLOB" or
// "INSTANT" by flavor, "FULL_CRC32_COMPRESSED(size)" for bit-15 codes, "TYPE(n)" otherwise).
std::string ToString(PageType type, Flavor flavor = Flavor::kMySql);

// True for the codes InnoDB defines (in either product).
bool IsKnownPageType(std::uint16_t code);

// A page whose body is a B-tree node: INDEX, RTREE, SDI, and MariaDB's instant root (18; in
// files of unknown flavour too, since MySQL writes 18 only in 8.0 files, as SDI BLOBs).
bool IsBtreePage(PageType type, Flavor flavor);

// MariaDB full_crc32 page_compressed marker: bit 15 set, stored size = (low 15 bits) << 8.
constexpr bool IsFullCrc32Compressed(std::uint16_t code) {
  return (code & 0x8000) != 0 && code != static_cast<std::uint16_t>(PageType::kMariaPageCompressed) &&
         code != static_cast<std::uint16_t>(PageType::kMariaPageCompressedEncrypted);
}

}  // namespace strata::ondisk
