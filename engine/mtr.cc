#include "engine/mtr.h"

#include "ondisk/fil_header.h"

namespace strata::engine {

using namespace strata::ondisk;

WriteGuard* Mtr::Find(PageId id) {
  for (auto& g : pages_) {
    if (g.id().key() == id.key()) return &g;
  }
  return nullptr;
}

Result<MutableBytes> Mtr::Write(PageId id) {
  if (WriteGuard* g = Find(id)) return g->page();
  auto g = pool_.Write(id);
  if (!g.ok()) return g.status();
  pages_.push_back(std::move(*g));
  return pages_.back().page();
}

Result<MutableBytes> Mtr::Create(PageId id) {
  if (WriteGuard* g = Find(id)) {
    MutableBytes page = g->page();
    std::fill(page.begin(), page.end(), std::byte{0});
    FilHeaderWriter fil(page);
    fil.set_page_no(id.page);
    fil.set_space_id(id.space);
    fil.set_prev(kNullPage);
    fil.set_next(kNullPage);
    return page;
  }
  auto g = pool_.Create(id);
  if (!g.ok()) return g.status();
  pages_.push_back(std::move(*g));
  return pages_.back().page();
}

void Mtr::Commit() {
  if (pages_.empty()) return;
  const Lsn lsn = pool_.NextLsn();
  for (auto& g : pages_) g.set_lsn(lsn);
  pages_.clear();
}

}  // namespace strata::engine
