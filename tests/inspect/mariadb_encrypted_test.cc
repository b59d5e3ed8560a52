// Tables MariaDB 10.11 encrypted (file_key_management), plain and PAGE_COMPRESSED, in both page
// formats, with AES-CBC and AES-CTR (tests/data/mariadb-encrypted, made by
// tests/data/mariadb-encrypted/make.sh). Read without the key, every encrypted page is
// said to be encrypted, its stored checksum is checked (MariaDB checksums the encrypted
// bytes), and nothing intact is called damaged; with the key file, the rows are what the
// server printed and damage is found on its page; a wrong key is said, and decrypts nothing.
#include <gtest/gtest.h>

#include <fstream>
#include <random>

#include "inspect/check.h"
#include "inspect/page_info.h"
#include "inspect/space_file.h"
#include "inspect/summary.h"
#include "tests/util/fixtures.h"
#include "tests/util/frm_rows.h"
#include "tests/util/tsv.h"

namespace strata::inspect {
namespace {

namespace fs = std::filesystem;

const fs::path kData = testing::TestDataDir() / "mariadb-encrypted";

// Every table with its .frm: fcrc32/ and crc32/ (AES-CBC), ctr/ (full_crc32, AES-CTR).
std::vector<fs::path> Unpack(const testing::TempDir& tmp) {
  std::vector<fs::path> out;
  for (const char* format : {"fcrc32", "crc32", "ctr"}) {
    for (const char* t : {"enc", "enc_pc"}) {
      fs::create_directories(tmp.path() / format);
      const fs::path ibd = tmp.path() / format / (std::string(t) + ".ibd");
      testing::Gunzip(kData / format / (std::string(t) + ".ibd.gz"), ibd);
      testing::Gunzip(kData / format / (std::string(t) + ".frm.gz"), tmp.path() / format / (std::string(t) + ".frm"));
      out.push_back(ibd);
    }
  }
  return out;
}

EncryptionKeys Keys(const std::string& file = "keys.txt", const std::string& secret = "") {
  EncryptionKeys keys;
  ondisk::Status st = LoadMariaDbKeyFile(kData / file, secret, &keys);
  EXPECT_TRUE(st.ok()) << st.ToString();
  return keys;
}

TEST(MariaDbEncryptedTest, IntactFilesAreSaidEncryptedNotDamaged) {
  testing::TempDir tmp;
  for (const fs::path& ibd : Unpack(tmp)) {
    SCOPED_TRACE(ibd.parent_path().filename().string() + "/" + ibd.filename().string());
    auto f = SpaceFile::Open(ibd);
    ASSERT_TRUE(f.ok());
    ASSERT_TRUE(f->unpacked().mariadb_crypt.has_value());
    EXPECT_EQ(f->unpacked().mariadb_crypt->key_id, 1u);
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
      testing::WriteWholeFile(copy, bytes);
      auto g = SpaceFile::Open(copy);
      ASSERT_TRUE(g.ok());
      CheckReport r = CheckSpace(*g);
      bool on_page = false;
      for (const Finding& x : r.findings) on_page |= x.severity == Severity::kError && x.page == p;
      EXPECT_TRUE(on_page) << ibd << " page " << p << ":\n" << ToText(r);
      ++tried;
    }
  }
  EXPECT_EQ(tried, 60u);
}

TEST(MariaDbEncryptedTest, WithTheKeyRowsAreWhatTheServerPrinted) {
  testing::TempDir tmp;
  const std::string truth = testing::ReadText(kData / "rows.tsv");
  // The same keys from the plain key file and from its encrypted copy (with the secret read
  // from a file, as the server was given it for ctr/).
  for (const EncryptionKeys& keys : {Keys(), Keys("keys.enc", "FILE:" + (kData / "filekey.txt").string())}) {
    for (const fs::path& ibd : Unpack(tmp)) {
      SCOPED_TRACE(ibd.parent_path().filename().string() + "/" + ibd.filename().string());
      auto f = SpaceFile::Open(ibd, &keys);
      ASSERT_TRUE(f.ok());
      EXPECT_GT(f->unpacked().decrypted_pages, 20u);
      const bool ctr = ibd.parent_path().filename() == "ctr";
      EXPECT_NE(f->unpacked().decrypted_with.find(ctr ? "AES-CTR" : "AES-CBC"), std::string::npos)
          << f->unpacked().decrypted_with;
      EXPECT_EQ(testing::RowsByFrm(*f), truth);
      CheckReport r = CheckSpace(*f);
      EXPECT_TRUE(r.clean()) << ToText(r);
      for (const Finding& x : r.findings) EXPECT_EQ(x.what, "decrypted") << x.ToString();  // no "encrypted pages" note
      SpaceSummary s = Summarize(*f);
      EXPECT_EQ(s.checksum_failures, 0u);
      EXPECT_EQ(s.encrypted_pages, 0u);
      EXPECT_EQ(s.decrypted_pages, f->unpacked().decrypted_pages);
    }
  }
}

// Read with the key, a flipped bit anywhere in an encrypted page (the header, the ciphertext,
// the trailer) is found on that page: the stored checksum fails, or the page decrypts to one
// that does not hold together.
TEST(MariaDbEncryptedTest, WithTheKeyFlippedBytesAreFoundOnTheirPage) {
  testing::TempDir tmp;
  const EncryptionKeys keys = Keys();
  std::mt19937 rng(29);
  for (const fs::path& ibd : Unpack(tmp)) {
    const auto original = testing::ReadWholeFile(ibd);
    auto f = SpaceFile::Open(ibd, &keys);
    ASSERT_TRUE(f.ok());
    std::vector<std::uint32_t> encrypted;
    for (std::uint32_t p = 1; p < f->n_pages(); ++p) {
      if (f->IsEncryptedPage(f->stored_page(p))) encrypted.push_back(p);
    }
    ASSERT_GT(encrypted.size(), 10u);
    for (int trial = 0; trial < 8; ++trial) {
      const std::uint32_t p = encrypted[rng() % encrypted.size()];
      // Within what a page-compressed page stores (its first 256 bytes at least).
      const std::size_t at = std::size_t{p} * 16384 + rng() % 250;
      auto bytes = original;
      bytes[at] ^= std::byte(1u << (rng() % 8));
      const fs::path copy = tmp.path() / "flipped.ibd";
      testing::WriteWholeFile(copy, bytes);
      auto g = SpaceFile::Open(copy, &keys);
      ASSERT_TRUE(g.ok());
      CheckReport r = CheckSpace(*g);
      bool on_page = false;
      for (const Finding& x : r.findings) on_page |= x.severity == Severity::kError && x.page == p;
      EXPECT_TRUE(on_page) << ibd << " page " << p << " byte " << at % 16384 << ":\n" << ToText(r);
    }
  }
}

TEST(MariaDbEncryptedTest, AWrongKeyIsSaidAndDecryptsNothing) {
  testing::TempDir tmp;
  const fs::path wrong = tmp.path() / "wrong.txt";
  std::ofstream(wrong) << "# not the key the tables were encrypted with\n1;000102030405060708090a0b0c0d0e0f\n";
  EncryptionKeys keys;
  ASSERT_TRUE(LoadMariaDbKeyFile(wrong, "", &keys).ok());
  for (const fs::path& ibd : Unpack(tmp)) {
    SCOPED_TRACE(ibd.parent_path().filename().string() + "/" + ibd.filename().string());
    auto f = SpaceFile::Open(ibd, &keys);
    ASSERT_TRUE(f.ok());
    EXPECT_EQ(f->unpacked().decrypted_pages, 0u);
    bool said = false;
    for (const Finding& x : f->findings())
      said |= x.what == "wrong key" && x.detail.find("key id 1 of wrong.txt") != std::string::npos;
    EXPECT_TRUE(said);
    EXPECT_GT(Summarize(*f).encrypted_pages, 20u);  // still said to be encrypted, as without a key
  }
  // A key id the file lacks: a warning, and the pages stay encrypted.
  std::ofstream(wrong) << "2;4720320ba9159608423abedbfafe9625b3e5cf6d380ee9c91c51129512e2fd14\n";
  ASSERT_TRUE(LoadMariaDbKeyFile(wrong, "", &keys).ok());
  auto f = SpaceFile::Open(Unpack(tmp)[0], &keys);
  ASSERT_TRUE(f.ok());
  EXPECT_EQ(f->unpacked().decrypted_pages, 0u);
  ASSERT_FALSE(f->findings().empty());
  EXPECT_EQ(f->findings()[0].what, "no key");
}

// Key files are read as the server reads them; what it would refuse is refused, naming the
// line and column.
TEST(MariaDbEncryptedTest, KeyFileErrorsNameFileAndLine) {
  testing::TempDir tmp;
  const fs::path p = tmp.path() / "keys.txt";
  auto load = [&](const std::string& text, const std::string& secret = "") {
    std::ofstream(p, std::ios::binary) << text;
    EncryptionKeys keys;
    return LoadMariaDbKeyFile(p, secret, &keys);
  };
  EXPECT_TRUE(
      load("  # comment\n\n1;00112233445566778899aabbccddeeff\n7;00112233445566778899AABBCCDDEEFF0011223344556677\n")
          .ok());
  EXPECT_NE(load("1;0011\n").message().find("line 1, column 7"), std::string::npos);
  EXPECT_NE(load("# ok\nx;00112233445566778899aabbccddeeff\n").message().find("line 2, column 1"), std::string::npos);
  EXPECT_NE(load("0;00112233445566778899aabbccddeeff\n").message().find("key id 0"), std::string::npos);
  EXPECT_NE(load("1 00112233445566778899aabbccddeeff\n").message().find("';'"), std::string::npos);
  EXPECT_NE(load("").message().find("no keys"), std::string::npos);
  EXPECT_NE(load("1;00112233445566778899aabbccddeeff\n", "secret").message().find("not encrypted"), std::string::npos);
  EncryptionKeys keys;
  EXPECT_NE(LoadMariaDbKeyFile(kData / "keys.enc", "", &keys).message().find("--filekey"), std::string::npos);
  EXPECT_NE(LoadMariaDbKeyFile(kData / "keys.enc", "not the secret", &keys).message().find("wrong secret"),
            std::string::npos);
  EXPECT_FALSE(LoadMariaDbKeyFile(tmp.path() / "missing.txt", "", &keys).ok());
}

}  // namespace
}  // namespace strata::inspect
