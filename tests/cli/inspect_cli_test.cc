// `strata inspect` as users run it: real files, JSON that parses, exit codes that mean something.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <fmt/format.h>
#include <sys/stat.h>

#include <fstream>
#include <string>

#include "tests/util/fixtures.h"
#include "tests/util/run_command.h"
#include "tests/util/tsv.h"

namespace {

namespace fs = std::filesystem;
using strata::testing::CommandResult;
using strata::testing::Strata;
using strata::testing::TestDataDir;

std::string Data(const std::string& rel) { return (TestDataDir() / rel).string(); }

TEST(InspectCliTest, EveryCommandHasHelp) {
  for (const char* c :
       {"summary", "regions", "pages", "page", "index", "extents", "lsn", "undo", "check", "schema", "rows"}) {
    CommandResult r = Strata(std::string("inspect ") + c + " --help");
    EXPECT_EQ(r.exit_code, 0) << c;
    EXPECT_NE(r.out.find(std::string("Usage: strata inspect ") + c), std::string::npos) << c;
    EXPECT_NE(r.out.find("--json"), std::string::npos) << c;
  }
}

TEST(InspectCliTest, EveryCommandPrintsJsonThatParses) {
  const std::string file = Data("mariadb/t_int.ibd");
  for (const char* c : {"summary", "regions", "pages", "page", "index", "extents", "lsn", "check", "schema"}) {
    std::string args =
        std::string("inspect ") + c + " --json " + file + (std::string(c) == "page" ? " 3 --records" : "");
    CommandResult r = Strata(args);
    EXPECT_EQ(r.exit_code, 0) << c << ": " << r.err;
    auto j = nlohmann::json::parse(r.out, nullptr, false);
    ASSERT_FALSE(j.is_discarded()) << c << ": " << r.out.substr(0, 200);
    EXPECT_EQ(j["command"], c);
    EXPECT_EQ(j["schema_version"], 1);
    ASSERT_EQ(j["files"].size(), 1u) << c;
  }
}

TEST(InspectCliTest, SummaryJsonDescribesAMariaDbFile) {
  CommandResult r = Strata("inspect summary --json " + Data("mariadb/t_int.ibd"));
  ASSERT_EQ(r.exit_code, 0);
  auto f = nlohmann::json::parse(r.out)["files"][0];
  EXPECT_EQ(f["flavor"], "MariaDB (full_crc32)");
  EXPECT_EQ(f["page_size"], 16384);
  EXPECT_EQ(f["pages"], 18);
  EXPECT_EQ(f["checksum_failures"], 0);
  EXPECT_EQ(f["indexes"][0]["records"], 2000);
  EXPECT_EQ(f["indexes"][0]["levels"], 2);
}

TEST(InspectCliTest, PagesJsonHasOneRowPerPage) {
  CommandResult r = Strata("inspect pages --json " + Data("mariadb/t_uuid.ibd"));
  ASSERT_EQ(r.exit_code, 0);
  auto rows = nlohmann::json::parse(r.out)["files"][0]["pages"];
  ASSERT_EQ(rows.size(), 14u);
  EXPECT_EQ(rows[0]["type"], "FSP_HDR");
  EXPECT_EQ(rows[3]["type"], "INDEX");
  EXPECT_FALSE(rows[3]["data_size"].is_null());
}

TEST(InspectCliTest, CheckExitsOneOnDamageAndNamesPageAndOffset) {
  EXPECT_EQ(Strata("inspect check " + Data("mariadb")).exit_code, 0);
  strata::testing::TempDir tmp;
  auto bytes = strata::testing::ReadWholeFile(TestDataDir() / "mariadb/t_int.ibd");
  bytes[5 * 16384 + 1000] ^= std::byte{0x40};
  const fs::path bad = tmp.path() / "t_int.ibd";
  std::ofstream(bad, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  CommandResult r = Strata("inspect check " + bad.string());
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find("t_int.ibd page 5 offset 16380: checksum mismatch"), std::string::npos) << r.out;
  CommandResult page = Strata("inspect page " + bad.string() + " 5");
  EXPECT_EQ(page.exit_code, 1) << "the page is shown, and its damage is in the exit status";
  EXPECT_NE(page.err.find("page 5 fails its checksum"), std::string::npos) << page.err;
  EXPECT_EQ(Strata("inspect page " + bad.string() + " 4").exit_code, 0);
}

TEST(InspectCliTest, MissingFileAndBadArgumentsHaveDistinctExitCodes) {
  CommandResult missing = Strata("inspect summary /no/such/file.ibd");
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_NE(missing.err.find("/no/such/file.ibd: not found"), std::string::npos) << missing.err;
  EXPECT_EQ(Strata("inspect summary").exit_code, 2);
  EXPECT_EQ(Strata("inspect summary --bogus " + Data("mariadb/t_int.ibd")).exit_code, 2);
  EXPECT_EQ(Strata("inspect page " + Data("mariadb/t_int.ibd")).exit_code, 2);
  CommandResult far = Strata("inspect page " + Data("mariadb/t_int.ibd") + " 9999");
  EXPECT_EQ(far.exit_code, 1);
  EXPECT_NE(far.err.find("has 18 pages"), std::string::npos) << far.err;
}

// A page named by something that is not a plain number below 2^32 is a usage error, never a
// page it happened to parse into (1e3:3 read as 1:3, -1 as 4294967295).
TEST(InspectCliTest, RedoPageNumbersAreReadStrictly) {
  strata::testing::TempDir tmp;
  strata::testing::Gunzip(TestDataDir() / "mariadb-redo" / "ib_logfile0.gz", tmp.path() / "ib_logfile0");
  const std::string log = (tmp.path() / "ib_logfile0").string();
  for (const char* bad : {"1e3:3", "4294967296:3", "0:3junk", "-1:3", "0x10:3", "3", ":3"}) {
    EXPECT_EQ(Strata("inspect redo " + log + " --page " + bad).exit_code, 2) << bad;
  }
  EXPECT_EQ(Strata("inspect redo " + log + " --page 0:3").exit_code, 0);
}

// One page, one name: `inspect page` calls a page what `inspect pages` and `summary` call it
// (a never-written free page is FREE in all three, not ALLOCATED in one).
TEST(InspectCliTest, PageNamesAPagesTypeAsPagesDoes) {
  const std::string film = (strata::testing::SharedFixturesDir() / "mysql-sakila/8.0/sakila/film.ibd").string();
  CommandResult pages = Strata("inspect pages --json " + film);
  ASSERT_EQ(pages.exit_code, 0) << pages.err;
  const auto listed = nlohmann::json::parse(pages.out)["files"][0]["pages"];
  ASSERT_EQ(listed.size(), 22u);
  for (const auto& p : listed) {
    CommandResult one = Strata("inspect page --json " + film + " " + std::to_string(p["page_no"].get<int>()));
    ASSERT_EQ(one.exit_code, 0) << one.err;
    EXPECT_EQ(nlohmann::json::parse(one.out)["files"][0]["type"], p["type"]) << "page " << p["page_no"];
  }
}

TEST(InspectCliTest, UndoOnADataDirectoryPrintsTheServersHistoryLength) {
  strata::testing::TempDir tmp;
  for (const char* f : {"ibdata1", "undo001", "undo002"}) {
    strata::testing::Gunzip(TestDataDir() / "mariadb-history" / (std::string(f) + ".gz"), tmp.path() / f);
  }
  CommandResult r = Strata("inspect undo " + tmp.path().string());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.rfind("History list length 530\n", 0), 0u) << r.out.substr(0, 200);
  CommandResult j = Strata("inspect undo --json --logs " + tmp.path().string());
  auto doc = nlohmann::json::parse(j.out);
  EXPECT_EQ(doc["history_list_length"], 530);
  EXPECT_EQ(doc["rollback_segments"].size(), 128u);
}

