// Tables MariaDB 10.11 encrypted (file_key_management), plain and PAGE_COMPRESSED, in both page
// formats (tests/data/mariadb-encrypted, made by datasets/mariadb/make-encrypted-fixture.sh):
// read without the key, every encrypted page is said to be encrypted, its stored checksum is
// checked (MariaDB checksums the encrypted bytes), and nothing intact is called damaged.
#include <gtest/gtest.h>

#include <fstream>
#include <random>

#include "inspect/check.h"
#include "inspect/page_info.h"
#include "inspect/space_file.h"
#include "inspect/summary.h"
#include "tests/util/fixtures.h"
#include "tests/util/tsv.h"

namespace strata::inspect {
namespace {

namespace fs = std::filesystem;

std::vector<fs::path> Unpack(const testing::TempDir& tmp) {
  std::vector<fs::path> out;
  for (const char* format : {"fcrc32", "crc32"}) {
    for (const char* t : {"enc", "enc_pc"}) {
      fs::create_directories(tmp.path() / format);
      const fs::path ibd = tmp.path() / format / (std::string(t) + ".ibd");
      testing::Gunzip(testing::TestDataDir() / "mariadb-encrypted" / format / (std::string(t) + ".ibd.gz"), ibd);
      out.push_back(ibd);
    }
  }
  return out;
}

TEST(MariaDbEncryptedTest, IntactFilesAreSaidEncryptedNotDamaged) {
  testing::TempDir tmp;
  for (const fs::path& ibd : Unpack(tmp)) {
    SCOPED_TRACE(ibd.parent_path().filename().string() + "/" + ibd.filename().string());
    auto f = SpaceFile::Open(ibd);
    ASSERT_TRUE(f.ok());
    ASSERT_TRUE(f->mariadb_crypt().has_value());
    EXPECT_EQ(f->mariadb_crypt()->key_id, 1u);
    CheckReport r = CheckSpace(*f);
    EXPECT_TRUE(r.clean()) << ToText(r);
    ASSERT_EQ(r.findings.size(), 1u) << ToText(r);
    EXPECT_NE(r.findings[0].detail.find("MariaDB"), std::string::npos);
    SpaceSummary s = Summarize(*f);
    EXPECT_EQ(s.checksum_failures, 0u);
    EXPECT_GT(s.encrypted_pages, 20u);
    EXPECT_EQ(s.unverifiable_pages, 0u);  // MariaDB's checksums are of the encrypted bytes
  }
}

// A flipped bit in an encrypted page's body: its stored checksum no longer holds, and check
// says so on that page.
TEST(MariaDbEncryptedTest, FlippedBytesInEncryptedPagesAreFound) {
  testing::TempDir tmp;
  std::mt19937 rng(23);
  std::size_t tried = 0;
  for (const fs::path& ibd : Unpack(tmp)) {
    const auto original = testing::ReadWholeFile(ibd);
    auto f = SpaceFile::Open(ibd);
    ASSERT_TRUE(f.ok());
    std::vector<std::uint32_t> encrypted;
    for (std::uint32_t p = 0; p < f->n_pages(); ++p) {
      if (AnalyzePage(*f, p).encrypted) encrypted.push_back(p);
    }
    ASSERT_GT(encrypted.size(), 10u);
    for (int trial = 0; trial < 10; ++trial) {
      const std::uint32_t p = encrypted[rng() % encrypted.size()];
      auto bytes = original;
      // Early in the body: inside what a page-compressed page stores (at least 256 bytes).
      bytes[std::size_t{p} * 16384 + 40 + rng() % 60] ^= std::byte(1u << (rng() % 8));
      const fs::path copy = tmp.path() / "flipped.ibd";
      std::ofstream(copy, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
      auto g = SpaceFile::Open(copy);
      ASSERT_TRUE(g.ok());
      CheckReport r = CheckSpace(*g);
      bool on_page = false;
      for (const Finding& x : r.findings) on_page |= x.severity == Severity::kError && x.page == p;
      EXPECT_TRUE(on_page) << ibd << " page " << p << ":\n" << ToText(r);
      ++tried;
    }
  }
  EXPECT_EQ(tried, 40u);
}

}  // namespace
}  // namespace strata::inspect
