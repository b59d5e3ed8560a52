// The buffer pool on its own: who dirties pages, what a flush writes, midpoint insertion,
// the WAL hook, pinned pools and damaged pages.
#include "engine/buffer_pool.h"

#include <gtest/gtest.h>

#include <atomic>
#include <future>
#include <thread>

#include "ondisk/checksum.h"
#include "ondisk/fil_header.h"
#include "tests/util/tsv.h"

namespace strata::engine {
namespace {

using namespace strata::ondisk;

class PoolFixture {
 public:
  PoolFixture(std::size_t frames, std::uint32_t pages,
              std::chrono::milliseconds old_time = std::chrono::milliseconds(1000)) {
    path_ = tmp_.path() / "t.ibd";
    auto f = Env::Default()->OpenFile(path_, OpenMode::kCreateNew);
    EXPECT_TRUE(f.ok());
    EXPECT_TRUE((*f)->Resize(std::uint64_t{pages} * 16384).ok());
    space_ = std::make_unique<Tablespace>(std::move(*f), SpaceId(5), PageSize(), pages);
    BufferPoolOptions o;
    o.bytes = frames * 16384;
    o.page_cleaner = false;
    o.old_blocks_time = old_time;
    pool_ = std::make_unique<BufferPool>(o);
    pool_->Register(space_.get());
  }
  BufferPool& pool() { return *pool_; }
  const std::filesystem::path& path() const { return path_; }
  PageId id(std::uint32_t n) const { return {SpaceId(5), PageNo(n)}; }

