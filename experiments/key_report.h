// The key experiment's report: results.json, report.md and report.html (the same text), the
// insert-time plot and the extents, LSN and index maps of every table side by side.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "experiments/key_experiment.h"

namespace strata::experiments {

struct KeyReport {
  KeyExperimentOptions options;
  std::vector<KeyRunResult> results;  // Strata's, then MariaDB's when it ran
  std::string command_line;
  std::string mariadb_version;  // empty when MariaDB did not run
};

nlohmann::json ToJson(const KeyReport& report);

// The figures as a fixed-width table (stdout).
std::string SummaryTable(const KeyReport& report);

// Writes everything into `dir` (created when missing); `written` lists the files.
ondisk::Status WriteKeyReport(const std::filesystem::path& dir, const KeyReport& report,
                              std::vector<std::filesystem::path>* written = nullptr);

}  // namespace strata::experiments
