// A mini-transaction: the pages one atomic change touches, latched until Commit, which gives
// every page it changed one new LSN. The durability issue adds redo records beneath the same
// interface; until then an Mtr is the unit of page latching and LSN stamping.
#pragma once

#include <vector>

#include "engine/buffer_pool.h"
#include "engine/page_store.h"

namespace strata::engine {

class Mtr {
 public:
  explicit Mtr(BufferPool& pool) : pool_(pool) {}
  ~Mtr() { Commit(); }
  Mtr(const Mtr&) = delete;
  Mtr& operator=(const Mtr&) = delete;

  // The page latched exclusively for this mtr (once; later calls return the same frame).
  Result<ondisk::MutableBytes> Write(PageId id);
  // A page being initialised from scratch (no read).
  Result<ondisk::MutableBytes> Create(PageId id);
  // Gives every page one new LSN and releases the latches.
  void Commit();

  BufferPool& pool() { return pool_; }

 private:
  WriteGuard* Find(PageId id);
  BufferPool& pool_;
  std::vector<WriteGuard> pages_;
};

// The space manager's view of one tablespace through a mini-transaction.
class MtrPageStore final : public PageStore {
 public:
  MtrPageStore(Mtr& mtr, Tablespace& space) : mtr_(mtr), space_(space) {}
  Result<ondisk::MutableBytes> Page(ondisk::PageNo n) override { return mtr_.Write({space_.id(), n}); }
  Result<ondisk::MutableBytes> NewPage(ondisk::PageNo n) override { return mtr_.Create({space_.id(), n}); }
  std::uint32_t size() const override { return space_.size(); }
  Status Grow(std::uint32_t pages) override { return space_.Extend(pages); }
  ondisk::PageSize page_size() const override { return space_.page_size(); }
  ondisk::SpaceId space_id() const override { return space_.id(); }

 private:
  Mtr& mtr_;
  Tablespace& space_;
};

}  // namespace strata::engine
