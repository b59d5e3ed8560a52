// The memory behind the buffer pool's frames: one anonymous mapping, aligned to 2 MiB and
// offered to the kernel for transparent huge pages. Frames are touched for the first time as
// pages are created or read in; with 4 KiB pages every touch is a page fault (about 15 us on a
// paravirtualised VM, a fifth of a bulk load's time), with huge pages one fault covers 128
// frames. Where huge pages are off, this is an ordinary lazily-populated mapping.
#pragma once

#include <cstddef>

namespace strata::engine {

class FrameMemory {
 public:
  explicit FrameMemory(std::size_t bytes);  // throws std::bad_alloc when the mapping fails
  ~FrameMemory();
  FrameMemory(const FrameMemory&) = delete;
  FrameMemory& operator=(const FrameMemory&) = delete;

  std::byte* data() const { return data_; }

 private:
  void* mapping_ = nullptr;
  std::size_t mapping_bytes_ = 0;
  std::byte* data_ = nullptr;
};

}  // namespace strata::engine
