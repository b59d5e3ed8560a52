// Pictures and reports are written whole or not at all: into a new temporary file beside the
// destination, synced, then renamed over it. An existing picture stays as it was until the
// new one is complete (a full disk leaves it untouched, not truncated), and a destination
// that is a symlink is replaced, not written through.
#pragma once

#include <cstdio>
#include <filesystem>
#include <functional>
#include <string_view>

#include "ondisk/status.h"

namespace strata::viz {

// `write` fills the open temporary file; its error (or a failed flush, sync or rename)
// removes the temporary file and leaves `path` as it was.
ondisk::Status WriteFileAtomically(const std::filesystem::path& path,
                                   const std::function<ondisk::Status(std::FILE*)>& write);
ondisk::Status WriteFileAtomically(const std::filesystem::path& path, std::string_view bytes);

}  // namespace strata::viz
