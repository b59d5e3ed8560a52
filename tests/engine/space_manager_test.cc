// The space manager against a model of which pages each segment owns, and its files against
// the inspector's checks (and MariaDB's innochecksum when installed).
#include "engine/space_manager.h"

#include <gtest/gtest.h>

#include <map>
#include <random>
#include <set>

#include "engine/env.h"
#include "engine/page_store.h"
#include "inspect/check.h"
#include "inspect/space_file.h"
#include "inspect/summary.h"
#include "ondisk/fil_header.h"
#include "ondisk/xdes.h"
#include "tests/util/run_command.h"
#include "tests/util/tsv.h"

namespace strata::engine {
namespace {

using namespace strata::ondisk;

constexpr std::uint32_t kFlags = 0x21 | (1u << 14);  // DYNAMIC with SDI, 16 KiB

std::unique_ptr<SimplePageStore> NewStore(const std::filesystem::path& path, std::uint32_t pages = 4) {
  auto f = Env::Default()->OpenFile(path, OpenMode::kCreateNew);
  EXPECT_TRUE(f.ok()) << f.status().ToString();
  EXPECT_TRUE((*f)->Resize(std::uint64_t{pages} * 16384).ok());
  return std::make_unique<SimplePageStore>(std::move(*f), SpaceId(77), PageSize(), pages);
}

// Hands out a page the way the engine's callers do: allocated, then created, so that it is
// written at the next flush (the checker reports a page in use that is all zeros).
Result<PageNo> AllocateAndCreate(SpaceManager& sm, PageStore& store, const FsegHeader& seg) {
  auto n = sm.AllocatePage(seg);
  if (n.ok()) {
    auto page = store.NewPage(*n);
    if (!page.ok()) return page.status();
  }
  return n;
}

inspect::CheckReport Check(const std::filesystem::path& path) {
  auto f = inspect::SpaceFile::Open(path);
  EXPECT_TRUE(f.ok()) << f.status().ToString();
  return inspect::CheckSpace(*f);
}

TEST(SpaceManagerTest, NewTablespaceLooksLikeInnodbsAndChecksClean) {
  testing::TempDir tmp;
  const auto path = tmp.path() / "t.ibd";
  auto store = NewStore(path);
  SpaceManager sm(*store);
  ASSERT_TRUE(sm.Init(kFlags).ok());
  ASSERT_TRUE(store->Flush(Lsn(100)).ok());
  auto f = inspect::SpaceFile::Open(path);
  ASSERT_TRUE(f.ok());
  EXPECT_EQ(f->flavor(), Flavor::kStrata);
  EXPECT_EQ(f->shape().flavor_name(), "Strata");
  inspect::SpaceSummary s = inspect::Summarize(*f);
  EXPECT_EQ(s.type_counts["FSP_HDR"], 1u);
  EXPECT_EQ(s.type_counts["IBUF_BITMAP"], 1u);
  EXPECT_EQ(s.type_counts["INODE"], 1u);
  EXPECT_EQ(s.checksum_failures, 0u);
  auto fsp = FspHeader::Open(f->page(0));
  ASSERT_TRUE(fsp.ok());
  EXPECT_EQ(fsp->free_limit(), 64u);  // one extent described, as InnoDB does
  EXPECT_EQ(fsp->frag_n_used(), 3u);  // pages 0, 1, 2
  EXPECT_EQ(fsp->free_frag().length, 1u);
  EXPECT_EQ(fsp->seg_inodes_free().length, 1u);
  inspect::CheckReport r = Check(path);
  EXPECT_TRUE(r.clean()) << inspect::ToText(r);
}

// Random allocations and frees over several segments, checked against a model after every
// batch: each segment's pages are used in the extent descriptors, every other page is free,
// the inode counts agree, and the inspector's list checks pass.
TEST(SpaceManagerTest, RandomAllocateAndFreeMatchesAModel) {
  testing::TempDir tmp;
  const auto path = tmp.path() / "t.ibd";
  auto store = NewStore(path);
  SpaceManager sm(*store);
  ASSERT_TRUE(sm.Init(kFlags).ok());
  std::vector<FsegHeader> segs;
  for (int i = 0; i < 5; ++i) {
    auto s = sm.CreateSegment();
    ASSERT_TRUE(s.ok()) << s.status().ToString();
    segs.push_back(*s);
  }
  std::vector<std::set<std::uint32_t>> owned(segs.size());
  std::mt19937 rng(5);
  for (int batch = 0; batch < 6; ++batch) {
    for (int op = 0; op < 1500; ++op) {
      const std::size_t s = rng() % segs.size();
      if (owned[s].empty() || rng() % 3) {
        auto p = AllocateAndCreate(sm, *store, segs[s]);
        ASSERT_TRUE(p.ok()) << p.status().ToString();
        for (const auto& o : owned) ASSERT_FALSE(o.count(p->value())) << "page " << p->value() << " handed out twice";
        owned[s].insert(p->value());
      } else {
        auto it = owned[s].begin();
        std::advance(it, rng() % owned[s].size());
        ASSERT_TRUE(sm.FreePage(segs[s], PageNo(*it)).ok());
        owned[s].erase(it);
      }
    }
    ASSERT_TRUE(store->Flush(Lsn(1000 + batch)).ok());
    auto f = inspect::SpaceFile::Open(path);
    ASSERT_TRUE(f.ok());
    std::set<std::uint32_t> all;
    for (const auto& o : owned) all.insert(o.begin(), o.end());
    for (std::uint32_t n = 3; n < f->n_pages(); ++n) {
      if (n % 16384 < 2) continue;  // descriptor pages
      const bool inode_page = FilHeader(f->page(n)).type() == PageType::kInode;
      EXPECT_EQ(f->allocation().IsFree(n), !all.count(n) && !inode_page) << "page " << n << " batch " << batch;
    }
    for (std::size_t s = 0; s < segs.size(); ++s) {
      InodeEntry e(f->page(segs[s].page.value()), segs[s].slot(PageSize()));
      EXPECT_EQ(e.Usage().used_pages, owned[s].size()) << "segment " << s;
    }
    inspect::CheckReport r = inspect::CheckSpace(*f);
    ASSERT_TRUE(r.clean()) << "batch " << batch << ":\n" << inspect::ToText(r);
  }
  // The file grew in whole extents past its first and the fragment pages stayed at 32 per segment.
  auto f = inspect::SpaceFile::Open(path);
  EXPECT_GT(f->n_pages(), 64u);
}

TEST(SpaceManagerTest, ManySegmentsSpillToANewInodePage) {
  testing::TempDir tmp;
  const auto path = tmp.path() / "t.ibd";
  auto store = NewStore(path);
  SpaceManager sm(*store);
  ASSERT_TRUE(sm.Init(kFlags).ok());
  std::set<std::uint32_t> inode_pages;
  for (int i = 0; i < 200; ++i) {
    auto s = sm.CreateSegment();
    ASSERT_TRUE(s.ok());
    inode_pages.insert(s->page.value());
  }
  EXPECT_EQ(inode_pages.size(), 3u);  // 85 inodes a page
  ASSERT_TRUE(store->Flush(Lsn(5)).ok());
  inspect::CheckReport r = Check(path);
  EXPECT_TRUE(r.clean()) << inspect::ToText(r);
}

TEST(SpaceManagerTest, FreeingAPageTwiceOrAnotherSegmentsPageIsAnError) {
  testing::TempDir tmp;
  auto store = NewStore(tmp.path() / "t.ibd");
  SpaceManager sm(*store);
  ASSERT_TRUE(sm.Init(kFlags).ok());
  auto a = sm.CreateSegment(), b = sm.CreateSegment();
  std::vector<PageNo> pages;
  for (int i = 0; i < 40; ++i) pages.push_back(*AllocateAndCreate(sm, *store, *a));  // past the 32 fragment pages
  EXPECT_FALSE(sm.FreePage(*b, pages.back()).ok());
  ASSERT_TRUE(sm.FreePage(*a, pages.back()).ok());
  EXPECT_FALSE(sm.FreePage(*a, pages.back()).ok());
}

TEST(SpaceManagerTest, InnochecksumAcceptsOurFiles) {
  if (testing::RunCommand("command -v innochecksum").exit_code != 0) {
    GTEST_SKIP() << "innochecksum is not installed (scripts/install-deps.sh installs it)";
  }
  testing::TempDir tmp;
  const auto path = tmp.path() / "t.ibd";
  auto store = NewStore(path);
  SpaceManager sm(*store);
  ASSERT_TRUE(sm.Init(kFlags).ok());
  auto seg = sm.CreateSegment();
  for (int i = 0; i < 300; ++i) ASSERT_TRUE(AllocateAndCreate(sm, *store, *seg).ok());
  ASSERT_TRUE(store->Flush(Lsn(42)).ok());
  auto r = testing::RunCommand("innochecksum " + path.string());
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
}

}  // namespace
}  // namespace strata::engine

