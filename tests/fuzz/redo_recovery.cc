#include "tests/fuzz/redo_recovery.h"

#include <cstdlib>
#include <filesystem>
#include <string>
#include <system_error>

#include "engine/buffer_pool.h"
#include "engine/recovery.h"
#include "ondisk/redo_record.h"

namespace strata::fuzz {

using namespace strata::engine;
using namespace strata::ondisk;

namespace {

constexpr std::uint32_t kSpace = 1;
constexpr std::uint32_t kPages = 8;

// The scratch directory of this process, removed when it exits normally (the fuzzer's own
// exits included), so that runs do not pile up under /tmp.
class ScratchDir {
 public:
  ScratchDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "strata-redo-fuzz-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) std::abort();
    path_ = pattern;
  }
  ~ScratchDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

const std::filesystem::path& Dir() {
  static const ScratchDir dir;
  return dir.path();
}

// The file under the tablespace, grown at most to kCap pages in all: one input may hold
// thousands of growth records each within recovery's per-record limit, which would otherwise
// allocate gigabytes and turn every such input into a timeout.
class CappedFile final : public File {
 public:
  static constexpr std::uint64_t kCap = 1024;
  CappedFile(std::unique_ptr<File> base, std::uint64_t page) : base_(std::move(base)), page_(page) {}
  Status Read(std::uint64_t offset, std::span<std::byte> out) override { return base_->Read(offset, out); }
  Status Write(std::uint64_t offset, std::span<const std::byte> data) override { return base_->Write(offset, data); }
  Status Sync() override { return base_->Sync(); }
  Result<std::uint64_t> Size() override { return base_->Size(); }
  Status Resize(std::uint64_t size) override {
    if (size > kCap * page_) return Status::IoError("redo fuzz: the file may not grow past 1,024 pages");
    return base_->Resize(size);
  }
  const std::filesystem::path& path() const override { return base_->path(); }

 private:
  std::unique_ptr<File> base_;
  std::uint64_t page_;
};

}  // namespace

void ReplayRedo(const std::uint8_t* data, std::size_t size) {
  const PageSize ps;
  auto file = Env::Default()->OpenFile(Dir() / "t.ibd", OpenMode::kCreate);
  if (!file.ok() || !(*file)->Resize(0).ok() || !(*file)->Resize(std::uint64_t{kPages} * ps.bytes()).ok()) std::abort();
  Tablespace space(std::make_unique<CappedFile>(std::move(*file), ps.bytes()), SpaceId(kSpace), ps, kPages);
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
  const std::byte text[] = {std::byte{'r'}, std::byte{'o'}, std::byte{'w'}, std::byte{1}, std::byte{0xFF}};
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
