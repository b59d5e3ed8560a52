// `strata inspect doublewrite` against what the servers did with their own doublewrite copies:
// MariaDB 10.11 killed mid-workload with torn pages (tests/data/mariadb-doublewrite, made by
// tests/data/mariadb-doublewrite/make.sh), whose recovery restored some pages and gave up
// on others; and a MySQL 8.0.30 #ib_16384_0.dblwr from a public data directory.
#include "inspect/doublewrite_report.h"

#include <gtest/gtest.h>

#include <set>

#include "inspect/check.h"
#include "inspect/redo_apply.h"
#include "inspect/space_file.h"
#include "tests/util/fixtures.h"
#include "tests/util/tsv.h"

namespace strata::inspect {
namespace {

using PageSet = std::set<std::uint32_t>;

PageSet Pages(const std::filesystem::path& tsv) {
  PageSet s;
  for (const auto& row : testing::ReadTsv(tsv)) s.insert(static_cast<std::uint32_t>(std::stoul(row.at("page"))));
  return s;
}

std::filesystem::path MariaDbCrash(const testing::TempDir& tmp) {
  const auto data = testing::TestDataDir() / "mariadb-doublewrite";
  std::filesystem::create_directories(tmp.path() / "dw");
  for (const char* f : {"ibdata1", "ib_logfile0", "dw/t.ibd"})
    testing::Gunzip(data / (std::string(f) + ".gz"), tmp.path() / f);
  return tmp.path();
}

// The pages the server restored from the doublewrite buffer are exactly those the report says
// recovery would restore; the torn pages it could not mend are the rest, and of those, the ones
// the server stopped at are exactly the ones the redo log has records for.
TEST(DoublewriteReportTest, MariaDbRecoveryRestoresWhatTheReportSays) {
  testing::TempDir tmp;
  DoublewriteReport r = AnalyzeDoublewrite(MariaDbCrash(tmp));
  const auto truth = testing::TestDataDir() / "mariadb-doublewrite" / "truth";
  ASSERT_EQ(r.sources.size(), 1u);
  const DoublewriteSource& area = r.sources[0];
  EXPECT_EQ(area.kind, "system tablespace area");
  EXPECT_EQ(area.slots, 128u);
  EXPECT_EQ(area.blocks, (std::vector<std::uint32_t>{64, 128}));
  for (const auto& row : testing::ReadTsv(truth / "log.tsv")) {
    if (row.at("key") == "recovery_checkpoint_lsn") {
      EXPECT_EQ(r.checkpoint_lsn, std::stoull(row.at("value")));
    }
    if (row.at("key") == "recovery_end_of_log_lsn") {
      EXPECT_EQ(r.log_end_lsn, std::stoull(row.at("value")));
    }
  }

  PageSet restored, unmended, stopped_at;
  for (const auto& c : area.copies) {
    EXPECT_TRUE(c.whole) << "slot " << c.slot;  // the crash tore pages in t.ibd, not the copies
    ASSERT_TRUE(c.space) << "slot " << c.slot;
    if (c.restores) {
      EXPECT_TRUE(restored.insert(c.page).second) << "page " << c.page << " restored twice";
    }
  }
  for (const Finding& f : r.findings) {
    if (f.what != "damaged page" || f.severity != Severity::kError) continue;
    unmended.insert(*f.page);
    if (f.detail.find("crash recovery will stop here") != std::string::npos) stopped_at.insert(*f.page);
  }
  EXPECT_EQ(restored, Pages(truth / "recovered.tsv"));
  EXPECT_EQ(stopped_at, Pages(truth / "unrecoverable.tsv"));
  PageSet all = restored;
  all.insert(unmended.begin(), unmended.end());
  EXPECT_EQ(all, Pages(truth / "torn.tsv"));
  EXPECT_FALSE(stopped_at.empty());
  EXPECT_FALSE(restored.empty());
}

// The doublewrite area's pages are copies of other pages: `check` on ibdata1 does not call
// them misplaced, and t.ibd's torn pages are found on their page.
TEST(DoublewriteReportTest, CheckFindsTheTornPagesTheCopiesAreFor) {
  testing::TempDir tmp;
  MariaDbCrash(tmp);
  auto t = SpaceFile::Open(tmp.path() / "dw" / "t.ibd");
  ASSERT_TRUE(t.ok());
  PageSet damaged;
  for (const Finding& f : CheckSpace(*t).findings) {
    if (f.severity == Severity::kError && f.page) damaged.insert(*f.page);
  }
  EXPECT_EQ(damaged, Pages(testing::TestDataDir() / "mariadb-doublewrite" / "truth" / "torn.tsv"));
}

// --apply-redo does what the server's recovery did: the torn pages it restored from the
// doublewrite buffer are put back first (and then pass `check`); the torn pages it stopped at
// (no copy to take, records in the log) are left behind and named, never replayed onto (their
// checksum would be made anew and the damage hidden); `check` still finds every page it could
// not mend.
TEST(DoublewriteReportTest, ReplayMendsWhatRecoveryMendedAndLeavesTheRest) {
  testing::TempDir tmp;
  MariaDbCrash(tmp);
  std::vector<Finding> ignored;
  std::vector<SpaceFile> files = OpenSpaces({tmp.path()}, &ignored);
  RedoApplyResult a = ApplyRedo(tmp.path(), files);
  const auto truth = testing::TestDataDir() / "mariadb-doublewrite" / "truth";
  const PageSet torn = Pages(truth / "torn.tsv"), recovered = Pages(truth / "recovered.tsv");
  EXPECT_EQ(a.pages_from_doublewrite, recovered.size());
  PageSet left;
  for (const auto& [id, why] : a.pages_left) {
    if (why.find("checksum fails") != std::string::npos) left.insert(id.second);
  }
  EXPECT_EQ(left, Pages(truth / "unrecoverable.tsv"));
  PageSet not_mended;
  for (std::uint32_t p : torn) {
    if (!recovered.count(p)) not_mended.insert(p);
  }
  for (const SpaceFile& f : files) {
    if (f.path().filename() != "t.ibd") continue;
    PageSet damaged;
    for (const Finding& x : CheckSpace(f).findings) {
      if (x.severity == Severity::kError && x.page) damaged.insert(*x.page);
    }
    EXPECT_EQ(damaged, not_mended);
  }
}

// MySQL 8.0.30's #ib_16384_0.dblwr: no header, 12 slots; two copies of HallPet.ibd page 4 (one
// byte for byte the page, one older), ten of tablespaces not here, each named by its space id
// field, and every copy whole by its own crc32.
TEST(DoublewriteReportTest, MySqlDoublewriteFileAgainstItsTablespace) {
  testing::TempDir tmp;
  const auto data = testing::TestDataDir() / "mysql-doublewrite";
  std::filesystem::create_directories(tmp.path() / "petespecial");
  testing::Gunzip(data / "#ib_16384_0.dblwr.gz", tmp.path() / "#ib_16384_0.dblwr");
  testing::Gunzip(data / "petespecial" / "HallPet.ibd.gz", tmp.path() / "petespecial" / "HallPet.ibd");
  for (const auto& path : {tmp.path(), tmp.path() / "#ib_16384_0.dblwr"}) {
    DoublewriteReport r = AnalyzeDoublewrite(path);
    ASSERT_EQ(r.sources.size(), 1u) << path;
    const DoublewriteSource& f = r.sources[0];
    EXPECT_EQ(f.kind, "MySQL 8.0.20+ doublewrite file");
    EXPECT_EQ(f.slots, 12u);
    ASSERT_EQ(f.copies.size(), 12u);
    int of_hallpet = 0;
    for (const auto& c : f.copies) {
      EXPECT_TRUE(c.whole) << "slot " << c.slot;
      EXPECT_EQ(c.eligible, true);
      if (!c.space) {
        EXPECT_NE(c.header_space, 12u);
        continue;
      }
      ++of_hallpet;
      EXPECT_EQ(*c.space, 12u);
      EXPECT_EQ(c.space_from, "header");
      EXPECT_EQ(c.page, 4u);
      EXPECT_EQ(c.page_valid, true);
      if (c.slot == 1) {
        EXPECT_TRUE(c.relation == "equal" && c.identical);
      }
      if (c.slot == 5) {
        EXPECT_EQ(c.relation, "older");
      }
    }
    EXPECT_EQ(of_hallpet, 2);
    EXPECT_TRUE(r.findings.empty()) << ToText(r, true);
  }
}

// A doublewrite file is not a tablespace: the tablespace readers say so instead of calling it
// damaged; a copy torn in its slot is named.
TEST(DoublewriteReportTest, DoublewriteFilesAreNotTablespacesAndTornCopiesAreNamed) {
  testing::TempDir tmp;
  const auto file = tmp.path() / "#ib_16384_0.dblwr";
  testing::Gunzip(testing::TestDataDir() / "mysql-doublewrite" / "#ib_16384_0.dblwr.gz", file);
  std::vector<Finding> findings;
  EXPECT_TRUE(OpenSpaces({file}, &findings).empty());
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].severity, Severity::kInfo);
  EXPECT_EQ(findings[0].what, "doublewrite file");

