// The doublewrite area (INV-2), in its own file `ib_doublewrite` as MySQL 8.0.20+ keeps it:
// every batch of page writes goes there first, synced, and only then in place; the copies are
// kept until the in-place writes are synced too. A page torn by a crash mid-write is restored
// from its copy at the next open, before the redo log is replayed onto it.
//
// File layout: `slots` pages, each a whole page image as it was to be written (its own FIL
// header says which space and page it is; its checksum says whether the copy is whole).
#pragma once

#include <functional>
#include <memory>
#include <mutex>
#include <vector>

#include "engine/engine_status.h"
#include "engine/buffer_pool.h"
#include "engine/env.h"

namespace strata::engine {

class Doublewrite {
 public:
  static constexpr std::uint32_t kSlots = 128;

  // Opens (creating when missing) the area.
  static Result<std::unique_ptr<Doublewrite>> Open(Env& env, const std::filesystem::path& path, ondisk::PageSize ps);

  // The BufferPool::doublewrite hook: copies in chunks of kSlots, each synced before its
  // in-place writes and held until they are synced.
  Status Write(const std::vector<BufferPool::PageImage>& pages, const std::function<Status()>& write_in_place);

  // Restores every page whose in-place copy does not verify (torn, or never written) from a
  // whole copy here. Tablespaces are looked up by space id; unknown ones are skipped.
  Status Restore(const std::function<Tablespace*(ondisk::SpaceId)>& space_of);

  DoublewriteStats stats() const;

 private:
  Doublewrite(std::unique_ptr<File> file, ondisk::PageSize ps) : file_(std::move(file)), ps_(ps) {}
  std::unique_ptr<File> file_;
  ondisk::PageSize ps_;
  mutable std::mutex mu_;
  DoublewriteStats stats_;
};

}  // namespace strata::engine
