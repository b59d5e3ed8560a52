// A finding: one problem an analyzer met, with where it is. Analyzers collect findings and
// keep going, so one bad page never hides the rest of the file.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace strata::inspect {

enum class Severity { kInfo, kWarning, kError };
std::string ToString(Severity s);

struct Finding {
  Severity severity = Severity::kError;
  std::string file;
  std::optional<std::uint32_t> page;
  std::optional<std::size_t> offset;  // within the page, or within the file when page is unset
  std::string what;                   // e.g. "checksum mismatch", "record chain loops"
  std::string detail;

  // "actor.ibd page 4 offset 125: record chain ends before the supremum (...)"
  std::string ToString() const;
};

nlohmann::json ToJson(const Finding& f);

// Whether any of them is an error (what makes a command exit 1).
bool HasError(const std::vector<Finding>& findings);

}  // namespace strata::inspect
