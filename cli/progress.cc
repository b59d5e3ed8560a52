#include "cli/progress.h"

#include <unistd.h>

#include <iostream>
#include <string>

namespace strata::cli {

inspect::ScanProgress::Callback TerminalProgressBar() {
  if (!::isatty(STDERR_FILENO)) return {};
  return [](std::uint64_t done, std::uint64_t total, const std::filesystem::path& file) {
    if (total < (1u << 16)) return;  // 65536 pages: 1 GiB at 16 KiB
    const int width = 30, filled = static_cast<int>(width * done / total);
    std::cerr << "\r" << file.filename().string() << " [" << std::string(filled, '#') << std::string(width - filled, ' ')
              << "] " << 100 * done / total << "%" << (done == total ? "\r\x1b[K" : "") << std::flush;
  };
}

}  // namespace strata::cli
