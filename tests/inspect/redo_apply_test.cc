// --apply-redo against what MariaDB 10.11 reported: a server killed while 1,500 committed
// transactions were in the history and in the log only (tests/data/mariadb-stale, made by
// tests/data/mariadb-stale/make.sh). On disk the history is empty; with the log replayed
// it is what the server printed before the kill and after its own crash recovery.
#include "inspect/redo_apply.h"

#include <gtest/gtest.h>

#include <random>

#include "inspect/undo.h"
#include "ondisk/mariadb_redo.h"
#include "ondisk/mariadb_row_apply.h"
#include "tests/util/fixtures.h"
#include "tests/util/frm_rows.h"
#include "tests/util/tsv.h"

namespace strata::inspect {
namespace {

std::uint64_t Truth(const std::string& key) {
  for (const auto& row : testing::ReadTsv(testing::TestDataDir() / "mariadb-stale" / "truth" / "history.tsv")) {
    if (row.at("key") == key) return std::stoull(row.at("value"));
  }
  ADD_FAILURE() << "no " << key;
  return 0;
}

std::uint64_t HistoryLength(const std::vector<SpaceFile>& files) {
  std::vector<const SpaceFile*> ptrs;
  for (const auto& f : files) ptrs.push_back(&f);
  return AnalyzeUndo(ptrs, false).history_list_length;
}

void Unpack(const testing::TempDir& tmp) {
  const auto data = testing::TestDataDir() / "mariadb-stale";
  std::filesystem::create_directories(tmp.path() / "st");
  for (const char* f : {"ibdata1", "ib_logfile0", "st/t.ibd", "st/r.ibd"})
    testing::Gunzip(data / (std::string(f) + ".gz"), tmp.path() / f);
  for (const char* t : {"t.frm", "r.frm"}) std::filesystem::copy_file(data / "st" / t, tmp.path() / "st" / t);
}

TEST(RedoApplyTest, HistoryAfterReplayIsTheServers) {
  testing::TempDir tmp;
  Unpack(tmp);
  const auto before = testing::ReadWholeFile(tmp.path() / "ibdata1");
  std::vector<Finding> ignored;
  std::vector<SpaceFile> files = OpenSpaces({tmp.path()}, &ignored);
  ASSERT_EQ(files.size(), 3u);
  ASSERT_EQ(files[0].kind(), SpaceKind::kSystem);
  const std::uint64_t server = Truth("history_list_length_before_kill");
  ASSERT_EQ(Truth("history_list_length_after_recovery"), server);
  EXPECT_NE(HistoryLength(files), server);  // the pages are stale...
  auto stale = StaleLogFinding(tmp.path());
  ASSERT_TRUE(stale);  // ...and that is said
  EXPECT_EQ(stale->severity, Severity::kWarning);
  EXPECT_NE(stale->detail.find("mini-transactions past its checkpoint"), std::string::npos) << stale->detail;

  RedoApplyResult a = ApplyRedo(tmp.path(), files);
  EXPECT_GT(a.mtrs, 1000u);
  EXPECT_GT(a.pages_changed, 100u);
  EXPECT_TRUE(a.pages_left.empty());
  EXPECT_LT(a.pages_not_here, 10u);  // mysql.innodb_*_stats, not kept in the fixture
  EXPECT_EQ(HistoryLength(files), server);
  // Every page brought forward checks as the server writes it, and the file is untouched.
  for (const SpaceFile& f : files) {
    for (std::uint32_t n = 0; n < f.n_pages(); ++n) {
      const auto c = f.CheckPage(f.page(n));
      EXPECT_TRUE(c.valid || c.all_zero) << f.path() << " page " << n;
    }
  }
  EXPECT_EQ(testing::ReadWholeFile(tmp.path() / "ibdata1"), before);
}

// The tables' rows with the log replayed are, byte for byte, what `mariadb -B` printed after
// the server's own crash recovery of the same files: st.t (inserts, deletes, updates that change
// a row's length) and st.r (MD5 keys: inserts all over its pages, page splits, deletes); without
// the replay they are the rows before.
TEST(RedoApplyTest, RowsAfterReplayAreTheServers) {
  testing::TempDir tmp;
  Unpack(tmp);
  for (const auto& [table, rows] : {std::pair{"t", "rows.tsv"}, {"r", "rows_r.tsv"}}) {
    const std::string truth = testing::ReadText(testing::TestDataDir() / "mariadb-stale" / "truth" / rows);
    std::vector<Finding> ignored;
    std::vector<SpaceFile> files = OpenSpaces({tmp.path() / "st" / (std::string(table) + ".ibd")}, &ignored);
    ASSERT_EQ(files.size(), 1u);
    EXPECT_NE(testing::RowsByFrm(files[0]), truth) << table;
    RedoApplyResult a = ApplyRedo(tmp.path(), files);
    EXPECT_TRUE(a.pages_left.empty()) << table;
    EXPECT_GT(a.records, 1000u);
    EXPECT_EQ(testing::RowsByFrm(files[0]), truth) << table;
  }
}

ondisk::MariaRedoRecord Record(const char* type, std::uint32_t offset, std::uint32_t length,
                               std::vector<std::byte>& data) {
  ondisk::MariaRedoRecord r;
  r.type = type;
  r.page_op = true;
  r.space = 7;
  r.page = 9;
  r.offset = offset;
  r.length = length;
  r.data = data;
  return r;
}

// Row records with any parameters, applied to real B-tree pages over and over, never reach
// outside the page (run under ASan in CI); whatever they change, the page stays one page.
TEST(RedoApplyTest, RowRecordsWithAnyParametersStayOnThePage) {
  testing::TempDir tmp;
  testing::Gunzip(testing::TestDataDir() / "mariadb-stale" / "st" / "r.ibd.gz", tmp.path() / "r.ibd");
  const std::vector<std::byte> file = testing::ReadWholeFile(tmp.path() / "r.ibd");
  std::mt19937 rng(21);
  for (int round = 0; round < 3000; ++round) {
    std::vector<std::byte> page(file.begin() + 3 * 16384, file.begin() + 4 * 16384);  // the root, a leaf or not
    for (int i = 0; i < 20; ++i) {
      std::vector<std::byte> bytes(rng() % 300);
      for (auto& b : bytes) b = std::byte(rng());
      const auto small = [&] { return std::size_t(rng() % 8 ? rng() % 400 : rng() % 70000); };
      if (rng() % 2) {
        ondisk::MariaInsert in;
        in.reuse = rng() % 2, in.prev = small(), in.shift = small(), in.enc_hdr = small(), in.hdr_copied = small() % 40,
        in.data_copied = small(), in.bytes = bytes;
        (void)ondisk::ApplyMariaInsert(page, in);
      } else {
        (void)ondisk::ApplyMariaDelete(page, small(), small() % 40, small());
      }
    }
    EXPECT_EQ(page.size(), 16384u);
  }
}

TEST(RedoApplyTest, RecordsChangeThePageAsRecoveryDoes) {
  using ondisk::ApplyMariaRecord;
  using ondisk::MariaApply;
  std::vector<std::byte> page(16384, std::byte{0x55}), none;
  EXPECT_EQ(ApplyMariaRecord(Record("INIT_PAGE", 0, 0, none), page), MariaApply::kApplied);
  EXPECT_EQ(ondisk::Load32(page, 4), 9u);
  EXPECT_EQ(ondisk::Load32(page, 8), 0xFFFFFFFFu);
  EXPECT_EQ(ondisk::Load32(page, 34), 7u);
  EXPECT_EQ(page[100], std::byte{0});
  std::vector<std::byte> bytes{std::byte{1}, std::byte{2}, std::byte{3}};
  EXPECT_EQ(ApplyMariaRecord(Record("WRITE", 100, 3, bytes), page), MariaApply::kApplied);
  EXPECT_EQ(page[102], std::byte{3});
  std::vector<std::byte> pattern{std::byte{0xA}, std::byte{0xB}};
  EXPECT_EQ(ApplyMariaRecord(Record("MEMSET", 200, 5, pattern), page), MariaApply::kApplied);
  EXPECT_EQ(page[204], std::byte{0xA});
  EXPECT_EQ(page[205], std::byte{0});
  std::vector<std::byte> back{std::byte{0x80}, std::byte{199 - 128}};  // varint 199, odd: 100 bytes before the target
  EXPECT_EQ(ApplyMariaRecord(Record("MEMMOVE", 200, 3, back), page), MariaApply::kApplied);
  EXPECT_EQ(page[202], std::byte{3});
  std::vector<std::byte> past{std::byte{1}};
  EXPECT_EQ(ApplyMariaRecord(Record("WRITE", 16383, 2, past), page), MariaApply::kCorrupt);
  std::vector<std::byte> init{std::byte{2}}, append{std::byte{3}, std::byte{0x11}, std::byte{0x22}, std::byte{0x33}};
  EXPECT_EQ(ApplyMariaRecord(Record("EXTENDED/UNDO_INIT", 0, 0, init), page), MariaApply::kApplied);
  EXPECT_EQ(ondisk::Load16(page, 38 + 4), 56u);  // TRX_UNDO_PAGE_FREE after the headers
  EXPECT_EQ(ApplyMariaRecord(Record("EXTENDED/UNDO_APPEND", 0, 0, append), page), MariaApply::kApplied);
  EXPECT_EQ(ondisk::Load16(page, 38 + 4), 56u + 4 + 3);
  EXPECT_EQ(ondisk::Load16(page, 56), 56u + 4 + 3);  // next free, record, previous free
  EXPECT_EQ(page[58], std::byte{0x11});
  EXPECT_EQ(ondisk::Load16(page, 61), 56u);
  std::vector<std::byte> insert{std::byte{6}, std::byte{0}, std::byte{0}, std::byte{0}, std::byte{0}, std::byte{1}};
  EXPECT_EQ(ApplyMariaRecord(Record("EXTENDED/INSERT_HEAP_DYNAMIC", 0, 0, insert), page),
            MariaApply::kCorrupt);  // an undo page
  std::vector<std::byte> redundant{std::byte{4}};
  EXPECT_EQ(ApplyMariaRecord(Record("EXTENDED/INSERT_HEAP_REDUNDANT", 0, 0, redundant), page),
            MariaApply::kUnsupported);
}

}  // namespace
}  // namespace strata::inspect
