// The redo log on its own (blocks, wrap-around, a damaged tail) and the disable-redo mode's
// promises: a crash while disabled is refused at open, a clean shutdown is not, and enabling
// again makes everything recoverable.
#include "engine/redo_log.h"

#include <gtest/gtest.h>

#include <functional>
#include <random>

#include "engine/db.h"
#include "engine/fault_injection_env.h"
#include "engine/recovery.h"
#include "inspect/redo_apply.h"
#include "inspect/redo_report.h"
#include "ondisk/redo.h"
#include "ondisk/redo_record.h"
#include "tests/util/fixtures.h"
#include "tests/util/tsv.h"

namespace strata::engine {
namespace {

using namespace strata::ondisk;

std::vector<std::byte> Group(std::uint32_t page, std::size_t bytes, std::uint8_t fill) {
  std::vector<std::byte> out, data(bytes, std::byte{fill});
  AppendRedoWrite(out, 1, page, 100, data);
  AppendRedoMtrEnd(out);
  return out;
}

TEST(RedoLogTest, GroupsRoundTripAcrossBlocksAndWrapAround) {
  testing::TempDir tmp;
  const auto path = tmp.path() / "ib_logfile0";
  auto log = RedoLog::Create(*Env::Default(), path, 64 * 512);  // 32 KiB: wraps quickly
  ASSERT_TRUE(log.ok());
  std::vector<std::pair<Lsn, Lsn>> ranges;
  std::mt19937 rng(3);
  for (int round = 0; round < 20; ++round) {
    // Keep what recovery needs within the capacity: checkpoint at the last group's end.
    for (int i = 0; i < 8; ++i)
      ranges.push_back((*log)->Append(
          Group(static_cast<std::uint32_t>(round * 8 + i), 1 + rng() % 1200, static_cast<std::uint8_t>(i))));
    ASSERT_TRUE((*log)->FlushUpTo((*log)->lsn()).ok());
    if (round < 19) {
      ASSERT_TRUE((*log)->Checkpoint(ranges.back().second).ok());
    }
  }
  const Lsn end = (*log)->lsn();
  log->reset();
  auto again = RedoLog::Open(*Env::Default(), path);
  ASSERT_TRUE(again.ok()) << again.status().ToString();
  auto groups = (*again)->Recover(16384);
  ASSERT_TRUE(groups.ok()) << groups.status().ToString();
  ASSERT_EQ(groups->size(), 8u);  // the last round, after the last checkpoint
  for (std::size_t i = 0; i < 8; ++i) {
    EXPECT_EQ((*groups)[i].start, ranges[ranges.size() - 8 + i].first);
    EXPECT_EQ((*groups)[i].end, ranges[ranges.size() - 8 + i].second);
  }
  EXPECT_EQ((*again)->lsn(), end);
  // Appending continues where the log ended, and a second recovery sees both.
  auto next = (*again)->Append(Group(999, 10, 9));
  EXPECT_EQ(next.first, end);
  ASSERT_TRUE((*again)->FlushUpTo(next.second).ok());
  auto third = RedoLog::Open(*Env::Default(), path);
  ASSERT_TRUE(third.ok());
  auto all = (*third)->Recover(16384);
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(all->size(), 9u);
}

TEST(RedoLogTest, AGroupCutShortByACrashIsNotReplayed) {
  testing::TempDir tmp;
  FaultInjectionEnv env(Env::Default());
  const auto path = tmp.path() / "ib_logfile0";
  {
    auto log = RedoLog::Create(env, path, 1u << 20);
    ASSERT_TRUE(log.ok());
    (*log)->Append(Group(1, 300, 1));
    ASSERT_TRUE((*log)->FlushUpTo((*log)->lsn()).ok());
    (*log)->Append(Group(2, 3000, 2));  // spans several blocks
    env.TearNextWrite(1024);            // only its first two blocks reach the file
    EXPECT_FALSE((*log)->FlushUpTo((*log)->lsn()).ok());
  }
  // The torn write was never synced, but suppose it had reached the disk as far as it got:
  // recovery must stop at the first block that is not whole.
  auto log = RedoLog::Open(env, path);
  ASSERT_TRUE(log.ok());
  auto groups = (*log)->Recover(16384);
  ASSERT_TRUE(groups.ok()) << groups.status().ToString();
  ASSERT_EQ(groups->size(), 1u);
}

// A damaged (or foreign) log must not make recovery allocate without bound: a record growing a
// file far past any step the engine takes is refused, naming the file, before anything grows.
TEST(RedoLogTest, ARecordGrowingAFileBeyondReasonIsRefusedBeforeItGrows) {
  testing::TempDir tmp;
  auto f = Env::Default()->OpenFile(tmp.path() / "t.ibd", OpenMode::kCreateNew);
  ASSERT_TRUE(f.ok());
  ASSERT_TRUE((*f)->Resize(8 * 16384).ok());
  Tablespace space(std::move(*f), SpaceId(3), PageSize(), 8);
  BufferPoolOptions o;
  o.bytes = 1u << 20;
  o.page_cleaner = false;
  BufferPool pool(o);
  pool.Register(&space);
  for (const std::uint32_t pages : {1u << 30, 0xFFFFFFFFu}) {
    std::vector<std::byte> g;
    if (pages == 0xFFFFFFFFu)
      AppendRedoInit(g, 3, pages - 1);  // a page that far, not an EXTEND
    else
      AppendRedoExtend(g, 3, pages);
    AppendRedoMtrEnd(g);
    auto r = ApplyRedo(pool, {{Lsn(500), Lsn(500 + g.size()), ConstBytes(g)}});
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.status().message().find("t.ibd from 8 to"), std::string::npos) << r.status().ToString();
    EXPECT_EQ(space.size(), 8u);
    EXPECT_EQ(std::filesystem::file_size(tmp.path() / "t.ibd"), 8u * 16384);
  }
  std::vector<std::byte> g;  // a step the engine does take still grows it
  AppendRedoExtend(g, 3, 8 + 4 * 64);
  AppendRedoMtrEnd(g);
  EXPECT_TRUE(ApplyRedo(pool, {{Lsn(900), Lsn(900 + g.size()), ConstBytes(g)}}).ok());
  EXPECT_EQ(space.size(), 8u + 4 * 64);
}

Column Int(std::string name) {
  Column c;
  c.name = std::move(name);
  c.type = ColumnType::kInt;
  c.nullable = false;
  return c;
}

TableSpec Spec() {
  TableSpec s;
  s.database = "bulk";
  s.name = "t";
  Column pad;
  pad.name = "pad";
  pad.type = ColumnType::kChar;
  pad.length = 60;
  s.columns = {Int("id"), pad};
  s.primary_key = {"id"};
  return s;
}

Row R(int id) { return {Value::Int(id), Value::String("row " + std::to_string(id))}; }

class DisableRedoTest : public ::testing::Test {
 protected:
  DisableRedoTest() : env_(Env::Default()) {
    o_.env = &env_;
    dir_ = tmp_.path() / "d";
  }
  std::unique_ptr<Database> Open(bool salvage = false) {
    DatabaseOptions o = o_;
    o.force_recovery = salvage ? 6 : 0;
    auto db = Database::Open(dir_, o);
    EXPECT_TRUE(db.ok()) << db.status().ToString();
    return db.ok() ? std::move(*db) : nullptr;
  }
  void Crash(std::unique_ptr<Database>& db) {
    env_.PowerOff();
    db.reset();
    ASSERT_TRUE(env_.Crash().ok());
  }
  int Count(Database& db) {
    int n = 0;
    auto t = db.GetTable("bulk", "t");
    EXPECT_TRUE(t.ok());
    EXPECT_TRUE((*t)->Scan({}, [&](const Row&) { return ++n, true; }).ok());
    return n;
  }
  testing::TempDir tmp_;
  FaultInjectionEnv env_;
  DatabaseOptions o_;
  std::filesystem::path dir_;
};

TEST_F(DisableRedoTest, CrashWhileDisabledIsRefusedWithTheReasonAndSalvageOpensReadOnly) {
  auto db = Open();
  ASSERT_TRUE(db->CreateDatabase("bulk").ok());
  auto t = db->CreateTable(Spec());
  for (int i = 0; i < 100; ++i) ASSERT_TRUE((*t)->Insert(R(i)).ok());
  ASSERT_TRUE(db->SetRedoLogging(false).ok());
  EXPECT_FALSE(db->redo_logging());
  for (int i = 100; i < 3000; ++i) ASSERT_TRUE((*t)->Insert(R(i)).ok());
  Crash(db);
  auto refused = Database::Open(dir_, o_);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("while redo logging was disabled"), std::string::npos)
      << refused.status().message();
  EXPECT_NE(refused.status().message().find("--force-recovery 6"), std::string::npos);
  auto salvage = Open(true);
  ASSERT_NE(salvage, nullptr);
  auto st = salvage->GetTable("bulk", "t");
  ASSERT_TRUE(st.ok());
  EXPECT_TRUE((*st)->Get({Value::Int(5)}).ok());  // readable where the pages allow
  EXPECT_EQ((*st)->Insert(R(99999)).code(), Status::Code::kNotSupported);
}

