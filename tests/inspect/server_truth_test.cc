// The inspector against what MariaDB itself reported (information_schema, SHOW ENGINE INNODB
// STATUS) for the same files, and against MySQL 8.0's own dictionary.
#include <gtest/gtest.h>

#include <map>

#include "inspect/check.h"
#include "inspect/page_info.h"
#include "inspect/schema.h"
#include "inspect/space_file.h"
#include "inspect/summary.h"
#include "inspect/sys_dictionary.h"
#include "inspect/undo.h"
#include "ondisk/index_page.h"
#include "tests/util/fixtures.h"
#include "tests/util/tsv.h"

namespace strata::inspect {
namespace {

namespace fs = std::filesystem;
using testing::ReadTsv;

// Server page-type names (INNODB_BUFFER_PAGE.PAGE_TYPE) and ours.
const std::map<std::string, std::string> kServerTypes = {{"FILE_SPACE_HEADER", "FSP_HDR"},
                                                         {"IBUF_BITMAP", "IBUF_BITMAP"},
                                                         {"INODE", "INODE"},
                                                         {"INDEX", "INDEX"},
                                                         {"BLOB", "BLOB"},
                                                         {"UNDO_LOG", "UNDO_LOG"},
                                                         {"SYSTEM", "SYS"},
                                                         {"TRX_SYSTEM", "TRX_SYS"},
                                                         {"EXTENT_DESCRIPTOR", "XDES"}};

// Every page the server listed, compared field by field with what AnalyzePage decodes.
void ComparePages(const fs::path& ibd, const fs::path& truth, const fs::path& indexes_tsv, std::size_t* index_pages) {
  auto file = SpaceFile::Open(ibd);
  ASSERT_TRUE(file.ok()) << file.status().ToString();
  std::map<std::string, std::string> index_ids;  // name@space -> id
  for (const auto& row : ReadTsv(indexes_tsv)) index_ids[row.at("NAME") + "@" + row.at("SPACE")] = row.at("INDEX_ID");
  for (const auto& row : ReadTsv(truth)) {
    const std::uint32_t n = static_cast<std::uint32_t>(std::stoul(row.at("PAGE_NUMBER")));
    ASSERT_LT(n, file->n_pages()) << ibd;
    PageInfo p = AnalyzePage(*file, n, /*deep=*/true);
    const std::string where = ibd.filename().string() + " page " + std::to_string(n);
    EXPECT_EQ(p.lsn, std::stoull(row.at("NEWEST_MODIFICATION"))) << where;
    EXPECT_TRUE(p.checksum_ok && !p.torn && !p.misplaced) << where;
    auto type = kServerTypes.find(row.at("PAGE_TYPE"));
    ASSERT_NE(type, kServerTypes.end()) << where << ": unmapped server type " << row.at("PAGE_TYPE");
    EXPECT_EQ(PageTypeName(p.type, file->flavor()), type->second) << where;
    if (row.at("PAGE_TYPE") != "INDEX") continue;
    ++*index_pages;
    ASSERT_TRUE(p.is_btree) << where << ": " << p.header_error;
    EXPECT_EQ(p.n_recs, std::stoul(row.at("NUMBER_RECORDS"))) << where;
    EXPECT_EQ(p.data_size, std::stoul(row.at("DATA_SIZE"))) << where;
    EXPECT_EQ(std::to_string(p.index_id), index_ids[row.at("INDEX_NAME") + "@" + row.at("SPACE")]) << where;
    EXPECT_TRUE(p.structure_error.empty()) << where << ": " << p.structure_error;
  }
}

TEST(ServerTruthTest, EveryMariaDbIndexPageMatchesInnodbBufferPage) {
  std::size_t index_pages = 0;
  const fs::path dir = testing::TestDataDir() / "mariadb";
  for (const auto& ibd : testing::IbdFilesUnder(dir)) {
    ComparePages(ibd, dir / "truth" / (ibd.stem().string() + ".pages.tsv"), dir / "truth/sys_indexes.tsv",
                 &index_pages);
  }
  const fs::path hist = testing::TestDataDir() / "mariadb-history";
  for (const auto& ibd : testing::IbdFilesUnder(hist / "hist")) {
    ComparePages(ibd, hist / "truth" / (ibd.stem().string() + ".pages.tsv"), hist / "truth/sys_indexes.tsv",
                 &index_pages);
  }
  EXPECT_GT(index_pages, 100u);
}

// Leaf records = the rows SELECT COUNT(*) sees now + the delete-marked ones purge may not
// remove yet (the fixture's read view holds them).
TEST(ServerTruthTest, SummaryRecordsMatchTheServersRowCounts) {
  const fs::path hist = testing::TestDataDir() / "mariadb-history";
  std::map<std::string, std::uint64_t> latest;
  for (const auto& row : ReadTsv(hist / "truth/index_counts.latest.tsv")) {
    if (row.at("index") == "PRIMARY") latest[row.at("table")] = std::stoull(row.at("count"));
  }
  for (const std::string table : {"t_autoinc", "t_uuid", "t_ulid", "t_bin16", "t_sec"}) {
    auto file = SpaceFile::Open(hist / "hist" / (table + ".ibd"));
    ASSERT_TRUE(file.ok());
    SpaceSummary s = Summarize(*file);
    ASSERT_FALSE(s.indexes.empty());
    const IndexSummary& clustered = s.indexes.front();  // lowest index id: created first
    std::uint64_t delete_marked = 0;
    for (std::uint32_t n = 0; n < file->n_pages(); ++n) {
      PageInfo p = AnalyzePage(*file, n);
      if (!p.is_btree || p.index_id != clustered.index_id || p.level != 0) continue;
      auto ip = ondisk::IndexPage::Open(file->page(n));
      ondisk::RecordWalker w(*ip);
      while (w.Next()) delete_marked += w.header().deleted();
    }
    EXPECT_EQ(clustered.records - delete_marked, latest.at(table)) << table;
    EXPECT_EQ(clustered.levels, 2) << table;
    EXPECT_EQ(s.checksum_failures, 0u) << table;
  }
}

// 32 and 64 KiB pages (innodb_page_size, fixed per server): the page size the server ran with,
// every checksum good and no damage, and the clustered index's leaf records COUNT(*) after the
// server's slow shutdown (nothing delete-marked is left by then).
TEST(ServerTruthTest, LargePageTablespacesReadAsTheServerWroteThem) {
  const fs::path dir = testing::TestDataDir() / "mariadb-large-pages";
  for (const std::string size : {"32k", "64k"}) {
    const auto truth = ReadTsv(dir / size / "truth.tsv");
    ASSERT_EQ(truth.size(), 1u) << size;
    ASSERT_EQ(truth[0].at("innochecksum"), "ok") << size;
    const fs::path ibd = fs::path(::testing::TempDir()) / ("t_pages_" + size + ".ibd");
    testing::Gunzip(dir / size / "t_pages.ibd.gz", ibd);
    auto file = SpaceFile::Open(ibd);
    ASSERT_TRUE(file.ok()) << size << ": " << file.status().ToString();
    const SpaceSummary s = Summarize(*file);
    EXPECT_EQ(s.page_size, std::stoul(truth[0].at("page_size"))) << size;
    EXPECT_EQ(s.checksum_failures, 0u) << size;
    ASSERT_EQ(s.indexes.size(), 2u) << size;  // PRIMARY and k_k
    EXPECT_EQ(s.indexes[0].records, std::stoull(truth[0].at("rows"))) << size;
    EXPECT_EQ(s.indexes[1].records, std::stoull(truth[0].at("rows"))) << size;
    const CheckReport check = CheckSpace(*file);
    EXPECT_TRUE(check.clean()) << size << ": " << ToText(check);
    EXPECT_EQ(check.pages_checked, file->n_pages()) << size;
    fs::remove(ibd);
  }
}

TEST(ServerTruthTest, UndoHistoryLengthEqualsShowEngineInnodbStatus) {
  const fs::path hist = testing::TestDataDir() / "mariadb-history";
  testing::TempDir tmp;
  for (const char* f : {"ibdata1", "undo001", "undo002"})
    testing::Gunzip(hist / (std::string(f) + ".gz"), tmp.path() / f);
  std::vector<Finding> findings;
  auto paths = ExpandPaths({tmp.path()}, &findings);
  ASSERT_EQ(paths.size(), 3u);
  EXPECT_EQ(paths[0].filename(), "ibdata1");  // the system tablespace comes first
  std::vector<SpaceFile> files;
  for (const auto& p : paths) files.push_back(std::move(*SpaceFile::Open(p)));
  std::vector<const SpaceFile*> ptrs;
  for (const auto& f : files) ptrs.push_back(&f);
  UndoReport r = AnalyzeUndo(ptrs, /*with_logs=*/true);
  EXPECT_TRUE(r.findings.empty()) << r.findings.front().ToString();
  std::string server;
  for (const auto& row : ReadTsv(hist / "truth/history_list_length.tsv")) {
    if (row.at("source") == "SHOW ENGINE INNODB STATUS") server = row.at("history_list_length");
  }
  ASSERT_FALSE(server.empty());
  EXPECT_EQ(std::to_string(r.history_list_length), server);
  EXPECT_EQ(r.rsegs.size(), 128u);
  std::size_t logs = 0;
  for (const auto& rseg : r.rsegs) {
    EXPECT_EQ(rseg.logs.size(), rseg.history_length) << rseg.source;
    logs += rseg.logs.size();
    for (const auto& l : rseg.logs) {
      EXPECT_GT(l.trx_no, l.trx_id);  // a commit number is handed out after the id
      EXPECT_GE(l.records, 1u);
    }
  }
  EXPECT_EQ(logs, r.history_list_length);
}

TEST(ServerTruthTest, MySql80SummaryNamesIndexesFromTheFilesOwnDictionary) {
  auto file = SpaceFile::Open(testing::SharedFixturesDir() / "mysql-sakila/8.0/sakila/film_actor.ibd");
  ASSERT_TRUE(file.ok());
  EXPECT_EQ(file->shape().flavor_name(), "MySQL 8.0.40");
  SpaceSummary s = Summarize(*file);
  std::map<std::string, IndexSummary> by_name;
  for (const auto& ix : s.indexes) by_name[ix.name] = ix;
  ASSERT_TRUE(by_name.count("PRIMARY"));
  ASSERT_TRUE(by_name.count("idx_fk_film_id"));
  EXPECT_EQ(by_name["PRIMARY"].records, 5462u);  // sakila.film_actor has 5462 rows
  EXPECT_EQ(by_name["idx_fk_film_id"].records, 5462u);
  EXPECT_EQ(by_name["PRIMARY"].root_page, 4u);
  EXPECT_EQ(by_name["PRIMARY"].table, "sakila.film_actor");
  EXPECT_EQ(s.checksum_failures, 0u);
}

}  // namespace
}  // namespace strata::inspect

