// Base64 (RFC 4648, with '=' padding), as the data dictionary's SDI writes what may not be
// text: the labels of ENUM and SET columns ("elements"), in their column's character set.
#pragma once

#include <string>
#include <string_view>

namespace strata::ondisk {

std::string Base64Encode(std::string_view bytes);
// Characters outside the alphabet (padding, line breaks) are skipped.
std::string Base64Decode(std::string_view text);

}  // namespace strata::ondisk
