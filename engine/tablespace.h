// One tablespace file (architecture layer 2): maps a page number to its offset in the file,
// reads pages with their checksum verified, writes them, and grows the file.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>

#include "engine/env.h"
#include "ondisk/endian.h"
#include "ondisk/types.h"

namespace strata::engine {

class Tablespace {
 public:
  Tablespace(std::unique_ptr<File> file, ondisk::SpaceId id, ondisk::PageSize ps, std::uint32_t size_pages)
      : file_(std::move(file)), id_(id), ps_(ps), size_(size_pages) {}

  // Opens an existing file: its size must be a whole number of pages.
  static Result<std::unique_ptr<Tablespace>> Open(std::unique_ptr<File> file, ondisk::SpaceId id, ondisk::PageSize ps);

  // Reads page `n` and verifies it: a bad checksum, a torn write or a page that belongs
  // elsewhere is Corruption naming the file and page. An all-zero page (allocated, never
  // written) reads as zeros.
  Status Read(ondisk::PageNo n, ondisk::MutableBytes out);
  Status Write(ondisk::PageNo n, ondisk::ConstBytes page);
  Status Sync() { return file_->Sync(); }
  // Grows the file to `pages` (no-op when it is already that large).
  Status Extend(std::uint32_t pages);

  std::uint32_t size() const { return size_.load(std::memory_order_acquire); }
  ondisk::SpaceId id() const { return id_; }
  ondisk::PageSize page_size() const { return ps_; }
  const std::filesystem::path& path() const { return file_->path(); }

 private:
  std::unique_ptr<File> file_;
  ondisk::SpaceId id_;
  ondisk::PageSize ps_;
  std::atomic<std::uint32_t> size_;
  std::mutex extend_mu_;
};

}  // namespace strata::engine
