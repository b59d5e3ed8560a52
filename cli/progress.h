// A progress bar on stderr for long scans (files of 1 GiB and more), drawn only when stderr is
// a terminal so that scripts and pipes see clean output.
#pragma once

#include "inspect/page_info.h"

namespace strata::cli {

inspect::ScanProgress::Callback TerminalProgressBar();

}  // namespace strata::cli
