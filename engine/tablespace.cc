#include "engine/tablespace.h"

#include <fmt/format.h>

#include "ondisk/checksum.h"

namespace strata::engine {

using namespace strata::ondisk;

Result<std::unique_ptr<Tablespace>> Tablespace::Open(std::unique_ptr<File> file, SpaceId id, PageSize ps) {
  auto bytes = file->Size();
  if (!bytes.ok()) return bytes.status();
  if (*bytes % ps.bytes() != 0 || *bytes == 0) {
    return Status::Corruption(fmt::format("{}: {} bytes is not a whole number of {}-byte pages (truncated file?)",
                                          file->path().string(), *bytes, ps.bytes()));
  }
  return std::make_unique<Tablespace>(std::move(file), id, ps, static_cast<std::uint32_t>(*bytes / ps.bytes()));
}

Status Tablespace::Read(PageNo n, MutableBytes out) {
  if (n.value() >= size()) {
    return Status::Corruption(
        fmt::format("{}: page {} is past the end of the file ({} pages)", path().string(), n.value(), size()));
  }
  STRATA_RETURN_IF_ERROR(file_->Read(std::uint64_t{n.value()} * ps_.bytes(), out));
  const PageCheck check = ValidatePage(out, false);
  if (check.all_zero) return Status::Ok();
  if (!check.valid || check.lsn_mismatch) {
    return Status::Corruption(fmt::format(
        "{}: page {} (offset {}) {}", path().string(), n.value(), std::uint64_t{n.value()} * ps_.bytes(),
        check.lsn_mismatch
            ? "is torn: header and trailer LSNs differ"
            : fmt::format("has a bad checksum (stored {:#010x}, computed {:#010x})", check.stored, check.computed)));
  }
  if (CheckPlacement(out, n, id_).any()) {
    return Status::Corruption(
        fmt::format("{}: page {} carries another page's number or space id", path().string(), n.value()));
  }
  return Status::Ok();
}

Status Tablespace::Write(PageNo n, ConstBytes page) {
  return file_->Write(std::uint64_t{n.value()} * ps_.bytes(), page);
}

Status Tablespace::Extend(std::uint32_t pages) {
  std::lock_guard lock(extend_mu_);
  if (pages <= size()) return Status::Ok();
  STRATA_RETURN_IF_ERROR(file_->Resize(std::uint64_t{pages} * ps_.bytes()));
  size_.store(pages, std::memory_order_release);
  return Status::Ok();
}

}  // namespace strata::engine