 private:
  testing::TempDir tmp_;
  std::filesystem::path path_;
  std::unique_ptr<Tablespace> space_;
  std::unique_ptr<BufferPool> pool_;
};

std::vector<std::byte> ReadFilePage(const std::filesystem::path& path, std::uint32_t n) {
  std::vector<std::byte> page(16384);
  auto f = Env::Default()->OpenFile(path, OpenMode::kExisting);
  EXPECT_TRUE((*f)->Read(std::uint64_t{n} * 16384, page).ok());
  return page;
}

TEST(BufferPoolTest, OnlyWriteGuardsDirtyAndFlushStampsLsnAndChecksum) {
  PoolFixture fx(32, 8);
  {
    auto w = fx.pool().Create(fx.id(3));
    ASSERT_TRUE(w.ok());
    Store32(w->page(), 100, 0xABCD1234);
  }
  { auto r = fx.pool().Read(fx.id(3)); }
  EXPECT_EQ(fx.pool().stats().dirty, 1u);
  ASSERT_TRUE(fx.pool().FlushAll().ok());
  EXPECT_EQ(fx.pool().stats().dirty, 0u);
  { auto r = fx.pool().Read(fx.id(3)); }  // a read after the flush dirties nothing
  EXPECT_EQ(fx.pool().stats().dirty, 0u);
  auto page = ReadFilePage(fx.path(), 3);
  EXPECT_EQ(Load32(page, 100), 0xABCD1234u);
  PageCheck c = ValidatePage(page, false);
  EXPECT_TRUE(c.valid);
  EXPECT_FALSE(c.lsn_mismatch);
  EXPECT_EQ(c.algorithm, ChecksumAlgorithm::kCrc32);
  EXPECT_GT(FilHeader(page).lsn().value(), 8192u);
  EXPECT_EQ(FilHeader(page).page_no(), PageNo(3));
}

TEST(BufferPoolTest, WalHookSeesThePageLsnAndItsFailureStopsTheWrite) {
  PoolFixture fx(32, 8);
  Lsn seen(0);
  fx.pool().before_write = [&](Lsn lsn) {
    seen = lsn;
    return Status::IoError("log not durable");
  };
  Lsn written(0);
  {
    auto w = fx.pool().Create(fx.id(2));
    ASSERT_TRUE(w.ok());
  }
  written = fx.pool().current_lsn();
  Status s = fx.pool().FlushAll();
  EXPECT_EQ(s.message(), "log not durable");
  EXPECT_EQ(seen, written);
  EXPECT_EQ(fx.pool().stats().dirty, 1u);  // still dirty: nothing was lost
  EXPECT_TRUE(ValidatePage(ReadFilePage(fx.path(), 2), false).all_zero);
}

// Two flushes of one page in flight at once (the cleaner's and an eviction's, say) could land
// in either order: the first flush's older copy written last would leave the page's newer
// change only in memory, in a frame taken for clean, and eviction then loses it. The second
// flush waits for the first and writes the newer copy itself.
TEST(BufferPoolTest, AFlushThatCopiedAnOlderPageNeverLandsLast) {
  PoolFixture fx(32, 8);
  auto write_byte = [&](std::uint8_t v) {
    auto w = fx.pool().Write(fx.id(1));
    ASSERT_TRUE(w.ok());
    w->page()[200] = std::byte{v};
  };
  write_byte(1);
  std::promise<void> first_in_hook, release_first;
  std::shared_future<void> release = release_first.get_future().share();
  std::atomic<int> calls{0};
  fx.pool().before_write = [&](Lsn) {
    if (calls++ == 0) {
      first_in_hook.set_value();
      release.wait();  // the first flush has copied the page with 1 and is slow to write it
    }
    return Status::Ok();
  };
  std::thread first([&] { EXPECT_TRUE(fx.pool().FlushAll().ok()); });
  first_in_hook.get_future().wait();
  write_byte(2);
  std::thread second([&] { EXPECT_TRUE(fx.pool().FlushAll().ok()); });
  std::this_thread::sleep_for(std::chrono::milliseconds(100));  // unfixed, the second one finishes here
  release_first.set_value();
  first.join();
  second.join();
  EXPECT_EQ(ReadFilePage(fx.path(), 1)[200], std::byte{2});
  EXPECT_EQ(fx.pool().stats().dirty, 0u);
}

// A page touched twice (after old_blocks_time) joins the young sublist; a one-time scan of
// many other pages passes through the old sublist and evicts itself, not the hot page.
TEST(BufferPoolTest, MidpointInsertionKeepsHotPagesThroughAScan) {
  PoolFixture fx(64, 400, std::chrono::milliseconds(0));
  for (std::uint32_t n = 0; n < 400; ++n) ASSERT_TRUE(fx.pool().Create(fx.id(n)).ok());
  ASSERT_TRUE(fx.pool().FlushAll().ok());
  for (int round = 0; round < 2; ++round) {
    for (std::uint32_t n = 0; n < 8; ++n) ASSERT_TRUE(fx.pool().Read(fx.id(n)).ok());
  }
  const auto reads_before = fx.pool().stats().reads;
  for (std::uint32_t n = 100; n < 400; ++n) ASSERT_TRUE(fx.pool().Read(fx.id(n)).ok());
  const auto after_scan = fx.pool().stats().reads;
  EXPECT_EQ(after_scan - reads_before, 300u);
  for (std::uint32_t n = 0; n < 8; ++n) ASSERT_TRUE(fx.pool().Read(fx.id(n)).ok());
  EXPECT_EQ(fx.pool().stats().reads, after_scan) << "hot pages were evicted by the scan";
}

TEST(BufferPoolTest, EveryFramePinnedIsBusyNotADeadlock) {
  PoolFixture fx(16, 40);
  std::vector<WriteGuard> held;
  for (std::uint32_t n = 0; n < 16; ++n) {
    auto g = fx.pool().Create(fx.id(n));
    ASSERT_TRUE(g.ok());
    held.push_back(std::move(*g));
  }
  auto more = fx.pool().Read(fx.id(20));
  ASSERT_FALSE(more.ok());
  EXPECT_EQ(more.status().code(), Status::Code::kBusy);
  held.clear();
  EXPECT_TRUE(fx.pool().Read(fx.id(20)).ok());
}

TEST(BufferPoolTest, DamagedPageIsCorruptionNamingFileAndPage) {
  PoolFixture fx(16, 8);
  { ASSERT_TRUE(fx.pool().Create(fx.id(6)).ok()); }
  ASSERT_TRUE(fx.pool().FlushAll().ok());
  {
    auto f = Env::Default()->OpenFile(fx.path(), OpenMode::kExisting);
    std::vector<std::byte> b{std::byte{0x5A}};
    ASSERT_TRUE((*f)->Write(6 * 16384 + 500, b).ok());
  }
  // A second pool has nothing cached: it reads the damaged page from the file.
  BufferPoolOptions o;
  o.page_cleaner = false;
  o.bytes = 16 * 16384;
  BufferPool pool(o);
  auto f = Env::Default()->OpenFile(fx.path(), OpenMode::kExisting);
  Tablespace ts(std::move(*f), SpaceId(5), PageSize(), 8);
  pool.Register(&ts);
  auto g = pool.Read({SpaceId(5), PageNo(6)});
  ASSERT_FALSE(g.ok());
  EXPECT_TRUE(g.status().IsCorruption());
  EXPECT_NE(g.status().message().find("t.ibd: page 6"), std::string::npos) << g.status().message();
  EXPECT_NE(g.status().message().find("bad checksum"), std::string::npos);
}

}  // namespace
}  // namespace strata::engine
