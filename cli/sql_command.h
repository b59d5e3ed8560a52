// `strata sql`: the interactive SQL shell and batch runner (the mysql client's habits).
#pragma once

#include <string>
#include <vector>

namespace strata::cli {

int Sql(const std::vector<std::string>& args);

}  // namespace strata::cli
