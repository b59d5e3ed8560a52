// `strata inspect rows --as-of / --history` on the files of a MariaDB 10.11 that kept a read
// view open while another session committed 530 transactions (tests/data/mariadb-history).
// The truth is the server's: what that view SELECTed, what the other session saw, the view's
// limit as SHOW ENGINE INNODB STATUS printed it.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <functional>
#include <iterator>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "tests/util/fixtures.h"
#include "tests/util/private_mariadb.h"
#include "tests/util/run_command.h"
#include "tests/util/tsv.h"

namespace {

namespace fs = std::filesystem;
using strata::testing::CommandResult;
using strata::testing::Strata;
using strata::testing::TestDataDir;

const fs::path kFixture = TestDataDir() / "mariadb-history";

// The data directory: ibdata1 and the undo tablespaces beside hist/.
void MakeDataDir(const fs::path& dir) {
  for (const char* f : {"ibdata1", "undo001", "undo002"}) {
    strata::testing::Gunzip(kFixture / (std::string(f) + ".gz"), dir / f);
  }
  fs::copy(kFixture / "hist", dir / "hist");
}

// "Trx read view will not see trx with id >= N, sees < N" of the view that was held open.
std::uint64_t ViewLimit() {
  std::ifstream in(kFixture / "truth/innodb_status.txt");
  std::stringstream text;
  text << in.rdbuf();
  std::smatch m;
  const std::string s = text.str();
  EXPECT_TRUE(std::regex_search(s, m, std::regex("will not see trx with id >= ([0-9]+)")));
  return std::stoull(m[1]);
}

// A row of `inspect rows --json` as `mysql -B` printed it into truth/ (binary keys in hex).
std::string AsTruth(const nlohmann::json& values) {
  std::string out;
  for (const auto& v : values) {
    if (!out.empty() || &v != &values[0]) out += '\t';
    if (v.is_null())
      out += "NULL";
    else if (v.is_string())
      out += v.get<std::string>();
    else if (v.is_object()) {
      std::string hex = v["hex"];
      std::transform(hex.begin(), hex.end(), hex.begin(), ::toupper);
      out += hex;
    } else
      out += v.dump();
  }
  return out;
}

// The rows history.sql touched, by the predicates truth/ was SELECTed with.
bool Touched(const std::string& table, const nlohmann::json& values) {
  if (table == "t_autoinc") {
    const auto id = values[0].get<std::int64_t>();
    return id % 10 == 7 || (id % 10 == 5 && id < 100) || id > 3000;
  }
  if (table == "t_sec") {
    const auto id = values[0].get<std::int64_t>();
    return id % 15 == 8 || (id % 100 == 1 && id >= 101 && id <= 1001);
  }
  const auto seq = values[1].get<std::int64_t>();
  return seq % 100 < 10 && seq >= 100 && seq <= 509;
}

std::vector<std::string> TruthLines(const std::string& file) {
  std::ifstream in(kFixture / "truth" / file);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) lines.push_back(line);
  }
  lines.erase(lines.begin());  // the header
  std::sort(lines.begin(), lines.end());
  return lines;
}

std::uint64_t PrimaryCount(const std::string& file, const std::string& table) {
  for (const auto& row : strata::testing::ReadTsv(kFixture / "truth" / file)) {
    if (row.at("table") == table && row.at("index") == "PRIMARY") return std::stoull(row.at("count"));
  }
  return 0;
}

const char* const kTables[] = {"t_autoinc", "t_uuid", "t_ulid", "t_bin16", "t_sec"};

