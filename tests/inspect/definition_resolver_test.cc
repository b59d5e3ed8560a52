// Which definition a file's rows decode by, when several sources describe its table: the
// MariaDB 10.11 files of tests/data/mariadb-history, with their .frm and the server's ibdata1
// (SYS_* tables), and CREATE TABLE texts that agree with them or not.
#include <gtest/gtest.h>

#include <fstream>

#include "inspect/definition_resolver.h"
#include "inspect/sys_dictionary.h"
#include "tests/util/fixtures.h"
#include "tests/util/tsv.h"

namespace strata::inspect {
namespace {

namespace fs = std::filesystem;

class DefinitionResolverTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const fs::path hist = testing::TestDataDir() / "mariadb-history";
    testing::Gunzip(hist / "ibdata1.gz", tmp_.path() / "ibdata1");
    fs::create_directory(tmp_.path() / "hist");
    for (const char* f : {"t_sec.ibd", "t_sec.frm"}) fs::copy_file(hist / "hist" / f, tmp_.path() / "hist" / f);
  }

  ResolvedDefinition Resolve(DefinitionSources sources = {}) {
    auto file = SpaceFile::Open(ibd());
    EXPECT_TRUE(file.ok()) << file.status().ToString();
    if (!sources.server) sources.server = servers_.For(*file);
    auto r = ResolveDefinition(*file, sources);
    EXPECT_TRUE(r.ok()) << r.status().ToString();
    return r.ok() ? std::move(*r) : ResolvedDefinition{};
  }
  fs::path ibd() const { return tmp_.path() / "hist" / "t_sec.ibd"; }
  fs::path Sql(const std::string& text) {
    const fs::path p = tmp_.path() / "t_sec.sql";
    std::ofstream(p) << text;
    return p;
  }
  static std::string AllNotes(const ResolvedDefinition& r) {
    std::string s;
    for (const auto& n : r.notes) s += n + "\n";
    return s;
  }

  testing::TempDir tmp_;
  ServerDictionaries servers_;
};

constexpr const char* kTSec =
    "CREATE TABLE t_sec (id INT UNSIGNED NOT NULL PRIMARY KEY, email VARCHAR(64) NOT NULL, grp %s NOT NULL, "
    "created DATETIME NOT NULL, note VARCHAR(100) NULL, UNIQUE KEY uk_email (email), "
    "KEY k_grp_created (grp, created)) DEFAULT CHARSET=utf8mb4;";

std::string TSec(const char* grp_type) {
  std::string s = kTSec;
  s.replace(s.find("%s"), 2, grp_type);
  return s;
}

TEST_F(DefinitionResolverTest, TheFrmWinsOverSysColumnsAndTakesTheSecondaryRootsFromSysIndexes) {
  const ResolvedDefinition r = Resolve();
  ASSERT_NE(r.Table(), nullptr);
  EXPECT_EQ(r.provenance, DefinitionSource::kFrm);
  EXPECT_TRUE(r.notes.empty()) << AllNotes(r);
  const TableDef& t = *r.Table();
  EXPECT_EQ(t.name, "t_sec");
  for (const char* name : {"uk_email", "k_grp_created"}) {
    const auto ix = std::find_if(t.indexes.begin(), t.indexes.end(), [&](const IndexDef& i) { return i.name == name; });
    ASSERT_NE(ix, t.indexes.end()) << name;
    EXPECT_NE(ix->root_page, ondisk::kFilNull) << name << ": the .frm does not know it, SYS_INDEXES does";
  }
  // The server's other tables are in the dictionary too, for the names of their indexes.
  EXPECT_GT(r.dict.tables.size(), 5u);
}

