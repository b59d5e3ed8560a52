// Damaged bytes give Corruption that names the offset: never a crash, never a read outside
// the page (the ASan build proves the latter).
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "ondisk/checksum.h"
#include "ondisk/fil_header.h"
#include "ondisk/fsp_header.h"
#include "ondisk/index_page.h"
#include "ondisk/record.h"
#include "ondisk/undo.h"
#include "tests/util/fixtures.h"
#include "tests/util/tablespace_file.h"

namespace strata::ondisk {
namespace {

using testing::TablespaceFile;

// A copy of a real leaf page: sakila.actor's clustered root (MySQL 8.0, 200 records).
std::vector<std::byte> ActorRoot() {
  auto file = TablespaceFile::Load(testing::SharedFixturesDir() / "mysql-sakila/8.0/sakila/actor.ibd");
  auto p = file.page(4);
  return {p.begin(), p.end()};
}

void ExpectCorruptionAt(const Status& s, std::size_t offset) {
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_NE(s.message().find("offset " + std::to_string(offset) + ":"), std::string::npos) << s.ToString();
}

Status WalkAll(ConstBytes page) {
  auto ip = IndexPage::Open(page);
  if (!ip.ok()) return ip.status();
  RecordWalker w(*ip);
  while (w.Next()) {
  }
  return w.status();
}

TEST(CorruptionTest, TruncatedPagesAreRefusedWithTheirSize) {
  auto page = ActorRoot();
  for (std::size_t len : {0ul, 37ul, 16383ul, 10000ul}) {
    ConstBytes cut(page.data(), len);
    ExpectCorruptionAt(FilHeader::Open(cut).status(), len);
    ExpectCorruptionAt(IndexPage::Open(cut).status(), len);
    ExpectCorruptionAt(FspHeader::Open(cut).status(), len);
  }
}

TEST(CorruptionTest, ImpossibleDirectoryAndHeapTopAreNamed) {
  auto page = ActorRoot();
  Store16(page, IndexPage::kNDirSlots, 0xFFFF);
  ExpectCorruptionAt(IndexPage::Open(page).status(), IndexPage::kNDirSlots);
  page = ActorRoot();
  Store16(page, IndexPage::kHeapTop, 20000);
  ExpectCorruptionAt(IndexPage::Open(page).status(), IndexPage::kHeapTop);
  page = ActorRoot();
  Store16(page, IndexPage::kHeapTop, 100);
  ExpectCorruptionAt(IndexPage::Open(page).status(), IndexPage::kHeapTop);
  page = ActorRoot();
  page[kCompactInfimum + 2] = std::byte{'X'};
  ExpectCorruptionAt(IndexPage::Open(page).status(), kCompactInfimum);
}

TEST(CorruptionTest, NextPointerOutsideTheHeapStopsTheWalk) {
  auto page = ActorRoot();
  // The first user record is at 127 (innodb-format.md §9.1); aim its next pointer at the
  // FIL header.
  Store16(page, 127 - 2, static_cast<std::uint16_t>(40 - 127));
  ExpectCorruptionAt(WalkAll(page), 125);
}

TEST(CorruptionTest, LoopingChainIsDetected) {
  auto page = ActorRoot();
  Store16(page, 127 - 2, 0);  // next cleared: the chain ends before the supremum
  ExpectCorruptionAt(WalkAll(page), 125);
  page = ActorRoot();
  // Point the second record back at the first: a cycle that never reaches the supremum.
  auto ip = IndexPage::Open(page);
  ASSERT_TRUE(ip.ok());
  std::size_t second = ip->HeaderAt(127)->NextOrigin(127, true, page.size());
  Store16(page, second - 2, static_cast<std::uint16_t>(127 - second));
  Status s = WalkAll(page);
  EXPECT_TRUE(s.IsCorruption());
  EXPECT_NE(s.message().find("loop"), std::string::npos) << s.ToString();
}

TEST(CorruptionTest, WrongRecordCountAndOwnedCountsAreFound) {
  auto page = ActorRoot();
  Store16(page, IndexPage::kNRecs, 199);
  ExpectCorruptionAt(IndexPage::Open(page)->CheckStructure(), IndexPage::kNRecs);
  page = ActorRoot();
  auto ip = IndexPage::Open(page);
  std::size_t owner = ip->dir_slot(1);
  page[owner - 5] ^= std::byte{0x01};  // n_owned of the first group's owner
  ExpectCorruptionAt(IndexPage::Open(page)->CheckStructure(), owner - 5);
}

TEST(CorruptionTest, FieldLengthsRunningOffThePageAreNamed) {
  auto page = ActorRoot();
  RecordLayout layout{{FieldDef::Fixed("id", 2), FieldDef::Fixed("trx", 6), FieldDef::Fixed("roll", 7),
                       FieldDef::Variable("first", 180), FieldDef::Variable("last", 180), FieldDef::Fixed("ts", 4)}};
  // A layout that claims a huge fixed field: the data would leave the page.
  RecordLayout huge{{FieldDef::Fixed("id", 2), FieldDef::Fixed("blob", 20000)}};
  auto r = DecodeCompactFields(page, 127, huge);
  ExpectCorruptionAt(r.status(), 129);
  // An origin in the FIL header: the record's extra bytes would start before the body.
  EXPECT_TRUE(DecodeCompactFields(page, 40, layout).status().IsCorruption());
  EXPECT_TRUE(DecodeCompactFields(page, 16380, layout).status().IsCorruption());
  EXPECT_TRUE(DecodeRedundantFields(page, 7).status().IsCorruption());
}

TEST(CorruptionTest, UndoHeadersWithImpossibleOffsetsAreNamed) {
  std::vector<std::byte> page(16384);
  UndoPageHeader{.type = 2, .start = 500, .free = 400, .node = {}}.EncodeTo(page);
  ExpectCorruptionAt(UndoPageHeader::Decode(page).status(), 40);
  UndoPageHeader{.type = 2, .start = 100, .free = 30000, .node = {}}.EncodeTo(page);
  ExpectCorruptionAt(UndoPageHeader::Decode(page).status(), 42);
  ExpectCorruptionAt(UndoLogHeader::Decode(page, 16370).status(), 16370);
  Store16(page, 300, 200);  // an undo record whose next offset precedes it
  ExpectCorruptionAt(UndoRecordHeader::Decode(page, 300).status(), 300);
}

// Random damage to every real INDEX page: whatever the decoders say, they say it without
// crashing, and a damaged checksum-covered byte is always caught by validation.
TEST(CorruptionTest, RandomByteFlipsNeverCrashAndAreCaughtByTheChecksum) {
  std::mt19937 rng(42);
  std::size_t pages = 0, walk_errors = 0;
  for (const auto& path : testing::IbdFilesUnder(testing::SharedFixturesDir() / "mysql-sakila/8.0")) {
    auto file = TablespaceFile::Load(path);
    for (std::size_t n = 0; n < file.n_pages(); ++n) {
      if (FilHeader(file.page(n)).type() != PageType::kIndex) continue;
      ++pages;
      for (int trial = 0; trial < 20; ++trial) {
        std::vector<std::byte> copy(file.page(n).begin(), file.page(n).end());
        std::size_t at = 38 + rng() % (copy.size() - 38 - 8);  // the CRC-covered body
        copy[at] ^= std::byte(1 + rng() % 255);
        EXPECT_FALSE(ValidatePage(copy, false).valid) << path << " page " << n << " byte " << at;
        Status s = WalkAll(copy);
        if (!s.ok()) {
          ++walk_errors;
          EXPECT_NE(s.message().find("offset "), std::string::npos) << s.ToString();
        }
        auto ip = IndexPage::Open(copy);
        if (ip.ok()) (void)ip->CheckStructure();
      }
    }
  }
  EXPECT_GT(pages, 20u);
  EXPECT_GT(walk_errors, 0u);
}

}  // namespace
}  // namespace strata::ondisk