// Indexes are named wherever the dictionary names them, as `summary` names them.
TEST(InspectCliTest, RegionsAndExtentsNameTheIndexes) {
  const std::string film = (strata::testing::SharedFixturesDir() / "mysql-sakila/8.0/sakila/film.ibd").string();
  CommandResult regions = Strata("inspect regions " + film);
  ASSERT_EQ(regions.exit_code, 0) << regions.err;
  EXPECT_NE(regions.out.find("INDEX PRIMARY (index 167) level 1"), std::string::npos) << regions.out;
  EXPECT_NE(regions.out.find("SDI level 0"), std::string::npos) << regions.out;
  auto j = nlohmann::json::parse(Strata("inspect regions --json " + film).out);
  bool named = false;
  for (const auto& r : j["files"][0]["regions"]) named |= r["index_name"] == "idx_title";
  EXPECT_TRUE(named);
  EXPECT_NE(Strata("inspect summary " + film).out.find("PRIMARY"), std::string::npos);
}

TEST(InspectCliTest, PageRecordsDecodeFieldsByNameFromSdi) {
  CommandResult r =
      Strata("inspect page " + (strata::testing::SharedFixturesDir() / "mysql-sakila/8.0/sakila/actor.ibd").string() +
             " 4 --records");
  ASSERT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("layout: SDI index PRIMARY of sakila.actor"), std::string::npos);
  EXPECT_NE(r.out.find("first_name           \"PENELOPE\""), std::string::npos);
  EXPECT_NE(r.out.find("last_update          2006-02-15 04:34:33"), std::string::npos);
}

// MySQL 8.0.29+ instant ADD/DROP: each record is decoded by the columns of the row version it
// was written in, dropped ones included (a dropped utf8mb4 CHAR is variable-length).
TEST(InspectCliTest, PageRecordsDecodeEachRowVersionByItsOwnColumns) {
  const fs::path ibd = strata::testing::SharedFixturesDir() / "external" / "ibdNinja" / "8.0" / "instant_add_drop.ibd";
  CommandResult r = Strata("inspect page 4 --records --json " + ibd.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  std::vector<std::vector<std::string>> values;
  for (const auto& rec : j["files"][0]["records"]) {
    ASSERT_TRUE(rec["error"].is_null()) << rec.dump();
    auto& row = values.emplace_back();
    for (const auto& f : rec["fields"]) row.push_back(f["value"].get<std::string>());
  }
  ASSERT_EQ(values.size(), 3u);
  EXPECT_EQ(values[0].size(), 5u);  // version 0: id, DB_TRX_ID, DB_ROLL_PTR, col_datetime_0, col_varchar
  EXPECT_EQ(values[0][4], "\"Row_V1\"");
  EXPECT_EQ(values[1].size(), 7u);  // version 2: and col_datetime_6, col_char
  EXPECT_EQ(values[1][4], "\"Row_V2\"");
  EXPECT_EQ(values[1][6], "\"ibdNinja  \"");
  EXPECT_EQ(values[2].size(), 5u);  // version 4: both dropped
  EXPECT_EQ(values[2][0], "3");
}

TEST(InspectCliTest, IllustrationsHaveLegendsWithCounts) {
  CommandResult r = Strata("inspect extents --illustrate --color=never " + Data("mariadb/t_uuid.ibd"));
  ASSERT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("legend"), std::string::npos);
  EXPECT_NE(r.out.find("free"), std::string::npos);
  EXPECT_EQ(r.out.find("\x1b["), std::string::npos);  // --color=never means no escapes
  CommandResult c = Strata("inspect lsn --illustrate --color=always " + Data("mariadb/t_uuid.ibd"));
  EXPECT_NE(c.out.find("\x1b[38;"), std::string::npos);
  EXPECT_NE(c.out.find("LSN histogram"), std::string::npos);
  // Without colour the LSN map still tells ages apart: a digit per page, 0 the oldest.
  CommandResult plain = Strata("inspect lsn --illustrate --color=never " + Data("mariadb/t_uuid.ibd"));
  const std::string row = plain.out.substr(plain.out.find("\u2502") + 3, 20);
  EXPECT_EQ(row.find("\u2588"), std::string::npos) << plain.out;
  EXPECT_NE(row.find_first_of("0123456789"), std::string::npos) << plain.out;
  EXPECT_NE(plain.out.find("0123456789 oldest LSN"), std::string::npos) << plain.out;
}

