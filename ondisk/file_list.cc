#include "ondisk/file_list.h"

#include <string>

namespace strata::ondisk {

Status FileAddr::CheckNode(std::size_t page_size, std::size_t node_size, std::size_t where) const {
  if (is_null()) return Status::Ok();
  if (offset < 38 || !Fits(page_size - 8, offset, node_size)) {
    return Status::CorruptionAt(where, "list address (page " + std::to_string(page.value()) + ", offset " +
                                           std::to_string(offset) + ") is outside the page body");
  }
  return Status::Ok();
}

Status ListBase::Check(std::size_t page_size, std::size_t node_size, std::size_t where) const {
  if ((length == 0) != first.is_null() || (length == 0) != last.is_null()) {
    return Status::CorruptionAt(where, "list base of length " + std::to_string(length) + " has " +
                                           (first.is_null() ? "no" : "a") + " first node");
  }
  STRATA_RETURN_IF_ERROR(first.CheckNode(page_size, node_size, where + 4));
  return last.CheckNode(page_size, node_size, where + 10);
}

}  // namespace strata::ondisk
