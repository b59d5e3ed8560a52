#include "engine/lob_store.h"

#include <fmt/format.h>

#include <cstring>
#include <set>

#include "engine/mtr.h"
#include "engine/space_manager.h"
#include "ondisk/fil_header.h"
#include "ondisk/index_page.h"
#include "ondisk/lob.h"

namespace strata::engine {

using namespace strata::ondisk;

namespace {
FsegHeader LeafSegment(Mtr& mtr, Tablespace& space, PageNo root, Status* s) {
  auto page = mtr.Write({space.id(), root});
  if (!page.ok()) {
    *s = page.status();
    return {};
  }
  return FsegHeader::Decode(*page, IndexPage::kSegLeaf);
}
}  // namespace

// One mini-transaction per page, so that a long value never pins more than two frames.
Result<ExternRef> LobStore::Write(std::string_view value) {
  const std::size_t capacity = BlobPage::Capacity(space_.page_size().bytes());
  ExternRef ref;
  ref.space_id = space_.id().value();
  ref.offset_or_version = kFilHeaderSize;  // BLOB data starts at FIL_PAGE_DATA
  ref.length = value.size();
  PageNo prev = kNullPage;
  for (std::size_t at = 0; at < value.size() || at == 0; at += capacity) {
    Mtr mtr(pool_);
    Status s;
    const FsegHeader seg = LeafSegment(mtr, space_, root_, &s);
    STRATA_RETURN_IF_ERROR(s);
    MtrPageStore store(mtr, space_);
    auto n = SpaceManager(store).AllocatePage(seg);
    if (!n.ok()) return n.status();
    auto page = mtr.Create({space_.id(), *n});
    if (!page.ok()) return page.status();
    FilHeaderWriter(*page).set_type(PageType::kBlob);
    const std::size_t part = std::min(capacity, value.size() - at);
    BlobPage{static_cast<std::uint32_t>(part), kNullPage}.EncodeTo(*page);
    std::memcpy(page->data() + BlobPage::kData, value.data() + at, part);
    if (prev == kNullPage) {
      ref.page_no = n->value();
    } else {
      auto p = mtr.Write({space_.id(), prev});
      if (!p.ok()) return p.status();
      Store32(*p, BlobPage::kNextPage, n->value());
    }
    prev = *n;
    if (value.empty()) break;
  }
  return ref;
}

Result<std::string> LobStore::Read(const ExternRef& ref) {
  std::string out;
  out.reserve(ref.length);
  BlobChain chain(ref.page_no, ref.length);
  while (auto p = chain.next()) {
    auto g = pool_.Read({space_.id(), PageNo(*p)});
    if (!g.ok()) return g.status();
    if (Status st = chain.Take(*p, g->page(), out); !st.ok()) return st.WithContext(space_.path().string());
  }
  if (Status st = chain.Finish(); !st.ok()) return st.WithContext(space_.path().string());
  return out;
}

Status LobStore::Free(const ExternRef& ref) {
  std::set<std::uint32_t> seen;
  for (PageNo p(ref.page_no); p != kNullPage;) {
    if (!seen.insert(p.value()).second) return Status::Corruption("BLOB chain loops");
    Mtr mtr(pool_);
    auto page = mtr.Write({space_.id(), p});
    if (!page.ok()) return page.status();
    const PageNo next(Load32(*page, BlobPage::kNextPage));
    Status s;
    const FsegHeader seg = LeafSegment(mtr, space_, root_, &s);
    STRATA_RETURN_IF_ERROR(s);
    MtrPageStore store(mtr, space_);
    STRATA_RETURN_IF_ERROR(SpaceManager(store).FreePage(seg, p));
    p = next;
  }
  return Status::Ok();
}

}  // namespace strata::engine