namespace strata::engine {
namespace {

// With 4 KiB pages every 16th extent starts with a descriptor page; growing past one must
// still find free extents (a regression: growth stopped at 16 MiB).
TEST(SpaceManagerTest, FourKilobytePagesGrowPastTheSecondDescriptorPage) {
  testing::TempDir tmp;
  const auto path = tmp.path() / "t4k.ibd";
  auto f = Env::Default()->OpenFile(path, OpenMode::kCreateNew);
  ASSERT_TRUE((*f)->Resize(4 * 4096).ok());
  SimplePageStore store(std::move(*f), SpaceId(5), PageSize(4096), 4);
  SpaceManager sm(store);
  ASSERT_TRUE(sm.Init(FspFlags::EncodeMySql(PageSize(4096), true, true, true)).ok());
  auto seg = sm.CreateSegment();
  ASSERT_TRUE(seg.ok());
  for (int i = 0; i < 9000; ++i) {
    auto p = AllocateAndCreate(sm, store, *seg);
    ASSERT_TRUE(p.ok()) << i << ": " << p.status().ToString();
  }
  EXPECT_GT(store.size(), 8192u);  // two descriptor pages behind
  ASSERT_TRUE(store.Flush(Lsn(3)).ok());
  inspect::CheckReport r = Check(path);
  EXPECT_TRUE(r.clean()) << inspect::ToText(r);
}

}  // namespace
}  // namespace strata::engine
