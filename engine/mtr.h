// A mini-transaction: the pages one atomic change touches, latched until Commit. With a redo
// log, Commit turns every change into redo records (the bytes that differ from the page as
// the mtr first latched it; a page created here is logged whole, from INIT), appends them as
// one group and gives every changed page the group's end LSN. Redo disabled: the LSN still
// advances, nothing is logged.
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
  // The page if this mtr already holds it (a reader in the same thread must not latch it
  // again), else null.
  const std::byte* Held(PageId id);
  // A tablespace grew to `pages` within this mtr (replayed before the mtr's page changes).
  void NoteExtend(ondisk::SpaceId space, std::uint32_t pages) { extends_.push_back({space, pages}); }
  // Logs the changes, gives the pages their LSN and releases the latches.
  void Commit();

  BufferPool& pool() { return pool_; }

 private:
  struct Page {
    WriteGuard guard;
    bool created = false;
    std::vector<std::byte> before;  // the page when first latched (redo on; empty: created)
  };
  struct Extend {
    ondisk::SpaceId space;
    std::uint32_t pages;
  };
  Page* Find(PageId id);
  BufferPool& pool_;
  std::vector<Page> pages_;
  std::vector<Extend> extends_;
};

// The space manager's view of one tablespace through a mini-transaction.
class MtrPageStore final : public PageStore {
 public:
  MtrPageStore(Mtr& mtr, Tablespace& space) : mtr_(mtr), space_(space) {}
  Result<ondisk::MutableBytes> Page(ondisk::PageNo n) override { return mtr_.Write({space_.id(), n}); }
  Result<ondisk::MutableBytes> NewPage(ondisk::PageNo n) override { return mtr_.Create({space_.id(), n}); }
  std::uint32_t size() const override { return space_.size(); }
  Status Grow(std::uint32_t pages) override {
    STRATA_RETURN_IF_ERROR(space_.Extend(pages));
    mtr_.NoteExtend(space_.id(), pages);
    return Status::Ok();
  }
  ondisk::PageSize page_size() const override { return space_.page_size(); }
  ondisk::SpaceId space_id() const override { return space_.id(); }

 private:
  Mtr& mtr_;
  Tablespace& space_;
};

}  // namespace strata::engine
