// Damage to one file's header pages, then writes: the damage stays where it is. Each case
// zeroes or flips bytes of one page kind (a table's FSP header, inode page, SDI root or
// clustered root; ibdata1's TRX_SYS, rollback segment, catalog and undo pages; the doublewrite
// file), opens the directory (after a clean stop, and after a crash that left the rows in the
// log only), writes to every table it can, closes and opens again. What must hold:
//   - damage to one table never makes another unreadable: the other table opens, has its rows
//     and takes new ones;
//   - a damaged table is refused by name (file, page, what was expected), never read as
//     something else, and its file is not written (the damage is not made worse);
//   - damage to ibdata1 refuses the open with a message that names the file and page, and
//     changes no file; damage to the doublewrite file is nobody's business until a page needs it.
#include <gtest/gtest.h>

#include <map>

#include "engine/db.h"
#include "engine/fault_injection_env.h"
#include "tests/util/fixtures.h"
#include "tests/util/table_spec.h"
#include "tests/util/tsv.h"

namespace strata::engine {
namespace {

using testing::Col;
using testing::NotNull;
namespace fs = std::filesystem;

constexpr std::uint64_t kPage = 16384;
constexpr int kRows = 300;  // several leaf pages: the clustered root is a node page

TableSpec Spec(const std::string& name) {
  return {"shop", name, {NotNull(Col("id", ColumnType::kBigInt)), Col("v", ColumnType::kVarchar, 200)}, {"id"}, {}};
}

// shop.victim and shop.bystander with kRows rows each; with `crash`, the last rows are in the
// log only when the machine stops.
void MakeDir(const fs::path& dir, bool crash) {
  FaultInjectionEnv env(Env::Default());
  DatabaseOptions o;
  o.env = &env;
  o.page_cleaner = false;
  o.redo_log_bytes = 4u << 20;  // each case reads every file twice
  {
    auto db = Database::Open(dir, o);
    ASSERT_TRUE(db.ok()) << db.status().ToString();
    ASSERT_TRUE((*db)->CreateDatabase("shop").ok());
    for (const char* name : {"victim", "bystander"}) {
      auto t = (*db)->CreateTable(Spec(name));
      ASSERT_TRUE(t.ok());
      std::vector<Row> rows;
      for (int i = 0; i < kRows; ++i) rows.push_back({Value::Int(i), Value::String(std::string(150, 'a' + i % 26))});
      ASSERT_TRUE((*t)->InsertBatch(rows).ok());
    }
    ASSERT_TRUE((*db)->Flush().ok());
    if (crash) {
      auto t = (*db)->GetTable("shop", "bystander");
      for (int i = kRows; i < kRows + 50; ++i) ASSERT_TRUE((*t)->Insert({Value::Int(i), Value::String("late")}).ok());
      auto v = (*db)->GetTable("shop", "victim");
      for (int i = kRows; i < kRows + 50; ++i) ASSERT_TRUE((*v)->Insert({Value::Int(i), Value::String("late")}).ok());
      env.PowerOff();
    }
  }
  if (crash) {
    ASSERT_TRUE(env.Crash().ok());
  }
}

struct Damage {
  const char* name;
  const char* file;  // relative to the data directory
  std::uint32_t page;
  bool zero;  // else flip bits in the page's body (its checksum then fails)
  // The doublewrite file keeps a copy of the pages written last, which repairs an all-zero or
  // torn page at open; the other cases zero it first, as damage no copy can repair.
  bool keep_doublewrite = false;
};

const Damage kDamages[] = {
    {"VictimFspHeaderZeroed", "shop/victim.ibd", 0, true},
    {"VictimFspHeaderFlipped", "shop/victim.ibd", 0, false},
    {"VictimInodeZeroed", "shop/victim.ibd", 2, true},
    {"VictimInodeFlipped", "shop/victim.ibd", 2, false},
    {"VictimSdiRootZeroed", "shop/victim.ibd", 3, true},
    {"VictimSdiRootFlipped", "shop/victim.ibd", 3, false},
    {"VictimClusteredRootZeroed", "shop/victim.ibd", 4, true},
    {"VictimClusteredRootFlipped", "shop/victim.ibd", 4, false},
    {"TrxSysZeroed", "ibdata1", 5, true},
    {"TrxSysFlipped", "ibdata1", 5, false},
    {"RollbackSegmentZeroed", "ibdata1", 6, true},
    {"RollbackSegmentFlipped", "ibdata1", 6, false},
    {"CatalogZeroed", "ibdata1", 7, true},
    {"CatalogFlipped", "ibdata1", 7, false},
    {"SystemFspHeaderZeroed", "ibdata1", 0, true},
    {"DoublewriteZeroed", "ib_doublewrite", 0, true},
    {"DoublewriteFlipped", "ib_doublewrite", 1, false},
    {"VictimFspHeaderZeroedWithItsCopy", "shop/victim.ibd", 0, true, true},
    {"VictimClusteredRootFlippedWithItsCopy", "shop/victim.ibd", 4, false, true},
};

void Apply(const fs::path& dir, const Damage& d) {
  const fs::path file = dir / d.file;
  if (!d.keep_doublewrite && std::string(d.file) != "ib_doublewrite") {
    const auto size = fs::file_size(dir / "ib_doublewrite");
    testing::OverwriteAt(dir / "ib_doublewrite", 0, std::string(size, '\0'));
  }
  if (d.zero) {
    testing::OverwriteAt(file, d.page * kPage, std::string(kPage, '\0'));
  } else {
    for (std::uint64_t at : {200u, 1000u, 5000u, 9000u}) testing::FlipBitsAt(file, d.page * kPage + at, 0x5A);
  }
}

std::map<std::string, std::vector<std::byte>> Files(const fs::path& dir) {
  std::map<std::string, std::vector<std::byte>> out;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    if (e.is_regular_file() && e.path().filename() != "strata.lock")
      out[fs::relative(e.path(), dir).string()] = testing::ReadWholeFile(e.path());
  }
  return out;
}

// The two starting directories are made once and copied for each case.
class DamageTest : public ::testing::TestWithParam<std::tuple<Damage, bool>> {
 protected:
  static void SetUpTestSuite() {
    made_ = new testing::TempDir();
    MakeDir(made_->path() / "clean", false);
    MakeDir(made_->path() / "crashed", true);
  }
  static void TearDownTestSuite() {
    delete made_;
    made_ = nullptr;
  }
  static fs::path Made(bool crash) { return made_->path() / (crash ? "crashed" : "clean"); }
  static testing::TempDir* made_;
};
testing::TempDir* DamageTest::made_ = nullptr;

TEST_P(DamageTest, OneFilesDamageStaysItsOwnAndNoWriteMakesItWorse) {
  const auto& [d, crash] = GetParam();
  testing::TempDir tmp;
  const fs::path dir = tmp.path() / "d";
  ASSERT_FALSE(::testing::Test::HasFatalFailure()) << "making the directories failed";
  fs::copy(Made(crash), dir, fs::copy_options::recursive);
  Apply(dir, d);
  const auto damaged = Files(dir);
  const bool system = std::string(d.file) == "ibdata1";
  const int bystander_rows = kRows + (crash ? 50 : 0);
  for (int open = 0; open < 2; ++open) {
    const std::string when = std::string(d.name) + (crash ? " after a crash" : "") + ", open " + std::to_string(open);
    DatabaseOptions small;
    small.buffer_pool_bytes = 4u << 20;
    auto db = Database::Open(dir, small);
    if (system) {
      // ibdata1 holds what every table needs: refused, named, nothing written.
      ASSERT_FALSE(db.ok()) << when << ": opened";
      const std::string m = db.status().ToString();
      EXPECT_NE(m.find("ibdata1"), std::string::npos) << when << ": " << m;
      EXPECT_NE(m.find("page " + std::to_string(d.page)), std::string::npos) << when << ": " << m;
      EXPECT_TRUE(Files(dir) == damaged) << when << ": a refused open changed a file";
      return;
    }
    ASSERT_TRUE(db.ok()) << when << ": " << db.status().ToString();
    auto bystander = (*db)->GetTable("shop", "bystander");
    ASSERT_TRUE(bystander.ok()) << when << ": " << bystander.status().ToString();
    int n = 0;
    ASSERT_TRUE((*bystander)->Scan({}, [&](const Row&) { return ++n, true; }).ok()) << when;
    EXPECT_EQ(n, bystander_rows + open) << when;
    ASSERT_TRUE((*bystander)->Insert({Value::Int(100000 + open), Value::String("after")}).ok()) << when;
    auto victim = (*db)->GetTable("shop", "victim");
    if (std::string(d.file) == "ib_doublewrite" || d.keep_doublewrite) {
      // Its copies are only read for torn pages: none is torn, or the copy repaired it.
      ASSERT_TRUE(victim.ok()) << when << ": " << victim.status().ToString();
      int v = 0;
      ASSERT_TRUE((*victim)->Scan({}, [&](const Row&) { return ++v, true; }).ok()) << when;
      EXPECT_EQ(v, bystander_rows) << when;
      continue;
    }
    if (d.page <= 3) {
      ASSERT_FALSE(victim.ok()) << when << ": a table with a damaged header page opened";
      EXPECT_EQ(victim.status().reason(), Status::Reason::kTableUnavailable) << when;
      const std::string m = victim.status().ToString();
      EXPECT_NE(m.find("victim.ibd"), std::string::npos) << when << ": " << m;
      EXPECT_NE(m.find("page " + std::to_string(d.page)), std::string::npos) << when << ": " << m;
      auto listed = (*db)->ListTables("shop");
      EXPECT_EQ(listed.size(), 2u) << when << ": the damaged table is no longer listed";
    } else if (!victim.ok()) {
      // Recovery had to change the damaged page: the table is set aside whole.
      EXPECT_EQ(victim.status().reason(), Status::Reason::kTableUnavailable) << when;
      EXPECT_NE(victim.status().ToString().find("victim.ibd"), std::string::npos) << victim.status().ToString();
    } else {
      // A damaged index page: the table opens; what reads the page is refused, naming it.
      Status scan = (*victim)->Scan({}, [](const Row&) { return true; });
      EXPECT_FALSE(scan.ok()) << when << ": a scan through a damaged root succeeded";
      Status insert = (*victim)->Insert({Value::Int(-1), Value::String("x")});
      EXPECT_FALSE(insert.ok()) << when << ": an insert through a damaged root succeeded";
    }
  }
  // Everything the opens wrote went elsewhere: the damaged file is as the damage left it, but
  // for what recovery could rightly bring forward, which for a refused table is nothing.
  const auto after = Files(dir);
  if (d.keep_doublewrite) return;
  if (d.page <= 3 && std::string(d.file) != "ib_doublewrite") {
    EXPECT_TRUE(after.at(d.file) == damaged.at(d.file)) << d.name << ": the damaged file was written to";
  }
  if (std::string(d.file) != "ib_doublewrite" && d.page == 4) {
    // Recovery and the writes may touch other pages of the file, never the damaged one.
    const auto& a = after.at(d.file);
    const auto& b = damaged.at(d.file);
    ASSERT_GE(a.size(), (d.page + 1) * kPage);
    EXPECT_TRUE(std::equal(a.begin() + d.page * kPage, a.begin() + (d.page + 1) * kPage, b.begin() + d.page * kPage))
        << d.name << ": the damaged page was written over";
  }
}

INSTANTIATE_TEST_SUITE_P(Pages, DamageTest, ::testing::Combine(::testing::ValuesIn(kDamages), ::testing::Bool()),
                         [](const auto& info) {
                           return std::string(std::get<0>(info.param).name) +
                                  (std::get<1>(info.param) ? "AfterCrash" : "AfterCleanStop");
                         });

}  // namespace
}  // namespace strata::engine