// An encrypted MariaDB table read with the server's key file, as a user would: rows as the
// server printed them, summary saying what was decrypted; without the key, rows refuses
// with the reason and the option that helps; a key file the server would refuse is refused.
TEST(InspectCliTest, KeyFileDecryptsMariaDbTables) {
  strata::testing::TempDir tmp;
  const fs::path dir = TestDataDir() / "mariadb-encrypted";
  strata::testing::Gunzip(dir / "crc32" / "enc.ibd.gz", tmp.path() / "enc.ibd");
  strata::testing::Gunzip(dir / "crc32" / "enc.frm.gz", tmp.path() / "enc.frm");
  const std::string ibd = (tmp.path() / "enc.ibd").string();
  const std::string keys = " --key-file " + (dir / "keys.txt").string() + " ";
  CommandResult rows = Strata("inspect rows" + keys + ibd);
  EXPECT_EQ(rows.exit_code, 0) << rows.err;
  EXPECT_EQ(rows.out, strata::testing::ReadText(dir / "rows.tsv"));
  CommandResult summary = Strata("inspect summary --json" + keys + ibd);
  EXPECT_EQ(summary.exit_code, 0) << summary.err;
  auto j = nlohmann::json::parse(summary.out, nullptr, false);
  ASSERT_FALSE(j.is_discarded());
  EXPECT_GT(j["files"][0]["decrypted"]["pages"].get<int>(), 20);
  EXPECT_EQ(j["files"][0]["decrypted"]["with"], "key id 1 of keys.txt, AES-CBC");
  EXPECT_EQ(j["files"][0]["encrypted_pages"], 0);
  EXPECT_EQ(Strata("inspect check" + keys + ibd).exit_code, 0);
  CommandResult without = Strata("inspect rows " + ibd);
  EXPECT_EQ(without.exit_code, 1);
  EXPECT_NE(without.err.find("--key-file"), std::string::npos) << without.err;
  const fs::path bad = tmp.path() / "bad.txt";
  std::ofstream(bad) << "1;not hex\n";
  CommandResult refused = Strata("inspect summary --key-file " + bad.string() + " " + ibd);
  EXPECT_EQ(refused.exit_code, 1);
  EXPECT_NE(refused.err.find("bad.txt line 1, column 3"), std::string::npos) << refused.err;
}

// A MySQL-encrypted table read with the server's keyring_file: the rows its script inserted.
TEST(InspectCliTest, KeyringDecryptsMySqlTables) {
  const std::string ibd =
      (strata::testing::SharedFixturesDir() / "external" / "percona-parser" / "encrypted_test.ibd").string();
  const std::string keyring = Data("mysql-encrypted/keyring_test");
  CommandResult rows = Strata("inspect rows --keyring " + keyring + " " + ibd);
  EXPECT_EQ(rows.exit_code, 0) << rows.err;
  EXPECT_NE(rows.out.find("5\tRESTRICTED: Launch codes 1234\n"), std::string::npos) << rows.out;
  CommandResult without = Strata("inspect rows " + ibd);
  EXPECT_EQ(without.exit_code, 1);
  EXPECT_NE(without.err.find("--keyring"), std::string::npos) << without.err;
  CommandResult summary = Strata("inspect summary --keyring " + keyring + " " + ibd);
  EXPECT_EQ(summary.exit_code, 0) << summary.err;
  EXPECT_NE(summary.out.find("decrypted      4 pages, with master key INNODBKey-"), std::string::npos) << summary.out;
  EXPECT_EQ(Strata("inspect check --keyring " + keyring + " " + ibd).exit_code, 0);
  EXPECT_EQ(Strata("inspect summary --keyring " + ibd + " " + ibd).exit_code, 1);  // not a keyring
}

// `inspect doublewrite` on a MySQL 8.0.30 data directory's #ib_16384_0.dblwr: every copy
// listed; `check` on that file says it is no tablespace, and exits 0.
TEST(InspectCliTest, DoublewriteOfAMySqlDataDirectory) {
  strata::testing::TempDir tmp;
  fs::create_directories(tmp.path() / "petespecial");
  strata::testing::Gunzip(Data("mysql-doublewrite/#ib_16384_0.dblwr.gz"), tmp.path() / "#ib_16384_0.dblwr");
  strata::testing::Gunzip(Data("mysql-doublewrite/petespecial/HallPet.ibd.gz"),
                          tmp.path() / "petespecial" / "HallPet.ibd");
  CommandResult text = Strata("inspect doublewrite --slots " + tmp.path().string());
  EXPECT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("12 hold copies"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("equal (identical)"), std::string::npos) << text.out;
  CommandResult json = Strata("inspect doublewrite --json " + tmp.path().string());
  const auto copies = nlohmann::json::parse(json.out)["paths"][0]["sources"][0]["copies"];
  EXPECT_EQ(copies.size(), 12u);
  EXPECT_TRUE(copies[0]["space"].is_null());
  EXPECT_FALSE(copies[0]["space_unknown_reason"].is_null());
  CommandResult check = Strata("inspect check " + (tmp.path() / "#ib_16384_0.dblwr").string());
  EXPECT_EQ(check.exit_code, 0) << check.out << check.err;
  EXPECT_NE((check.out + check.err).find("inspect doublewrite"), std::string::npos) << check.out << check.err;
}

// A killed MariaDB's data directory: without --apply-redo the stale history is said to be
// stale; with it, the history list length is the one the server printed before the kill.
TEST(InspectCliTest, ApplyRedoGivesTheServersHistoryLength) {
  strata::testing::TempDir tmp;
  for (const char* f : {"ibdata1", "ib_logfile0"}) {
    strata::testing::Gunzip(TestDataDir() / "mariadb-stale" / (std::string(f) + ".gz"), tmp.path() / f);
  }
  std::string truth;
  for (const auto& row : strata::testing::ReadTsv(TestDataDir() / "mariadb-stale" / "truth" / "history.tsv")) {
    if (row.at("key") == "history_list_length_before_kill") truth = row.at("value");
  }
  CommandResult stale = Strata("inspect undo --json " + tmp.path().string());
  EXPECT_EQ(stale.exit_code, 0) << stale.err;
  const auto s = nlohmann::json::parse(stale.out);
  EXPECT_NE(s["history_list_length"].get<std::uint64_t>(), std::stoull(truth));
  EXPECT_NE(stale.out.find("stale pages"), std::string::npos) << stale.out;
  CommandResult applied = Strata("inspect undo --apply-redo --json " + tmp.path().string());
  EXPECT_EQ(applied.exit_code, 0) << applied.err;
  EXPECT_EQ(nlohmann::json::parse(applied.out)["history_list_length"].get<std::uint64_t>(), std::stoull(truth));
  CommandResult summary = Strata("inspect summary --apply-redo " + tmp.path().string());
  EXPECT_EQ(summary.exit_code, 0) << summary.err;
  EXPECT_NE(summary.err.find("redo applied"), std::string::npos) << summary.err;
}

