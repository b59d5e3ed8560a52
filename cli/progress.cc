#include "cli/progress.h"

#include <unistd.h>

#include <algorithm>
#include <iostream>
#include <string>

namespace strata::cli {

namespace {
void Draw(const std::string& label, std::uint64_t done, std::uint64_t total, const std::string& detail = "") {
  const int width = 30, filled = total ? static_cast<int>(width * std::min(done, total) / total) : width;
  std::cerr << "\r" << label << " [" << std::string(filled, '#') << std::string(width - filled, ' ') << "] "
            << (total ? 100 * std::min(done, total) / total : 100) << "%" << (detail.empty() ? "" : "  " + detail)
            << "\x1b[K" << (done == total ? "\r\x1b[K" : "") << std::flush;
}
}  // namespace

inspect::ScanProgress::Callback TerminalProgressBar() {
  if (!::isatty(STDERR_FILENO)) return {};
  return [](std::uint64_t done, std::uint64_t total, const std::filesystem::path& file) {
    if (total < (1u << 16)) return;  // 65536 pages: 1 GiB at 16 KiB
    Draw(file.filename().string(), done, total);
  };
}

ProgressBar::ProgressBar(std::string label, std::uint64_t total)
    : label_(std::move(label)), total_(total), enabled_(::isatty(STDERR_FILENO)) {}

void ProgressBar::Update(std::uint64_t done, const std::string& detail) {
  if (!enabled_) return;
  const auto now = std::chrono::steady_clock::now();
  if (done < total_ && now - last_ < std::chrono::milliseconds(100)) return;
  last_ = now;
  Draw(label_, done, total_, detail);
}

void ProgressBar::Finish() {
  if (enabled_) std::cerr << "\r\x1b[K" << std::flush;
}

}  // namespace strata::cli
