// Whether the server has a built-in function of a name: what Strata does not have yet is then
// "not supported" (1235), not "does not exist" (1305).
#pragma once

#include <string_view>

namespace strata::sql {

bool ServerHasFunction(std::string_view upper_name);

}  // namespace strata::sql
