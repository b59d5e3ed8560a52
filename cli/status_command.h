// `strata status --datadir D`: the transaction system of a Strata data directory, as SHOW
// ENGINE INNODB STATUS prints its TRANSACTIONS section.
#pragma once

#include <string>
#include <vector>

namespace strata::cli {

int Status(const std::vector<std::string>& args);

}  // namespace strata::cli
