#include "engine/page_store.h"

#include "ondisk/checksum.h"
#include "ondisk/fil_header.h"

namespace strata::engine {

using namespace strata::ondisk;

Result<MutableBytes> SimplePageStore::Page(PageNo n) {
  if (n.value() >= size_) {
    return Status::Corruption(file_->path().string() + ": page " + std::to_string(n.value()) +
                              " is past the end of the tablespace (" + std::to_string(size_) + " pages)");
  }
  auto it = pages_.find(n.value());
  if (it == pages_.end()) {
    std::vector<std::byte> page(ps_.bytes());
    STRATA_RETURN_IF_ERROR(file_->Read(std::uint64_t{n.value()} * ps_.bytes(), page));
    it = pages_.emplace(n.value(), std::move(page)).first;
  }
  return MutableBytes(it->second);
}

Result<MutableBytes> SimplePageStore::NewPage(PageNo n) {
  if (n.value() >= size_) {
    return Status::Corruption(file_->path().string() + ": new page " + std::to_string(n.value()) + " is past the end");
  }
  auto& page = pages_[n.value()];
  page.assign(ps_.bytes(), std::byte{0});
  return MutableBytes(page);
}

Status SimplePageStore::Grow(std::uint32_t pages) {
  if (pages <= size_) return Status::Ok();
  STRATA_RETURN_IF_ERROR(file_->Resize(std::uint64_t{pages} * ps_.bytes()));
  size_ = pages;
  return Status::Ok();
}

Status SimplePageStore::Flush(Lsn lsn) {
  for (auto& [n, page] : pages_) {
    FilHeaderWriter fil(page);
    fil.set_page_no(PageNo(n));
    fil.set_space_id(space_);
    fil.set_lsn(lsn);
    StampChecksum(page, ChecksumAlgorithm::kCrc32);
    STRATA_RETURN_IF_ERROR(file_->Write(std::uint64_t{n} * ps_.bytes(), page));
  }
  return file_->Sync();
}

}  // namespace strata::engine
