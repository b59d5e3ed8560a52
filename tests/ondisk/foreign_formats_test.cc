// The formats the server keeps beside or inside a tablespace that are not pages: .frm, .cfg,
// SYS_* records and MariaDB's instant column map. Each decoder is tried on real bytes where the
// repository has them, on bytes its encoder wrote, and on every prefix of them.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>

#include "ondisk/cfg.h"
#include "ondisk/frm.h"
#include "ondisk/instant.h"
#include "ondisk/mysql_type.h"
#include "ondisk/sys_tables.h"
#include "tests/util/fixtures.h"

namespace strata::ondisk {
namespace {

std::vector<std::byte> Slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  const std::string s((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return {reinterpret_cast<const std::byte*>(s.data()), reinterpret_cast<const std::byte*>(s.data()) + s.size()};
}

CfgFile ExampleCfg() {
  CfgFile cfg;
  cfg.hostname = "db1";
  cfg.table = "shop/orders";
  cfg.autoinc = 1ull << 40;
  cfg.page_size = 16384;
  cfg.table_flags = 0x21;
  const std::uint32_t int_not_null = mysql_type::kLong | Prtype::kNotNull;
  const std::uint32_t varchar_utf8 = mysql_type::kVarchar | 45u << Prtype::kCollationShift;
  cfg.columns = {{int_not_null, static_cast<std::uint32_t>(MainType::kInt), 4, 0, 0, 1, 0, "id"},
                 {varchar_utf8, static_cast<std::uint32_t>(MainType::kVarMysql), 400, 1 + 5 * 4, 1, 1, 0, "name"},
                 {0, static_cast<std::uint32_t>(MainType::kSys), 6, 0, 2, 0, 0, "DB_TRX_ID"}};
  CfgIndex primary{7, 12, 3, IndexType::kClustered | IndexType::kUnique, 4, 1, 1, 0, "PRIMARY", {}};
  primary.fields = {{0, 4, "id"}, {0, 6, "DB_TRX_ID"}, {0, 7, "DB_ROLL_PTR"}, {0, 0, "name"}};
  CfgIndex by_name{8, 12, 4, 0, 0, 1, 2, 1, "by_name", {{20, 0, "name"}, {0, 4, "id"}}};
  cfg.indexes = {primary, by_name};
  return cfg;
}

void ExpectEqual(const CfgFile& a, const CfgFile& b) {
  EXPECT_EQ(a.version, b.version);
  EXPECT_EQ(a.hostname, b.hostname);
  EXPECT_EQ(a.table, b.table);
  EXPECT_EQ(a.autoinc, b.autoinc);
  EXPECT_EQ(a.page_size, b.page_size);
  EXPECT_EQ(a.table_flags, b.table_flags);
  ASSERT_EQ(a.columns.size(), b.columns.size());
  for (std::size_t i = 0; i < a.columns.size(); ++i) {
    const CfgColumn &x = a.columns[i], &y = b.columns[i];
    EXPECT_EQ(std::tie(x.prtype, x.mtype, x.len, x.mbminmaxlen, x.ind, x.ord_part, x.max_prefix, x.name),
              std::tie(y.prtype, y.mtype, y.len, y.mbminmaxlen, y.ind, y.ord_part, y.max_prefix, y.name));
  }
  ASSERT_EQ(a.indexes.size(), b.indexes.size());
  for (std::size_t i = 0; i < a.indexes.size(); ++i) {
    const CfgIndex &x = a.indexes[i], &y = b.indexes[i];
    EXPECT_EQ(std::tie(x.id, x.space, x.root_page, x.type, x.trx_id_offset, x.n_user_defined_cols, x.n_uniq,
                       x.n_nullable, x.name),
              std::tie(y.id, y.space, y.root_page, y.type, y.trx_id_offset, y.n_user_defined_cols, y.n_uniq,
                       y.n_nullable, y.name));
    ASSERT_EQ(x.fields.size(), y.fields.size());
    for (std::size_t f = 0; f < x.fields.size(); ++f) {
      EXPECT_EQ(std::tie(x.fields[f].prefix_len, x.fields[f].fixed_len, x.fields[f].name),
                std::tie(y.fields[f].prefix_len, y.fields[f].fixed_len, y.fields[f].name));
    }
  }
}

TEST(CfgTest, WhatIsWrittenReadsBackEqual) {
  const CfgFile cfg = ExampleCfg();
  const std::vector<std::byte> bytes = EncodeCfg(cfg);
  auto back = DecodeCfg(bytes);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  ExpectEqual(cfg, *back);
  EXPECT_EQ(EncodeCfg(*back), bytes);
  // The layout by hand: version, then the host name as length-with-NUL and bytes.
  EXPECT_EQ(Load32(bytes, 0), kCfgVersion1);
  EXPECT_EQ(Load32(bytes, 4), 4u);
  EXPECT_EQ(static_cast<char>(bytes[8]), 'd');
  EXPECT_EQ(bytes[11], std::byte{0});
}

TEST(CfgTest, EveryCutShortFileIsNamedByTheOffsetWhereItEnds) {
  const std::vector<std::byte> bytes = EncodeCfg(ExampleCfg());
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    auto cut = DecodeCfg(ConstBytes(bytes).first(n));
    ASSERT_FALSE(cut.ok()) << n;
    EXPECT_EQ(cut.status().code(), Status::Code::kCorruption) << n;
    EXPECT_NE(cut.status().message().find(".cfg offset "), std::string::npos) << cut.status().ToString();
  }
}

TEST(CfgTest, ACountLargerThanTheFileAndAnotherVersionAreRefused) {
  std::vector<std::byte> bytes = EncodeCfg(ExampleCfg());
  const std::size_t n_cols_at = 4 + (4 + 4) + (4 + 12) + 8 + 4 + 4;  // after version, names, autoinc, sizes
  ASSERT_EQ(Load32(bytes, n_cols_at), 3u);
  Store32(bytes, n_cols_at, 0x10000000);
  auto huge = DecodeCfg(bytes);
  ASSERT_FALSE(huge.ok());
  EXPECT_NE(huge.status().message().find("offset " + std::to_string(n_cols_at) + ": 268435456 columns are more"),
            std::string::npos)
      << huge.status().ToString();

  Store32(bytes, 0, 3);
  auto v3 = DecodeCfg(bytes);
  ASSERT_FALSE(v3.ok());
  EXPECT_EQ(v3.status().code(), Status::Code::kNotSupported);
}

// A MariaDB 10.11 .frm of `t_sec` (tests/data/mariadb-history/create.sql): five columns, a
// primary key, a unique key and a two-column key.
TEST(FrmTest, ARealFileGivesItsColumnsAndKeys) {
  const auto bytes = Slurp(testing::TestDataDir() / "mariadb-history" / "hist" / "t_sec.frm");
  ASSERT_FALSE(bytes.empty());
  auto frm = DecodeFrm(bytes);
  ASSERT_TRUE(frm.ok()) << frm.status().ToString();
  EXPECT_TRUE(frm->mariadb());
  ASSERT_EQ(frm->columns.size(), 5u);
  const FrmColumn &id = frm->columns[0], &email = frm->columns[1], &grp = frm->columns[2], &created = frm->columns[3],
                  &note = frm->columns[4];
  EXPECT_EQ(id.name, "id");
  EXPECT_EQ(id.type, mysql_type::kLong);
  EXPECT_TRUE(id.is_unsigned());
  EXPECT_FALSE(id.nullable());
  EXPECT_EQ(email.type, mysql_type::kVarchar);
  EXPECT_EQ(email.length, 64u * 4);  // bytes: utf8mb4
  EXPECT_EQ(email.collation, 45);    // utf8mb4_general_ci
  EXPECT_EQ(grp.type, mysql_type::kShort);
  EXPECT_FALSE(grp.is_unsigned());
  EXPECT_EQ(created.type, mysql_type::kDatetime2);
  EXPECT_EQ(note.name, "note");
  EXPECT_TRUE(note.nullable());
  ASSERT_EQ(frm->keys.size(), 3u);
  EXPECT_EQ(frm->keys[0].name, "PRIMARY");
  EXPECT_TRUE(frm->keys[0].flags & FrmKeyFlag::kUnique);
  EXPECT_EQ(frm->keys[1].name, "uk_email");
  EXPECT_TRUE(frm->keys[1].flags & FrmKeyFlag::kUnique);
  ASSERT_EQ(frm->keys[1].parts.size(), 1u);
  EXPECT_EQ(frm->keys[1].parts[0].column, 1u);
  EXPECT_EQ(frm->keys[2].name, "k_grp_created");
  EXPECT_FALSE(frm->keys[2].flags & FrmKeyFlag::kUnique);
  ASSERT_EQ(frm->keys[2].parts.size(), 2u);
  EXPECT_EQ(frm->keys[2].parts[0].column, 2u);
  EXPECT_EQ(frm->keys[2].parts[1].column, 3u);
}

TEST(FrmTest, EveryPrefixOfARealFileIsReadOrRefusedWithAnOffset) {
  const auto bytes = Slurp(testing::TestDataDir() / "mariadb-history" / "hist" / "t_uuid.frm");
  ASSERT_FALSE(bytes.empty());
  ASSERT_TRUE(DecodeFrm(bytes).ok());
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    auto cut = DecodeFrm(ConstBytes(bytes).first(n));
    if (!cut.ok()) {
      EXPECT_NE(cut.status().message().find("offset "), std::string::npos) << cut.status().ToString();
    }
  }
  auto none = DecodeFrm(ConstBytes(bytes).first(10));
  ASSERT_FALSE(none.ok());
  EXPECT_NE(none.status().message().find("not a .frm"), std::string::npos);
}

TEST(SysTablesTest, RecordsAreReadByTheirFieldsAndRefusedWhenAFieldIsMissing) {
  std::vector<std::byte> table_id(8), pos(4), mtype(4), prtype(4), len(4), empty;
  Store64(table_id, 0, 42);
  Store32(pos, 0, 3);
  Store32(mtype, 0, static_cast<std::uint32_t>(MainType::kVarMysql));
  Store32(prtype, 0, mysql_type::kVarchar | Prtype::kNotNull | 224u << Prtype::kCollationShift);
  Store32(len, 0, 1020);
  const std::string name = "title";
  const ConstBytes name_bytes = AsBytes(name.data(), name.size());
  SysFields r = {table_id, pos, empty, empty, name_bytes, mtype, prtype, len, empty};
  auto c = DecodeSysColumns(r);
  ASSERT_TRUE(c);
  EXPECT_EQ(c->table_id, 42u);
  EXPECT_EQ(c->column.name, "title");
  EXPECT_EQ(c->column.pos, 3u);
  EXPECT_TRUE(c->column.not_null());
  EXPECT_FALSE(c->column.is_virtual());
  EXPECT_EQ(Prtype::Type(c->column.prtype), mysql_type::kVarchar);
  EXPECT_EQ(Prtype::Collation(c->column.prtype), 224);  // utf8mb4_unicode_ci
  r[6] = ConstBytes(prtype).first(3);
  EXPECT_FALSE(DecodeSysColumns(r));
  r.resize(7);
  EXPECT_FALSE(DecodeSysColumns(r));

  // SYS_FIELDS: a prefix shows in the low half only when some field of the index is a prefix.
  EXPECT_EQ((SysFieldsRow{1, 0, "a"}.PrefixBytes(true)), 0u);
  EXPECT_EQ((SysFieldsRow{1, 10, "a"}.PrefixBytes(true)), 10u);  // first field, 10-byte prefix
  EXPECT_EQ((SysFieldsRow{1, 1, "b"}.PrefixBytes(false)), 0u);   // second field, no prefixes
  EXPECT_EQ((SysFieldsRow{1, 1u << 16 | 0, "b"}.PrefixBytes(false)), 0u);
  EXPECT_EQ((SysFieldsRow{1, 1u << 16 | 0x8000 | 5, "b"}.PrefixBytes(false)), 5u);  // DESC, 5 bytes
}

TEST(MariaDbInstantTest, TheColumnMapNamesLiveColumnsAndKeepsDroppedOnesStorage) {
  std::vector<std::byte> map(4 + 2 * 4);
  Store32(map, 0, 4);
  Store16(map, 4, 2);                                    // live: stored column 2
  Store16(map, 6, MariaDbColumnMapEntry::kDropped | 0);  // dropped VARCHAR(<=255)
  Store16(map, 8, MariaDbColumnMapEntry::kDropped | 1);  // dropped long VARCHAR/BLOB
  Store16(map, 10, MariaDbColumnMapEntry::kDropped | MariaDbColumnMapEntry::kDroppedNotNull | (8 + 1));  // BIGINT
  auto e = DecodeMariaDbColumnMap(map);
  ASSERT_TRUE(e.ok()) << e.status().ToString();
  ASSERT_EQ(e->size(), 4u);
  EXPECT_FALSE((*e)[0].dropped());
  EXPECT_EQ((*e)[0].column(), 2u);
  EXPECT_TRUE((*e)[1].DroppedField().is_variable());
  EXPECT_FALSE((*e)[1].DroppedField().big());
  EXPECT_TRUE((*e)[2].DroppedField().big());
  EXPECT_EQ((*e)[3].DroppedField().fixed_length, 8u);
  EXPECT_FALSE((*e)[3].DroppedField().nullable);
  EXPECT_TRUE((*e)[1].DroppedField().nullable);

  EXPECT_FALSE(DecodeMariaDbColumnMap(ConstBytes(map).first(11)).ok());  // counts 4, holds 3.5
  EXPECT_FALSE(DecodeMariaDbColumnMap(ConstBytes(map).first(3)).ok());
}

}  // namespace
}  // namespace strata::ondisk
