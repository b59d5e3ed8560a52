// `strata inspect rows`: a table's rows read from its tablespace, as the client prints them.
#pragma once

#include <string>
#include <vector>

namespace strata::cli {

int InspectRows(const std::vector<std::string>& args);

}  // namespace strata::cli