// The held view's rows, rebuilt from the undo logs, are the ones it SELECTed; the latest are
// the other session's. Every table: integer, UUID text, ULID, BINARY(16) keys; updates,
// deletes, inserts and a primary key change.
TEST(RowHistoryCliTest, AsOfTheHeldViewGivesWhatThatViewSelected) {
  strata::testing::TempDir tmp;
  MakeDataDir(tmp.path());
  const std::uint64_t limit = ViewLimit();
  EXPECT_EQ(limit, 57u);
  for (const std::string t : kTables) {
    for (const bool snapshot : {true, false}) {
      const std::string ibd = (tmp.path() / "hist" / (t + ".ibd")).string();
      CommandResult r = Strata("inspect rows --json " + ibd + (snapshot ? " --as-of " + std::to_string(limit) : ""));
      ASSERT_EQ(r.exit_code, 0) << t << ": " << r.err;
      const auto doc = nlohmann::json::parse(r.out);
      std::vector<std::string> touched;
      for (const auto& row : doc["rows"]) {
        if (Touched(t, row["values"])) touched.push_back(AsTruth(row["values"]));
      }
      std::sort(touched.begin(), touched.end());
      const std::string view = snapshot ? "snapshot" : "latest";
      EXPECT_EQ(touched, TruthLines(t + ".touched." + view + ".tsv")) << t << " " << view;
      EXPECT_EQ(doc["rows"].size(), PrimaryCount("index_counts." + view + ".tsv", t)) << t << " " << view;
    }
  }
}

