// The pages the space manager reads and changes, and where they come from. Today a simple
// write-back cache over one tablespace file (SimplePageStore); the buffer pool takes its place
// when it exists, behind the same interface.
#pragma once

#include <map>
#include <memory>
#include <vector>

#include "engine/env.h"
#include "ondisk/endian.h"
#include "ondisk/types.h"

namespace strata::engine {

class PageStore {
 public:
  virtual ~PageStore() = default;
  // A page for reading and changing; the store writes it back later. Pages at or past size()
  // are an error (a bug in the caller, or a damaged list pointing outside the file).
  virtual Result<ondisk::MutableBytes> Page(ondisk::PageNo n) = 0;
  // A page that is about to be initialised from scratch: no read from the file.
  virtual Result<ondisk::MutableBytes> NewPage(ondisk::PageNo n) = 0;
  virtual std::uint32_t size() const = 0;  // pages
  virtual Status Grow(std::uint32_t pages) = 0;
  virtual ondisk::PageSize page_size() const = 0;
  virtual ondisk::SpaceId space_id() const = 0;
};

// Keeps every page it has handed out in memory until Flush(), which stamps each with the LSN
// and a CRC-32C checksum and writes it. Enough for one tablespace being built or changed by a
// single thread; the buffer pool replaces it.
class SimplePageStore final : public PageStore {
 public:
  SimplePageStore(std::unique_ptr<File> file, ondisk::SpaceId space, ondisk::PageSize ps, std::uint32_t size)
      : file_(std::move(file)), space_(space), ps_(ps), size_(size) {}

  Result<ondisk::MutableBytes> Page(ondisk::PageNo n) override;
  Result<ondisk::MutableBytes> NewPage(ondisk::PageNo n) override;
  std::uint32_t size() const override { return size_; }
  Status Grow(std::uint32_t pages) override;
  ondisk::PageSize page_size() const override { return ps_; }
  ondisk::SpaceId space_id() const override { return space_; }

  // Writes every cached page (FIL page number, space id and LSN set, checksum stamped) and
  // syncs the file.
  Status Flush(ondisk::Lsn lsn);
  File& file() { return *file_; }

 private:
  std::unique_ptr<File> file_;
  ondisk::SpaceId space_;
  ondisk::PageSize ps_;
  std::uint32_t size_;
  std::map<std::uint32_t, std::vector<std::byte>> pages_;
};

}  // namespace strata::engine
