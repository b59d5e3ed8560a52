// What the engine's benchmark programs share (durability_bench, trx_bench): sizes from the
// environment, section selection, percentiles and number formatting, progress lines on
// stderr, scratch directories, and what the machine is. Each program sets ProgramName() first.
#pragma once

#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

namespace strata::bench {

namespace fs = std::filesystem;

constexpr std::uint64_t kMiB = 1u << 20;

// "durability_bench": prefixes errors and progress lines, names scratch directories.
inline std::string& ProgramName() {
  static std::string name = "bench";
  return name;
}

[[noreturn]] inline void Die(const std::string& what) {
  std::fprintf(stderr, "%s: %s\n", ProgramName().c_str(), what.c_str());
  std::fflush(stderr);
  std::_Exit(1);
}

inline std::uint64_t EnvU64(const char* name, std::uint64_t fallback) {
  const char* s = std::getenv(name);
  if (s == nullptr || *s == '\0') return fallback;
  char* end = nullptr;
  const unsigned long long v = std::strtoull(s, &end, 10);
  if (*end != '\0') Die(std::string(name) + " must be a non-negative integer, not '" + s + "'");
  return v;
}

inline double EnvDouble(const char* name, double fallback) {
  const char* s = std::getenv(name);
  if (s == nullptr || *s == '\0') return fallback;
  char* end = nullptr;
  const double v = std::strtod(s, &end);
  if (*end != '\0' || !(v > 0)) Die(std::string(name) + " must be a positive number, not '" + s + "'");
  return v;
}

// A comma-separated list of positive integers, e.g. "1,8,50".
inline std::vector<std::uint64_t> EnvList(const char* name, const char* fallback, std::uint64_t max) {
  const char* s = std::getenv(name);
  const std::string list = (s && *s) ? s : fallback;
  std::vector<std::uint64_t> out;
  for (std::size_t at = 0; at < list.size();) {
    const std::size_t comma = std::min(list.find(',', at), list.size());
    const std::string item = list.substr(at, comma - at);
    char* end = nullptr;
    const unsigned long long v = std::strtoull(item.c_str(), &end, 10);
    if (item.empty() || *end != '\0' || v < 1 || v > max) {
      Die(std::string(name) + ": comma-separated numbers from 1 to " + std::to_string(max) + ", not '" + list + "'");
    }
    out.push_back(v);
    at = comma + 1;
  }
  return out;
}

// STRATA_BENCH_ONLY: a comma-separated subset of the program's sections (default: all).
inline bool Wanted(const char* section) {
  const char* s = std::getenv("STRATA_BENCH_ONLY");
  if (s == nullptr || *s == '\0') return true;
  const std::string list = std::string(",") + s + ",";
  return list.find(std::string(",") + section + ",") != std::string::npos;
}

inline double Seconds(std::chrono::steady_clock::duration d) { return std::chrono::duration<double>(d).count(); }

// Nearest-rank percentile of a sorted sample.
inline double Percentile(const std::vector<double>& sorted, double q) {
  if (sorted.empty()) return 0;
  std::size_t rank = static_cast<std::size_t>(std::ceil(q * static_cast<double>(sorted.size())));
  rank = std::clamp<std::size_t>(rank, 1, sorted.size());
  return sorted[rank - 1];
}

// 1234567.8 -> "1,234,568"
inline std::string Thousands(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.0f", v);
  std::string s = buf, out;
  const bool neg = !s.empty() && s[0] == '-';
  if (neg) s.erase(0, 1);
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (i > 0 && (s.size() - i) % 3 == 0) out += ',';
    out += s[i];
  }
  return neg ? "-" + out : out;
}

