// Extent descriptors (XDES entries) on page 0 and on every XDES page (innodb-format.md §6.1).
//
// Entry i of the descriptor page at page number D describes pages D + E*i ... D + E*i + E-1
// (E = pages per extent) and lives at offset 150 + S*i (S = entry size: 40 bytes for 16 KiB).
//
//   OFFSET SIZE  FIELD
//   0      8     XDES_ID         owning segment id when state is FSEG/FSEG_FRAG, else 0
//   8      12    XDES_FLST_NODE  list node (FSP or segment extent list)
//   20     4     XDES_STATE      XdesState
//   24     E/4   XDES_BITMAP     2 bits per page: bit 2j = free, bit 2j+1 = clean (unused, 1)
//
// Bits are counted from the least significant bit of each byte: page j's free bit is
// (bitmap[j / 4] >> (2 * (j % 4))) & 1.
#pragma once

#include <cstdint>
#include <string>

#include "ondisk/endian.h"
#include "ondisk/file_list.h"
#include "ondisk/status.h"
#include "ondisk/types.h"

namespace strata::ondisk {

// Frozen on disk.
enum class XdesState : std::uint32_t {
  kNotInited = 0,
  kFree = 1,
  kFreeFrag = 2,
  kFullFrag = 3,
  kFseg = 4,
  kFsegFrag = 5,  // MySQL 8.0
};
std::string ToString(XdesState s);

// Where the descriptor of a page lives.
struct XdesLocation {
  PageNo descriptor_page;  // page 0 or an XDES page
  std::uint32_t entry;     // index in that page's array
  std::size_t offset;      // byte offset of the entry on that page
  std::uint32_t bit;       // page's position inside the extent
};
XdesLocation LocateXdes(PageNo page, PageSize ps);

inline constexpr std::size_t kXdesArrayOffset = 150;
inline constexpr std::size_t kXdesNodeOffset = 8;  // list addresses point here

class XdesEntry {
 public:
  static constexpr std::size_t kId = 0;
  static constexpr std::size_t kNode = 8;
  static constexpr std::size_t kState = 20;
  static constexpr std::size_t kBitmap = 24;

  // View of entry `index` on a descriptor page (whole page; asserts index in range), laid out
  // by the page's size or, for a compressed tablespace, by its `geometry`.
  XdesEntry(ConstBytes page, std::uint32_t index);
  XdesEntry(ConstBytes page, std::uint32_t index, PageSize geometry);

  std::uint64_t segment_id() const { return Load64(p_, at_ + kId); }
  ListNode node() const { return ListNode::Decode(p_, at_ + kNode); }
  std::uint32_t state_code() const { return Load32(p_, at_ + kState); }
  XdesState state() const { return static_cast<XdesState>(state_code()); }
  bool is_free(std::uint32_t page_in_extent) const;
  bool is_clean(std::uint32_t page_in_extent) const;
  std::uint32_t used_pages() const;
  std::size_t offset() const { return at_; }
  // Corruption (with the offset) for an unknown state or a bad list node.
  Status Check() const;

 private:
  ConstBytes p_;
  std::size_t at_;
  std::uint32_t pages_;
};

class XdesEntryWriter {
 public:
  XdesEntryWriter(MutableBytes page, std::uint32_t index);
  // Resets the entry: no owner, null node, every page free and clean.
  void Init(XdesState state);
  void set_segment_id(std::uint64_t id) { Store64(p_, at_ + XdesEntry::kId, id); }
  void set_node(const ListNode& n) { n.EncodeTo(p_, at_ + XdesEntry::kNode); }
  void set_state(XdesState s) { Store32(p_, at_ + XdesEntry::kState, static_cast<std::uint32_t>(s)); }
  void set_free(std::uint32_t page_in_extent, bool free);

 private:
  MutableBytes p_;
  std::size_t at_;
  std::uint32_t pages_;
};

}  // namespace strata::ondisk
