// The B-tree against a std::map model, with the structural checker after every batch, and its
// page fill against what InnoDB's split rules give for ascending, descending and random keys.
#include "engine/btree.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <map>
#include <random>

#include "engine/space_manager.h"
#include "inspect/check.h"
#include "inspect/space_file.h"
#include "ondisk/value.h"
#include "tests/util/tsv.h"

namespace strata::engine {
namespace {

using namespace strata::ondisk;

constexpr std::uint32_t kFlags = 0x21 | (1u << 14);  // DYNAMIC with SDI, 16 KiB

// An index keyed by a 4-byte signed integer, with the hidden columns and a variable payload.
IndexShape Shape() {
  IndexShape s;
  s.id = 42;
  s.leaf = ClusteredLeafLayout({FieldDef::Fixed("id", 4)}, {FieldDef::Variable("payload", 8000, true)});
  s.compare.assign(s.leaf.fields.size(), CompareKind::kBinary);
  s.n_key = 1;
  s.n_unique = 1;
  s.clustered = true;
  s.Finish();
  return s;
}

std::string Bytes(const std::vector<std::byte>& v) { return {reinterpret_cast<const char*>(v.data()), v.size()}; }
Datum Key(std::int32_t k) { return Datum::Of(Bytes(EncodeSigned(k, 4))); }

Tuple Row(std::int32_t k, const std::optional<std::string>& payload) {
  return {Key(k), Datum::Of(std::string(6, '\1')), Datum::Of(std::string(7, '\2')),
          payload ? Datum::Of(*payload) : Datum::Null()};
}

class TreeFixture {
 public:
  explicit TreeFixture(std::size_t pool_bytes = 64u << 20) {
    path_ = tmp_.path() / "t.ibd";
    auto f = Env::Default()->OpenFile(path_, OpenMode::kCreateNew);
    EXPECT_TRUE(f.ok());
    EXPECT_TRUE((*f)->Resize(4 * 16384).ok());
    space_ = std::make_unique<Tablespace>(std::move(*f), SpaceId(9), PageSize(), 4);
    BufferPoolOptions o;
    o.bytes = pool_bytes;
    pool_ = std::make_unique<BufferPool>(o);
    pool_->Register(space_.get());
    Mtr mtr(*pool_);
    MtrPageStore store(mtr, *space_);
    EXPECT_TRUE(SpaceManager(store).Init(kFlags).ok());
    auto sdi = mtr.Create({space_->id(), PageNo(3)});  // page 3 stays the SDI page's place
    EXPECT_TRUE(sdi.ok());
    auto root = Btree::Create(mtr, *space_, shape_);
    EXPECT_TRUE(root.ok()) << root.status().ToString();
    tree_ = std::make_unique<Btree>(*pool_, *space_, shape_, *root);
  }
  Btree& tree() { return *tree_; }
  BufferPool& pool() { return *pool_; }
  const std::filesystem::path& path() const { return path_; }

  // Leaf pages and their average fill as the inspector defines it.
  std::pair<std::size_t, double> LeafFill() {
    std::size_t pages = 0;
    double fill = 0;
    PageNo n = tree_->root();
    for (;;) {  // down the leftmost pointers
      auto g = pool_->Read({space_->id(), n});
      EXPECT_TRUE(g.ok());
      if (Load16(g->page(), IndexPage::kLevel) == 0) break;
      BtrPage p(MutableBytes(const_cast<std::byte*>(g->page().data()), g->page().size()), shape_.node);
      n = ChildOf(p, p.First());
    }
    while (n != kNullPage) {
      auto g = pool_->Read({space_->id(), n});
      BtrPage p(MutableBytes(const_cast<std::byte*>(g->page().data()), g->page().size()), shape_.leaf);
      ++pages;
      fill += static_cast<double>(p.DataSize()) / BtrPage::FreeSpaceOfEmpty(16384);
      n = p.next();
    }
    return {pages, fill / static_cast<double>(pages)};
  }