// One file of a killed server's directory, given alone: every page-reading command finds the
// log above it and warns, or replays it with --apply-redo (only `rows` did; `undo` on ibdata1
// alone said history length 0 with --apply-redo), and --apply-redo without a log is an error.
TEST(InspectCliTest, OneFileOfACrashedDirectoryIsWarnedOrBroughtForward) {
  strata::testing::TempDir tmp;
  fs::create_directories(tmp.path() / "st");
  for (const char* f : {"ibdata1", "ib_logfile0", "st/t.ibd"}) {
    strata::testing::Gunzip(TestDataDir() / "mariadb-stale" / (std::string(f) + ".gz"), tmp.path() / f);
  }
  const std::string table = (tmp.path() / "st" / "t.ibd").string();
  for (const char* command : {"summary", "index", "pages", "lsn", "extents", "regions", "check"}) {
    const CommandResult stale = Strata(std::string("inspect ") + command + " " + table);
    EXPECT_NE(stale.err.find("stale pages"), std::string::npos) << command << ": " << stale.err;
    const CommandResult applied = Strata(std::string("inspect ") + command + " --apply-redo " + table);
    EXPECT_NE(applied.err.find("redo applied"), std::string::npos) << command << ": " << applied.err;
  }
  std::string truth;
  for (const auto& row : strata::testing::ReadTsv(TestDataDir() / "mariadb-stale" / "truth" / "history.tsv")) {
    if (row.at("key") == "history_list_length_before_kill") truth = row.at("value");
  }
  const CommandResult headline = Strata("inspect undo " + tmp.path().string());
  EXPECT_EQ(headline.out.rfind("Warning: ", 0), 0u) << headline.out;  // above the history length, not after it
  const CommandResult undo = Strata("inspect undo --apply-redo --json " + (tmp.path() / "ibdata1").string());
  EXPECT_EQ(nlohmann::json::parse(undo.out)["history_list_length"].get<std::uint64_t>(), std::stoull(truth));
  const CommandResult alone = Strata("inspect summary --apply-redo " + Data("mariadb/t_int.ibd"));
  EXPECT_EQ(alone.exit_code, 1);
  EXPECT_NE(alone.err.find("no redo log beside the file"), std::string::npos) << alone.err;
}

// A MySQL 9.0 data directory's log: after its clean stop nothing follows the checkpoint, and
// --all says what the server did before (the records still in #ib_redo9 and #ib_redo10).
TEST(InspectCliTest, RedoOfAMySqlDataDirectory) {
  const fs::path fixtures = strata::testing::SharedFixturesDir() / "external" / "idb-utils-mysql90";
  strata::testing::TempDir tmp;
  fs::create_directories(tmp.path() / "#innodb_redo");
  fs::copy_file(fixtures / "mysql90_redo_9", tmp.path() / "#innodb_redo" / "#ib_redo9");
  fs::copy_file(fixtures / "mysql90_redo_10", tmp.path() / "#innodb_redo" / "#ib_redo10");
  CommandResult after = Strata("inspect redo " + tmp.path().string());
  EXPECT_EQ(after.exit_code, 0) << after.err;
  EXPECT_NE(after.out.find("records        0 in 0 mini-transactions"), std::string::npos) << after.out;
  CommandResult all = Strata("inspect redo --all --json " + tmp.path().string());
  EXPECT_EQ(all.exit_code, 0) << all.err;
  const auto j = nlohmann::json::parse(all.out)["files"][0];
  EXPECT_EQ(j["log_files"].size(), 2u);
  EXPECT_EQ(j["mini_transactions"], 58412);
  EXPECT_EQ(j["record_count"], 68756);  // as docs/research/redo-records.md §3.2 counted them
  EXPECT_EQ(j["record_types"]["MLOG_FILE_CREATE"], 3);
  CommandResult page = Strata("inspect redo --all --page 2:3 " + tmp.path().string());
  EXPECT_NE(page.out.find("MLOG_COMP_PAGE_CREATE_SDI space 2 page 3"), std::string::npos) << page.out;
}

}  // namespace

// Keys as people write them (extra/23_key_shapes.sql read as --create-table): unnamed keys
// are found by the names the server gives them, and a primary key on a column prefix is the
// prefix inside every secondary index. Compared with what MariaDB lists FORCE INDEX.
TEST(InspectCliTest, RowsOfEveryKeyShapeFromTheScriptThatMadeThem) {
  const fs::path truth = TestDataDir() / "ibdninja" / "truth";
  const fs::path script = TestDataDir() / "ibdninja" / "extra" / "23_key_shapes.sql";
  strata::testing::TempDir tmp;
  fs::create_directories(tmp.path() / "db");
  strata::testing::Gunzip(truth / "mariadb" / "key_shapes.ibd.gz", tmp.path() / "db" / "key_shapes.ibd");
  strata::testing::Gunzip(truth / "mariadb" / "ibdata1.gz", tmp.path() / "ibdata1");
  auto slurp = [](const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  };
  const std::string ibd = (tmp.path() / "db" / "key_shapes.ibd").string();
  CommandResult r = Strata("inspect rows --create-table " + script.string() + " " + ibd);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, slurp(truth / "key_shapes.tsv"));
  for (const char* index : {"n", "n_2", "email", "code", "uk_code_n"}) {
    SCOPED_TRACE(index);
    r = Strata("inspect rows --index " + std::string(index) + " --create-table " + script.string() + " " + ibd);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, slurp(truth / ("key_shapes." + std::string(index) + ".tsv")));
  }

  // A copy made under FLUSH TABLES ... FOR EXPORT: the .cfg beside the file is its dictionary,
  // without ibdata1 or .frm, and says where each secondary index starts.
  strata::testing::TempDir away;  // no ibdata1 in this directory or the one above
  const fs::path export_dir = away.path() / "export";
  fs::create_directories(export_dir);
  const std::string exported = (export_dir / "key_shapes.ibd").string();
  fs::copy_file(ibd, exported);
  r = Strata("inspect rows --index n " + exported);
  EXPECT_EQ(r.exit_code, 1);  // nothing says where n starts
  strata::testing::Gunzip(truth / "mariadb" / "key_shapes.cfg.gz", export_dir / "key_shapes.cfg");
  r = Strata("inspect rows " + exported);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, slurp(truth / "key_shapes.tsv"));
  for (const char* index : {"n", "uk_code_n"}) {
    r = Strata("inspect rows --index " + std::string(index) + " " + exported);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, slurp(truth / ("key_shapes." + std::string(index) + ".tsv")));
    r = Strata("inspect rows --index " + std::string(index) + " --create-table " + script.string() + " " + exported);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, slurp(truth / ("key_shapes." + std::string(index) + ".tsv")));
  }
  // A .cfg cut short is said, and not used.
  {
    const std::string cfg = slurp(export_dir / "key_shapes.cfg");
    std::ofstream(export_dir / "key_shapes.cfg", std::ios::binary | std::ios::trunc) << cfg.substr(0, cfg.size() / 2);
  }
  r = Strata("inspect rows " + exported);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("key_shapes.cfg: .cfg offset"), std::string::npos) << r.err;
}