TEST_F(DisableRedoTest, CleanShutdownWhileDisabledKeepsEverythingAndStaysDisabled) {
  {
    auto db = Open();
    ASSERT_TRUE(db->CreateDatabase("bulk").ok());
    auto t = db->CreateTable(Spec());
    ASSERT_TRUE(db->SetRedoLogging(false).ok());
    for (int i = 0; i < 5000; ++i) ASSERT_TRUE((*t)->Insert(R(i)).ok());
  }
  auto db = Open();
  ASSERT_NE(db, nullptr);
  EXPECT_EQ(Count(*db), 5000);
  EXPECT_FALSE(db->redo_logging());  // still disabled, and so a crash now is unsafe again
  Crash(db);
  EXPECT_FALSE(Database::Open(dir_, o_).ok());
}

TEST_F(DisableRedoTest, EnableAfterABulkLoadMakesALaterCrashRecoverEverything) {
  auto db = Open();
  ASSERT_TRUE(db->CreateDatabase("bulk").ok());
  auto t = db->CreateTable(Spec());
  ASSERT_TRUE(db->SetRedoLogging(false).ok());
  for (int i = 0; i < 5000; ++i) ASSERT_TRUE((*t)->Insert(R(i)).ok());
  ASSERT_TRUE(db->SetRedoLogging(true).ok());
  EXPECT_TRUE(db->redo_logging());
  for (int i = 5000; i < 5100; ++i) ASSERT_TRUE((*t)->Insert(R(i)).ok());  // logged, durable at commit
  Crash(db);
  db = Open();
  ASSERT_NE(db, nullptr);
  EXPECT_EQ(Count(*db), 5100);
  EXPECT_GT(db->recovery().groups, 0u);
  EXPECT_TRUE((*db->GetTable("bulk", "t"))->Check().ok());
}

