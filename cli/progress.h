// A progress bar on stderr for long scans (files of 1 GiB and more), drawn only when stderr is
// a terminal so that scripts and pipes see clean output.
#pragma once

#include <chrono>
#include <string>

#include "inspect/page_info.h"

namespace strata::cli {

inspect::ScanProgress::Callback TerminalProgressBar();

// A bar for counted work (rows inserted, ...): drawn on stderr when it is a terminal, at most
// ten times a second.
class ProgressBar {
 public:
  ProgressBar(std::string label, std::uint64_t total);
  void Update(std::uint64_t done, const std::string& detail = "");  // detail: shown after the percentage
  void Finish();                                                    // clears the line

 private:
  std::string label_;
  std::uint64_t total_;
  bool enabled_;
  std::chrono::steady_clock::time_point last_{};
};

}  // namespace strata::cli
