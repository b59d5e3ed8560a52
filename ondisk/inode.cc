#include "ondisk/inode.h"

#include <cassert>
#include <string>

namespace strata::ondisk {

Status FsegHeader::Check(PageSize ps, std::size_t where) const {
  if (offset < kInodeArrayOffset || (offset - kInodeArrayOffset) % ps.inode_entry_size() != 0 ||
      (offset - kInodeArrayOffset) / ps.inode_entry_size() >= ps.inodes_per_page()) {
    return Status::CorruptionAt(
        where + 8, "segment header points at offset " + std::to_string(offset) + ", which is not an inode slot");
  }
  if (page == kNullPage) return Status::CorruptionAt(where + 4, "segment header has no inode page");
  return Status::Ok();
}

namespace {
std::size_t SlotOffset(PageSize ps, std::uint32_t index) {
  assert(index < ps.inodes_per_page());
  return InodeEntry::OffsetOf(ps, index);
}
}  // namespace

InodeEntry::InodeEntry(ConstBytes page, std::uint32_t index) : InodeEntry(page, index, PageSize(page.size())) {}

InodeEntry::InodeEntry(ConstBytes page, std::uint32_t index, PageSize geometry)
    : p_(page), geometry_(geometry), at_(SlotOffset(geometry, index)) {
  assert(geometry.bytes() == page.size());
}

SegmentUsage InodeEntry::Usage() const {
  SegmentUsage u;
  for (std::uint32_t s = 0; s < frag_slots(); ++s) u.fragment_pages += frag_page(s) != kNullPage;
  const std::uint64_t e = geometry_.pages_per_extent();
  u.used_pages = u.fragment_pages + not_full_n_used() + e * full().length;
  u.reserved_pages = u.fragment_pages + e * (std::uint64_t{free().length} + not_full().length + full().length);
  return u;
}

Status InodeEntry::Check() const {
  if (!in_use()) return Status::Ok();
  if (magic() != kFsegMagic) {
    return Status::CorruptionAt(
        at_ + kMagic, "inode magic is " + std::to_string(magic()) + ", expected " + std::to_string(kFsegMagic));
  }
  STRATA_RETURN_IF_ERROR(free().Check(p_.size(), kListNodeSize, at_ + kFree));
  STRATA_RETURN_IF_ERROR(not_full().Check(p_.size(), kListNodeSize, at_ + kNotFull));
  STRATA_RETURN_IF_ERROR(full().Check(p_.size(), kListNodeSize, at_ + kFull));
  const std::uint64_t e = geometry_.pages_per_extent();
  if (not_full_n_used() > e * not_full().length) {
    return Status::CorruptionAt(at_ + kNotFullNUsed, std::to_string(not_full_n_used()) + " pages used in " +
                                                         std::to_string(not_full().length) + " not-full extents");
  }
  return Status::Ok();
}

InodeEntryWriter::InodeEntryWriter(MutableBytes page, std::uint32_t index)
    : p_(page), at_(SlotOffset(PageSize(page.size()), index)) {}

void InodeEntryWriter::Init(std::uint64_t segment_id) {
  assert(segment_id != 0);
  Clear();
  Store64(p_, at_ + InodeEntry::kId, segment_id);
  set_free(ListBase{});
  set_not_full(ListBase{});
  set_full(ListBase{});
  Store32(p_, at_ + InodeEntry::kMagic, kFsegMagic);
  for (std::uint32_t s = 0; s < PageSize(p_.size()).frag_slots(); ++s) set_frag_page(s, kNullPage);
}

void InodeEntryWriter::Clear() {
  for (std::size_t i = 0; i < PageSize(p_.size()).inode_entry_size(); ++i) p_[at_ + i] = std::byte{0};
}

void InodeEntryWriter::set_frag_page(std::uint32_t slot, PageNo page) {
  assert(slot < PageSize(p_.size()).frag_slots());
  Store32(p_, at_ + InodeEntry::kFragArray + 4 * slot, page.value());
}

}  // namespace strata::ondisk