TEST_F(DisableRedoTest, EnableThenCloseWithNothingLoggedOpensAgain) {
  {
    auto db = Open();
    ASSERT_TRUE(db->CreateDatabase("bulk").ok());
    ASSERT_TRUE(db->SetRedoLogging(false).ok());
    auto t = db->CreateTable(Spec());  // DDL too, unlogged
    for (int i = 0; i < 300; ++i) ASSERT_TRUE((*t)->Insert(R(i)).ok());
    ASSERT_TRUE(db->SetRedoLogging(true).ok());
  }  // the checkpoint lands in a log block no record was ever written to
  auto db = Open();
  ASSERT_NE(db, nullptr);
  EXPECT_EQ(Count(*db), 300);
}

}  // namespace
}  // namespace strata::engine

namespace strata::engine {
namespace {

// A table bulk.t in `dir`, flushed, then `workload` run on it and the power cut: the files are
// left as a crash leaves them, the changes after the flush in the redo log only. Page cleaner
// off, so that no page is written after the flush.
void CrashAfter(const std::filesystem::path& dir, FaultInjectionEnv& env, const DatabaseOptions& o,
                const std::function<void(Table&)>& workload) {
  auto db = Database::Open(dir, o);
  ASSERT_TRUE(db.ok());
  ASSERT_TRUE((*db)->CreateDatabase("bulk").ok());
  auto t = (*db)->CreateTable(Spec());
  ASSERT_TRUE(t.ok());
  ASSERT_TRUE((*db)->Flush().ok());
  workload(**t);
  env.PowerOff();
}

// Whether two images of one page are equal but for the fields a page write stamps: checksum,
// LSN, trailer. Names the first byte that differs.
::testing::AssertionResult EqualButStamped(ondisk::ConstBytes mine, ondisk::ConstBytes theirs) {
  for (std::size_t i = 0; i < mine.size(); ++i) {
    const bool stamped = i < 4 || (i >= 16 && i < 24) || i >= mine.size() - 8;
    if (!stamped && mine[i] != theirs[i]) return ::testing::AssertionFailure() << "byte " << i << " differs";
  }
  return ::testing::AssertionSuccess();
}

DatabaseOptions CrashOptions(FaultInjectionEnv& env) {
  DatabaseOptions o;
  o.env = &env;
  o.page_cleaner = false;
  return o;
}

// 150 inserts in an order that splits pages, then a power cut: a log with records to replay.
void CrashAfter150Inserts(const std::filesystem::path& dir, FaultInjectionEnv& env, const DatabaseOptions& o) {
  CrashAfter(dir, env, o, [](Table& t) {
    for (int i = 0; i < 150; ++i) ASSERT_TRUE(t.Insert(R(i * 7 % 150)).ok());
  });
  ASSERT_TRUE(env.Crash().ok());
}

// `strata inspect redo --page S:P` lists a page's records oldest first; replayed onto the page
// as the files hold it after a crash, they give the page recovery builds.
TEST(RedoInspectTest, APagesRecordsReplayToItsImage) {
  testing::TempDir tmp;
  const auto dir = tmp.path() / "d";
  FaultInjectionEnv env(Env::Default());
  const DatabaseOptions o = CrashOptions(env);
  CrashAfter150Inserts(dir, env, o);
  const auto file = dir / "bulk" / "t.ibd";
  std::vector<std::byte> page(16384);
  {
    auto f = Env::Default()->OpenFile(file, OpenMode::kExisting);
    ASSERT_TRUE((*f)->Read(4 * 16384, page).ok());
  }
  inspect::RedoOptions ro;
  ro.page = std::make_pair(1u, 4u);
  inspect::RedoReport r = inspect::AnalyzeRedo(dir, ro);
  ASSERT_TRUE(r.findings.empty()) << r.findings[0].ToString();
  EXPECT_GE(r.mtr_groups, 150u);  // one per insert at least
  ASSERT_FALSE(r.records.empty());
  for (const auto& rec : r.records) {
    if (rec.type == "INIT")
      std::fill(page.begin(), page.end(), std::byte{0});
    else
      std::copy(rec.bytes.begin(), rec.bytes.end(), page.begin() + rec.offset);
  }
  {
    auto db = Database::Open(dir, o);
    ASSERT_TRUE(db.ok()) << db.status().ToString();
    ASSERT_TRUE((*db)->Flush().ok());
  }
  std::vector<std::byte> recovered(16384);
  auto f = Env::Default()->OpenFile(file, OpenMode::kExisting);
  ASSERT_TRUE((*f)->Read(4 * 16384, recovered).ok());
  EXPECT_TRUE(EqualButStamped(page, recovered));
}

// Recovery and `inspect redo` read the log through one block reader, so they agree where it
// ends. A block in the middle of a Strata log whose checksum field says "none" (0xDEADBEEF,
// what a MySQL log without checksums carries) is damage in a Strata log: the inspector used to
// read on past it while recovery refused the directory. Both now stop at that block: the
// inspector names it as damage with written blocks after it, and open refuses, naming its LSN.
TEST(RedoInspectTest, RecoveryAndTheInspectorEndTheLogAtTheSameBlock) {
  testing::TempDir tmp;
  const auto dir = tmp.path() / "d";
  FaultInjectionEnv env(Env::Default());
  const DatabaseOptions o = CrashOptions(env);
  CrashAfter150Inserts(dir, env, o);
  const inspect::RedoReport before = inspect::AnalyzeRedo(dir, {});
  ASSERT_TRUE(before.findings.empty()) << before.findings[0].ToString();
  ASSERT_GT(before.lsn_end - before.lsn_begin, 8 * kLogBlockSize);  // blocks on both sides of the one changed
  const std::uint64_t mid = (before.lsn_begin + before.lsn_end) / 2;
  const std::uint64_t block = mid - mid % kLogBlockSize;
  {
    auto f = Env::Default()->OpenFile(dir / "ib_logfile0", OpenMode::kExisting);
    ASSERT_TRUE(f.ok());
    auto size = (*f)->Size();
    ASSERT_TRUE(size.ok());
    const std::uint64_t at = kLogFileHeaderSize + (block - kLogStartLsn) % (*size - kLogFileHeaderSize);
    std::vector<std::byte> bytes(kLogBlockSize);
    ASSERT_TRUE((*f)->Read(at, bytes).ok());
    ASSERT_EQ(CheckLogBlockChecksum(bytes), LogChecksum::kCrc32c);
    Store32(bytes, kLogBlockSize - 4, 0xDEADBEEF);
    ASSERT_TRUE((*f)->Write(at, bytes).ok());
    ASSERT_TRUE((*f)->Sync().ok());
  }
  const inspect::RedoReport after = inspect::AnalyzeRedo(dir, {});
  EXPECT_EQ(after.lsn_end, block);
  ASSERT_FALSE(after.findings.empty());
  EXPECT_EQ(after.findings[0].severity, inspect::Severity::kError);
  EXPECT_NE(after.findings[0].detail.find(std::to_string(block)), std::string::npos) << after.findings[0].ToString();
  auto db = Database::Open(dir, o);
  ASSERT_FALSE(db.ok());
  EXPECT_EQ(db.status().code(), Status::Code::kCorruption);
  EXPECT_NE(db.status().message().find("LSN " + std::to_string(block)), std::string::npos) << db.status().ToString();
}

// `--apply-redo` on Strata's own files after a power cut: every page of the table, replayed in
// memory by the inspector, is the page the engine's own recovery writes (but for the bytes a
// page write stamps), for inserts in an order that splits pages, updates and deletes.
TEST(RedoInspectTest, ApplyRedoBuildsThePagesRecoveryBuilds) {
  testing::TempDir tmp;
  const auto dir = tmp.path() / "d";
  FaultInjectionEnv env(Env::Default());
  const DatabaseOptions o = CrashOptions(env);
  CrashAfter(dir, env, o, [](Table& t) {
    for (int i = 0; i < 1500; ++i) ASSERT_TRUE(t.Insert(R(i * 7 % 1500)).ok());
    for (int i = 0; i < 1500; i += 5)
      ASSERT_TRUE(t.Update({Value::Int(i), Value::String("updated " + std::to_string(i))}).ok());
    for (int i = 1; i < 1500; i += 9) ASSERT_TRUE(t.Delete({Value::Int(i)}).ok());
  });
  ASSERT_TRUE(env.Crash().ok());
  std::vector<inspect::Finding> ignored;
  std::vector<inspect::SpaceFile> files = inspect::OpenSpaces({dir}, &ignored);
  auto stale = inspect::StaleLogFinding(dir);
  ASSERT_TRUE(stale);
  inspect::RedoApplyResult a = inspect::ApplyRedo(dir, files);
  for (const auto& [id, why] : a.pages_left) ADD_FAILURE() << id.first << ":" << id.second << " " << why;
  EXPECT_GT(a.mtrs, 1500u);
  const inspect::SpaceFile* table = nullptr;
  for (const auto& f : files) {
    if (f.path().filename() == "t.ibd") table = &f;
  }
  ASSERT_NE(table, nullptr);
  {
    DatabaseOptions recover = o;
    recover.purge = false;  // what recovery builds, nothing purge changes after it
    auto db = Database::Open(dir, recover);
    ASSERT_TRUE(db.ok()) << db.status().ToString();
    ASSERT_TRUE((*db)->Flush().ok());
  }
  const std::vector<std::byte> recovered = testing::ReadWholeFile(dir / "bulk" / "t.ibd");
  std::uint32_t compared = 0;
  for (std::uint32_t n = 0; n < table->n_pages() && (n + 1) * 16384 <= recovered.size(); ++n, ++compared) {
    EXPECT_TRUE(EqualButStamped(table->page(n), ondisk::ConstBytes(recovered).subspan(std::size_t{n} * 16384, 16384)))
        << "page " << n;
  }
  EXPECT_GT(compared, 10u);
}

}  // namespace
}  // namespace strata::engine
