// A dump or script read in blocks: a plain file, a gzip-compressed one (recognised by its
// first bytes, whatever its name), or stdin ("-").
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "ondisk/status.h"

namespace strata::cli {

class InputFile {
 public:
  // `gzip_allowed` false reads the bytes as they are, returning whatever a pipe has ready
  // (zlib would wait to fill its buffer): for statements typed or piped in one at a time.
  static ondisk::Result<std::unique_ptr<InputFile>> Open(const std::string& path, bool gzip_allowed = true);
  ~InputFile();
  // Up to `n` bytes of (uncompressed) text; 0 at the end.
  ondisk::Result<std::size_t> Read(char* buf, std::size_t n);
  // How far into the file (compressed bytes) reading got, and its size (0 for a pipe): progress.
  std::uint64_t position() const;
  std::uint64_t size() const { return size_; }
  const std::string& path() const { return path_; }

 private:
  InputFile() = default;
  void* gz_ = nullptr;  // gzFile: zlib reads plain files through the same calls
  int fd_ = -1;         // without zlib
  std::uint64_t offset_ = 0;
  std::string path_;
  std::uint64_t size_ = 0;
};

}  // namespace strata::cli
