// A whole tablespace file in memory, split into pages, for tests over real files.
#pragma once

#include <filesystem>
#include <vector>

#include "ondisk/endian.h"
#include "ondisk/fsp_header.h"

namespace strata::testing {

struct TablespaceFile {
  std::filesystem::path path;
  std::vector<std::byte> bytes;
  std::size_t page_size = 0;

  // Reads the file and takes the page size from page 0's flags (fails the test otherwise).
  static TablespaceFile Load(const std::filesystem::path& path);
  std::size_t n_pages() const { return bytes.size() / page_size; }
  ondisk::ConstBytes page(std::size_t n) const { return {bytes.data() + n * page_size, page_size}; }
  bool full_crc32() const;
};

}  // namespace strata::testing
