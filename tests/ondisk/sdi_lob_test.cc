// SDI and off-page columns in real MySQL files.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <nlohmann/json.hpp>

#include "ondisk/fil_header.h"
#include "ondisk/index_page.h"
#include "ondisk/lob.h"
#include "ondisk/record.h"
#include "ondisk/sdi.h"
#include "tests/util/fixtures.h"
#include "tests/util/tablespace_file.h"

namespace strata::ondisk {
namespace {

using testing::TablespaceFile;

std::string Lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

// Concatenates an old-format BLOB chain (also used by SDI BLOB pages).
std::vector<std::byte> ReadBlobChain(const TablespaceFile& file, ExternRef ref, ConstBytes local_prefix) {
  std::vector<std::byte> out(local_prefix.begin(), local_prefix.end());
  for (std::uint32_t p = ref.page_no; p != kFilNull;) {
    EXPECT_LT(p, file.n_pages());
    auto blob = BlobPage::Decode(file.page(p));
    EXPECT_TRUE(blob.ok()) << blob.status().ToString();
    if (!blob.ok()) break;
    auto data = file.page(p).subspan(BlobPage::kData, blob->part_len);
    out.insert(out.end(), data.begin(), data.end());
    p = blob->next_page.value();
  }
  return out;
}

TEST(SdiFixtureTest, EveryMySql80FileCarriesJsonNamingItsTable) {
  for (const auto& path : testing::IbdFilesUnder(testing::SharedFixturesDir() / "mysql-sakila/8.0")) {
    auto file = TablespaceFile::Load(path);
    int tables = 0, tablespaces = 0;
    for (std::size_t n = 0; n < file.n_pages(); ++n) {
      if (FilHeader(file.page(n)).type() != PageType::kSdi) continue;
      auto ip = IndexPage::Open(file.page(n));
      ASSERT_TRUE(ip.ok());
      EXPECT_EQ(ip->index_id(), kSdiIndexId);
      if (!ip->is_leaf()) continue;
      RecordWalker w(*ip);
      while (w.Next()) {
        auto rec = DecodeSdiRecord(file.page(n), w.origin());
        ASSERT_TRUE(rec.ok()) << path << ": " << rec.status().ToString();
        std::string json;
        if (rec->external) {
          auto bytes = ReadBlobChain(file, *rec->external, rec->compressed);
          auto inflated = InflateSdi(bytes, rec->uncompressed_len);
          ASSERT_TRUE(inflated.ok()) << path << ": " << inflated.status().ToString();
          json = *inflated;
        } else {
          auto inflated = SdiJson(*rec);
          ASSERT_TRUE(inflated.ok()) << path << ": " << inflated.status().ToString();
          json = *inflated;
        }
        auto doc = nlohmann::json::parse(json);
        if (rec->type == static_cast<std::uint32_t>(SdiType::kTable)) {
          ++tables;
          EXPECT_EQ(doc["dd_object_type"], "Table");
          EXPECT_EQ(Lower(doc["dd_object"]["name"].get<std::string>()), Lower(path.stem().string())) << path;
        } else {
          ++tablespaces;
          EXPECT_EQ(doc["dd_object_type"], "Tablespace");
        }
      }
      ASSERT_TRUE(w.status().ok());
    }
    EXPECT_EQ(tables, 1) << path;
    EXPECT_EQ(tablespaces, 1) << path;
  }
}

// sakila.staff.picture is a 36,365-byte BLOB stored off-page: old BLOB pages in 5.7, the new
// LOB format in 8.0 (innodb-format.md §9.6-9.8).
RecordLayout StaffLayout() {
  return {{FieldDef::Fixed("staff_id", 1), FieldDef::Fixed("DB_TRX_ID", 6), FieldDef::Fixed("DB_ROLL_PTR", 7),
           FieldDef::Variable("first_name", 180), FieldDef::Variable("last_name", 180),
           FieldDef::Fixed("address_id", 2), FieldDef::Variable("picture", 65535, true, true),
           FieldDef::Variable("email", 200, true), FieldDef::Fixed("store_id", 1), FieldDef::Fixed("active", 1),
           FieldDef::Variable("username", 64), FieldDef::Variable("password", 160, true),
           FieldDef::Fixed("last_update", 4)}};
}

ExternRef FirstExternalPicture(const TablespaceFile& file, std::size_t root) {
  auto ip = IndexPage::Open(file.page(root));
  EXPECT_TRUE(ip.ok());
  RecordWalker w(*ip);
  while (w.Next()) {
    auto f = DecodeCompactFields(file.page(root), w.origin(), StaffLayout());
    EXPECT_TRUE(f.ok()) << f.status().ToString();
    if (!f.ok() || !(*f)[6].external) continue;
    EXPECT_EQ((*f)[6].length, kExternRefSize);  // DYNAMIC: no local prefix
    return ExternRef::Decode(file.page(root), (*f)[6].offset);
  }
  ADD_FAILURE() << "no external picture found";
  return {};
}

TEST(LobFixtureTest, MySql57BlobChainHoldsTheWholePicture) {
  auto file = TablespaceFile::Load(testing::SharedFixturesDir() / "mysql-sakila/5.7/sakila/staff.ibd");
  ExternRef ref = FirstExternalPicture(file, 3);
  EXPECT_EQ(ref.page_no, 6u);
  EXPECT_EQ(ref.offset_or_version, 38u);
  EXPECT_EQ(ref.length, 36365u);
  EXPECT_EQ(ReadBlobChain(file, ref, {}).size(), 36365u);
}

TEST(LobFixtureTest, MySql80LobIndexCoversTheWholePicture) {
  auto file = TablespaceFile::Load(testing::SharedFixturesDir() / "mysql-sakila/8.0/sakila/staff.ibd");
  ExternRef ref = FirstExternalPicture(file, 4);
  EXPECT_EQ(ref.page_no, 7u);
  EXPECT_EQ(ref.offset_or_version, 1u);  // LOB version
  EXPECT_EQ(ref.length, 36365u);
  ASSERT_EQ(FilHeader(file.page(ref.page_no)).type(), PageType::kLobFirst);
  auto first = LobFirstPage::Decode(file.page(ref.page_no));
  ASSERT_TRUE(first.ok()) << first.status().ToString();
  std::size_t total = 0, entries = 0;
  for (FileAddr a = first->index_list.first; !a.is_null(); ++entries) {
    ASSERT_EQ(a.page, PageNo(ref.page_no));  // three entries fit on the first page
    ASSERT_LT(entries, 10u);
    auto decoded = LobIndexEntry::Decode(file.page(ref.page_no), a.offset);
    ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
    const LobIndexEntry& e = *decoded;
    if (e.data_page == PageNo(ref.page_no)) {
      EXPECT_EQ(e.data_len, first->data_len);
    } else {
      auto data = LobDataPage::Decode(file.page(e.data_page.value()));
      ASSERT_TRUE(data.ok());
      EXPECT_EQ(e.data_len, data->data_len);
    }
    total += e.data_len;
    a = e.node.next;
  }
  EXPECT_EQ(entries, first->index_list.length);
  EXPECT_EQ(total, 36365u);
}

}  // namespace
}  // namespace strata::ondisk
