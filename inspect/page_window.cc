#include "inspect/page_window.h"

#include <algorithm>

namespace strata::inspect {

PageWindow::PageWindow(const SpaceFile& file, std::uint32_t max_pages)
    : file_(file),
      max_pages_(std::max<std::uint32_t>(max_pages, 1)),
      buffer_(std::size_t{max_pages_} * file.page_size()) {}

ondisk::ConstBytes PageWindow::Page(std::uint32_t n) {
  if (n >= file_.n_pages()) return {};
  const bool sequential = any_ && n == last_ + 1;
  last_ = n;
  any_ = true;
  if (n >= first_ && n - first_ < count_) {
    return {buffer_.data() + std::size_t{n - first_} * file_.page_size(), file_.page_size()};
  }
  // A single page when the pass jumps about (a table filled in random key order): reading
  // ahead would copy pages it may never visit.
  const std::uint32_t want = sequential ? std::min(max_pages_, file_.n_pages() - n) : 1;
  if (!file_.ReadPages(n, want, buffer_.data())) {
    count_ = 0;
    return file_.page(n);  // the mapping; ReadPages failing is as rare as the mapping failing
  }
  first_ = n;
  count_ = want;
  return {buffer_.data(), file_.page_size()};
}

}  // namespace strata::inspect
