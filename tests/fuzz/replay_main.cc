// Runs the fuzz target's decoders without libFuzzer, so that they are a regression test in
// every build (and under ASan/UBSan in CI):
//   fuzz_replay INPUT...          each file (or every file under a directory) is one input
//   fuzz_replay --ibd PATH...     every page of every .ibd (or .ibd.gz) under PATH, at the
//                                 page size and checksum format its FSP flags give, as found
//                                 and with deterministic byte flips and truncations
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include <zlib.h>

#include "ondisk/fsp_header.h"
#include "ondisk/mach.h"
#include "tests/fuzz/page_decoders.h"

namespace fs = std::filesystem;

namespace {

std::vector<std::uint8_t> ReadFile(const fs::path& p) {
  if (p.extension() == ".gz") {
    std::vector<std::uint8_t> out;
    gzFile gz = gzopen(p.c_str(), "rb");
    if (gz == nullptr) return out;
    std::uint8_t buf[1 << 16];
    for (int n; (n = gzread(gz, buf, sizeof buf)) > 0;) out.insert(out.end(), buf, buf + n);
    gzclose(gz);
    return out;
  }
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

bool IsTablespace(const fs::path& p) {
  const std::string name = p.filename().string();
  return name.ends_with(".ibd") || name.ends_with(".ibd.gz");
}

std::vector<fs::path> Files(const fs::path& p, bool tablespaces) {
  std::vector<fs::path> out;
  if (fs::is_directory(p)) {
    for (const auto& e : fs::recursive_directory_iterator(p)) {
      if (e.is_regular_file() && (!tablespaces || IsTablespace(e.path()))) out.push_back(e.path());
    }
  } else if (fs::is_regular_file(p)) {
    out.push_back(p);
  }
  return out;
}

std::size_t inputs = 0;

void Run(const std::vector<std::uint8_t>& input) {
  strata::fuzz::DecodeEverything(input.data(), input.size());
  ++inputs;
}

// The fuzz input's first byte (see DecodeEverything) for a file's page size and checksum
// format, read from page 0's FSP flags; 16 KiB and the normal format when they are unreadable.
std::uint8_t Selector(const std::vector<std::uint8_t>& file, std::size_t* page_size) {
  *page_size = 16384;
  using namespace strata::ondisk;
  if (file.size() < FspHeader::kFlags + 4) return 2;
  auto flags = FspFlags::Decode(
      Load32(ConstBytes(reinterpret_cast<const std::byte*>(file.data()), file.size()), FspHeader::kFlags));
  if (!flags.ok()) return 2;
  if (flags->zip_ssize != 0 && !flags->full_crc32) {
    // ROW_FORMAT=COMPRESSED: 1-16 KiB pages, each unpacked as well as read as is.
    *page_size = flags->physical_page_size;
    std::uint8_t k = 0;
    while ((std::size_t{1024} << k) < *page_size) ++k;
    return static_cast<std::uint8_t>(0x80 | k << 4 | 2);
  }
  static constexpr std::size_t kSizes[] = {4096, 8192, 16384, 32768, 65536};
  for (std::uint8_t k = 0; k < 5; ++k) {
    if (kSizes[k] == flags->physical_page_size) {
      *page_size = kSizes[k];
      return static_cast<std::uint8_t>(k | (flags->full_crc32 ? 8 : 0));
    }
  }
  return 2;
}

// Each page, then its mutants: bursts of random byte writes (biased to the headers, where the
// pointers live), the last one a truncation.
void RunPages(const std::vector<std::uint8_t>& file, int mutants, std::mt19937& rng) {
  std::size_t kPage = 0;
  const std::uint8_t selector = Selector(file, &kPage);
  for (std::size_t off = 0; off + kPage <= file.size(); off += kPage) {
    std::vector<std::uint8_t> input(1 + kPage);
    input[0] = selector;
    std::memcpy(input.data() + 1, file.data() + off, kPage);
    Run(input);
    for (int m = 0; m < mutants; ++m) {
      std::vector<std::uint8_t> mutant = input;
      const int flips = 1 + static_cast<int>(rng() % 16);
      for (int f = 0; f < flips; ++f) {
        std::size_t at = 1 + (rng() % 2 ? rng() % 200 : rng() % kPage);
        mutant[at] = static_cast<std::uint8_t>(rng());
      }
      if (m == mutants - 1) mutant.resize(1 + rng() % kPage);
      Run(mutant);
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  bool ibd = false;
  int mutants = 8;
  std::mt19937 rng(20261130);
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--ibd") == 0) {
      ibd = true;
      continue;
    }
    if (std::strcmp(argv[i], "--mutants") == 0 && i + 1 < argc) {
      mutants = std::max(1, std::atoi(argv[++i]));
      continue;
    }
    for (const auto& f : Files(argv[i], ibd)) {
      if (ibd) {
        RunPages(ReadFile(f), mutants, rng);
      } else {
        Run(ReadFile(f));
      }
    }
  }
  std::printf("replayed %zu inputs\n", inputs);
  return inputs > 0 ? 0 : 1;  // no input at all means a missing fixture, not a pass
}
