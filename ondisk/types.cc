#include "ondisk/types.h"

namespace strata::ondisk {

std::string ToString(Flavor f) {
  switch (f) {
    case Flavor::kUnknown:
      return "unknown";
    case Flavor::kMySql:
      return "MySQL";
    case Flavor::kMariaDb:
      return "MariaDB";
    case Flavor::kStrata:
      return "Strata";
  }
  return "flavor(" + std::to_string(static_cast<int>(f)) + ")";
}

}  // namespace strata::ondisk
