#include "tests/util/fixtures.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <stdexcept>

namespace strata::testing {

std::filesystem::path SharedFixturesDir() {
  if (const char* env = std::getenv("STRATA_FIXTURES")) return env;
  return STRATA_SHARED_FIXTURES_DIR;
}

std::filesystem::path TestDataDir() { return STRATA_TEST_DATA_DIR; }

std::vector<std::filesystem::path> IbdFilesUnder(const std::filesystem::path& dir) {
  std::vector<std::filesystem::path> out;
  if (!std::filesystem::is_directory(dir)) {
    throw std::runtime_error("fixture directory missing: " + dir.string());
  }
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir)) {
    if (e.is_regular_file() && e.path().extension() == ".ibd") out.push_back(e.path());
  }
  std::sort(out.begin(), out.end());
  if (out.empty()) throw std::runtime_error("no .ibd files under " + dir.string());
  return out;
}

std::string ReadText(const std::filesystem::path& path) {
  const auto bytes = ReadWholeFile(path);
  return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
}

std::vector<std::byte> ReadWholeFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot open " + path.string());
  in.seekg(0, std::ios::end);
  std::vector<std::byte> data(static_cast<std::size_t>(in.tellg()));
  in.seekg(0);
  in.read(reinterpret_cast<char*>(data.data()), static_cast<std::streamsize>(data.size()));
  if (!in) throw std::runtime_error("cannot read " + path.string());
  return data;
}

void OverwriteAt(const std::filesystem::path& path, std::uint64_t offset, std::string_view bytes) {
  std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
  f.seekp(static_cast<std::streamoff>(offset));
  f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!f) throw std::runtime_error("cannot write " + path.string() + " at " + std::to_string(offset));
}

void FlipBitsAt(const std::filesystem::path& path, std::uint64_t offset, std::uint8_t mask) {
  std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
  f.seekg(static_cast<std::streamoff>(offset));
  char c = 0;
  f.read(&c, 1);
  if (!f) throw std::runtime_error("cannot read " + path.string() + " at " + std::to_string(offset));
  OverwriteAt(path, offset, std::string(1, static_cast<char>(c ^ static_cast<char>(mask))));
}

void WriteWholeFile(const std::filesystem::path& path, const std::vector<std::byte>& bytes) {
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

}  // namespace strata::testing
