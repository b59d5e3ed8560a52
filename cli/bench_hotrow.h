// `strata bench hotrow` and `strata bench async-commit`: many sessions updating one row, and a
// loop of small commits, with the commit-path options that change how they scale.
#pragma once

#include <string>
#include <vector>

namespace strata::cli {

int BenchHotRow(const std::vector<std::string>& args);
int BenchAsyncCommit(const std::vector<std::string>& args);

}  // namespace strata::cli
