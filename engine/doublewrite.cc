#include "engine/doublewrite.h"

#include <fmt/format.h>

#include <cstring>

#include "ondisk/checksum.h"
#include "ondisk/fil_header.h"

namespace strata::engine {

using namespace strata::ondisk;

Result<std::unique_ptr<Doublewrite>> Doublewrite::Open(Env& env, const std::filesystem::path& path, PageSize ps) {
  auto f = env.OpenFile(path, OpenMode::kCreate);
  if (!f.ok()) return f.status();
  auto size = (*f)->Size();
  if (!size.ok()) return size.status();
  if (*size != std::uint64_t{kSlots} * ps.bytes()) {
    STRATA_RETURN_IF_ERROR((*f)->Resize(std::uint64_t{kSlots} * ps.bytes()));
    STRATA_RETURN_IF_ERROR((*f)->Sync());
  }
  return std::unique_ptr<Doublewrite>(new Doublewrite(std::move(*f), ps));
}

Status Doublewrite::Write(const std::vector<BufferPool::PageImage>& pages,
                          const std::function<Status()>& write_in_place) {
  std::lock_guard lock(mu_);  // one batch at a time: the slots are shared
  const std::size_t ps = ps_.bytes();
  std::vector<std::byte> area;
  area.reserve(std::min<std::size_t>(pages.size(), kSlots) * ps);
  for (const auto& p : pages) area.insert(area.end(), p.bytes.begin(), p.bytes.end());
  if (pages.size() > kSlots) {
    return Status::InvalidArgument(fmt::format("doublewrite batch of {} pages; at most {}", pages.size(), kSlots));
  }
  STRATA_RETURN_IF_ERROR(file_->Write(0, area));
  STRATA_RETURN_IF_ERROR(file_->Sync());
  STRATA_RETURN_IF_ERROR(write_in_place());
  ++stats_.batches;
  stats_.pages += pages.size();
  return Status::Ok();
}

Status Doublewrite::Restore(const std::function<Tablespace*(SpaceId)>& space_of) {
  std::lock_guard lock(mu_);
  const std::size_t ps = ps_.bytes();
  std::vector<std::byte> copy(ps), current(ps);
  for (std::uint32_t slot = 0; slot < kSlots; ++slot) {
    STRATA_RETURN_IF_ERROR(file_->Read(std::uint64_t{slot} * ps, copy));
    const PageCheck check = ValidatePage(copy, false);
    if (!check.valid || check.all_zero || check.lsn_mismatch) continue;  // an empty or torn slot
    const FilHeader fil(copy);
    Tablespace* ts = space_of(fil.space_id());
    if (!ts) continue;
    const PageNo page = fil.page_no();
    if (page.value() < ts->size()) {
      // A page that verifies is whole (the redo log brings it forward if it is older); a torn
      // one, or one never written, takes the copy.
      Status s = ts->Read(page, current);
      if (s.ok() && !ValidatePage(current, false).all_zero) continue;
    } else {
      STRATA_RETURN_IF_ERROR(ts->Extend(page.value() + 1));
    }
    STRATA_RETURN_IF_ERROR(ts->Write(page, copy));
    STRATA_RETURN_IF_ERROR(ts->Sync());
    ++stats_.restored;
  }
  return Status::Ok();
}

DoublewriteStats Doublewrite::stats() const {
  std::lock_guard lock(mu_);
  return stats_;
}

}  // namespace strata::engine
