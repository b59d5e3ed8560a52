#include "engine/sync_point.h"

#include <atomic>

namespace strata::engine::sync_point {

namespace {
std::atomic<bool> armed{false};
Callback& Current() {
  static Callback callback;
  return callback;
}
}  // namespace

void Set(Callback callback) {
  armed.store(false, std::memory_order_release);
  Current() = std::move(callback);
  armed.store(static_cast<bool>(Current()), std::memory_order_release);
}

void Hit(std::string_view point) {
  if (!armed.load(std::memory_order_acquire)) return;
  Current()(point);
}

bool Armed() { return armed.load(std::memory_order_acquire); }

}  // namespace strata::engine::sync_point
