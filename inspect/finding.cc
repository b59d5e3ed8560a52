#include "inspect/finding.h"

namespace strata::inspect {

std::string ToString(Severity s) {
  switch (s) {
    case Severity::kInfo:
      return "info";
    case Severity::kWarning:
      return "warning";
    case Severity::kError:
      return "error";
  }
  return "?";
}

std::string Finding::ToString() const {
  std::string s = file;
  if (page) s += " page " + std::to_string(*page);
  if (offset) s += (page ? " offset " : " byte ") + std::to_string(*offset);
  s += ": " + what;
  if (!detail.empty()) s += " (" + detail + ")";
  return s;
}

nlohmann::json ToJson(const Finding& f) {
  return {{"severity", ToString(f.severity)},
          {"file", f.file.empty() ? nlohmann::json(nullptr) : nlohmann::json(f.file)},
          {"page", f.page ? nlohmann::json(*f.page) : nlohmann::json(nullptr)},
          {"offset", f.offset ? nlohmann::json(*f.offset) : nlohmann::json(nullptr)},
          {"what", f.what},
          {"detail", f.detail}};
}

bool HasError(const std::vector<Finding>& findings) {
  for (const auto& f : findings) {
    if (f.severity == Severity::kError) return true;
  }
  return false;
}

}  // namespace strata::inspect
