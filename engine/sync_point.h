// Named places in the engine where a test can act at an exact moment: crash the process, make
// the log durable, wait for another thread (RocksDB's test_util/sync_point.h in spirit). Off
// unless a test sets a callback: a point costs one atomic load.
//
//   sync_point::Set([&](std::string_view point) { if (point == "mtr.committed" && ++n == k) ...;
//   });
//   ... run the engine ...
//   sync_point::Set(nullptr);
//
// Points: "mtr.committed" — a mini-transaction's redo is in the log buffer (with redo
// disabled: its LSN is taken) and its pages are released (no latch or log mutex held).
// "buffer_pool.writing space N" — a page write batch holds a copy of a page of space N and
// has marked its frame as being written, and has written nothing yet (no lock held).
#pragma once

#include <functional>
#include <string_view>

namespace strata::engine::sync_point {

using Callback = std::function<void(std::string_view point)>;

// Replaces the callback (null: every point does nothing again). Not for use while points run.
void Set(Callback callback);
void Hit(std::string_view point);
// A callback is set: a point whose name costs something to build is built only then.
bool Armed();

}  // namespace strata::engine::sync_point