// Each row's versions name the transactions history.sql ran: one per statement, each an
// update, a delete or an insert, and the version before is the one the view saw.
TEST(RowHistoryCliTest, HistoryNamesTheTransactionAndWhatItDid) {
  strata::testing::TempDir tmp;
  MakeDataDir(tmp.path());
  const std::uint64_t limit = ViewLimit();
  CommandResult r = Strata("inspect rows --history --json " + (tmp.path() / "hist/t_autoinc.ibd").string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::map<std::string, int> changes;  // by what the transactions after the view did
  std::set<std::uint64_t> writers;
  const auto doc = nlohmann::json::parse(r.out);
  for (const auto& row : doc["rows"]) {
    const std::uint64_t trx = row["trx_id"];
    if (trx < limit) {
      EXPECT_EQ(row["change"], "insert") << row.dump();  // create.sql's rows, untouched since
      EXPECT_TRUE(row["older"].empty());
      continue;
    }
    EXPECT_TRUE(writers.insert(trx).second) << "one statement, one transaction, one row: " << trx;
    ++changes[row["change"].get<std::string>()];
    if (row["change"] == "insert") {
      EXPECT_GT(row["values"][0].get<std::int64_t>(), 3000) << row.dump();
      EXPECT_TRUE(row["older"].empty());
      continue;
    }
    ASSERT_EQ(row["older"].size(), 1u) << row.dump();
    const auto& before = row["older"][0];
    EXPECT_LT(before["trx_id"].get<std::uint64_t>(), limit);
    EXPECT_EQ(before["change"], "insert");
    EXPECT_FALSE(before["deleted"]);
    EXPECT_EQ(row["deleted"], row["change"] == "delete");
    EXPECT_EQ(row["undo"]["trx_no"].get<std::uint64_t>() > 0, true) << "committed: in the history list";
    if (row["change"] == "update") {
      const std::string now = row["values"][1], then = before["values"][1];
      EXPECT_EQ(now.substr(now.find('-') + 1), then) << "history.sql prepends 'updN-' to the payload";
    }
  }
  EXPECT_EQ(changes["update"], 300);
  EXPECT_EQ(changes["delete"], 10);
  EXPECT_EQ(changes["insert"], 5);

  // The text form: one line per version, the change in the last column.
  CommandResult text = Strata("inspect rows --history " + (tmp.path() / "hist/t_autoinc.ibd").string());
  ASSERT_EQ(text.exit_code, 0);
  EXPECT_EQ(text.out.substr(0, text.out.find('\n')), "id\tpayload\t(deleted)\t(version)\t(DB_TRX_ID)\t(change)");
  EXPECT_NE(text.out.find("\n7\trow-7-8f14e45fceea167a5a36dedd4be\t0\t1\t"), std::string::npos);
}

// Damage is said, never rebuilt into a version: a torn undo record stops the chain with the
// file, page and offset, exit 1; without the undo tablespaces the rows are still printed but
// their older versions are unknown, and --as-of refuses to guess the values the view saw.
TEST(RowHistoryCliTest, DamagedOrMissingUndoIsSaidNotGuessed) {
  strata::testing::TempDir tmp;
  MakeDataDir(tmp.path());
  const std::string ibd = (tmp.path() / "hist/t_autoinc.ibd").string();
  CommandResult j = Strata("inspect rows --history --json " + ibd);
  ASSERT_EQ(j.exit_code, 0);
  nlohmann::json row7;
  const auto doc = nlohmann::json::parse(j.out);
  for (const auto& row : doc["rows"]) {
    if (row["values"][0] == 7) row7 = row;
  }
  ASSERT_FALSE(row7.is_null());
  const std::string undo_file = row7["undo"]["file"];
  const std::uint32_t page = row7["undo"]["page"];
  const std::size_t offset = row7["undo"]["offset"];
  auto bytes = strata::testing::ReadWholeFile(undo_file);
  bytes[std::size_t{page} * 16384 + offset + 2] = std::byte{0x07};  // an undo record type no server writes
  strata::testing::WriteWholeFile(undo_file, bytes);
  CommandResult torn = Strata("inspect rows --history " + ibd);
  EXPECT_EQ(torn.exit_code, 1);
  const std::string where =
      fs::path(undo_file).filename().string() + " page " + std::to_string(page) + " offset " + std::to_string(offset);
  EXPECT_NE(torn.err.find(where), std::string::npos) << torn.err;
  EXPECT_NE(torn.out.find("\t0\t0\t" + std::to_string(row7["trx_id"].get<std::uint64_t>()) + "\t(unknown: "),
            std::string::npos);
  EXPECT_EQ(torn.out.find("\n7\trow-7-"), std::string::npos) << "no version rebuilt from the torn record";

  fs::remove(tmp.path() / "undo001");
  fs::remove(tmp.path() / "undo002");
  CommandResult missing = Strata("inspect rows --as-of 57 " + ibd);
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_NE(missing.err.find("not at hand"), std::string::npos) << missing.err;
  EXPECT_NE(missing.out.find("\n7\t(unknown: the version this read view sees cannot be rebuilt"), std::string::npos)
      << missing.out.substr(0, 500);
  EXPECT_NE(missing.out.find("\n8\trow-8-"), std::string::npos) << "rows the view sees as they are still print";
}

// Read views a MariaDB 10.11 opened at four steps of a workload (tests/data/mariadb-history-steps;
// undo in ibdata1): `--as-of` each view's limit prints, byte for byte, what that view SELECTed
// (off-page values replaced, extended and set to NULL, a primary key change, a key deleted and
// inserted again, a row updated 40 times); and with a transaction still open at the copy, the
// committed rows are what a fresh session SELECTed.
TEST(RowHistoryCliTest, EachViewOfEachStepIsWhatItSelected) {
  strata::testing::TempDir tmp;
  const fs::path data = TestDataDir() / "mariadb-history-steps";
  fs::create_directories(tmp.path() / "steps");
  strata::testing::Gunzip(data / "ibdata1.gz", tmp.path() / "ibdata1");
  strata::testing::Gunzip(data / "steps/t.ibd.gz", tmp.path() / "steps/t.ibd");
  fs::copy(data / "steps/t.frm", tmp.path() / "steps/t.frm");
  const std::string ibd = (tmp.path() / "steps/t.ibd").string();
  auto truth = [&](const std::string& name) {
    strata::testing::Gunzip(data / "truth" / (name + ".tsv.gz"), tmp.path() / (name + ".tsv"));
    std::ifstream in(tmp.path() / (name + ".tsv"), std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  };
  const auto views = strata::testing::ReadTsv(data / "truth/views.tsv");
  ASSERT_EQ(views.size(), 4u);
  for (const auto& view : views) {
    EXPECT_EQ(view.at("low_limit"), view.at("up_limit")) << "a view with transactions active when it began";
    CommandResult r = Strata("inspect rows --as-of " + view.at("low_limit") + " " + ibd);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(r.out == truth("view" + view.at("view"))) << "view " << view.at("view");
  }
  CommandResult latest = Strata("inspect rows --as-of 281474976710655 " + ibd);
  EXPECT_EQ(latest.exit_code, 0) << latest.err;
  EXPECT_TRUE(latest.out == truth("latest"));
  CommandResult history = Strata("inspect rows --history " + ibd);
  EXPECT_EQ(history.exit_code, 0) << history.err;
  EXPECT_NE(history.out.find("\n2\tuncommitted\tNULL\tNULL\t0\t0\t"), std::string::npos);
  EXPECT_NE(history.out.find("\tupdate (not committed)\n"), std::string::npos);
  EXPECT_NE(history.out.find("\n5000\tuncommitted\tNULL\tNULL\t0\t0\t"), std::string::npos);
  EXPECT_NE(history.out.find("\tinsert (not committed)\n"), std::string::npos);
  EXPECT_NE(history.out.find("\n11\ttwice-a\t1011\tNULL\t0\t2\t"), std::string::npos);
  EXPECT_NE(history.out.find("\tupdate (changed again by the same transaction)\n"), std::string::npos);
}

// Pages on the way to the undo logs must pass their checksums: a damaged TRX_SYS or rollback
// segment header leaves the logs behind it unknown, never "purged"; the ibdata1 of another
// server is noticed by the transaction ids its records carry.
TEST(RowHistoryCliTest, DamagedOrForeignTransactionSystemIsNotCalledPurged) {
  strata::testing::TempDir tmp;
  MakeDataDir(tmp.path());
  const std::string ibd = (tmp.path() / "hist/t_autoinc.ibd").string();
  const auto ibdata1 = tmp.path() / "ibdata1";
  const auto good = strata::testing::ReadWholeFile(ibdata1);
  auto bad = good;
  bad[5 * 16384 + 56 + 8 * 24 + 7] ^= std::byte{0x01};  // TRX_SYS slot 24's page number
  strata::testing::WriteWholeFile(ibdata1, bad);
  CommandResult trx_sys = Strata("inspect rows --history " + ibd);
  EXPECT_EQ(trx_sys.exit_code, 1);
  EXPECT_NE(trx_sys.err.find("ibdata1 page 5 (TRX_SYS) fails its checksum"), std::string::npos) << trx_sys.err;
  EXPECT_EQ(trx_sys.out.find("(purged)"), std::string::npos);

  auto rseg = strata::testing::ReadWholeFile(tmp.path() / "undo002");
  strata::testing::WriteWholeFile(ibdata1, good);
  rseg[std::size_t{14} * 16384 + 46 + 3] ^= std::byte{0x01};  // a rollback segment's history length
  strata::testing::WriteWholeFile(tmp.path() / "undo002", rseg);
  CommandResult header = Strata("inspect rows --history " + ibd);
  EXPECT_EQ(header.exit_code, 1);
  EXPECT_NE(header.err.find("undo002 page 14 (a rollback segment header) fails its checksum"), std::string::npos)
      << header.err;

  // The stale-log fixture's ibdata1: another server, whose transactions end far below these.
  strata::testing::Gunzip(TestDataDir() / "mariadb-stale" / "ibdata1.gz", ibdata1);
  CommandResult foreign = Strata("inspect rows --history " + ibd);
  EXPECT_EQ(foreign.exit_code, 1);
  EXPECT_EQ(foreign.out.find("(purged)"), std::string::npos) << foreign.out.substr(0, 400);
}

// Purge has processed logs that a cached undo page still holds: they are purged, not followed,
// and a view older than purge's point is said to be incomplete. Strata's own files, after the
// history experiment's restart has let purge empty the history.
TEST(RowHistoryCliTest, LogsPurgeProcessedAreNotFollowed) {
  strata::testing::TempDir tmp;
  const std::string dir = (tmp.path() / "d").string();
  CommandResult run = Strata("experiment history --datadir " + dir + " --updates 40 --purge-after --json");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  ASSERT_EQ(nlohmann::json::parse(run.out)["history_at_end"], 0);
  const std::string ibd = dir + "/bank/acct.ibd";
  CommandResult history = Strata("inspect rows --history " + ibd);
  EXPECT_EQ(history.exit_code, 0) << history.err;
  const std::string body = history.out.substr(history.out.find('\n') + 1);
  ASSERT_EQ(std::count(body.begin(), body.end(), '\n'), 1) << history.out << "no version rebuilt from a purged log";
  EXPECT_NE(body.find("\t(purged)\n"), std::string::npos) << body;
  CommandResult old_view = Strata("inspect rows --as-of 1 " + ibd);
  EXPECT_EQ(old_view.exit_code, 1);
  EXPECT_NE(old_view.err.find("purge has removed the undo logs"), std::string::npos) << old_view.err;
}

TEST(RowHistoryCliTest, OptionsThatDoNotGoTogetherAreRefused) {
  const std::string ibd = (kFixture / "hist/t_autoinc.ibd").string();
  EXPECT_EQ(Strata("inspect rows --history --deleted " + ibd).exit_code, 2);
  EXPECT_EQ(Strata("inspect rows --history --as-of 5 " + ibd).exit_code, 2);
  EXPECT_EQ(Strata("inspect rows --history --format sql " + ibd).exit_code, 2);
  EXPECT_EQ(Strata("inspect rows --history --index PRIMARY " + ibd).exit_code, 2);
  for (const char* n : {"0", "-1", "x", "281474976710656"}) {
    EXPECT_EQ(Strata(std::string("inspect rows --as-of ") + n + " " + ibd).exit_code, 2) << n;
  }
  CommandResult help = Strata("inspect rows --help");
  EXPECT_NE(help.out.find("--as-of"), std::string::npos);
}

// A table whose history the inspector cannot follow (altered instantly): --as-of says the
// values the view saw are unknown and names why, where it printed the current values as the
// view's. Files of a private MariaDB, stopped.
TEST(RowHistoryCliTest, AsOfAHistoryNotFollowedPrintsNoValuesAsTheViews) {
  if (!strata::testing::PrivateMariadb::Installed()) GTEST_SKIP() << "needs MariaDB (scripts/install-deps.sh)";
  strata::testing::TempDir tmp;
  {
    strata::testing::PrivateMariadb server(tmp.path() / "server");
    ASSERT_TRUE(server.up()) << server.start_output();
    std::ofstream(tmp.path() / "s.sql") << "CREATE DATABASE h; USE h;\n"
                                        << "CREATE TABLE t (id INT PRIMARY KEY, v INT) ENGINE=InnoDB;\n"
                                        << "INSERT INTO t VALUES (1, 10), (2, 20);\n"
                                        << "ALTER TABLE t ADD COLUMN w INT, ALGORITHM=INSTANT;\n"
                                        << "UPDATE t SET v = v + 1;\n";
    auto made = server.Sql("", tmp.path() / "s.sql", "-B");
    ASSERT_EQ(made.exit_code, 0) << made.err;
  }
  const std::string ibd = (tmp.path() / "server" / "data" / "h" / "t.ibd").string();
  CommandResult latest = Strata("inspect rows " + ibd);
  ASSERT_EQ(latest.exit_code, 0) << latest.err;
  EXPECT_NE(latest.out.find("11"), std::string::npos) << latest.out;
  CommandResult old = Strata("inspect rows --as-of 1 " + ibd);
  EXPECT_NE(old.err.find("altered instantly"), std::string::npos) << old.err;
  EXPECT_EQ(old.out.find("11"), std::string::npos) << "current values printed as the view's:\n" << old.out;
  EXPECT_EQ(old.out.find("21"), std::string::npos) << old.out;
}

}  // namespace
