// A tablespace MySQL 8.0 encrypted (ENCRYPTION='Y', keyring_file), read with the keyring the
// server wrote it with (../shared/fixtures/external/percona-parser and tests/data/mysql-encrypted):
// every page decrypts to the same bytes another project's decryptor produced, the dictionary
// and the rows in it read as on a clear file, damage is found on its page, and a keyring that
// does not hold the key, or holds another, is said and decrypts nothing.
#include <gtest/gtest.h>

#include <fstream>
#include <random>

#include "inspect/check.h"
#include "inspect/encryption_keys.h"
#include "inspect/row_output.h"
#include "inspect/rows.h"
#include "inspect/schema.h"
#include "inspect/space_file.h"
#include "inspect/summary.h"
#include "tests/util/fixtures.h"
#include "tests/util/tsv.h"

namespace strata::inspect {
namespace {

namespace fs = std::filesystem;

const fs::path kEncrypted = testing::SharedFixturesDir() / "external" / "percona-parser" / "encrypted_test.ibd";
const fs::path kData = testing::TestDataDir() / "mysql-encrypted";

EncryptionKeys Keyring(const fs::path& path = kData / "keyring_test") {
  EncryptionKeys keys;
  ondisk::Status st = LoadMySqlKeyring(path, &keys);
  EXPECT_TRUE(st.ok()) << st.ToString();
  return keys;
}

std::string Rows(const SpaceFile& file) {
  Dictionary d = ReadDictionary(file);
  EXPECT_TRUE(d.findings.empty()) << d.findings[0].ToString();
  if (d.tables.size() != 1) return "";
  const TableDef& t = d.tables[0];
  std::string out = TsvHeader(RowColumns(t, *t.Clustered()), false);
  RowScan scan = ScanRows(file, t, *t.Clustered(), false, [&](const Row& r) { AppendTsvLine(out, r, false); });
  EXPECT_TRUE(scan.findings.empty()) << scan.findings[0].ToString();
  return out;
}

TEST(MySqlEncryptedTest, PagesDecryptToWhatAnotherDecryptorWrote) {
  const EncryptionKeys keys = Keyring();
  ASSERT_EQ(keys.mysql.count("INNODBKey-0ca67a48-5da5-11f0-b0fe-bc24111003dd-1"), 1u);
  auto f = SpaceFile::Open(kEncrypted, &keys);
  ASSERT_TRUE(f.ok());
  EXPECT_EQ(f->unpacked().decrypted_pages, 4u);
  EXPECT_EQ(f->unpacked().decrypted_with,
            "master key INNODBKey-0ca67a48-5da5-11f0-b0fe-bc24111003dd-1 of keyring_test, AES-256-CBC");
  testing::TempDir tmp;
  testing::Gunzip(kData / "decrypted_test.ibd.gz", tmp.path() / "golden.ibd");
  const auto golden = testing::ReadWholeFile(tmp.path() / "golden.ibd");
  ASSERT_EQ(golden.size(), std::size_t{f->n_pages()} * f->page_size());
  for (std::uint32_t n = 0; n < f->n_pages(); ++n) {
    const auto page = f->page(n);
    EXPECT_TRUE(std::equal(page.begin(), page.end(), golden.begin() + std::size_t{n} * f->page_size())) << "page " << n;
  }
  // In clear, it checks as any file: every checksum holds, nothing is left encrypted.
  CheckReport r = CheckSpace(*f);
  EXPECT_TRUE(r.clean()) << ToText(r);
  for (const Finding& x : r.findings) EXPECT_EQ(x.what, "decrypted") << x.ToString();
  SpaceSummary s = Summarize(*f);
  EXPECT_EQ(s.encrypted_pages, 0u);
  EXPECT_EQ(s.checksum_failures, 0u);
  EXPECT_EQ(s.decrypted_pages, 4u);
}

TEST(MySqlEncryptedTest, TheDictionaryAndRowsReadAsOnAClearFile) {
  const EncryptionKeys keys = Keyring();
  auto f = SpaceFile::Open(kEncrypted, &keys);
  ASSERT_TRUE(f.ok());
  const std::string rows = Rows(*f);
  // What the script that made the table inserted (tests/demo_encryption.sh there), as
  // `mysql -B` prints SELECT * FROM secret_data.
  EXPECT_EQ(rows,
            "id\tsecret_info\n1\tTOP SECRET: Project Blue Sky\n2\tCONFIDENTIAL: Meeting at 3pm\n"
            "3\tPRIVATE: Password is hunter2\n4\tCLASSIFIED: Agent code X-99\n5\tRESTRICTED: Launch codes 1234\n");
  // The other decryptor's output (ENCRYPTION still in its flags, its pages in clear) reads the same.
  testing::TempDir tmp;
  testing::Gunzip(kData / "decrypted_test.ibd.gz", tmp.path() / "golden.ibd");
  auto g = SpaceFile::Open(tmp.path() / "golden.ibd");
  ASSERT_TRUE(g.ok());
  EXPECT_EQ(rows, Rows(*g));
  // Without the key the dictionary is said to be encrypted, not read.
  auto bare = SpaceFile::Open(kEncrypted);
  ASSERT_TRUE(bare.ok());
  Dictionary d = ReadDictionary(*bare);
  EXPECT_TRUE(d.tables.empty());
  ASSERT_EQ(d.findings.size(), 1u);
  EXPECT_NE(d.findings[0].detail.find("--keyring"), std::string::npos);
}

// With the key, the pages' own checksums are checkable: a flipped bit anywhere in an
// encrypted page is found on that page.
TEST(MySqlEncryptedTest, WithTheKeyFlippedBytesAreFoundOnTheirPage) {
  const EncryptionKeys keys = Keyring();
  const auto original = testing::ReadWholeFile(kEncrypted);
  testing::TempDir tmp;
  std::mt19937 rng(31);
  for (int trial = 0; trial < 24; ++trial) {
    const std::uint32_t p = 1 + rng() % 4;  // pages 1-4 are encrypted
    const std::size_t at = std::size_t{p} * 16384 + rng() % 16384;
    auto bytes = original;
    bytes[at] ^= std::byte(1u << (rng() % 8));
    testing::WriteWholeFile(tmp.path() / "flipped.ibd", bytes);
    auto f = SpaceFile::Open(tmp.path() / "flipped.ibd", &keys);
    ASSERT_TRUE(f.ok());
    CheckReport r = CheckSpace(*f);
    bool on_page = false;
    for (const Finding& x : r.findings) on_page |= x.severity == Severity::kError && x.page == p;
    EXPECT_TRUE(on_page) << "page " << p << " byte " << at % 16384 << ":\n" << ToText(r);
  }
}

TEST(MySqlEncryptedTest, AKeyringWithoutTheKeyOrWithAnotherIsSaid) {
  testing::TempDir tmp;
  auto keyring = testing::ReadWholeFile(kData / "keyring_test");
  // Another key under the same name: the wrapped tablespace key's CRC says so.
  EncryptionKeys keys = Keyring();
  keys.mysql.begin()->second[0] ^= 1;
  auto f = SpaceFile::Open(kEncrypted, &keys);
  ASSERT_TRUE(f.ok());
  EXPECT_EQ(f->unpacked().decrypted_pages, 0u);
  ASSERT_FALSE(f->findings().empty());
  EXPECT_EQ(f->findings()[0].what, "wrong key");
  EXPECT_EQ(Summarize(*f).encrypted_pages, 4u);
  // No key of that name.
  keys.mysql = {{"INNODBKey-someone-else-1", std::vector<std::uint8_t>(32)}};
  f = SpaceFile::Open(kEncrypted, &keys);
  ASSERT_TRUE(f.ok());
  EXPECT_EQ(f->unpacked().decrypted_pages, 0u);
  ASSERT_FALSE(f->findings().empty());
  EXPECT_EQ(f->findings()[0].what, "no key");
  // A damaged keyring is refused, not half read: its SHA-256 covers the keys.
  keyring[100] ^= std::byte{1};
  testing::WriteWholeFile(tmp.path() / "damaged", keyring);
  EXPECT_NE(LoadMySqlKeyring(tmp.path() / "damaged", &keys).message().find("SHA-256"), std::string::npos);
  keyring.resize(60);
  testing::WriteWholeFile(tmp.path() / "short", keyring);
  EXPECT_NE(LoadMySqlKeyring(tmp.path() / "short", &keys).message().find("EOF"), std::string::npos);
  EXPECT_FALSE(LoadMySqlKeyring(kEncrypted, &keys).ok());  // not a keyring at all
}

}  // namespace
}  // namespace strata::inspect