// A MariaDB data directory as a user has it: `inspect rows db/t.ibd` finds the .frm beside the
// file (and, for a FULLTEXT index's tables, takes the indexed table's CREATE TABLE).
TEST(InspectCliTest, RowsOfMariaDbFilesUseTheFrmBesideThem) {
  const fs::path truth = TestDataDir() / "ibdninja" / "truth";
  strata::testing::TempDir tmp;
  for (const char* f : {"mi_drop_add.ibd", "mi_drop_add.frm"}) {
    strata::testing::Gunzip(truth / "mariadb" / (std::string(f) + ".gz"), tmp.path() / f);
  }
  CommandResult r = Strata("inspect rows " + (tmp.path() / "mi_drop_add.ibd").string());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  std::ifstream want(truth / "mi_drop_add.tsv", std::ios::binary);
  EXPECT_EQ(r.out, std::string(std::istreambuf_iterator<char>(want), {}));
  // `page N --records` decodes with the same definition.
  r = Strata("inspect page 3 --records " + (tmp.path() / "mi_drop_add.ibd").string());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("layout: .frm index PRIMARY of mi_drop_add"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"four\""), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("(dropped)"), std::string::npos) << r.out;  // the instant DROP's field, by its column map

  // A secondary index: its key parts from the .frm, where it starts from ibdata1's SYS_INDEXES.
  fs::create_directories(tmp.path() / "db");
  for (const char* f : {"multi_index.ibd", "multi_index.frm"}) {
    strata::testing::Gunzip(truth / "mariadb" / (std::string(f) + ".gz"), tmp.path() / "db" / f);
  }
  r = Strata("inspect rows --index idx_name " + (tmp.path() / "db" / "multi_index.ibd").string());
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("SYS_INDEXES"), std::string::npos) << r.err;
  strata::testing::Gunzip(truth / "mariadb" / "ibdata1.gz", tmp.path() / "ibdata1");
  r = Strata("inspect rows --index idx_name " + (tmp.path() / "db" / "multi_index.ibd").string());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  std::ifstream names(truth / "multi_index.idx_name.tsv", std::ios::binary);
  const std::string idx_name(std::istreambuf_iterator<char>(names), {});
  EXPECT_EQ(r.out, idx_name);
  // The same through --create-table: its key names find SYS_INDEXES' roots.
  r = Strata("inspect rows --index idx_name --create-table " + (truth / "mariadb" / "multi_index.sql").string() + " " +
             (tmp.path() / "db" / "multi_index.ibd").string());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, idx_name);
  // A partition's file reads with its table's .frm.
  fs::copy_file(tmp.path() / "db" / "multi_index.ibd", tmp.path() / "db" / "multi_index#P#p0.ibd");
  r = Strata("inspect rows " + (tmp.path() / "db" / "multi_index#P#p0.ibd").string());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  std::ifstream whole(truth / "multi_index.tsv", std::ios::binary);
  EXPECT_EQ(r.out, std::string(std::istreambuf_iterator<char>(whole), {}));
  // A compressed table reads through the dictionary its compressed pages hold.
  r = Strata(
      "inspect rows " +
      (strata::testing::SharedFixturesDir() / "external" / "idb-utils-mysql90" / "mysql90_compressed.ibd").string());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "id\tval\n1\tcompressed row 1\n2\tcompressed row 2\n");

  const fs::path fts = TestDataDir() / "mariadb-fts";
  const std::string index = "FTS_0000000000000012_000000000000001e_INDEX_2.ibd";
  strata::testing::Gunzip(fts / (index + ".gz"), tmp.path() / index);
  r = Strata("inspect rows " + (tmp.path() / index).string());
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("--create-table"), std::string::npos) << r.err;
  r = Strata("inspect rows --json --create-table " + (fts / "create.sql").string() + " " +
             (tmp.path() / index).string());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["columns"][5], "POSITION");
  EXPECT_GT(j["rows"].size(), 50u);
}

// `inspect rows` end to end: the bytes the server's client printed, the three formats, and
// exit codes for what it cannot do.
TEST(InspectCliTest, RowsPrintWhatTheClientPrintsAndRefuseWhatTheyCannotKnow) {
  const fs::path ninja = strata::testing::SharedFixturesDir() / "external" / "ibdNinja" / "8.0";
  CommandResult r = Strata("inspect rows " + (ninja / "multi_page.ibd").string());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  std::ifstream truth(TestDataDir() / "ibdninja" / "truth" / "multi_page.tsv", std::ios::binary);
  EXPECT_EQ(r.out, std::string(std::istreambuf_iterator<char>(truth), {}));

  r = Strata("inspect rows --format sql " + (ninja / "data_types.ibd").string());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("INSERT INTO `data_types` (`id`,`tiny_col`"), std::string::npos);
  EXPECT_NE(r.out.find("(2,-128,-32768,-8388608,-9223372036854775808,-1.5,-2.718281828,-99999.99,'ABC'"),
            std::string::npos);

  r = Strata("inspect rows --json --index idx_name " + (ninja / "multi_index.ibd").string());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << r.out.substr(0, 300);
  EXPECT_EQ(j["columns"], nlohmann::json({"last_name", "first_name", "id"}));
  ASSERT_EQ(j["rows"].size(), 5u);
  EXPECT_EQ(j["rows"][0]["values"], nlohmann::json({"Brown", "Charlie", 5}));

  // A MariaDB file has no dictionary of its own: refused with exit 1, nothing on stdout.
  r = Strata("inspect rows " + Data("mariadb/t_int.ibd"));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(r.out.empty());
  EXPECT_NE(r.err.find("no table definition"), std::string::npos) << r.err;
  EXPECT_EQ(Strata("inspect rows --format csv " + (ninja / "simple_table.ibd").string()).exit_code, 2);
  EXPECT_EQ(Strata("inspect rows --index nope " + (ninja / "simple_table.ibd").string()).exit_code, 1);
  r = Strata("inspect rows --help");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("Usage: strata inspect rows"), std::string::npos);

  // A restore reads TIMESTAMPs in UTC and FLOATs with the digits that give the same float back.
  const fs::path extra = TestDataDir() / "ibdninja" / "truth" / "mariadb";
  strata::testing::TempDir tmp;
  strata::testing::Gunzip(extra / "edge_numbers.ibd.gz", tmp.path() / "edge_numbers.ibd");
  r = Strata("inspect rows --format sql --create-table " + (extra / "edge_numbers.sql").string() + " " +
             (tmp.path() / "edge_numbers.ibd").string());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.rfind("SET NAMES utf8mb4;\nSET time_zone = '+00:00';\n", 0), 0u) << r.out.substr(0, 100);
  EXPECT_NE(r.out.find("(1,-1.500,-0.01,00042,00000000000000000001,000012.50,-0.5000000000,123456.7,1e-16)"),
            std::string::npos)
      << r.out;

  // What it cannot do is said before anything is printed.
  r = Strata("inspect rows " +
             (strata::testing::SharedFixturesDir() / "external" / "percona-parser" / "encrypted_test.ibd").string());
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("encrypted"), std::string::npos) << r.err;
  EXPECT_EQ(Strata("inspect rows --table t " + (ninja / "simple_table.ibd").string()).exit_code, 2);
  EXPECT_EQ(Strata("inspect rows --index idx_name --format sql " + (ninja / "multi_index.ibd").string()).exit_code, 2);
  EXPECT_EQ(Strata("inspect rows --json --format sql " + (ninja / "simple_table.ibd").string()).exit_code, 2);
}

