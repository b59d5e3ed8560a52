#include "engine/frame_memory.h"

#include <sys/mman.h>

#include <cstdint>
#include <new>

namespace strata::engine {

namespace {
constexpr std::size_t kHugePage = std::size_t{2} << 20;
}

FrameMemory::FrameMemory(std::size_t bytes) {
  // Over-map by one huge page so the frames can start on a 2 MiB boundary; the slack is never
  // touched, so it costs address space only.
  mapping_bytes_ = bytes + kHugePage;
  mapping_ = ::mmap(nullptr, mapping_bytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mapping_ == MAP_FAILED) {
    mapping_ = nullptr;
    throw std::bad_alloc();
  }
  const auto start = reinterpret_cast<std::uintptr_t>(mapping_);
  const auto aligned = (start + kHugePage - 1) & ~(kHugePage - 1);
  data_ = reinterpret_cast<std::byte*>(aligned);
#ifdef MADV_HUGEPAGE
  ::madvise(data_, bytes, MADV_HUGEPAGE);  // advice only: without THP the mapping still works
#endif
}

FrameMemory::~FrameMemory() {
  if (mapping_) ::munmap(mapping_, mapping_bytes_);
}

}  // namespace strata::engine
