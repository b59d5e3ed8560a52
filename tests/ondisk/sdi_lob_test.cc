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
  BlobChain chain(ref.page_no, ref.length, /*sdi=*/true);
  while (auto p = chain.next()) {
    const Status st = chain.Take(*p, *p < file.n_pages() ? file.page(*p) : ConstBytes(), out);
    EXPECT_TRUE(st.ok()) << st.ToString();
    if (!st.ok()) break;
  }
  EXPECT_TRUE(chain.Finish().ok()) << chain.Finish().ToString();
  return out;
}

// Pages of a BLOB chain made in memory: each `part` bytes of 'a', 'b', ... and the next page.
std::vector<std::vector<std::byte>> BlobPages(const std::vector<std::pair<std::uint32_t, std::uint32_t>>& part_next) {
  std::vector<std::vector<std::byte>> pages;
  for (std::size_t i = 0; i < part_next.size(); ++i) {
    std::vector<std::byte> page(kDefaultPageSize);
    Store16(page, FilHeader::kType, static_cast<std::uint16_t>(PageType::kBlob));
    BlobPage{part_next[i].first, PageNo(part_next[i].second)}.EncodeTo(page);
    std::fill_n(page.begin() + BlobPage::kData, part_next[i].first, std::byte('a' + i));
    pages.push_back(std::move(page));
  }
  return pages;
}

std::pair<std::string, Status> Walk(const std::vector<std::vector<std::byte>>& pages, std::uint64_t length,
                                    bool sdi = false) {
  std::string out;
  BlobChain chain(0, length, sdi);
  while (auto p = chain.next()) {
    const ConstBytes page = *p < pages.size() ? ConstBytes(pages[*p]) : ConstBytes();
    if (Status st = chain.Take(*p, page, out); !st.ok()) return {out, st};
  }
  return {out, chain.Finish()};
}

TEST(BlobChainTest, TakesEachPagesPartUpToTheLengthAndRefusesABrokenChainByPage) {
  const auto pages = BlobPages({{3, 1}, {2, 2}, {4, kFilNull}});
  EXPECT_EQ(Walk(pages, 9).first, "aaabbcccc");
  EXPECT_EQ(Walk(pages, 4).first, "aaab");  // cut at the reference's length
  auto [short_out, cut] = Walk(pages, 12);  // the chain ends first
  EXPECT_EQ(short_out, "aaabbcccc");
  EXPECT_NE(cut.message().find("BLOB chain ends after 9 of 12 bytes"), std::string::npos) << cut.ToString();
  const auto loop = BlobPages({{3, 1}, {2, 0}});
  EXPECT_NE(Walk(loop, 100).second.message().find("page 0: the chain loops"), std::string::npos);
  const auto away = BlobPages({{3, 7}});
  EXPECT_NE(Walk(away, 100).second.message().find("page 7: past the end of the file"), std::string::npos);
  auto typed = BlobPages({{3, 1}, {2, kFilNull}});
  Store16(typed[1], FilHeader::kType, static_cast<std::uint16_t>(PageType::kSdiBlobOrInstant));
  EXPECT_NE(Walk(typed, 5).second.message().find("page 1: a page of type"), std::string::npos);
  EXPECT_EQ(Walk(typed, 5, /*sdi=*/true).first, "aaabb");  // SDI BLOB pages, where they belong
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