// What a lone file cannot tell is said to be unknown; the page number goes either side of PATH;
// page 0's server version is not shown as a B-tree neighbour.
// What the output leaves out by design is said on stderr, without failing: virtual columns,
// and on the SYS_COLUMNS route whether UNSIGNED integers are ZEROFILL (not recorded there).
TEST(InspectCliTest, RowsSayWhatTheyLeaveOut) {
  const fs::path truth = TestDataDir() / "ibdninja" / "truth";
  strata::testing::TempDir tmp;
  fs::create_directories(tmp.path() / "db");
  strata::testing::Gunzip(truth / "mariadb" / "edge_numbers.ibd.gz", tmp.path() / "db" / "edge_numbers.ibd");
  strata::testing::Gunzip(truth / "mariadb" / "ibdata1.gz", tmp.path() / "ibdata1");
  CommandResult r = Strata("inspect rows " + (tmp.path() / "db" / "edge_numbers.ibd").string());
  EXPECT_NE(r.err.find("SYS_COLUMNS does not say whether z, zb (UNSIGNED) are ZEROFILL"), std::string::npos) << r.err;
  strata::testing::Gunzip(truth / "mariadb" / "edge_numbers.frm.gz", tmp.path() / "db" / "edge_numbers.frm");
  r = Strata("inspect rows " + (tmp.path() / "db" / "edge_numbers.ibd").string());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");  // the .frm knows

  const fs::path ninja = strata::testing::SharedFixturesDir() / "external" / "ibdNinja" / "8.0";
  r = Strata("inspect rows " + (ninja / "type_test.ibd").string());
  EXPECT_NE(r.err.find("note: left out, as the file does not store them: virtual column(s) col_virtual_int, "
                       "col_virtual_concat, col_virtual_datetime"),
            std::string::npos)
      << r.err;
}

// A MySQL 8.0.30+ data directory: `check` reads its #innodb_redo as `redo` does.
TEST(InspectCliTest, CheckReadsTheRedoOfAMySql8030DataDirectory) {
  const fs::path mysql90 = strata::testing::SharedFixturesDir() / "external" / "idb-utils-mysql90";
  strata::testing::TempDir tmp;
  fs::create_directories(tmp.path() / "#innodb_redo");
  fs::create_directories(tmp.path() / "db");
  fs::copy_file(mysql90 / "mysql90_redo_9", tmp.path() / "#innodb_redo" / "#ib_redo9");
  fs::copy_file(mysql90 / "mysql90_redo_10", tmp.path() / "#innodb_redo" / "#ib_redo10");
  fs::copy_file(mysql90 / "mysql90_standard.ibd", tmp.path() / "db" / "t.ibd");
  CommandResult r = Strata("inspect check " + tmp.path().string());
  EXPECT_EQ(r.out.find("redo not checked"), std::string::npos) << r.out << r.err;
  EXPECT_EQ(r.err.find("redo not checked"), std::string::npos) << r.out << r.err;
}

TEST(InspectCliTest, LoneFilesSayWhatTheyCannotKnow) {
  const std::string file =
      (strata::testing::SharedFixturesDir() / "external" / "ibdNinja" / "8.0" / "simple_table.ibd").string();
  CommandResult r = Strata("inspect undo --json " + file);
  EXPECT_EQ(r.exit_code, 1);
  auto j = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << r.out;
  EXPECT_TRUE(j["history_list_length"].is_null());
  EXPECT_NE(j["unknown_reason"].get<std::string>().find("no system tablespace"), std::string::npos);
  EXPECT_NE(Strata("inspect undo " + file).out.find("History list length unknown"), std::string::npos);

  EXPECT_EQ(Strata("inspect page 3 " + file).out, Strata("inspect page " + file + " 3").out);
  EXPECT_EQ(Strata("inspect page 3 " + file).exit_code, 0);
  EXPECT_EQ(Strata("inspect page three " + file).exit_code, 2);

  j = nlohmann::json::parse(Strata("inspect pages --json " + file).out, nullptr, false);
  ASSERT_FALSE(j.is_discarded());
  const auto& page0 = j["files"][0]["pages"][0];
  EXPECT_TRUE(page0["prev"].is_null());  // 80040 and 1 there are MySQL's server and space versions
  EXPECT_TRUE(page0["next"].is_null());
}