  std::vector<std::byte> bytes = testing::ReadWholeFile(file);
  bytes[3 * 16384 + 9000] ^= std::byte{0x40};
  testing::WriteWholeFile(file, bytes);
  DoublewriteReport r = AnalyzeDoublewrite(file);
  ASSERT_EQ(r.findings.size(), 1u) << ToText(r, true);
  EXPECT_EQ(r.findings[0].what, "torn copy");
  EXPECT_EQ(r.findings[0].offset, 3u * 16384);
  EXPECT_FALSE(r.sources[0].copies[3].whole);
}

// Copies of page-compressed pages (both checksum formats) are whole when the page they copy
// is: checked as the tablespace's own pages are, inflated, not as plain pages.
TEST(DoublewriteReportTest, PageCompressedCopiesAreWhole) {
  for (const char* format : {"fcrc32", "crc32"}) {
    testing::TempDir tmp;
    const auto ibd = tmp.path() / "pc_zlib.ibd";
    testing::Gunzip(testing::TestDataDir() / "mariadb-page-compressed" / format / "pc_zlib.ibd.gz", ibd);
    const std::vector<std::byte> pages = testing::ReadWholeFile(ibd);
    // A doublewrite file holding pages 3.. of the table, as they are stored.
    std::vector<std::byte> dblwr(pages.begin() + 3 * 16384,
                                 pages.begin() + std::min<std::size_t>(pages.size(), 11 * 16384));
    testing::WriteWholeFile(tmp.path() / "#ib_16384_0.dblwr", dblwr);
    DoublewriteReport r = AnalyzeDoublewrite(tmp.path());
    ASSERT_EQ(r.sources.size(), 1u) << format;
    ASSERT_FALSE(r.sources[0].copies.empty()) << format;
    for (const auto& c : r.sources[0].copies) {
      EXPECT_TRUE(c.whole) << format << " slot " << c.slot;
      EXPECT_EQ(c.page_valid, true) << format << " slot " << c.slot;
      EXPECT_TRUE(c.identical) << format << " slot " << c.slot;
    }
    EXPECT_TRUE(r.findings.empty()) << ToText(r, true);
  }
}

}  // namespace
}  // namespace strata::inspect
