// Reading the tab-separated ground truth that the MariaDB fixture scripts (tests/data/*/make.sh)
// captured from the server.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace strata::testing {

using TsvRow = std::map<std::string, std::string>;

// Rows keyed by the header line's column names; throws std::runtime_error if unreadable.
std::vector<TsvRow> ReadTsv(const std::filesystem::path& path);

// Decompresses FILE.gz to `out`; throws on failure.
void Gunzip(const std::filesystem::path& gz, const std::filesystem::path& out);

// A fresh directory under the system temp dir, removed when the object goes away.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

}  // namespace strata::testing
