#include "ondisk/fil_header.h"

namespace strata::ondisk {

Status CheckPageSpan(ConstBytes page) {
  if (!PageSize::IsValid(page.size())) {
    return Status::CorruptionAt(
        page.size(), "page is " + std::to_string(page.size()) + " bytes; expected 4, 8, 16, 32 or 64 KiB (truncated?)");
  }
  return Status::Ok();
}

Result<FilHeader> FilHeader::Open(ConstBytes page) {
  STRATA_RETURN_IF_ERROR(CheckPageSpan(page));
  return FilHeader(page);
}

FilHeader::FilHeader(ConstBytes page) : p_(page) { assert(PageSize::IsValidPhysical(page.size())); }

FilHeaderWriter::FilHeaderWriter(MutableBytes page) : p_(page) { assert(PageSize::IsValid(page.size())); }

void FilHeaderWriter::set_lsn(Lsn v) {
  Store64(p_, FilHeader::kLsn, v.value());
  Store32(p_, p_.size() - 4, static_cast<std::uint32_t>(v.value()));
}

}  // namespace strata::ondisk