inline std::string Fixed(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

inline void Progress(const std::string& s) {
  std::fprintf(stderr, "[%s] %s\n", ProgramName().c_str(), s.c_str());
  std::fflush(stderr);
}

inline fs::path BaseDir() {
  const char* s = std::getenv("STRATA_BENCH_DIR");
  return (s && *s) ? fs::path(s) : fs::temp_directory_path();
}

// A fresh directory under BaseDir(), removed by the destructor.
class TempDir {
 public:
  explicit TempDir(const std::string& tag) {
    static int counter = 0;  // one program, one thread creates these
    path_ = BaseDir() / ("strata-" + ProgramName() + "-" + std::to_string(::getpid()) + "-" +
                         std::to_string(++counter) + "-" + tag);
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

// The bytes of the files under `dir`: their sizes, or with `allocated` the blocks they take on
// disk (a sparse or preallocated file is not what its size says).
inline std::uintmax_t DirBytes(const fs::path& dir, bool allocated = false) {
  std::uintmax_t total = 0;
  std::error_code ec;
  for (const auto& e : fs::recursive_directory_iterator(dir, ec)) {
    if (!e.is_regular_file(ec)) continue;
    if (!allocated) {
      total += e.file_size(ec);
    } else {
      struct stat st {};
      if (::stat(e.path().c_str(), &st) == 0) total += static_cast<std::uintmax_t>(st.st_blocks) * 512;
    }
  }
  return total;
}

inline std::string FsName(const fs::path& p) {
  struct statfs st {};
  if (::statfs(p.c_str(), &st) != 0) return "?";
  switch (static_cast<unsigned long>(st.f_type)) {
    case 0xEF53:
      return "ext4";
    case 0x58465342:
      return "xfs";
    case 0x9123683E:
      return "btrfs";
    case 0x01021994:
      return "tmpfs (fsync does nothing: durable results here are not durable)";
    case 0x794c7630:
      return "overlayfs";
    case 0x2FC12FC1:
      return "zfs";
    default: {
      char buf[32];
      std::snprintf(buf, sizeof buf, "fs type 0x%lx", static_cast<unsigned long>(st.f_type));
      return buf;
    }
  }
}

// Reads up to `size` bytes from a pipe (a child's report), through EINTR; how many came
// before end of file or an error.
inline std::size_t ReadFully(int fd, void* into, std::size_t size) {
  std::size_t got = 0;
  while (got < size) {
    const ssize_t n = ::read(fd, static_cast<char*>(into) + got, size - got);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    got += static_cast<std::size_t>(n);
  }
  return got;
}

// /proc/cpuinfo's first "model name" ("?" where there is none).
inline std::string CpuModel() {
  std::ifstream in("/proc/cpuinfo");
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("model name", 0) == 0) return line.substr(line.find(':') + 2);
  }
  return "?";
}

// "Linux 6.1.0-18-amd64": uname's system and release.
inline std::string KernelName() {
  struct utsname un {};
  ::uname(&un);
  return std::string(un.sysname) + " " + un.release;
}

inline std::uint64_t PhysicalMemory() {
  return static_cast<std::uint64_t>(::sysconf(_SC_PHYS_PAGES)) * static_cast<std::uint64_t>(::sysconf(_SC_PAGE_SIZE));
}

// Where and on what a program measures: said in a progress line when it starts, and as its
// report's "## Machine" section (a program adds its own lines after it).
struct Machine {
  fs::path dir = BaseDir();
  unsigned cores = std::thread::hardware_concurrency();
  std::string cpu = CpuModel();
  std::uint64_t memory = PhysicalMemory();

  void SayStart() const {
    Progress("directory " + dir.string() + " (" + FsName(dir) + "), " + std::to_string(cores) + " cores, " +
             std::to_string(memory / kMiB) + " MiB memory");
  }
  void PrintSection() const {
    std::printf("\n## Machine\n\n");
    std::printf("- CPU: %s, %u cores (hardware_concurrency)\n", cpu.c_str(), cores);
    std::printf("- Memory: %s MiB\n", Thousands(static_cast<double>(memory / kMiB)).c_str());
    std::printf("- Kernel: %s\n", KernelName().c_str());
    std::printf("- Directory: %s (%s)\n", dir.string().c_str(), FsName(dir).c_str());
  }
};

// The programs take their settings from STRATA_BENCH_* variables only.
inline int EnvOnlyUsage() {
  std::fprintf(stderr, "usage: %s (settings through STRATA_BENCH_* variables; see the source)\n",
               ProgramName().c_str());
  return 2;
}

}  // namespace strata::bench
