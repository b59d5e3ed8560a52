#include "engine/space_manager.h"

#include <optional>
#include <string>

#include "engine/file_list_ops.h"
#include "ondisk/fil_header.h"
#include "ondisk/xdes.h"

namespace strata::engine {

using namespace strata::ondisk;

namespace {
constexpr PageNo kPage0{0};
ListRef FspList(std::size_t offset) { return {kPage0, offset}; }
}  // namespace

Result<MutableBytes> SpaceManager::Page0() { return store_.Page(kPage0); }

Result<MutableBytes> SpaceManager::DescriptorPage(std::uint32_t page) {
  return store_.Page(LocateXdes(PageNo(page), store_.page_size()).descriptor_page);
}

FileAddr SpaceManager::NodeOf(std::uint32_t first) const {
  XdesLocation loc = LocateXdes(PageNo(first), store_.page_size());
  return {loc.descriptor_page, static_cast<std::uint16_t>(loc.offset + kXdesNodeOffset)};
}

std::uint32_t SpaceManager::ExtentOf(FileAddr node) const {
  const PageSize ps = store_.page_size();
  const std::uint32_t entry =
      static_cast<std::uint32_t>((node.offset - kXdesArrayOffset - kXdesNodeOffset) / ps.xdes_entry_size());
  return node.page.value() + entry * ps.pages_per_extent();
}

Status SpaceManager::Init(std::uint32_t flags) {
  auto p0 = store_.NewPage(kPage0);
  if (!p0.ok()) return p0.status();
  FilHeaderWriter fil(*p0);
  fil.set_type(PageType::kFspHdr);
  Store32(*p0, FilHeader::kPrev, kStrataServerVersion);
  Store32(*p0, FilHeader::kNext, 1);  // space version
  FspHeaderWriter fsp(*p0);
  fsp.set_space_id(store_.space_id());
  fsp.set_size(store_.size());
  fsp.set_free_limit(0);
  fsp.set_flags(flags);
  fsp.set_frag_n_used(0);
  for (auto set : {&FspHeaderWriter::set_free, &FspHeaderWriter::set_free_frag, &FspHeaderWriter::set_full_frag,
                   &FspHeaderWriter::set_seg_inodes_full, &FspHeaderWriter::set_seg_inodes_free}) {
    (fsp.*set)(ListBase{});
  }
  fsp.set_next_segment_id(1);
  if (FspFlags::Decode(flags).ok() && FspFlags::Decode(flags)->sdi) fsp.set_sdi(1, PageNo(3));

  // Extent 0 holds page 0 and the bitmap page: it starts as a fragment extent.
  STRATA_RETURN_IF_ERROR(FillFreeList());
  auto bitmap = store_.NewPage(PageNo(1));
  if (!bitmap.ok()) return bitmap.status();
  FilHeaderWriter(*bitmap).set_type(PageType::kIbufBitmap);
  // The first INODE page, taken as a fragment page like any other.
  auto inode_page = AllocateFragmentPage();
  if (!inode_page.ok()) return inode_page.status();
  auto ip = store_.NewPage(*inode_page);
  if (!ip.ok()) return ip.status();
  FilHeaderWriter(*ip).set_type(PageType::kInode);
  ListNode{}.EncodeTo(*ip, kInodePageListNode);
  return ListAddLast(store_, FspList(FspHeader::kSegInodesFree),
                     {*inode_page, static_cast<std::uint16_t>(kInodePageListNode)});
}

// Describes every whole extent between the free limit and the end of the file: extents that
// hold a descriptor page join FREE_FRAG with those pages used, the others join FREE. A file
// smaller than one extent still gets its first extent described (as InnoDB does).
Status SpaceManager::FillFreeList() {
  const PageSize ps = store_.page_size();
  const std::uint32_t e = ps.pages_per_extent();
  auto p0 = Page0();
  if (!p0.ok()) return p0.status();
  std::uint32_t limit = Load32(*p0, FspHeader::kFreeLimit);
  const std::uint32_t size = store_.size();
  while (limit + e <= size || (limit == 0)) {
    const bool descriptor = limit % ps.xdes_period() == 0;
    if (descriptor && limit > 0) {
      // A new XDES page and its change-buffer bitmap page start this extent.
      auto xdes = store_.NewPage(PageNo(limit));
      if (!xdes.ok()) return xdes.status();
      FilHeaderWriter(*xdes).set_type(PageType::kXdes);
      auto bitmap = store_.NewPage(PageNo(limit + 1));
      if (!bitmap.ok()) return bitmap.status();
      FilHeaderWriter(*bitmap).set_type(PageType::kIbufBitmap);
    }
    auto desc = DescriptorPage(limit);
    if (!desc.ok()) return desc.status();
    XdesEntryWriter x(*desc, LocateXdes(PageNo(limit), ps).entry);
    x.Init(descriptor ? XdesState::kFreeFrag : XdesState::kFree);
    if (descriptor) {
      x.set_free(0, false);
      x.set_free(1, false);
      STRATA_RETURN_IF_ERROR(ListAddLast(store_, FspList(FspHeader::kFreeFrag), NodeOf(limit)));
      p0 = Page0();
      Store32(*p0, FspHeader::kFragNUsed, Load32(*p0, FspHeader::kFragNUsed) + 2);
    } else {
      STRATA_RETURN_IF_ERROR(ListAddLast(store_, FspList(FspHeader::kFree), NodeOf(limit)));
    }
    limit += e;
    p0 = Page0();
    if (!p0.ok()) return p0.status();
    Store32(*p0, FspHeader::kFreeLimit, limit);
  }
  return Status::Ok();
}

Status SpaceManager::EnsureSize(std::uint32_t pages) {
  if (pages <= store_.size()) return Status::Ok();
  STRATA_RETURN_IF_ERROR(store_.Grow(pages));
  auto p0 = Page0();
  if (!p0.ok()) return p0.status();
  Store32(*p0, FspHeader::kSize, store_.size());
  return FillFreeList();
}

Status SpaceManager::GrowForExtent() {
  const std::uint32_t e = store_.page_size().pages_per_extent();
  const std::uint32_t size = store_.size();
  const std::uint32_t whole = (size + e - 1) / e * e;  // round a small file up to whole extents
  const std::uint32_t step = whole < 32 * e ? e : 4 * e;
  return EnsureSize(std::max(whole, size) + step);
}

Result<std::uint32_t> SpaceManager::AllocateFreeExtent() {
  auto free = ListGet(store_, FspList(FspHeader::kFree));
  if (!free.ok()) return free.status();
  // An extent that starts with a descriptor page joins FREE_FRAG when described, so one
  // growth step may add nothing to FREE (with 4 KiB pages, every 16th extent): grow again.
  for (int step = 0; free->length == 0; ++step) {
    if (step == 8) return Status::Corruption("no free extent after growing the tablespace");
    STRATA_RETURN_IF_ERROR(GrowForExtent());
    free = ListGet(store_, FspList(FspHeader::kFree));
    if (!free.ok()) return free.status();
  }
  const std::uint32_t first = ExtentOf(free->first);
  STRATA_RETURN_IF_ERROR(ListRemove(store_, FspList(FspHeader::kFree), free->first));
  return first;
}

Status SpaceManager::SetFree(std::uint32_t page, bool free) {
  auto desc = DescriptorPage(page);
  if (!desc.ok()) return desc.status();
  XdesLocation loc = LocateXdes(PageNo(page), store_.page_size());
  XdesEntryWriter(*desc, loc.entry).set_free(loc.bit, free);
  return Status::Ok();
}

Result<std::uint32_t> SpaceManager::UsedInExtent(std::uint32_t first) {
  auto desc = DescriptorPage(first);
  if (!desc.ok()) return desc.status();
  return XdesEntry(*desc, LocateXdes(PageNo(first), store_.page_size()).entry).used_pages();
}

Result<std::uint32_t> SpaceManager::TakeFirstFreePage(std::uint32_t first, const char* list) {
  const PageSize ps = store_.page_size();
  auto desc = DescriptorPage(first);
  if (!desc.ok()) return desc.status();
  XdesEntry entry(*desc, LocateXdes(PageNo(first), ps).entry);
  std::uint32_t j = 0;
  while (j < ps.pages_per_extent() && !entry.is_free(j)) ++j;
  if (j == ps.pages_per_extent()) {
    return Status::Corruption(std::string("extent on ") + list + " list has no free page");
  }
  const std::uint32_t page = first + j;
  STRATA_RETURN_IF_ERROR(EnsureSize(page + 1));
  STRATA_RETURN_IF_ERROR(SetFree(page, false));
  return page;
}

Result<PageNo> SpaceManager::AllocateFragmentPage() {
  const PageSize ps = store_.page_size();
  auto frag = ListGet(store_, FspList(FspHeader::kFreeFrag));
  if (!frag.ok()) return frag.status();
  std::uint32_t first;
  if (frag->length == 0) {
    auto x = AllocateFreeExtent();
    if (!x.ok()) return x.status();
    first = *x;
    auto desc = DescriptorPage(first);
    if (!desc.ok()) return desc.status();
    XdesEntryWriter(*desc, LocateXdes(PageNo(first), ps).entry).set_state(XdesState::kFreeFrag);
    STRATA_RETURN_IF_ERROR(ListAddLast(store_, FspList(FspHeader::kFreeFrag), NodeOf(first)));
  } else {
    first = ExtentOf(frag->first);
  }
  auto taken = TakeFirstFreePage(first, "FREE_FRAG");
  if (!taken.ok()) return taken.status();
  const std::uint32_t page = *taken;
  auto p0 = Page0();
  if (!p0.ok()) return p0.status();
  std::uint32_t n_used = Load32(*p0, FspHeader::kFragNUsed) + 1;
  auto used = UsedInExtent(first);
  if (!used.ok()) return used.status();
  if (*used == ps.pages_per_extent()) {
    // Full: FREE_FRAG -> FULL_FRAG, and its pages leave the FREE_FRAG count.
    STRATA_RETURN_IF_ERROR(ListRemove(store_, FspList(FspHeader::kFreeFrag), NodeOf(first)));
    STRATA_RETURN_IF_ERROR(ListAddLast(store_, FspList(FspHeader::kFullFrag), NodeOf(first)));
    auto desc = DescriptorPage(first);
    if (!desc.ok()) return desc.status();
    XdesEntryWriter(*desc, LocateXdes(PageNo(first), ps).entry).set_state(XdesState::kFullFrag);
    n_used -= ps.pages_per_extent();
  }
  p0 = Page0();
  Store32(*p0, FspHeader::kFragNUsed, n_used);
  return PageNo(page);
}

Status SpaceManager::FreeFragmentPage(PageNo page) {
  const PageSize ps = store_.page_size();
  const std::uint32_t first = page.value() - LocateXdes(page, ps).bit;
  auto desc = DescriptorPage(first);
  if (!desc.ok()) return desc.status();
  XdesEntry entry(*desc, LocateXdes(page, ps).entry);
  if (entry.is_free(LocateXdes(page, ps).bit)) {
    return Status::Corruption("page " + std::to_string(page.value()) + " is already free");
  }
  const XdesState state = entry.state();
  STRATA_RETURN_IF_ERROR(SetFree(page.value(), true));
  auto p0 = Page0();
  if (!p0.ok()) return p0.status();
  std::uint32_t n_used = Load32(*p0, FspHeader::kFragNUsed);
  if (state == XdesState::kFullFrag) {
    STRATA_RETURN_IF_ERROR(ListRemove(store_, FspList(FspHeader::kFullFrag), NodeOf(first)));
    STRATA_RETURN_IF_ERROR(ListAddLast(store_, FspList(FspHeader::kFreeFrag), NodeOf(first)));
    desc = DescriptorPage(first);
    XdesEntryWriter(*desc, LocateXdes(page, ps).entry).set_state(XdesState::kFreeFrag);
    n_used += ps.pages_per_extent() - 1;
  } else {
    n_used -= 1;
  }
  auto used = UsedInExtent(first);
  if (!used.ok()) return used.status();
  if (*used == 0) {  // never for descriptor extents, whose first two pages stay used
    STRATA_RETURN_IF_ERROR(ListRemove(store_, FspList(FspHeader::kFreeFrag), NodeOf(first)));
    desc = DescriptorPage(first);
    XdesEntryWriter(*desc, LocateXdes(page, ps).entry).set_state(XdesState::kFree);
    STRATA_RETURN_IF_ERROR(ListAddLast(store_, FspList(FspHeader::kFree), NodeOf(first)));
  }
  p0 = Page0();
  Store32(*p0, FspHeader::kFragNUsed, n_used);
  return Status::Ok();
}

Result<FsegHeader> SpaceManager::CreateSegment() {
  const PageSize ps = store_.page_size();
  auto free_pages = ListGet(store_, FspList(FspHeader::kSegInodesFree));
  if (!free_pages.ok()) return free_pages.status();
  if (free_pages->length == 0) {
    auto n = AllocateFragmentPage();
    if (!n.ok()) return n.status();
    auto ip = store_.NewPage(*n);
    if (!ip.ok()) return ip.status();
    FilHeaderWriter(*ip).set_type(PageType::kInode);
    const FileAddr node{*n, static_cast<std::uint16_t>(kInodePageListNode)};
    STRATA_RETURN_IF_ERROR(ListAddLast(store_, FspList(FspHeader::kSegInodesFree), node));
    free_pages = ListGet(store_, FspList(FspHeader::kSegInodesFree));
    if (!free_pages.ok()) return free_pages.status();
  }
  const PageNo ipage = free_pages->first.page;
  auto ip = store_.Page(ipage);
  if (!ip.ok()) return ip.status();
  std::uint32_t slot = 0, in_use = 0;
  std::optional<std::uint32_t> chosen;
  for (; slot < ps.inodes_per_page(); ++slot) {
    if (InodeEntry(*ip, slot).in_use())
      ++in_use;
    else if (!chosen)
      chosen = slot;
  }
  if (!chosen)
    return Status::Corruption("INODE page " + std::to_string(ipage.value()) + " on the free list has no free slot");
  auto p0 = Page0();
  if (!p0.ok()) return p0.status();
  const std::uint64_t id = Load64(*p0, FspHeader::kSegId);
  Store64(*p0, FspHeader::kSegId, id + 1);
  ip = store_.Page(ipage);
  InodeEntryWriter(*ip, *chosen).Init(id);
  if (in_use + 1 == ps.inodes_per_page()) {
    const FileAddr node{ipage, static_cast<std::uint16_t>(kInodePageListNode)};
    STRATA_RETURN_IF_ERROR(ListRemove(store_, FspList(FspHeader::kSegInodesFree), node));
    STRATA_RETURN_IF_ERROR(ListAddLast(store_, FspList(FspHeader::kSegInodesFull), node));
  }
  return FsegHeader{store_.space_id(), ipage, static_cast<std::uint16_t>(InodeEntry::OffsetOf(ps, *chosen))};
}

Result<MutableBytes> SpaceManager::InodePage(const FsegHeader& seg) {
  STRATA_RETURN_IF_ERROR(seg.Check(store_.page_size(), 0));
  return store_.Page(seg.page);
}

Result<PageNo> SpaceManager::AllocatePage(const FsegHeader& seg) {
  const PageSize ps = store_.page_size();
  const std::uint32_t slot = seg.slot(ps);
  auto ip = InodePage(seg);
  if (!ip.ok()) return ip.status();
  InodeEntry inode(*ip, slot);
  if (!inode.in_use()) return Status::Corruption("segment header points at an unused inode slot");
  const std::uint64_t id = inode.segment_id();
  // The first 32 pages are fragment pages.
  for (std::uint32_t s = 0; s < inode.frag_slots(); ++s) {
    if (inode.frag_page(s) != kNullPage) continue;
    auto page = AllocateFragmentPage();
    if (!page.ok()) return page.status();
    ip = store_.Page(seg.page);
    InodeEntryWriter(*ip, slot).set_frag_page(s, *page);
    return page;
  }
  // Then whole extents: NOT_FULL first, then the segment's FREE ones, then a new one.
  auto not_full_ref = ListRef{seg.page, seg.offset + InodeEntry::kNotFull};
  auto free_ref = ListRef{seg.page, seg.offset + InodeEntry::kFree};
  auto full_ref = ListRef{seg.page, seg.offset + InodeEntry::kFull};
  auto not_full = ListGet(store_, not_full_ref);
  if (!not_full.ok()) return not_full.status();
  std::uint32_t first;
  if (not_full->length) {
    first = ExtentOf(not_full->first);
  } else {
    auto free = ListGet(store_, free_ref);
    if (!free.ok()) return free.status();
    if (free->length) {
      first = ExtentOf(free->first);
      STRATA_RETURN_IF_ERROR(ListRemove(store_, free_ref, free->first));
    } else {
      auto x = AllocateFreeExtent();
      if (!x.ok()) return x.status();
      first = *x;
      auto desc = DescriptorPage(first);
      if (!desc.ok()) return desc.status();
      XdesEntryWriter w(*desc, LocateXdes(PageNo(first), ps).entry);
      w.set_state(XdesState::kFseg);
      w.set_segment_id(id);
    }
    STRATA_RETURN_IF_ERROR(ListAddLast(store_, not_full_ref, NodeOf(first)));
  }
  auto taken = TakeFirstFreePage(first, "the segment's NOT_FULL");
  if (!taken.ok()) return taken.status();
  const std::uint32_t page = *taken;
  auto used = UsedInExtent(first);
  if (!used.ok()) return used.status();
  ip = store_.Page(seg.page);
  std::uint32_t n_used = InodeEntry(*ip, slot).not_full_n_used() + 1;
  if (*used == ps.pages_per_extent()) {
    STRATA_RETURN_IF_ERROR(ListRemove(store_, not_full_ref, NodeOf(first)));
    STRATA_RETURN_IF_ERROR(ListAddLast(store_, full_ref, NodeOf(first)));
    n_used -= ps.pages_per_extent();
  }
  ip = store_.Page(seg.page);
  InodeEntryWriter(*ip, slot).set_not_full_n_used(n_used);
  return PageNo(page);
}

Status SpaceManager::FreePage(const FsegHeader& seg, PageNo page) {
  const PageSize ps = store_.page_size();
  const std::uint32_t slot = seg.slot(ps);
  auto ip = InodePage(seg);
  if (!ip.ok()) return ip.status();
  InodeEntry inode(*ip, slot);
  for (std::uint32_t s = 0; s < inode.frag_slots(); ++s) {
    if (inode.frag_page(s) != page) continue;
    InodeEntryWriter(*ip, slot).set_frag_page(s, kNullPage);
    return FreeFragmentPage(page);
  }
  const std::uint32_t first = page.value() - LocateXdes(page, ps).bit;
  auto desc = DescriptorPage(first);
  if (!desc.ok()) return desc.status();
  XdesEntry entry(*desc, LocateXdes(page, ps).entry);
  if (entry.state() != XdesState::kFseg || entry.segment_id() != inode.segment_id() ||
      entry.is_free(LocateXdes(page, ps).bit)) {
    return Status::Corruption("page " + std::to_string(page.value()) + " is not a used page of segment " +
                              std::to_string(inode.segment_id()));
  }
  const bool was_full = entry.used_pages() == ps.pages_per_extent();
  STRATA_RETURN_IF_ERROR(SetFree(page.value(), true));
  auto not_full_ref = ListRef{seg.page, seg.offset + InodeEntry::kNotFull};
  std::uint32_t n_used = InodeEntry(*ip, slot).not_full_n_used();
  if (was_full) {
    STRATA_RETURN_IF_ERROR(ListRemove(store_, ListRef{seg.page, seg.offset + InodeEntry::kFull}, NodeOf(first)));
    STRATA_RETURN_IF_ERROR(ListAddLast(store_, not_full_ref, NodeOf(first)));
    n_used += ps.pages_per_extent() - 1;
  } else {
    n_used -= 1;
  }
  auto used = UsedInExtent(first);
  if (!used.ok()) return used.status();
  if (*used == 0) {
    // Empty: back to the tablespace.
    STRATA_RETURN_IF_ERROR(ListRemove(store_, not_full_ref, NodeOf(first)));
    desc = DescriptorPage(first);
    XdesEntryWriter w(*desc, LocateXdes(page, ps).entry);
    w.set_state(XdesState::kFree);
    w.set_segment_id(0);
    STRATA_RETURN_IF_ERROR(ListAddLast(store_, FspList(FspHeader::kFree), NodeOf(first)));
  }
  ip = store_.Page(seg.page);
  InodeEntryWriter(*ip, slot).set_not_full_n_used(n_used);
  return Status::Ok();
}

Status SpaceManager::DropSegment(const FsegHeader& seg) {
  const PageSize ps = store_.page_size();
  const std::uint32_t slot = seg.slot(ps);
  auto ip = InodePage(seg);
  if (!ip.ok()) return ip.status();
  InodeEntry inode(*ip, slot);
  for (std::uint32_t s = 0; s < inode.frag_slots(); ++s) {
    if (inode.frag_page(s) != kNullPage)
      return Status::Corruption("dropping a segment that still owns page " +
                                std::to_string(inode.frag_page(s).value()));
  }
  if (inode.free().length || inode.not_full().length || inode.full().length) {
    return Status::Corruption("dropping a segment that still owns extents");
  }
  std::uint32_t in_use = 0;
  for (std::uint32_t s = 0; s < ps.inodes_per_page(); ++s) in_use += InodeEntry(*ip, s).in_use();
  InodeEntryWriter(*ip, slot).Clear();
  if (in_use == ps.inodes_per_page()) {
    // The inode page was full: it has a free slot again.
    const FileAddr node{seg.page, static_cast<std::uint16_t>(kInodePageListNode)};
    STRATA_RETURN_IF_ERROR(ListRemove(store_, FspList(FspHeader::kSegInodesFull), node));
    STRATA_RETURN_IF_ERROR(ListAddLast(store_, FspList(FspHeader::kSegInodesFree), node));
  }
  return Status::Ok();
}

}  // namespace strata::engine
