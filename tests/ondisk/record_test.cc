#include "ondisk/record.h"

#include <gtest/gtest.h>

#include <cstring>
#include <deque>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>

#include "ondisk/checksum.h"
#include "ondisk/fil_header.h"
#include "ondisk/index_page.h"
#include "ondisk/value.h"
#include "tests/util/fixtures.h"
#include "tests/util/tablespace_file.h"

namespace strata::ondisk {
namespace {

using testing::TablespaceFile;

ConstBytes Str(std::string_view s) { return AsBytes(s.data(), s.size()); }
std::string AsString(ConstBytes page, const FieldSlice& f) {
  return std::string(reinterpret_cast<const char*>(page.data() + f.offset), f.length);
}

RecordLayout MixedLayout() {
  return {{FieldDef::Fixed("id", 4), FieldDef::Fixed("DB_TRX_ID", 6), FieldDef::Fixed("DB_ROLL_PTR", 7),
           FieldDef::Variable("short", 40, true), FieldDef::Fixed("n", 4, true),
           FieldDef::Variable("long", 1000, false), FieldDef::Variable("blob", 65535, true, true)}};
}

TEST(ValueTest, SignedIntegersFlipTheSignBit) {
  EXPECT_EQ(EncodeSigned(0, 4), (std::vector<std::byte>{std::byte{0x80}, {}, {}, {}}));
  EXPECT_EQ(EncodeSigned(-1, 1), std::vector<std::byte>{std::byte{0x7F}});
  for (std::int64_t v : {0LL, 1LL, -1LL, 127LL, -128LL, 123456789LL, -987654321LL}) {
    EXPECT_EQ(*DecodeSigned(EncodeSigned(v, 8)), v);
    if (v >= -128 && v <= 127) {
      EXPECT_EQ(*DecodeSigned(EncodeSigned(v, 1)), v);
    }
    if (v >= -(1LL << 31) && v < (1LL << 31)) {
      EXPECT_EQ(*DecodeSigned(EncodeSigned(v, 4)), v);
    }
  }
  EXPECT_EQ(*DecodeUnsigned(EncodeUnsigned(0xABCDEF, 3)), 0xABCDEFu);
}

// Builds a page of records with IndexPageWriter and decodes it back.
TEST(RecordTest, CompactRecordsRoundTripThroughAPage) {
  std::vector<std::byte> page(16384);
  IndexPageWriter w(page);
  w.InitEmpty(true, 77, 0);
  RecordLayout layout = MixedLayout();
  std::string long_value(300, 'L'), blob(200, 'B');
  std::vector<std::byte> ref(20);
  ExternRef{.space_id = 9, .page_no = 123, .offset_or_version = 1, .length = 70000}.EncodeTo(ref, 0);
  std::vector<std::vector<FieldValue>> rows;
  std::deque<std::string> arena;  // keeps every value alive while spans point at it
  auto keep = [&](std::string v) { return Str(arena.emplace_back(std::move(v))); };
  for (int i = 0; i < 50; ++i) {
    auto id = EncodeSigned(i, 4);
    std::vector<FieldValue> v{{keep(std::string(reinterpret_cast<const char*>(id.data()), 4))},
                              {Str("TRXID6")},
                              {Str("ROLLPT7")},
                              i % 3 ? FieldValue{keep("s" + std::to_string(i))} : FieldValue{},
                              i % 5 ? FieldValue{Str("NNNN")} : FieldValue{},
                              {keep(long_value.substr(0, i * 6))},
                              i % 7 == 0 ? FieldValue{ref, true}
                              : i % 2    ? FieldValue{Str(blob)}
                                         : FieldValue{}};
    rows.push_back(v);
    EncodedRecord r = EncodeCompactRecord(layout, v);
    ASSERT_NE(w.Append(r.bytes, r.extra_size), 0u) << i;
  }
  w.FinishDirectory();
  auto ip = IndexPage::Open(page);
  ASSERT_TRUE(ip.ok());
  ASSERT_TRUE(ip->CheckStructure().ok()) << ip->CheckStructure().ToString();
  EXPECT_EQ(ip->n_recs(), 50);
  RecordWalker walker(*ip);
  int i = 0;
  while (walker.Next()) {
    auto fields = DecodeCompactFields(page, walker.origin(), layout);
    ASSERT_TRUE(fields.ok()) << fields.status().ToString();
    EXPECT_EQ(*DecodeSigned(ConstBytes(page).subspan((*fields)[0].offset, 4)), i);
    for (std::size_t f = 0; f < layout.fields.size(); ++f) {
      const FieldValue& want = rows[i][f];
      const FieldSlice& got = (*fields)[f];
      ASSERT_EQ(got.is_null, !want.bytes) << "row " << i << " field " << f;
      EXPECT_EQ(got.external, want.external);
      if (want.bytes) {
        ASSERT_EQ(got.length, want.bytes->size()) << "row " << i << " field " << f;
        EXPECT_EQ(0, std::memcmp(page.data() + got.offset, want.bytes->data(), got.length))
            << "row " << i << " field " << f << " got " << AsString(page, got);
      }
    }
    if (i % 7 == 0) {
      ExternRef back = ExternRef::Decode(page, (*fields)[6].offset);
      EXPECT_EQ(back.page_no, 123u);
      EXPECT_EQ(back.length, 70000u);
    }
    ++i;
  }
  EXPECT_TRUE(walker.status().ok());
  EXPECT_EQ(i, 50);
}

// A node pointer keeps the whole index's NULL bitmap width although it stores only the key.
TEST(RecordTest, NodePointersKeepTheIndexNullBitmapWidth) {
  RecordLayout leaf{{FieldDef::Fixed("k", 4), FieldDef::Fixed("trx", 6), FieldDef::Fixed("roll", 7),
                     FieldDef::Variable("v", 100, true)}};
  RecordLayout np = leaf.NodePointer(1);
  ASSERT_EQ(np.fields.size(), 2u);
  EXPECT_EQ(np.null_bitmap_bits, 1u);
  auto key = EncodeSigned(5, 4), child = EncodeUnsigned(77, 4);
  EncodedRecord r = EncodeCompactRecord(np, {{key}, {child}});
  EXPECT_EQ(r.extra_size, kCompactExtraBytes + 1);  // one bitmap byte, no length bytes
  std::vector<std::byte> page(16384);
  IndexPageWriter w(page);
  w.InitEmpty(true, 9, 1);
  std::size_t origin = w.Append(r.bytes, r.extra_size, kInfoMinRec);
  auto f = DecodeCompactFields(page, origin, np);
  ASSERT_TRUE(f.ok()) << f.status().ToString();
  EXPECT_EQ(*DecodeUnsigned(ConstBytes(page).subspan((*f)[1].offset, 4)), 77u);
}

TEST(RecordTest, RedundantRecordsRoundTripThroughAPage) {
  std::vector<std::byte> page(16384);
  IndexPageWriter w(page);
  w.InitEmpty(false, 5, 0);
  std::string big(500, 'x');
  for (int i = 0; i < 30; ++i) {
    std::string key = "key" + std::to_string(i), value = i % 3 ? std::string("short") : big;
    std::vector<FieldValue> v{{Str(key)}, i % 2 ? FieldValue{} : FieldValue{Str("v")}, {Str(value)}};
    EncodedRecord r = EncodeRedundantRecord(v);
    ASSERT_NE(w.Append(r.bytes, r.extra_size, 0, r.n_fields, r.short_offsets), 0u);
  }
  w.FinishDirectory();
  auto ip = IndexPage::Open(page);
  ASSERT_TRUE(ip.ok());
  EXPECT_FALSE(ip->is_compact());
  ASSERT_TRUE(ip->CheckStructure().ok()) << ip->CheckStructure().ToString();
  RecordWalker walker(*ip);
  int i = 0;
  while (walker.Next()) {
    auto fields = DecodeRedundantFields(page, walker.origin());
    ASSERT_TRUE(fields.ok()) << fields.status().ToString();
    ASSERT_EQ(fields->size(), 3u);
    EXPECT_EQ(AsString(page, (*fields)[0]), "key" + std::to_string(i));
    EXPECT_EQ((*fields)[1].is_null, i % 2 == 1);
    EXPECT_EQ((*fields)[2].length, i % 3 ? 5u : 500u);
    ++i;
  }
  EXPECT_EQ(i, 30);
}

TEST(RecordTest, ExternRefRoundTripsWithFlags) {
  ExternRef r{.space_id = 48,
              .page_no = 6,
              .offset_or_version = 38,
              .length = 36365,
              .not_owner = true,
              .inherited = false,
              .being_modified = true};
  std::vector<std::byte> b(20);
  r.EncodeTo(b, 0);
  EXPECT_EQ(ExternRef::Decode(b, 0), r);
}

// sakila.actor: actor_id SMALLINT UNSIGNED, first_name/last_name VARCHAR(45), last_update
// TIMESTAMP, all NOT NULL (innodb-format.md §9.1 worked example).
RecordLayout ActorLayout() {
  return {{FieldDef::Fixed("actor_id", 2), FieldDef::Fixed("DB_TRX_ID", 6), FieldDef::Fixed("DB_ROLL_PTR", 7),
           FieldDef::Variable("first_name", 180), FieldDef::Variable("last_name", 180),
           FieldDef::Fixed("last_update", 4)}};
}

void ExpectSakilaActors(const std::filesystem::path& path, std::size_t root) {
  auto file = TablespaceFile::Load(path);
  auto ip = IndexPage::Open(file.page(root));
  ASSERT_TRUE(ip.ok());
  ASSERT_TRUE(ip->is_leaf());  // 200 actors fit in the root
  RecordWalker w(*ip);
  int expected_id = 1;
  while (w.Next()) {
    auto f = DecodeCompactFields(file.page(root), w.origin(), ActorLayout());
    ASSERT_TRUE(f.ok()) << f.status().ToString();
    ConstBytes page = file.page(root);
    EXPECT_EQ(*DecodeUnsigned(page.subspan((*f)[0].offset, 2)), static_cast<std::uint64_t>(expected_id));
    if (expected_id == 1) {
      EXPECT_EQ(w.origin(), 127u);
      EXPECT_EQ(AsString(page, (*f)[3]), "PENELOPE");
      EXPECT_EQ(AsString(page, (*f)[4]), "GUINESS");
      EXPECT_EQ(*DecodeUnsigned(page.subspan((*f)[5].offset, 4)), 0x43F2AF59u);
    }
    // Every record's data ends before the next begins: the walk and the layout agree.
    EXPECT_LE((*f)[5].offset + 4, ip->heap_top());
    ++expected_id;
  }
  EXPECT_TRUE(w.status().ok());
  EXPECT_EQ(expected_id, 201);
}

TEST(RecordFixtureTest, SakilaActorDecodesOnMySql80) {
  ExpectSakilaActors(testing::SharedFixturesDir() / "mysql-sakila/8.0/sakila/actor.ibd", 4);
}
TEST(RecordFixtureTest, SakilaActorDecodesOnMySql57) {
  ExpectSakilaActors(testing::SharedFixturesDir() / "mysql-sakila/5.7/sakila/actor.ibd", 3);
}

// The MariaDB COMPACT and REDUNDANT tables hold the same 300 rows; both decode to the
// server's own SELECT output (truth/t_*.rows.tsv).
std::vector<std::vector<std::string>> TruthRows(const std::string& table) {
  std::ifstream in(testing::TestDataDir() / "mariadb/truth" / (table + ".rows.tsv"));
  std::vector<std::vector<std::string>> rows;
  std::string line;
  std::getline(in, line);
  while (std::getline(in, line)) {
    std::vector<std::string> cols;
    std::istringstream s(line);
    for (std::string c; std::getline(s, c, '\t');) cols.push_back(c);
    rows.push_back(cols);
  }
  return rows;
}

// Leaf pages of the clustered index (the lowest index id in the file), in key order.
std::vector<std::size_t> ClusteredLeaves(const TablespaceFile& file) {
  std::uint64_t clustered = ~0ull;
  for (std::size_t n = 3; n < file.n_pages(); ++n) {
    auto ip = IndexPage::Open(file.page(n));
    if (FilHeader(file.page(n)).type() == PageType::kIndex && ip.ok()) clustered = std::min(clustered, ip->index_id());
  }
  std::size_t first = 0;
  for (std::size_t n = 3; n < file.n_pages(); ++n) {
    auto ip = IndexPage::Open(file.page(n));
    if (FilHeader(file.page(n)).type() == PageType::kIndex && ip.ok() && ip->index_id() == clustered && ip->is_leaf() &&
        FilHeader(file.page(n)).prev() == kNullPage) {
      first = n;
    }
  }
  std::vector<std::size_t> leaves;
  for (std::size_t n = first; n != kFilNull; n = FilHeader(file.page(n)).next().value()) leaves.push_back(n);
  return leaves;
}

void ExpectMariaDbRows(const std::string& table, bool compact) {
  auto file = TablespaceFile::Load(testing::TestDataDir() / "mariadb" / (table + ".ibd"));
  auto truth = TruthRows(table);
  ASSERT_EQ(truth.size(), 300u);
  // id INT, big BIGINT, s VARCHAR(60) NULL, c CHAR(10) NOT NULL, d DATE NULL, n INT NULL;
  // utf8mb4, so CHAR(10) is variable-length (10..40 bytes) in COMPACT.
  RecordLayout layout{{FieldDef::Fixed("id", 4), FieldDef::Fixed("DB_TRX_ID", 6), FieldDef::Fixed("DB_ROLL_PTR", 7),
                       FieldDef::Fixed("big", 8), FieldDef::Variable("s", 240, true), FieldDef::Variable("c", 40),
                       FieldDef::Fixed("d", 3, true), FieldDef::Fixed("n", 4, true)}};
  std::size_t row = 0;
  for (std::size_t n : ClusteredLeaves(file)) {
    auto ip = IndexPage::Open(file.page(n));
    ASSERT_TRUE(ip.ok());
    ASSERT_EQ(ip->is_compact(), compact);
    RecordWalker w(*ip);
    while (w.Next()) {
      ConstBytes page = file.page(n);
      auto f = compact ? DecodeCompactFields(page, w.origin(), layout) : DecodeRedundantFields(page, w.origin());
      ASSERT_TRUE(f.ok()) << table << " page " << n << ": " << f.status().ToString();
      ASSERT_EQ(f->size(), 8u);
      ASSERT_LT(row, truth.size());
      const auto& want = truth[row];
      auto value = [&](int i) { return page.subspan((*f)[i].offset, (*f)[i].length); };
      EXPECT_EQ(std::to_string(*DecodeSigned(value(0))), want[0]);
      EXPECT_EQ(std::to_string(*DecodeSigned(value(3))), want[1]);
      if (want[2] == "NULL") {
        EXPECT_TRUE((*f)[4].is_null);
      } else {
        EXPECT_EQ(AsString(page, (*f)[4]), want[2]);
      }
      std::string c = AsString(page, (*f)[5]);
      EXPECT_EQ(c.substr(0, c.find_last_not_of(' ') + 1), want[3]);  // CHAR is space-padded
      EXPECT_EQ((*f)[6].is_null, want[4] == "NULL");
      if (want[5] == "NULL") {
        EXPECT_TRUE((*f)[7].is_null);
      } else {
        EXPECT_EQ(std::to_string(*DecodeSigned(value(7))), want[5]);
      }
      ++row;
    }
    ASSERT_TRUE(w.status().ok());
  }
  EXPECT_EQ(row, 300u);
}

TEST(RecordFixtureTest, MariaDbCompactRowsMatchTheServer) { ExpectMariaDbRows("t_compact", true); }
TEST(RecordFixtureTest, MariaDbRedundantRowsMatchTheServer) { ExpectMariaDbRows("t_redundant", false); }

}  // namespace
}  // namespace strata::ondisk
