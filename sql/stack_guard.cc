#include "sql/stack_guard.h"

#include <pthread.h>

#include <cstdint>

#include <fmt/format.h>

namespace strata::sql {

namespace {

struct StackBounds {
  std::uintptr_t low = 0;  // the lowest usable address (0: unknown)
  std::size_t size = 0;
};

// Read once per thread: pthread_getattr_np is not cheap, and a thread's stack does not move.
const StackBounds& Bounds() {
  thread_local const StackBounds bounds = [] {
    StackBounds b;
    pthread_attr_t attr;
    if (pthread_getattr_np(pthread_self(), &attr) != 0) return b;
    void* addr = nullptr;
    std::size_t size = 0;
    if (pthread_attr_getstack(&attr, &addr, &size) == 0) {
      b.low = reinterpret_cast<std::uintptr_t>(addr);
      b.size = size;
    }
    pthread_attr_destroy(&attr);
    return b;
  }();
  return bounds;
}

}  // namespace

std::size_t StackLeft() {
  const StackBounds& b = Bounds();
  // The frame address, not a local's: AddressSanitizer may keep locals on a heap "fake stack".
  const auto here = reinterpret_cast<std::uintptr_t>(__builtin_frame_address(0));
  if (b.low == 0 || here < b.low) return SIZE_MAX;  // unknown: no limit rather than a false one
  return here - b.low;
}

std::optional<SqlError> CheckStack(std::size_t needed) {
  const std::size_t left = StackLeft();
  if (left >= needed) return std::nullopt;
  const std::size_t size = Bounds().size;
  return SqlError{1436, "HY000",
                  fmt::format("Thread stack overrun:  {} bytes used of a {} byte stack, and {} bytes needed.  "
                              "Use a simpler expression or a bigger stack.",
                              size - left, size, needed)};
}

}  // namespace strata::sql