// A FIFO or a symbolic link loop, given as PATH or met inside a directory, is refused by name
// and the rest is read (a loop aborted with an uncaught filesystem_error, a FIFO hung forever;
// an ib_logfile0 that is a FIFO hung every command on its directory).
TEST(InspectCliTest, FifosAndLinkLoopsAreRefusedByNameAndTheRestIsRead) {
  strata::testing::TempDir tmp;
  const auto dir = tmp.path();
  std::filesystem::create_directories(dir / "d" / "db");
  std::filesystem::copy_file(Data("mariadb/t_int.ibd"), dir / "d" / "db" / "t.ibd");
  ASSERT_EQ(::mkfifo((dir / "fifo.ibd").c_str(), 0644), 0);
  ASSERT_EQ(::mkfifo((dir / "d" / "db" / "x.ibd").c_str(), 0644), 0);
  ASSERT_EQ(::mkfifo((dir / "d" / "ib_logfile0").c_str(), 0644), 0);
  std::filesystem::create_symlink("loop", dir / "loop");
  std::filesystem::create_symlink("self.ibd", dir / "d" / "db" / "self.ibd");
  const std::string paths =
      (dir / "fifo.ibd").string() + " " + (dir / "loop").string() + " " + Data("mariadb/t_int.ibd");
  for (const char* command : {"summary", "check", "pages", "undo", "redo", "doublewrite"}) {
    const auto r =
        strata::testing::RunCommand(fmt::format("timeout 20 {} inspect {} {}", STRATA_BINARY, command, paths));
    EXPECT_EQ(r.exit_code, 1) << command << ": " << r.err;  // 124: it hung; 134: it aborted
    EXPECT_NE(r.err.find("fifo.ibd: a FIFO (named pipe)"), std::string::npos) << command << ": " << r.err;
    EXPECT_NE(r.err.find("loop: a symbolic link loop"), std::string::npos) << command << ": " << r.err;
  }
  EXPECT_NE(Strata("inspect summary " + paths).out.find("t_int.ibd"), std::string::npos);
  for (const char* command : {"summary", "check", "undo", "rows"}) {
    const std::string path = std::string(command) == "rows" ? (dir / "fifo.ibd").string() : (dir / "d").string();
    const auto r =
        strata::testing::RunCommand(fmt::format("timeout 20 {} inspect {} {}", STRATA_BINARY, command, path));
    EXPECT_NE(r.exit_code, 124) << command << " hung";
    EXPECT_NE(r.exit_code, 134) << command << " aborted: " << r.err;
    if (std::string(command) == "check") {
      EXPECT_NE(r.err.find("x.ibd: not read (a FIFO"), std::string::npos) << r.err;
      EXPECT_NE(r.err.find("ib_logfile0: not read (a FIFO"), std::string::npos) << r.err;
      EXPECT_NE(r.err.find("self.ibd: not read (a symbolic link loop"), std::string::npos) << r.err;
      EXPECT_NE(r.out.find("t.ibd"), std::string::npos) << r.out;
    }
  }
}

// A MariaDB 10.8+ log ends, after a clean shutdown, with the one FILE_CHECKPOINT mini-
// transaction past its checkpoint: that is no sign of a crash (every clean directory was
// warned as "crashed, or copied while it ran"); a crashed server's log still is.
TEST(InspectCliTest, ACleanlyStoppedMariadbIsNotCalledStale) {
  strata::testing::TempDir tmp;
  for (const std::string which : {"clean", "crashed"}) {
    const auto dir = tmp.path() / which;
    std::filesystem::create_directories(dir / "db");
    std::filesystem::copy_file(Data("mariadb/t_int.ibd"), dir / "db" / "t.ibd");
    const std::string log = which == "clean" ? "mariadb-redo/ib_logfile0.gz" : "mariadb-redo/crashed/ib_logfile0.gz";
    ASSERT_EQ(strata::testing::RunCommand("zcat " + Data(log) + " > " + (dir / "ib_logfile0").string()).exit_code, 0);
    const auto r = Strata("inspect summary " + dir.string());
    EXPECT_EQ(r.err.find("stale pages") != std::string::npos, which == "crashed") << which << ": " << r.err;
  }
}

// Summary's exit status says damage was found, as its help promises (a page failing its
// checksum exited 0).
TEST(InspectCliTest, SummaryExitsOneOnAPageFailingItsChecksum) {
  strata::testing::TempDir tmp;
  const auto file = tmp.path() / "t.ibd";
  std::filesystem::copy_file(Data("mariadb/t_int.ibd"), file);
  EXPECT_EQ(Strata("inspect summary " + file.string()).exit_code, 0);
  strata::testing::OverwriteAt(file, 3 * 16384 + 200, "damage");
  const auto r = Strata("inspect summary " + file.string());
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("checksum mismatch"), std::string::npos) << r.out;
}

// A temporary tablespace is never written for durability: its zeroed pages are notes under one
// that says why, not damage (ibtmp1 and MySQL's temp_N.ibt exited 1 as "wiped").
TEST(InspectCliTest, TemporaryTablespacesAreNotCalledDamaged) {
  strata::testing::TempDir tmp;
  for (const char* name : {"t.ibd", "temp_1.ibt", "ibtmp1"}) {
    const auto file = tmp.path() / name;
    std::filesystem::copy_file(Data("mariadb/t_int.ibd"), file);
    strata::testing::OverwriteAt(file, 3 * 16384, std::string(16384, '\0'));
    const auto r = Strata(std::string("inspect check ") + file.string());
    const bool temporary = std::string(name) != "t.ibd";
    EXPECT_EQ(r.exit_code, temporary ? 0 : 1) << name << ": " << r.out;
    EXPECT_EQ(r.out.find("temporary tablespace (recreated at every server start") != std::string::npos, temporary)
        << name << ": " << r.out;
  }
}

// A crash while redo logging was disabled: check and summary say that cause first (the log
// header's CRASH_UNSAFE flag), not only the thousands of zeroed pages and broken links.
TEST(InspectCliTest, ACrashWithRedoDisabledIsNamedAsTheCause) {
  strata::testing::TempDir tmp;
  const std::string dir = (tmp.path() / "d").string();
  const auto r = strata::testing::RunCommand(fmt::format(
      "(printf 'CREATE DATABASE d; ALTER INSTANCE DISABLE INNODB REDO_LOG; CREATE TABLE d.t (id INT PRIMARY KEY); "
      "INSERT INTO d.t VALUES (1); SELECT 42;\\n'; sleep 4) | {} sql --datadir {} > {}.out & "
      "for i in $(seq 50); do grep -q 42 {}.out 2>/dev/null && break; sleep 0.1; done; "
      "pkill -9 -f 'sql --datadir {}$'; wait",
      STRATA_BINARY, dir, dir, dir, dir));
  ASSERT_NE(strata::testing::ReadWholeFile(dir + ".out").size(), 0u) << r.err;
  for (const char* command : {"check", "summary"}) {
    const auto c = Strata(std::string("inspect ") + command + " " + dir);
    EXPECT_EQ(c.exit_code, 1) << command;
    EXPECT_NE(c.err.find("crash-unsafe (redo logging was disabled"), std::string::npos) << command << ": " << c.err;
  }
}

