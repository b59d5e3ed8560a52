#include "tests/util/tsv.h"

#include <zlib.h>

#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>
#include <stdexcept>

namespace strata::testing {

std::vector<TsvRow> ReadTsv(const std::filesystem::path& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open " + path.string());
  auto split = [](const std::string& line) {
    std::vector<std::string> cols;
    std::istringstream s(line);
    for (std::string c; std::getline(s, c, '\t');) cols.push_back(c);
    return cols;
  };
  std::string line;
  std::getline(in, line);
  const auto header = split(line);
  std::vector<TsvRow> rows;
  while (std::getline(in, line)) {
    auto cols = split(line);
    TsvRow row;
    for (std::size_t i = 0; i < header.size() && i < cols.size(); ++i) row[header[i]] = cols[i];
    rows.push_back(std::move(row));
  }
  return rows;
}

void Gunzip(const std::filesystem::path& gz, const std::filesystem::path& out) {
  gzFile in = gzopen(gz.c_str(), "rb");
  if (!in) throw std::runtime_error("cannot open " + gz.string());
  std::ofstream o(out, std::ios::binary);
  char buf[1 << 16];
  int n;
  while ((n = gzread(in, buf, sizeof buf)) > 0) o.write(buf, n);
  gzclose(in);
  if (n < 0 || !o) throw std::runtime_error("cannot inflate " + gz.string());
}

TempDir::TempDir() {
  std::random_device rd;
  path_ = std::filesystem::temp_directory_path() / ("strata-test-" + std::to_string(rd()) + std::to_string(rd()));
  std::filesystem::create_directories(path_);
}

TempDir::~TempDir() {
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

}  // namespace strata::testing
