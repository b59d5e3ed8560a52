#include "ondisk/page_type.h"

namespace strata::ondisk {

namespace {
const char* Name(std::uint16_t code) {
  switch (static_cast<PageType>(code)) {
    case PageType::kAllocated:
      return "ALLOCATED";
    case PageType::kUndoLog:
      return "UNDO_LOG";
    case PageType::kInode:
      return "INODE";
    case PageType::kIbufFreeList:
      return "IBUF_FREE_LIST";
    case PageType::kIbufBitmap:
      return "IBUF_BITMAP";
    case PageType::kSys:
      return "SYS";
    case PageType::kTrxSys:
      return "TRX_SYS";
    case PageType::kFspHdr:
      return "FSP_HDR";
    case PageType::kXdes:
      return "XDES";
    case PageType::kBlob:
      return "BLOB";
    case PageType::kZBlob:
      return "ZBLOB";
    case PageType::kZBlob2:
      return "ZBLOB2";
    case PageType::kUnknown:
      return "UNKNOWN";
    case PageType::kCompressed:
      return "COMPRESSED";
    case PageType::kEncrypted:
      return "ENCRYPTED";
    case PageType::kCompressedAndEncrypted:
      return "COMPRESSED_AND_ENCRYPTED";
    case PageType::kEncryptedRtree:
      return "ENCRYPTED_RTREE";
    case PageType::kSdiBlobOrInstant:
      return nullptr;  // depends on flavor
    case PageType::kSdiZBlob:
      return "SDI_ZBLOB";
    case PageType::kUnused:
      return "UNUSED";
    case PageType::kRsegArray:
      return "RSEG_ARRAY";
    case PageType::kLobIndex:
      return "LOB_INDEX";
    case PageType::kLobData:
      return "LOB_DATA";
    case PageType::kLobFirst:
      return "LOB_FIRST";
    case PageType::kZLobFirst:
      return "ZLOB_FIRST";
    case PageType::kZLobData:
      return "ZLOB_DATA";
    case PageType::kZLobIndex:
      return "ZLOB_INDEX";
    case PageType::kZLobFrag:
      return "ZLOB_FRAG";
    case PageType::kZLobFragEntry:
      return "ZLOB_FRAG_ENTRY";
    case PageType::kSdi:
      return "SDI";
    case PageType::kRtree:
      return "RTREE";
    case PageType::kIndex:
      return "INDEX";
    case PageType::kMariaPageCompressed:
      return "PAGE_COMPRESSED";
    case PageType::kMariaPageCompressedEncrypted:
      return "PAGE_COMPRESSED_ENCRYPTED";
  }
  return "";
}
}  // namespace

bool IsKnownPageType(std::uint16_t code) {
  if (code == 18) return true;
  const char* n = Name(code);
  return n != nullptr && *n != '\0';
}

std::string ToString(PageType type, Flavor flavor) {
  auto code = static_cast<std::uint16_t>(type);
  // MySQL writes 18 only in 8.0 files (SDI BLOBs); anything else that has it is MariaDB's.
  if (type == PageType::kSdiBlobOrInstant) {
    return flavor == Flavor::kMySql || flavor == Flavor::kStrata ? "SDI_BLOB" : "INSTANT";
  }
  if (IsFullCrc32Compressed(code)) {
    return "FULL_CRC32_COMPRESSED(" + std::to_string((code & 0x7FFF) << 8) + ")";
  }
  const char* n = Name(code);
  if (n == nullptr || *n == '\0') return "TYPE(" + std::to_string(code) + ")";
  return n;
}

bool IsBtreePage(PageType type, Flavor flavor) {
  return type == PageType::kIndex || type == PageType::kRtree || type == PageType::kSdi ||
         (type == PageType::kSdiBlobOrInstant && flavor != Flavor::kMySql && flavor != Flavor::kStrata);
}

}  // namespace strata::ondisk