// A file the catalog of a Strata directory does not know (what a kill during CREATE TABLE
// leaves: all zeros) is named an orphan, not page damage; a zeroed page among ibdata1's first
// eight (the dictionary header, TRX_SYS, ...) is damage named by its role, where check said
// "no problems found".
TEST(InspectCliTest, OrphanFilesAreNamedAndZeroedSystemPagesAreDamage) {
  strata::testing::TempDir tmp;
  const auto dir = tmp.path() / "d";
  auto made = Strata("sql --datadir " + dir.string() +
                     " -e \"CREATE DATABASE d; CREATE TABLE d.t (id INT PRIMARY KEY, v TEXT); "
                     "INSERT INTO d.t VALUES (1, 'a'), (2, REPEAT('b', 20000))\"");
  ASSERT_EQ(made.exit_code, 0) << made.err;
  const auto clean = Strata("inspect check " + dir.string());
  ASSERT_EQ(clean.exit_code, 0) << clean.out << clean.err;

  std::ofstream(dir / "d" / "t2.ibd", std::ios::binary) << std::string(5 * 16384, '\0');
  const auto orphan = Strata("inspect check " + dir.string());
  EXPECT_EQ(orphan.exit_code, 0) << orphan.out << orphan.err;
  EXPECT_NE((orphan.out + orphan.err).find("t2.ibd: orphan file (no table of the data directory's catalog"),
            std::string::npos)
      << orphan.out << orphan.err;
  EXPECT_EQ((orphan.out + orphan.err).find("all zeros"), std::string::npos) << orphan.out << orphan.err;
  std::filesystem::remove(dir / "d" / "t2.ibd");
  std::ofstream(dir / "d" / "t3.ibd");  // empty: a kill before the file got its first page
  const auto empty = Strata("inspect check " + dir.string());
  EXPECT_EQ(empty.exit_code, 0) << empty.out << empty.err;
  EXPECT_NE(empty.err.find("t3.ibd: orphan file"), std::string::npos) << empty.err;
  std::filesystem::remove(dir / "d" / "t3.ibd");

  // Another table's file copied over this one's, and a table's file deleted: the server
  // refuses the table, and check says why (it was silent, exit 0).
  auto second = Strata("sql --datadir " + dir.string() + " -e \"CREATE TABLE d.u (id INT PRIMARY KEY)\"");
  ASSERT_EQ(second.exit_code, 0) << second.err;
  {
    const auto copy = tmp.path() / "swapped";
    std::filesystem::copy(dir, copy, std::filesystem::copy_options::recursive);
    std::filesystem::copy_file(copy / "d" / "t.ibd", copy / "d" / "u.ibd",
                               std::filesystem::copy_options::overwrite_existing);
    const auto c = Strata("inspect check " + copy.string());
    EXPECT_EQ(c.exit_code, 1) << c.out << c.err;
    EXPECT_NE((c.out + c.err).find("u.ibd page 0 offset 34: not this table's file"), std::string::npos)
        << c.out << c.err;
    std::filesystem::remove(copy / "d" / "u.ibd");
    const auto m = Strata("inspect check " + copy.string());
    EXPECT_EQ(m.exit_code, 1) << m.out << m.err;
    EXPECT_NE(m.err.find("u.ibd: missing file"), std::string::npos) << m.out << m.err;
  }

  for (const auto& [page, role] :
       {std::pair{7, "data dictionary header"}, std::pair{5, "transaction system"}, std::pair{0, "FSP header"}}) {
    const auto copy = tmp.path() / ("zeroed" + std::to_string(page));
    std::filesystem::copy(dir, copy, std::filesystem::copy_options::recursive);
    {
      std::fstream f(copy / "ibdata1", std::ios::in | std::ios::out | std::ios::binary);
      f.seekp(page * 16384);
      f << std::string(16384, '\0');
    }
    const auto c = Strata("inspect check " + copy.string());
    EXPECT_EQ(c.exit_code, 1) << c.out << c.err;
    EXPECT_NE((c.out + c.err).find(fmt::format("page {} of the system tablespace (the {})", page, role)),
              std::string::npos)
        << c.out << c.err;
    EXPECT_EQ(c.err.find(": : "), std::string::npos) << "a finding without its file: " << c.err;
  }
}

// A sparse file's holes are zeros known without reading them: a 6-page table file extended
// to 100 GB is summarised and checked at once (it took minutes, reading every hole). The CPU
// limit is thirty times what it takes now, and a small part of what it took.
TEST(InspectCliTest, SparseFilesAreReadOnlyWhereTheyHoldData) {
  strata::testing::TempDir tmp;
  const auto dir = tmp.path() / "d";
  auto made = Strata("sql --datadir " + dir.string() +
                     " -e \"CREATE DATABASE s; CREATE TABLE s.t (id INT PRIMARY KEY, v TEXT); INSERT INTO s.t "
                     "VALUES (1, 'a')\"");
  ASSERT_EQ(made.exit_code, 0) << made.err;
  const auto file = tmp.path() / "t.ibd";
  std::filesystem::copy_file(dir / "s" / "t.ibd", file);
  std::filesystem::resize_file(file, 100ull << 30);
  for (const char* command : {"summary", "check"}) {
    const auto r = strata::testing::RunCommand(
        fmt::format("ulimit -t 30 && {} inspect {} {}", STRATA_BINARY, command, file.string()));
    EXPECT_EQ(r.exit_code, 0) << command << ": " << r.out << r.err;
    EXPECT_NE(r.out.find("6553600"), std::string::npos) << command << ": " << r.out;
  }
}

// Strata's own FLOAT(M,D) and DOUBLE(M,D) columns read back by the inspector with their D
// decimals, as SELECT prints them (the SDI lacked numeric_scale_null, so 3.50 came out 3.5).
TEST(InspectCliTest, FloatDigitsOfStrataFilesPrintAsSelectDoes) {
  strata::testing::TempDir tmp;
  const auto dir = tmp.path() / "d";
  auto made = Strata("sql --datadir " + dir.string() +
                     " -e \"CREATE DATABASE f; CREATE TABLE f.t (id INT PRIMARY KEY, a FLOAT(5,2), b DOUBLE(9,3), "
                     "v VARCHAR(8), d DECIMAL(6,2)); INSERT INTO f.t VALUES (1, 3.5, -2.25, 'x', 1.5), "
                     "(2, 999.99, 0, NULL, -0.5)\"");
  ASSERT_EQ(made.exit_code, 0) << made.err;
  const auto rows = Strata("inspect rows " + (dir / "f" / "t.ibd").string());
  ASSERT_EQ(rows.exit_code, 0) << rows.err;
  const auto select = Strata("sql --datadir " + dir.string() + " -B -e \"SELECT * FROM f.t ORDER BY id\"");
  ASSERT_EQ(select.exit_code, 0) << select.err;
  EXPECT_EQ(rows.out, select.out);
}