 private:
  testing::TempDir tmp_;
  std::filesystem::path path_;
  IndexShape shape_ = Shape();
  std::unique_ptr<Tablespace> space_;
  std::unique_ptr<BufferPool> pool_;
  std::unique_ptr<Btree> tree_;
};

std::string Payload(std::mt19937& rng, std::size_t max) {
  std::string s(std::uniform_int_distribution<std::size_t>(0, max)(rng), 'x');
  for (auto& c : s) c = static_cast<char>('a' + rng() % 26);
  return s;
}

void ExpectSameAsModel(Btree& tree, const std::map<std::int32_t, std::optional<std::string>>& model) {
  std::vector<std::int32_t> keys;
  ASSERT_TRUE(tree.Scan({}, true,
                        [&](const Tuple& t) {
                          keys.push_back(static_cast<std::int32_t>(*DecodeSigned(t[0].span())));
                          return true;
                        })
                  .ok());
  ASSERT_EQ(keys.size(), model.size());
  std::size_t i = 0;
  for (const auto& [k, v] : model) ASSERT_EQ(keys[i++], k);
}

void RunModel(TreeFixture& fx, int ops, std::uint32_t seed, std::size_t max_payload, int key_range) {
  std::mt19937 rng(seed);
  std::map<std::int32_t, std::optional<std::string>> model;
  Btree& tree = fx.tree();
  for (int op = 1; op <= ops; ++op) {
    const std::int32_t k = std::uniform_int_distribution<std::int32_t>(-key_range, key_range)(rng);
    const int what = static_cast<int>(rng() % 100);
    if (what < 45) {
      std::optional<std::string> payload;
      if (rng() % 10) payload = Payload(rng, max_payload);
      Status s = tree.Insert(Row(k, payload));
      if (model.count(k)) {
        ASSERT_TRUE(s.IsAlreadyExists()) << s.ToString();
      } else {
        ASSERT_TRUE(s.ok()) << s.ToString();
        model[k] = payload;
      }
    } else if (what < 75) {
      Status s = tree.Delete({Key(k)});
      ASSERT_EQ(s.ok(), model.erase(k) == 1) << s.ToString();
    } else if (what < 90) {
      auto payload = std::optional<std::string>(Payload(rng, max_payload));
      Status s = tree.Update(Row(k, payload));
      if (model.count(k)) {
        ASSERT_TRUE(s.ok()) << s.ToString();
        model[k] = payload;
      } else {
        ASSERT_TRUE(s.IsNotFound());
      }
    } else if (what < 97) {
      auto got = tree.Get({Key(k)});
      ASSERT_TRUE(got.ok());
      auto it = model.find(k);
      ASSERT_EQ(got->has_value(), it != model.end()) << k;
      if (it != model.end()) {
        const Datum& p = (**got)[3];
        ASSERT_EQ(p.null, !it->second.has_value());
        if (it->second) {
          ASSERT_EQ(p.bytes, *it->second);
        }
      }
    } else {  // a short range scan in either direction
      const bool forward = rng() % 2;
      std::vector<std::int32_t> got, want;
      Status s = tree.Scan({Key(k)}, forward, [&](const Tuple& t) {
        got.push_back(static_cast<std::int32_t>(*DecodeSigned(t[0].span())));
        return got.size() < 20;
      });
      ASSERT_TRUE(s.ok()) << s.ToString();
      if (forward) {
        for (auto it = model.lower_bound(k); it != model.end() && want.size() < 20; ++it) want.push_back(it->first);
      } else {
        for (auto it = model.upper_bound(k); it != model.begin() && want.size() < 20;) want.push_back((--it)->first);
      }
      ASSERT_EQ(got, want);
    }
    if (op % std::max(2000, ops / 100) == 0) {  // the check walks the whole tree: 100 of them at most
      Status c = tree.Check();
      ASSERT_TRUE(c.ok()) << "after op " << op << ": " << c.ToString();
      ExpectSameAsModel(tree, model);
    }
  }
  ASSERT_TRUE(tree.Check().ok());
  ExpectSameAsModel(tree, model);
}

// STRATA_MODEL_OPS raises the operation count: the `slow` label runs millions (make test-slow).
TEST(BtreeTest, RandomOperationsMatchAModel) {
  const char* env = std::getenv("STRATA_MODEL_OPS");
  const int ops = env ? std::atoi(env) : 60000;
  TreeFixture fx(ops > 100000 ? 8u << 20 : 64u << 20);  // long runs also churn a small pool
  RunModel(fx, ops, 1, 300, ops > 100000 ? 200000 : 20000);
  EXPECT_GT(fx.tree().stats().splits, 50u);
  EXPECT_GT(fx.tree().stats().merges + fx.tree().stats().discards, 5u);
}

TEST(BtreeTest, LargeRecordsSplitBySize) {
  TreeFixture fx;
  RunModel(fx, 8000, 2, 4000, 3000);
}

TEST(BtreeTest, TinyBufferPoolEvictsAndStillMatches) {
  TreeFixture fx(256u << 10);  // 16 frames
  RunModel(fx, 30000, 3, 200, 50000);
  EXPECT_GT(fx.pool().stats().evictions, 100u);
}

TEST(BtreeTest, DeletingEverythingLeavesAnEmptyRoot) {
  TreeFixture fx;
  for (int k = 0; k < 20000; ++k) ASSERT_TRUE(fx.tree().Insert(Row(k, std::string(100, 'p'))).ok());
  ASSERT_TRUE(fx.tree().Check().ok());
  for (int k = 0; k < 20000; ++k) ASSERT_TRUE(fx.tree().Delete({Key((k * 7919) % 20000)}).ok()) << k;
  ASSERT_TRUE(fx.tree().Check().ok());
  auto [pages, fill] = fx.LeafFill();
  EXPECT_EQ(pages, 1u);
}

// InnoDB's heuristics: ascending and descending runs leave pages about 15/16 full (the
// clustered index keeps 1/16 free); random keys leave them between half and three quarters.
TEST(BtreeTest, FillFollowsInnodbSplitRules) {
  auto fill_for = [](const std::vector<std::int32_t>& keys) {
    TreeFixture fx;
    for (auto k : keys) EXPECT_TRUE(fx.tree().Insert(Row(k, std::string(100, 'p'))).ok());
    EXPECT_TRUE(fx.tree().Check().ok());
    return fx.LeafFill();
  };
  std::vector<std::int32_t> asc(50000);
  for (int i = 0; i < 50000; ++i) asc[i] = i;
  std::vector<std::int32_t> desc(asc.rbegin(), asc.rend());
  std::vector<std::int32_t> rnd = asc;
  std::shuffle(rnd.begin(), rnd.end(), std::mt19937(7));
  auto [asc_pages, asc_fill] = fill_for(asc);
  auto [desc_pages, desc_fill] = fill_for(desc);
  auto [rnd_pages, rnd_fill] = fill_for(rnd);
  EXPECT_GT(asc_fill, 0.90);
  EXPECT_LT(asc_fill, 0.95);
  EXPECT_GT(desc_fill, 0.85);
  EXPECT_GT(rnd_fill, 0.55);
  EXPECT_LT(rnd_fill, 0.75);
  EXPECT_GT(rnd_pages, asc_pages * 5 / 4);
}

TEST(BtreeTest, FlushedFileChecksCleanWithTheInspector) {
  TreeFixture fx;
  for (int k = 0; k < 30000; ++k)
    ASSERT_TRUE(fx.tree().Insert(Row((k * 7919) % 30000, std::string(k % 300, 'q'))).ok());
  ASSERT_TRUE(fx.pool().FlushAll().ok());
  auto f = inspect::SpaceFile::Open(fx.path());
  ASSERT_TRUE(f.ok()) << f.status().ToString();
  auto report = inspect::CheckSpace(*f);
  for (const auto& finding : report.findings) ADD_FAILURE() << finding.ToString();
}

// A bottom-up build gives the same records as inserts, a tree the checker and the inspector
// accept, pages filled to 15/16, and an index that takes ordinary inserts and deletes after.
TEST(BtreeTest, BulkBuildFromSortedRecords) {
  for (int n : {0, 1, 50, 30000}) {
    TreeFixture fx;
    std::map<std::int32_t, std::optional<std::string>> model;
    Btree::BulkBuilder build(fx.tree());
    for (int k = 0; k < n; ++k) {
      const std::string payload(k % 200, static_cast<char>('a' + k % 26));
      ASSERT_TRUE(build.Add(Row(2 * k, payload)).ok());
      model[2 * k] = payload;
    }
    ASSERT_TRUE(build.Finish().ok());
    ASSERT_TRUE(fx.tree().Check().ok()) << n << ": " << fx.tree().Check().ToString();
    ExpectSameAsModel(fx.tree(), model);
    if (n == 30000) {
      auto [pages, fill] = fx.LeafFill();
      EXPECT_GT(fill, 0.92) << pages << " leaf pages";
      EXPECT_LT(fill, 0.95);
      for (int k = -5; k < 400; k += 4) {  // odd keys land between the built ones
        ASSERT_TRUE(fx.tree().Insert(Row(k, std::string(50, 'z'))).ok());
        model[k] = std::string(50, 'z');
      }
      for (int k = 100; k < 20000; k += 2) {
        ASSERT_TRUE(fx.tree().Delete({Key(k)}).ok());
        model.erase(k);
      }
      ASSERT_TRUE(fx.tree().Check().ok()) << fx.tree().Check().ToString();
      ExpectSameAsModel(fx.tree(), model);
      ASSERT_TRUE(fx.pool().FlushAll().ok());
      auto f = inspect::SpaceFile::Open(fx.path());
      ASSERT_TRUE(f.ok()) << f.status().ToString();
      for (const auto& finding : inspect::CheckSpace(*f).findings) ADD_FAILURE() << finding.ToString();
    }
  }
}

}  // namespace
}  // namespace strata::engine