TEST_F(DefinitionResolverTest, WithoutTheFrmSysColumnsIsUsedAndWhatItDoesNotKeepIsSaid) {
  fs::remove(tmp_.path() / "hist" / "t_sec.frm");
  const ResolvedDefinition r = Resolve();
  ASSERT_NE(r.Table(), nullptr);
  EXPECT_EQ(r.provenance, DefinitionSource::kSysTables);
  ASSERT_EQ(r.notes.size(), 1u) << AllNotes(r);
  EXPECT_NE(r.notes[0].find("SYS_COLUMNS does not say whether id (UNSIGNED) are ZEROFILL"), std::string::npos);
}

TEST_F(DefinitionResolverTest, ADamagedFrmIsPassedOverWithItsReasonAndSysColumnsIsUsed) {
  testing::OverwriteAt(tmp_.path() / "hist" / "t_sec.frm", 0, "XX");
  const ResolvedDefinition r = Resolve();
  ASSERT_NE(r.Table(), nullptr);
  EXPECT_EQ(r.provenance, DefinitionSource::kSysTables);
  const std::string notes = AllNotes(r);
  EXPECT_NE(notes.find("t_sec.frm: offset 0: .frm: no FE 01 signature: not a .frm file (read with SYS_COLUMNS "
                       "instead, if ibdata1 is at hand)"),
            std::string::npos)
      << notes;
}

TEST_F(DefinitionResolverTest, ACreateTableWinsAndAgreesWithTheServer) {
  const ResolvedDefinition r = Resolve({Sql(TSec("SMALLINT")), "", nullptr});
  ASSERT_NE(r.Table(), nullptr);
  EXPECT_EQ(r.provenance, DefinitionSource::kCreateTable);
  EXPECT_TRUE(r.notes.empty()) << AllNotes(r);
}

TEST_F(DefinitionResolverTest, ACreateTableTheServerDisagreesWithIsUsedAndTheDisagreementSaid) {
  const ResolvedDefinition r = Resolve({Sql(TSec("INT")), "", nullptr});
  ASSERT_NE(r.Table(), nullptr);
  EXPECT_EQ(r.provenance, DefinitionSource::kCreateTable);
  ASSERT_EQ(r.notes.size(), 1u) << AllNotes(r);
  EXPECT_EQ(r.notes[0],
            "warning: the CREATE TABLE and SYS_COLUMNS disagree on how the rows of t_sec are stored: field 5 (grp) "
            "is 4 bytes, NOT NULL against 2 bytes, NOT NULL; the CREATE TABLE is used, and values may read wrong "
            "where it is not the table's");
  // One column too many: the number of fields differs.
  const ResolvedDefinition more = Resolve({Sql(TSec("SMALLINT, extra INT")), "", nullptr});
  ASSERT_EQ(more.notes.size(), 1u) << AllNotes(more);
  EXPECT_NE(more.notes[0].find("8 fields against 7"), std::string::npos) << more.notes[0];
}

TEST_F(DefinitionResolverTest, ACreateTableThatCannotBeReadIsAnErrorNotAFallback) {
  auto file = SpaceFile::Open(ibd());
  ASSERT_TRUE(file.ok());
  auto missing = ResolveDefinition(*file, {tmp_.path() / "none.sql", "", nullptr});
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("none.sql: cannot be read"), std::string::npos);
  auto other = ResolveDefinition(*file, {Sql("CREATE TABLE a (x INT PRIMARY KEY);"), "b", nullptr});
  EXPECT_FALSE(other.ok());
}

TEST_F(DefinitionResolverTest, NoSourceAtHandIsNoTableAndTheMessageSaysWhatWouldGiveOne) {
  fs::remove(tmp_.path() / "hist" / "t_sec.frm");
  fs::remove(tmp_.path() / "ibdata1");
  const ResolvedDefinition r = Resolve();
  EXPECT_EQ(r.Table(), nullptr);
  auto file = SpaceFile::Open(ibd());
  ASSERT_TRUE(file.ok());
  EXPECT_NE(NoDefinitionMessage(*file).find("--create-table FILE.sql"), std::string::npos);
}

}  // namespace
}  // namespace strata::inspect