namespace strata::inspect {
namespace {

// MariaDB keeps index names in ibdata1's SYS_INDEXES: every index the server listed in
// INNODB_SYS_INDEXES is found with its name, table id's table, and root page.
TEST(ServerTruthTest, SysIndexesOfIbdata1MatchInnodbSysIndexes) {
  const fs::path hist = testing::TestDataDir() / "mariadb-history";
  testing::TempDir tmp;
  testing::Gunzip(hist / "ibdata1.gz", tmp.path() / "ibdata1");
  auto sys = SpaceFile::Open(tmp.path() / "ibdata1");
  ASSERT_TRUE(sys.ok());
  Dictionary d = ReadSysDictionary(*sys);
  EXPECT_TRUE(d.findings.empty()) << d.findings.front().ToString();
  std::size_t compared = 0;
  for (const auto& row : ReadTsv(hist / "truth/sys_indexes.tsv")) {
    const IndexDef* ix = d.FindIndex(std::stoull(row.at("INDEX_ID")));
    ASSERT_NE(ix, nullptr) << row.at("NAME");
    EXPECT_EQ(ix->name, row.at("NAME"));
    EXPECT_EQ(std::to_string(ix->root_page), row.at("PAGE_NO")) << ix->name;
    ++compared;
  }
  EXPECT_GE(compared, 7u);
  // And a .ibd beside that ibdata1 gets its names through it.
  fs::create_directories(tmp.path() / "hist");
  fs::copy_file(hist / "hist/t_sec.ibd", tmp.path() / "hist/t_sec.ibd");
  ASSERT_EQ(FindSystemTablespace(tmp.path() / "hist/t_sec.ibd"), tmp.path() / "ibdata1");
  auto t = SpaceFile::Open(tmp.path() / "hist/t_sec.ibd");
  SpaceSummary s = Summarize(*t, &d);
  ASSERT_EQ(s.indexes.size(), 3u);
  EXPECT_EQ(s.indexes[0].name, "PRIMARY");
  EXPECT_EQ(s.indexes[1].name, "uk_email");
  EXPECT_EQ(s.indexes[0].table, "hist.t_sec");
}

}  // namespace
}  // namespace strata::inspect
