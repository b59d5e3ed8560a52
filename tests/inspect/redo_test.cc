// `strata inspect redo` against MariaDB 10.11's own logs (tests/data/mariadb-redo, made by
// tests/data/mariadb-redo/make.sh): the checkpoint LSN and the end of the log must be
// what the server reported, at shutdown and when it recovered the crashed one.
#include "inspect/redo_report.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "ondisk/crc32c.h"
#include "ondisk/endian.h"
#include "tests/util/fixtures.h"
#include "tests/util/tsv.h"

namespace strata::inspect {
namespace {

std::map<std::string, std::string> Truth(const std::filesystem::path& tsv) {
  std::map<std::string, std::string> m;
  for (const auto& row : testing::ReadTsv(tsv)) m[row.at("key")] = row.at("value");
  return m;
}

RedoReport Analyze(const std::filesystem::path& gz, const testing::TempDir& tmp) {
  const auto log = tmp.path() / "ib_logfile0";
  testing::Gunzip(gz, log);
  return AnalyzeRedo(log, {});
}

TEST(RedoReportTest, MariaDbCleanShutdownMatchesWhatTheServerPrinted) {
  const auto dir = testing::TestDataDir() / "mariadb-redo";
  auto truth = Truth(dir / "truth" / "log.tsv");
  testing::TempDir tmp;
  RedoReport r = Analyze(dir / "ib_logfile0.gz", tmp);
  ASSERT_TRUE(r.findings.empty()) << r.findings[0].ToString();
  EXPECT_EQ(r.format_name, "MariaDB 10.8+ (Phys)");
  EXPECT_EQ(r.creator, "MariaDB 10.11.19");
  ASSERT_TRUE(r.newest.has_value());
  // The checkpoint the server reopened the log at, and the end of the log, which is the
  // "log sequence number" its shutdown line printed (16 bytes on: the FILE_CHECKPOINT record).
  EXPECT_EQ(std::to_string(r.checkpoints[*r.newest].lsn), truth.at("restart_global_innodb_lsn_last_checkpoint"));
  EXPECT_EQ(std::to_string(r.lsn_end), truth.at("shutdown_lsn"));
  EXPECT_EQ(r.mtr_groups, 1u);
}

TEST(RedoReportTest, MariaDbCrashedLogEndsWhereRecoveryEnded) {
  const auto dir = testing::TestDataDir() / "mariadb-redo" / "crashed";
  auto truth = Truth(dir / "truth" / "log.tsv");
  testing::TempDir tmp;
  RedoReport r = Analyze(dir / "ib_logfile0.gz", tmp);
  ASSERT_TRUE(r.newest.has_value());
  EXPECT_EQ(std::to_string(r.checkpoints[*r.newest].lsn), truth.at("recovery_checkpoint_lsn"));
  EXPECT_EQ(std::to_string(r.checkpoints[*r.newest].lsn), truth.at("status_last_checkpoint"));
  EXPECT_EQ(std::to_string(r.lsn_end), truth.at("recovery_end_of_log_lsn"));
  EXPECT_EQ(std::to_string(r.mtr_groups), truth.at("file_mtrs_after_checkpoint"));
}

// The records after the checkpoint, decoded, name the pages recovery changed and the LSN it
// left on each: the end of the last mini-transaction that changed it. Checked against the
// pages a copy of the crashed server's files carried once the server had recovered it
// (truth/page_lsns.tsv), both ways: every page recovery stamped is one the records change,
// with that LSN, and every page the records change (and do not free) was stamped so.
TEST(RedoReportTest, MariaDbRecordsNameThePagesRecoveryChanged) {
  const auto dir = testing::TestDataDir() / "mariadb-redo" / "crashed";
  auto truth = Truth(dir / "truth" / "log.tsv");
  testing::TempDir tmp;
  RedoReport r = Analyze(dir / "ib_logfile0.gz", tmp);
  ASSERT_TRUE(r.findings.empty()) << r.findings[0].ToString();
  ASSERT_TRUE(r.records_decoded);
  std::uint64_t records = 0;
  for (const auto& [type, n] : r.record_types) records += n;
  EXPECT_EQ(std::to_string(records), truth.at("file_records_after_checkpoint"));
  EXPECT_GT(r.record_types.at("WRITE"), 1000u);
  EXPECT_GT(r.record_types.at("EXTENDED/INSERT_HEAP_DYNAMIC"), 100u);

  std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint64_t> stamped;
  for (const auto& row : testing::ReadTsv(dir / "truth" / "page_lsns.tsv")) {
    stamped[{static_cast<std::uint32_t>(std::stoul(row.at("space"))),
             static_cast<std::uint32_t>(std::stoul(row.at("page")))}] = std::stoull(row.at("lsn"));
  }
  ASSERT_GT(stamped.size(), 50u);
  for (const auto& [id, lsn] : stamped) {
    auto it = r.pages.find(id);
    ASSERT_NE(it, r.pages.end()) << "recovery stamped " << id.first << ":" << id.second << " with LSN " << lsn;
    // A page whose last change freed it is not written back: it keeps an earlier change.
    if (it->second.freed) {
      EXPECT_LT(lsn, it->second.last_lsn) << id.first << ":" << id.second;
    } else {
      EXPECT_EQ(it->second.last_lsn, lsn) << id.first << ":" << id.second;
    }
  }
  for (const auto& [id, info] : r.pages) {
    if (!info.freed) {
      EXPECT_EQ(stamped.count(id), 1u) << id.first << ":" << id.second << ", " << info.records << " records";
    }
  }

  // One page's records, oldest first, each naming that page.
  const auto [space, page] = stamped.rbegin()->first;
  RedoReport one = AnalyzeRedo(tmp.path() / "ib_logfile0", {.records = false, .page = std::make_pair(space, page)});
  ASSERT_EQ(one.records.size(), r.pages.at({space, page}).records);
  for (std::size_t i = 0; i < one.records.size(); ++i) {
    EXPECT_EQ(one.records[i].space, space);
    EXPECT_EQ(one.records[i].page, page);
    if (i > 0) {
      EXPECT_GT(one.records[i].lsn, one.records[i - 1].lsn);
    }
  }
}

// Bytes of the crashed log damaged between its checkpoint and the checkpoint's end LSN (a
// flipped byte, a zeroed 4 KiB block): the walk stops there, and that is damage, not the end
// of the log. The server would refuse the log for want of its FILE_CHECKPOINT record.
TEST(RedoReportTest, MariaDbLogEndingBeforeTheCheckpointsEndIsDamage) {
  const auto dir = testing::TestDataDir() / "mariadb-redo" / "crashed";
  auto truth = Truth(dir / "truth" / "log.tsv");
  const std::uint64_t first_lsn = std::stoull(truth.at("file_header_first_lsn"));
  const std::uint64_t capacity = std::stoull(truth.at("file_ring_capacity"));
  const std::uint64_t end_lsn = std::stoull(truth.at("file_checkpoint_end_lsn"));
  auto offset_of = [&](std::uint64_t lsn) { return 12288 + (lsn - first_lsn) % capacity; };
  for (const std::uint64_t damaged_lsn : {std::uint64_t{11000000}, end_lsn - 5000, end_lsn}) {
    for (const bool zero_block : {false, true}) {
      testing::TempDir tmp;
      testing::Gunzip(dir / "ib_logfile0.gz", tmp.path() / "ib_logfile0");
      if (zero_block) {
        testing::OverwriteAt(tmp.path() / "ib_logfile0", offset_of(damaged_lsn), std::string(4096, '\0'));
      } else {
        testing::FlipBitsAt(tmp.path() / "ib_logfile0", offset_of(damaged_lsn), 0x5a);
      }
      RedoReport r = AnalyzeRedo(tmp.path() / "ib_logfile0", {});
      ASSERT_FALSE(r.findings.empty()) << "damage at LSN " << damaged_lsn;
      EXPECT_EQ(r.findings.back().what, "log ends early") << ToText(r);
      EXPECT_LE(r.lsn_end, damaged_lsn);
    }
  }
}

// A tablespace or any other file given by mistake is said to be no log, not read as one with
// made-up checkpoints and flags.
TEST(RedoReportTest, AFileThatIsNoLogIsSaidToBeNone) {
  testing::TempDir tmp;
  const auto text = tmp.path() / "notes.txt";
  testing::WriteWholeFile(text, std::vector<std::byte>(4096, std::byte{'x'}));
  for (const std::filesystem::path& p :
       {testing::SharedFixturesDir() / "mysql-sakila/8.0/sakila/film.ibd", testing::TestDataDir() / "mariadb/t_int.ibd",
        testing::TestDataDir() / "mariadb/t_compact.ibd", text}) {
    RedoReport r = AnalyzeRedo(p, {});
    ASSERT_EQ(r.findings.size(), 1u) << p << "\n" << ToText(r);
    EXPECT_EQ(r.findings[0].what, "not a redo log") << p;
  }
}

TEST(RedoReportTest, DamageIsAFindingNotACrash) {
  testing::TempDir tmp;
  const auto path = tmp.path() / "ib_logfile0";
  testing::Gunzip(testing::TestDataDir() / "mariadb-redo" / "ib_logfile0.gz", path);
  std::filesystem::resize_file(path, 300);
  RedoReport r = AnalyzeRedo(path, {});
  ASSERT_FALSE(r.findings.empty());
  EXPECT_EQ(r.findings[0].what, "truncated");
  EXPECT_FALSE(AnalyzeRedo(tmp.path() / "missing", {}).findings.empty());
}

// MySQL 9.0's #innodb_redo files (8.0.30+ format): no checkpoint numbers, so the newer
// checkpoint is the one with the larger LSN; each file holds the LSNs from its start LSN on.
// Both read to the end without a finding, and they agree with each other: #ib_redo9's log
// runs exactly to where #ib_redo10 starts, and #ib_redo10's ends at its checkpoint (a clean
// stop).
TEST(RedoReportTest, MySql8030FilesReadByTheirOwnLayout) {
  const std::filesystem::path dir = testing::SharedFixturesDir() / "external" / "idb-utils-mysql90";
  RedoReport nine = AnalyzeRedo(dir / "mysql90_redo_9", {});
  RedoReport ten = AnalyzeRedo(dir / "mysql90_redo_10", {});
  for (const RedoReport* r : {&nine, &ten}) EXPECT_TRUE(r->findings.empty()) << ToText(*r);
  ASSERT_TRUE(nine.newest && ten.newest);
  EXPECT_EQ(*nine.newest, 1u);  // 32194325 > 32193931
  EXPECT_EQ(nine.checkpoints[1].lsn, 32194325u);
  EXPECT_EQ(*ten.newest, 0u);  // 33949088 > 33947583
  EXPECT_EQ(nine.lsn_end, ten.start_lsn);
  EXPECT_GT(nine.blocks_valid, 1000u);
  EXPECT_EQ(ten.lsn_end, ten.checkpoints[0].lsn);
  // The older file is marked full (MySQL's flag 4 is bit 3); the newer one has no flag. Redo
  // was never disabled: MySQL's NO_LOGGING is bit 0, not Strata's bit 1.
  EXPECT_EQ(nine.flags, 0x8u);
  EXPECT_NE(ToText(nine).find("FILE_FULL"), std::string::npos);
  EXPECT_EQ(ToJson(nine, false)["redo_disabled"], false);
  EXPECT_EQ(ToJson(nine, false)["flag_names"].size(), 1u);
  EXPECT_EQ(ten.flags, 0u);

  // A data directory: the newest #ib_redoN; a spare #ib_redoN_tmp is said to be one.
  testing::TempDir tmp;
  std::filesystem::create_directories(tmp.path() / "#innodb_redo");
  std::filesystem::copy_file(dir / "mysql90_redo_9", tmp.path() / "#innodb_redo" / "#ib_redo9");
  std::filesystem::copy_file(dir / "mysql90_redo_10", tmp.path() / "#innodb_redo" / "#ib_redo10");
  std::filesystem::copy_file(dir / "mysql90_redo_9", tmp.path() / "#innodb_redo" / "#ib_redo11_tmp");
  RedoReport datadir = AnalyzeRedo(tmp.path(), {});
  EXPECT_EQ(std::filesystem::path(datadir.file).filename(), "#ib_redo10");
  EXPECT_EQ(datadir.lsn_end, ten.lsn_end);
  RedoReport spare = AnalyzeRedo(tmp.path() / "#innodb_redo" / "#ib_redo11_tmp", {});
  ASSERT_EQ(spare.findings.size(), 1u);
  EXPECT_EQ(spare.findings[0].severity, Severity::kInfo);
  EXPECT_EQ(spare.findings[0].what, "spare log file");
}

RedoOptions AllRecords(std::optional<std::pair<std::uint32_t, std::uint32_t>> page = std::nullopt) {
  RedoOptions o;
  o.page = page;
  o.all = true;
  return o;
}

// A MySQL 9.0.1 data directory's #innodb_redo with the two fixture files under their own names.
std::filesystem::path MySqlRedoDir(const testing::TempDir& tmp) {
  const std::filesystem::path dir = testing::SharedFixturesDir() / "external" / "idb-utils-mysql90";
  std::filesystem::create_directories(tmp.path() / "#innodb_redo");
  std::filesystem::copy_file(dir / "mysql90_redo_9", tmp.path() / "#innodb_redo" / "#ib_redo9");
  std::filesystem::copy_file(dir / "mysql90_redo_10", tmp.path() / "#innodb_redo" / "#ib_redo10");
  return tmp.path();
}

// The records of both files, decoded from the start of #ib_redo9: every one of the 8,727
// blocks' first-record-group fields, which the server wrote, falls where the decoded record
// lengths put a mini-transaction's start (any disagreement is an error finding), and the last
// one ends exactly where the log does.
TEST(RedoReportTest, MySqlRecordsAgreeWithTheServersBlockFraming) {
  testing::TempDir tmp;
  RedoReport r = AnalyzeRedo(MySqlRedoDir(tmp), AllRecords());
  EXPECT_TRUE(r.findings.empty()) << ToText(r);
  ASSERT_TRUE(r.records_decoded);
  EXPECT_EQ(r.log_files.size(), 2u);
  EXPECT_EQ(r.blocks_valid, 8727u);
  EXPECT_EQ(r.lsn_begin, 29480960u);
  EXPECT_EQ(r.lsn_end, 33949088u);
  EXPECT_EQ(r.incomplete_tail_bytes, 0u);
  EXPECT_EQ(r.mtr_groups, 58412u);
  EXPECT_EQ(r.record_types.size(), 29u);  // kinds of record
  // What happened: the tables were created, extended and filled.
  EXPECT_EQ(r.record_types.at("MLOG_FILE_CREATE"), 3u);
  EXPECT_GT(r.record_types.at("MLOG_REC_INSERT"), 20000u);

  // After a clean stop nothing follows the checkpoint.
  RedoReport after = AnalyzeRedo(tmp.path(), {});
  EXPECT_TRUE(after.findings.empty()) << ToText(after);
  EXPECT_EQ(after.mtr_groups, 0u);
  EXPECT_EQ(after.lsn_end, 33949088u);
}

// The same server's tablespaces (space 2, a plain table; space 3, KEY_BLOCK_SIZE=8) carry on
// each page the end LSN of the mini-transaction that last changed it: the decoder must find
// that very LSN for every page the log changed.
TEST(RedoReportTest, MySqlRecordsEndWhereTheTablespacePagesSayTheyWereLastChanged) {
  testing::TempDir tmp;
  RedoReport r = AnalyzeRedo(MySqlRedoDir(tmp), AllRecords());
  const std::filesystem::path dir = testing::SharedFixturesDir() / "external" / "idb-utils-mysql90";
  int checked = 0;
  for (const auto& [file, space, page_size] :
       {std::tuple{"mysql90_standard.ibd", 2u, 16384u}, {"mysql90_compressed.ibd", 3u, 8192u}}) {
    const std::vector<std::byte> bytes = testing::ReadWholeFile(dir / file);
    for (std::uint32_t page = 0; page * page_size < bytes.size(); ++page) {
      const std::uint64_t page_lsn = ondisk::Load64(bytes, page * page_size + 16);
      const auto it = r.pages.find({space, page});
      if (page_lsn == 0) {  // never written
        EXPECT_EQ(it, r.pages.end()) << file << " page " << page;
        continue;
      }
      ASSERT_NE(it, r.pages.end()) << file << " page " << page;
      EXPECT_EQ(it->second.last_lsn, page_lsn) << file << " page " << page;
      ++checked;
    }
  }
  EXPECT_EQ(checked, 10);

  // One page's records, oldest first.
  RedoReport one = AnalyzeRedo(tmp.path(), AllRecords(std::make_pair(2u, 4u)));
  ASSERT_EQ(one.records.size(), r.pages.at({2u, 4u}).records);
  EXPECT_EQ(one.records.back().type, "MLOG_REC_INSERT");
  // The bytes MLOG_nBYTES records write after the page was created are the page's own.
  const std::vector<std::byte> page4 = testing::ReadWholeFile(dir / "mysql90_standard.ibd");
  std::size_t created = 0, compared = 0;
  for (std::size_t i = 0; i < one.records.size(); ++i) {
    if (one.records[i].type == "MLOG_COMP_PAGE_CREATE") created = i;
  }
  for (std::size_t i = created; i < one.records.size(); ++i) {
    const auto& x = one.records[i];
    if (x.type.find("BYTES") == std::string::npos) continue;
    ASSERT_EQ(x.bytes.size(), x.length) << x.type;
    for (std::size_t k = 0; k < x.length; ++k)
      EXPECT_EQ(x.bytes[k], page4[4 * 16384 + x.offset + k]) << x.type << " at " << x.offset;
    ++compared;
  }
  EXPECT_GE(compared, 4u);
}

// MariaDB 10.5.5's log (tests/data/mariadb105-redo, from a public data directory): the
// records 10.8+ writes, in 512-byte blocks. Read whole (the ring has not come round), every
// block's first-record-group field agrees with the decoded lengths, and every page of the
// tablespaces at hand carries as its LSN the end of the last mini-transaction that changed it.
TEST(RedoReportTest, MariaDb105RecordsEndWhereTheTablespacePagesSayTheyWereLastChanged) {
  testing::TempDir tmp;
  const auto data = testing::TestDataDir() / "mariadb105-redo";
  const std::vector<std::string> files = {"p2430705db/tbl_admin.ibd",     "p2430705db/tbl_session.ibd",
                                          "p2430705db/tbl_telemetry.ibd", "p2430705db/tbl_user.ibd",
                                          "mysql/gtid_slave_pos.ibd",     "mysql/innodb_index_stats.ibd",
                                          "mysql/innodb_table_stats.ibd", "mysql/transaction_registry.ibd"};
  std::filesystem::create_directories(tmp.path() / "p2430705db");
  std::filesystem::create_directories(tmp.path() / "mysql");
  testing::Gunzip(data / "ib_logfile0.gz", tmp.path() / "ib_logfile0");
  for (const auto& f : files) testing::Gunzip(data / (f + ".gz"), tmp.path() / f);

  RedoReport at_checkpoint = AnalyzeRedo(tmp.path(), {});
  EXPECT_TRUE(at_checkpoint.records_decoded);
  EXPECT_EQ(at_checkpoint.mtr_groups, 0u) << "a clean stop: nothing after the checkpoint";
  RedoReport r = AnalyzeRedo(tmp.path(), AllRecords());
  for (const auto& f : r.findings) ADD_FAILURE() << f.ToString();
  EXPECT_EQ(r.blocks_valid, 2184u);
  EXPECT_EQ(r.mtr_groups, 22924u);
  EXPECT_EQ(r.record_types.at("FILE_RENAME"), 8u);
  int checked = 0;
  for (const auto& f : files) {
    const std::vector<std::byte> bytes = testing::ReadWholeFile(tmp.path() / f);
    const std::uint32_t space = ondisk::Load32(bytes, 34);
    for (std::uint32_t page = 0; (page + 1) * 16384 <= bytes.size(); ++page) {
      const std::uint64_t page_lsn = ondisk::Load64(bytes, page * 16384 + 16);
      const auto it = r.pages.find({space, page});
      if (page_lsn <= r.start_lsn) {  // last written before the log began (or never)
        EXPECT_EQ(it, r.pages.end()) << f << " page " << page;
        continue;
      }
      ASSERT_NE(it, r.pages.end()) << f << " page " << page;
      EXPECT_EQ(it->second.last_lsn, page_lsn) << f << " page " << page;
      ++checked;
    }
  }
  EXPECT_EQ(checked, 20);
}

// A block whose first-record-group field is wrong (its checksum restamped, so only the
// records can tell) is named by its LSN; so is a record type no server writes.
TEST(RedoReportTest, MySqlFramingThatDisagreesWithTheRecordsIsNamed) {
  testing::TempDir tmp;
  const auto file = MySqlRedoDir(tmp) / "#innodb_redo" / "#ib_redo10";
  std::vector<std::byte> bytes = testing::ReadWholeFile(file);
  std::size_t block = 2048 + 100 * 512;  // the first block from the 100th on where a group starts
  while (ondisk::Load16(bytes, block + 6) == 0) block += 512;
  const std::uint64_t block_lsn = 32755712 + (block - 2048);
  auto restamp = [&] {
    ondisk::Store32(bytes, block + 508, ondisk::Crc32c(ondisk::ConstBytes(bytes).subspan(block, 508)));
  };
  const std::uint16_t first_group = ondisk::Load16(bytes, block + 6);
  ondisk::Store16(bytes, block + 6, first_group + 1);
  restamp();
  testing::WriteWholeFile(file, bytes);
  RedoReport r = AnalyzeRedo(tmp.path(), AllRecords());
  ASSERT_FALSE(r.findings.empty()) << ToText(r);
  EXPECT_EQ(r.findings[0].severity, Severity::kError);
  EXPECT_NE(r.findings[0].detail.find(fmt::format("LSN {}", block_lsn)), std::string::npos) << r.findings[0].detail;

  ondisk::Store16(bytes, block + 6, first_group);
  bytes[block + first_group] = std::byte{0x2F};  // type 47: none
  restamp();
  testing::WriteWholeFile(file, bytes);
  RedoReport bad = AnalyzeRedo(tmp.path(), AllRecords());
  ASSERT_FALSE(bad.findings.empty()) << ToText(bad);
  EXPECT_EQ(bad.findings[0].what, "redo record");
  EXPECT_NE(bad.findings[0].detail.find("record type 47"), std::string::npos) << bad.findings[0].detail;
  // Where, as an LSN (the record's first byte), not as a position in the bytes read.
  EXPECT_NE(bad.findings[0].detail.find(fmt::format("byte at LSN {}", block_lsn + first_group)), std::string::npos)
      << bad.findings[0].detail;
  EXPECT_EQ(bad.findings[0].detail.find("offset "), std::string::npos) << bad.findings[0].detail;
  EXPECT_LT(bad.mtr_groups, 58412u);
}

}  // namespace
}  // namespace strata::inspect
