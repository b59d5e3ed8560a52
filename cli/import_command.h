// `strata import DUMP... --datadir D`: loads mysqldump files (plain or gzip) fast.
#pragma once

#include <string>
#include <vector>

namespace strata::cli {

int Import(const std::vector<std::string>& args);

}  // namespace strata::cli
