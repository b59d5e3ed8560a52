#include "tests/fuzz/redo_recovery.h"

#include <cstdlib>
#include <filesystem>
#include <string>

#include "engine/buffer_pool.h"
#include "engine/recovery.h"
#include "ondisk/redo_record.h"

namespace strata::fuzz {

using namespace strata::engine;
using namespace strata::ondisk;

namespace {

constexpr std::uint32_t kSpace = 1;
constexpr std::uint32_t kPages = 8;

const std::filesystem::path& Dir() {
  static const std::filesystem::path dir = [] {
    std::string pattern =
        (std::filesystem::temp_directory_path() / "strata-redo-fuzz-XXXXXX").string();
    const char* made = ::mkdtemp(pattern.data());
    return std::filesystem::path(made ? made : std::filesystem::temp_directory_path().string());
  }();
  return dir;
}

}  // namespace

void ReplayRedo(const std::uint8_t* data, std::size_t size) {
  const PageSize ps;
  auto file = Env::Default()->OpenFile(Dir() / "t.ibd", OpenMode::kCreate);
  if (!file.ok() || !(*file)->Resize(0).ok() ||
      !(*file)->Resize(std::uint64_t{kPages} * ps.bytes()).ok())
    std::abort();
  Tablespace space(std::move(*file), SpaceId(kSpace), ps, kPages);
  BufferPoolOptions o;
  o.bytes = 64 * ps.bytes();
  o.page_cleaner = false;
  BufferPool pool(o);
  pool.Register(&space);
  std::vector<RedoGroup> groups{
      {Lsn(1000), Lsn(1000 + size), ConstBytes(reinterpret_cast<const std::byte*>(data), size)}};
  (void)ApplyRedo(pool, groups);
  // Nothing is flushed: the pool goes with its frames.
}

std::vector<std::vector<std::uint8_t>> RedoSeeds() {
  auto bytes = [](const std::vector<std::byte>& v) {
    std::vector<std::uint8_t> out(v.size());
    for (std::size_t i = 0; i < v.size(); ++i) out[i] = std::to_integer<std::uint8_t>(v[i]);
    return out;
  };
  std::vector<std::vector<std::uint8_t>> seeds;
  const std::byte text[] = {std::byte{'r'}, std::byte{'o'}, std::byte{'w'}, std::byte{1},
                            std::byte{0xFF}};
  std::vector<std::byte> g;
  AppendRedoInit(g, kSpace, 3);
  AppendRedoWrite(g, kSpace, 3, 38, ConstBytes(text, sizeof text));
  AppendRedoWrite(g, kSpace, 3, 16000, ConstBytes(text, sizeof text));
  AppendRedoMtrEnd(g);
  seeds.push_back(bytes(g));
  g.clear();
  AppendRedoExtend(g, kSpace, kPages + 64);
  AppendRedoInit(g, kSpace, kPages + 10);
  AppendRedoWrite(g, kSpace, kPages + 10, 100, ConstBytes(text, 3));
  AppendRedoWrite(g, 7, 2, 100, ConstBytes(text, 3));  // a dropped table's
  AppendRedoMtrEnd(g);
  seeds.push_back(bytes(g));
  g.resize(g.size() - 4);  // a record cut short
  seeds.push_back(bytes(g));
  return seeds;
}

}  // namespace strata::fuzz
