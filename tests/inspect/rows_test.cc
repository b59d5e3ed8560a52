// `inspect rows` against what a server printed: ibdNinja's MySQL 8.0.40 and 8.4 files read by
// the inspector, and the same SQL scripts run on a private MariaDB whose `mariadb -B` output is
// tests/data/ibdninja/truth (tests/data/ibdninja/make-mariadb-truth.sh). Every cell must match
// byte for byte, except the ones the two servers cannot agree on (README there): NOW() read at
// different moments, and JSON, which MySQL normalises and MariaDB keeps as written — those
// are compared after putting MariaDB's text in MySQL's normal form.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <cstdio>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>

#include "inspect/create_table.h"
#include "inspect/frm.h"
#include "inspect/fts_aux.h"
#include "inspect/row_output.h"
#include "inspect/rows.h"
#include "inspect/schema.h"
#include "inspect/space_file.h"
#include "inspect/sys_dictionary.h"
#include "ondisk/fil_header.h"
#include "ondisk/page_type.h"
#include "tests/util/fixtures.h"
#include "tests/util/tsv.h"

namespace strata::inspect {
namespace {

namespace fs = std::filesystem;

std::string Slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::vector<std::string> Split(const std::string& s, char sep) {
  std::vector<std::string> out(1);
  for (char c : s) {
    if (c == sep)
      out.emplace_back();
    else
      out.back() += c;
  }
  return out;
}

// MySQL's normal form of a JSON document: object keys sorted by length, then bytewise; ", "
// and ": " between items (the JSON type's documented output).
std::string MysqlJson(const nlohmann::json& j) {
  if (j.is_object()) {
    std::vector<std::string> keys;
    for (auto it = j.begin(); it != j.end(); ++it) keys.push_back(it.key());
    std::sort(keys.begin(), keys.end(), [](const std::string& a, const std::string& b) {
      return a.size() != b.size() ? a.size() < b.size() : a < b;
    });
    std::string out = "{";
    for (std::size_t i = 0; i < keys.size(); ++i) {
      out += (i ? ", " : "") + nlohmann::json(keys[i]).dump() + ": " + MysqlJson(j.at(keys[i]));
    }
    return out + "}";
  }
  if (j.is_array()) {
    std::string out = "[";
    for (std::size_t i = 0; i < j.size(); ++i) out += (i ? ", " : "") + MysqlJson(j[i]);
    return out + "]";
  }
  return j.dump();
}

// The batch output of ScanRows over `ix`, as `strata inspect rows` prints it.
std::string ScanText(const SpaceFile& file, const TableDef& t, const IndexDef& ix) {
  std::string out = TsvHeader(RowColumns(t, ix), false);
  RowScan scan = ScanRows(file, t, ix, false, [&](const Row& r) { AppendTsvLine(out, r, false); });
  EXPECT_TRUE(scan.findings.empty()) << file.path() << ": "
                                     << (scan.findings.empty() ? "" : scan.findings.front().ToString());
  EXPECT_EQ(scan.unknown_cells, 0u) << file.path();
  return out;
}

// The same for a file that carries its definition (SDI).
std::string RowsText(const fs::path& ibd, std::string* table_name = nullptr, const std::string& index = "") {
  auto file = SpaceFile::Open(ibd);
  EXPECT_TRUE(file.ok()) << file.status().ToString();
  if (!file.ok()) return "";
  Dictionary d = ReadDictionary(*file);
  EXPECT_EQ(d.tables.size(), 1u) << ibd;
  if (d.tables.empty()) return "";
  const TableDef& t = d.tables[0];
  if (table_name) *table_name = t.name;
  const IndexDef* ix = t.Clustered();
  for (const auto& i : t.indexes) {
    if (i.name == index) ix = &i;
  }
  EXPECT_NE(ix, nullptr);
  return ix ? ScanText(*file, t, *ix) : "";
}

struct Volatile {
  std::string table, column;
  int row;  // 1-based data row, 0 = every row
};
// Values of NOW()/CURRENT_TIMESTAMP: the servers ran at different times. Only their form is
// compared.
const std::vector<Volatile> kVolatile = {{"data_types", "timestamp_col", 1},
                                         {"instant_add_drop", "col_datetime_0", 0},
                                         {"instant_add_drop", "col_datetime_6", 0}};

void CompareWithServer(const fs::path& ibd) {
  std::string table;
  const std::string ours = RowsText(ibd, &table);
  const fs::path truth = testing::TestDataDir() / "ibdninja" / "truth" / (table + ".tsv");
  ASSERT_TRUE(fs::exists(truth)) << truth;
  const auto our_lines = Split(ours, '\n'), their_lines = Split(Slurp(truth), '\n');
  ASSERT_EQ(our_lines.size(), their_lines.size()) << ibd << "\n" << ours;
  const auto header = Split(their_lines[0], '\t');
  ASSERT_EQ(our_lines[0], their_lines[0]) << ibd;
  for (std::size_t r = 1; r < our_lines.size(); ++r) {
    const auto a = Split(our_lines[r], '\t'), b = Split(their_lines[r], '\t');
    ASSERT_EQ(a.size(), b.size()) << ibd << " row " << r;
    for (std::size_t c = 0; c < a.size(); ++c) {
      const std::string where = ibd.string() + " row " + std::to_string(r) + " column " + header[c];
      bool is_volatile = false;
      for (const auto& v : kVolatile)
        is_volatile |= v.table == table && v.column == header[c] && (v.row == 0 || v.row == int(r));
      if (is_volatile) {
        static const std::regex datetime(R"(NULL|\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d{1,6})?)");
        EXPECT_TRUE(std::regex_match(a[c], datetime)) << where << ": " << a[c];
        EXPECT_EQ(a[c] == "NULL", b[c] == "NULL") << where;
      } else if (header[c].find("json") != std::string::npos && b[c] != "NULL") {
        EXPECT_EQ(a[c], MysqlJson(nlohmann::json::parse(b[c]))) << where;
      } else {
        EXPECT_EQ(a[c], b[c]) << where;
      }
    }
  }
}

class ServerRowsTest : public ::testing::TestWithParam<std::string> {};

// Every table of the fixtures: plain types, every column type incl. spatial, BIT, ENUM/SET,
// fractional seconds, latin1 and utf8mb4 text; NULLs and no primary key; delete-marked rows;
// a three-level tree; off-page LOBs; instant ADD, ADD+DROP (row versions) and a table that
// went through 8.0.16's instant ADD before 8.0.40's ADD/DROP.
TEST_P(ServerRowsTest, RowsAreWhatTheServerPrints) {
  const fs::path dir = testing::SharedFixturesDir() / "external" / "ibdNinja" / GetParam();
  std::size_t files = 0;
  for (const auto& ibd : testing::IbdFilesUnder(dir)) {
    if (ibd.stem().string().rfind("json_partial", 0) == 0) continue;  // the partial-update study: no script here
    SCOPED_TRACE(ibd.string());
    CompareWithServer(ibd);
    ++files;
  }
  EXPECT_EQ(files, 11u);
}

// A secondary index's entries, its columns then the primary key's, in its order: what the
// server lists for SELECT them FORCE INDEX (it) ORDER BY them.
TEST_P(ServerRowsTest, SecondaryIndexEntriesAreWhatTheServerLists) {
  const fs::path ibd = testing::SharedFixturesDir() / "external" / "ibdNinja" / GetParam() / "multi_index.ibd";
  for (const char* index : {"idx_name", "idx_dept", "idx_email"}) {
    SCOPED_TRACE(index);
    EXPECT_EQ(RowsText(ibd, nullptr, index),
              Slurp(testing::TestDataDir() / "ibdninja" / "truth" / ("multi_index." + std::string(index) + ".tsv")));
  }
}

INSTANTIATE_TEST_SUITE_P(Versions, ServerRowsTest, ::testing::Values("8.0", "8.4"));

// The same tables as MariaDB itself wrote them, decoded with the CREATE TABLE it printed
// (`--create-table`): every cell as its client printed it, the CURRENT_TIMESTAMP and JSON text
// included. Instant ALTERs in every shape (extra/21_mariadb_instant.sql): defaults of added
// columns from the metadata record, dropped columns skipped and reordered ones placed by its
// column map, in DYNAMIC, COMPACT and REDUNDANT rows, under a variable-length key and below a
// root that is not a leaf.
TEST(MariaDbRowsTest, FilesMariaDbWroteReadWithTheirCreateTable) {
  const fs::path dir = testing::TestDataDir() / "ibdninja" / "truth";
  testing::TempDir tmp;
  std::size_t tables = 0;
  for (const auto& e : fs::directory_iterator(dir / "mariadb")) {
    if (!e.path().filename().string().ends_with(".ibd.gz")) continue;
    const std::string table = fs::path(e.path().stem()).stem().string();
    SCOPED_TRACE(table);
    const fs::path ibd = tmp.path() / (table + ".ibd");
    testing::Gunzip(e.path(), ibd);
    auto file = SpaceFile::Open(ibd);
    ASSERT_TRUE(file.ok()) << file.status().ToString();
    auto def = TableFromCreateTable(Slurp(dir / "mariadb" / (table + ".sql")), "", file->flavor());
    ASSERT_TRUE(def.ok()) << def.status().ToString();
    const ondisk::Status placed = PlaceInFile(*def, *file);
    ASSERT_TRUE(placed.ok()) << placed.ToString();
    const IndexDef& ix = *def->Clustered();
    std::string ours = TsvHeader(RowColumns(*def, ix), false);
    RowScan scan = ScanRows(*file, *def, ix, false, [&](const Row& r) { ours += TsvLine(r, false); });
    EXPECT_TRUE(scan.findings.empty()) << scan.findings.front().ToString();
    EXPECT_EQ(scan.unknown_cells, 0u);
    EXPECT_EQ(ours, Slurp(dir / (table + ".tsv")));
    ++tables;
  }
  EXPECT_EQ(
      tables,
      24u);  // 11 of ibdNinja's; of extra/: 3 of edge values, 6 of instant ALTERs, 2 of charsets and types, key shapes; unpurged
}

// The same files read with the .frm MariaDB keeps beside each: the server's whole definition,
// so every table prints as its client did, with no CREATE TABLE and no ibdata1.
TEST(MariaDbRowsTest, FilesMariaDbWroteReadWithTheirFrm) {
  const fs::path dir = testing::TestDataDir() / "ibdninja" / "truth";
  testing::TempDir tmp;
  std::size_t tables = 0;
  for (const auto& e : fs::directory_iterator(dir / "mariadb")) {
    const std::string name = e.path().filename().string();
    if (!name.ends_with(".frm.gz")) continue;
    const std::string table = name.substr(0, name.size() - 7);
    SCOPED_TRACE(table);
    testing::Gunzip(dir / "mariadb" / (table + ".ibd.gz"), tmp.path() / (table + ".ibd"));
    auto file = SpaceFile::Open(tmp.path() / (table + ".ibd"));
    ASSERT_TRUE(file.ok());
    testing::Gunzip(e.path(), tmp.path() / (table + ".frm"));
    ASSERT_EQ(FrmBeside(file->path()), tmp.path() / (table + ".frm"));
    const std::string frm = Slurp(tmp.path() / (table + ".frm"));
    auto def = TableFromFrm({reinterpret_cast<const std::byte*>(frm.data()), frm.size()}, table);
    ASSERT_TRUE(def.ok()) << def.status().ToString();
    ASSERT_TRUE(PlaceInFile(*def, *file).ok());
    std::string ours = TsvHeader(RowColumns(*def, *def->Clustered()), false);
    RowScan scan = ScanRows(*file, *def, *def->Clustered(), false, [&](const Row& r) { ours += TsvLine(r, false); });
    EXPECT_TRUE(scan.findings.empty());
    EXPECT_EQ(scan.unknown_cells, 0u);
    EXPECT_EQ(ours, Slurp(dir / (table + ".tsv")));
    ++tables;
  }
  EXPECT_EQ(tables, 24u);
}

// A definition that is not the table's (a wrong CREATE TABLE) reads other record sizes than the
// page holds: every value of such a page is unknown, with the page and the sizes, never read
// with the wrong columns. (A definition whose records happen to take the same bytes is not
// caught: a column read in another character set, a nullable column that holds no NULL.)
TEST(MariaDbRowsTest, DefinitionThatDoesNotFitThePagesIsRefused) {
  const fs::path dir = testing::TestDataDir() / "ibdninja" / "truth";
  testing::TempDir tmp;
  testing::Gunzip(dir / "mariadb" / "multi_index.ibd.gz", tmp.path() / "multi_index.ibd");
  auto file = SpaceFile::Open(tmp.path() / "multi_index.ibd");
  ASSERT_TRUE(file.ok());
  for (const char* sql :
       {"CREATE TABLE multi_index (id INT PRIMARY KEY, first_name VARCHAR(50), last_name VARCHAR(50), "
        "email VARCHAR(255), department_id BIGINT, created_at DATETIME) DEFAULT CHARSET=utf8mb4",
        "CREATE TABLE multi_index (id INT PRIMARY KEY, first_name VARCHAR(50), last_name VARCHAR(50), "
        "email VARCHAR(255), department_id INT, created_at DATETIME(6)) DEFAULT CHARSET=utf8mb4"}) {
    SCOPED_TRACE(sql);
    auto def = TableFromCreateTable(sql, "", file->flavor());
    ASSERT_TRUE(def.ok());
    ASSERT_TRUE(PlaceInFile(*def, *file).ok());
    std::size_t rows = 0;
    RowScan scan = ScanRows(*file, *def, *def->Clustered(), false, [&](const Row& r) {
      ++rows;
      for (const auto& c : r.cells) EXPECT_FALSE(c.text.has_value());
    });
    EXPECT_EQ(rows, 5u);
    ASSERT_EQ(scan.findings.size(), 1u);
    EXPECT_NE(scan.findings[0].ToString().find("the definition is not this table's"), std::string::npos);
  }
}

// Rows deleted while a read view was open, copied before purge could remove them: --deleted
// lists every row that view saw, off-page values included, the deleted ones marked.
TEST(MariaDbRowsTest, DeletedRowsPurgeHasNotRemovedAreListedAndMarked) {
  const fs::path dir = testing::TestDataDir() / "ibdninja" / "truth";
  testing::TempDir tmp;
  testing::Gunzip(dir / "mariadb" / "unpurged.ibd.gz", tmp.path() / "unpurged.ibd");
  auto file = SpaceFile::Open(tmp.path() / "unpurged.ibd");
  ASSERT_TRUE(file.ok());
  auto def = TableFromCreateTable(Slurp(dir / "mariadb" / "unpurged.sql"), "", file->flavor());
  ASSERT_TRUE(def.ok());
  ASSERT_TRUE(PlaceInFile(*def, *file).ok());
  std::string ours = TsvHeader(RowColumns(*def, *def->Clustered()), true);
  RowScan scan = ScanRows(*file, *def, *def->Clustered(), true, [&](const Row& r) { ours += TsvLine(r, true); });
  EXPECT_TRUE(scan.findings.empty());
  EXPECT_EQ(ours, Slurp(dir / "unpurged.deleted.tsv"));
}

// A table MariaDB wrote (tests/data/ibdninja/truth/mariadb): its file unpacked into `tmp`,
// and its definition from the CREATE TABLE the server printed.
struct MariaDbTable {
  fs::path ibd;
  TableDef def;
};
MariaDbTable UnpackMariaDbTable(const testing::TempDir& tmp, const std::string& name) {
  const fs::path dir = testing::TestDataDir() / "ibdninja" / "truth" / "mariadb";
  MariaDbTable t{tmp.path() / (name + ".ibd"), {}};
  testing::Gunzip(dir / (name + ".ibd.gz"), t.ibd);
  auto def = TableFromCreateTable(Slurp(dir / (name + ".sql")), "", ondisk::Flavor::kMariaDb);
  EXPECT_TRUE(def.ok()) << def.status().ToString();
  if (def.ok()) t.def = std::move(*def);
  return t;
}

// A leaf that fails its checksum is still read (its rows may be all there is), but every row
// from it says so, and the scan reports the page.
TEST(MariaDbRowsTest, RowsFromAPageThatFailsItsChecksumSaySo) {
  testing::TempDir tmp;
  auto [ibd, def] = UnpackMariaDbTable(tmp, "mi_many");
  ASSERT_NE(def.Clustered(), nullptr);  // its CREATE TABLE read
  std::uint32_t leaf = 0;
  {
    auto file = SpaceFile::Open(ibd);
    ASSERT_TRUE(file.ok());
    ASSERT_TRUE(PlaceInFile(def, *file).ok());
    ScanRows(*file, def, *def.Clustered(), false, [&](const Row& r) { leaf = std::max(leaf, r.page); });
  }
  testing::OverwriteAt(ibd, std::uint64_t{leaf} * 16384 + 1000, "\x7f");  // one byte of a value on the last leaf
  auto file = SpaceFile::Open(ibd);
  ASSERT_TRUE(file.ok());
  std::size_t damaged = 0, rows = 0;
  RowScan scan = ScanRows(*file, def, *def.Clustered(), false, [&](const Row& r) {
    ++rows;
    EXPECT_EQ(r.page_damaged, r.page == leaf);
    damaged += r.page_damaged;
  });
  EXPECT_EQ(rows, 3500u);
  EXPECT_GT(damaged, 0u);
  ASSERT_FALSE(scan.findings.empty());
  EXPECT_NE(scan.findings[0].ToString().find("fails its checksum"), std::string::npos);
}

// An off-page part read from a BLOB page that fails its checksum: the row says so, the scan
// names the page, and the rows whose values live elsewhere are not marked.
TEST(MariaDbRowsTest, ValuesFromABlobPageThatFailsItsChecksumSaySo) {
  testing::TempDir tmp;
  auto [ibd, def] = UnpackMariaDbTable(tmp, "blob_external");
  ASSERT_NE(def.Clustered(), nullptr);  // its CREATE TABLE read
  std::uint32_t blob = 0;
  {
    auto file = SpaceFile::Open(ibd);
    ASSERT_TRUE(file.ok());
    for (std::uint32_t p = 0; p < file->n_pages() && !blob; ++p) {
      if (ondisk::FilHeader(file->page(p)).type() == ondisk::PageType::kBlob) blob = p;
    }
  }
  ASSERT_NE(blob, 0u);
  testing::FlipBitsAt(ibd, std::uint64_t{blob} * 16384 + 200, 0x04);
  auto file = SpaceFile::Open(ibd);
  ASSERT_TRUE(file.ok());
  ASSERT_TRUE(PlaceInFile(def, *file).ok());
  std::size_t damaged = 0, rows = 0;
  RowScan scan = ScanRows(*file, def, *def.Clustered(), false, [&](const Row& r) {
    ++rows;
    damaged += r.page_damaged;
  });
  EXPECT_EQ(damaged, 1u);
  EXPECT_GT(rows, damaged);
  ASSERT_EQ(scan.findings.size(), 1u);
  EXPECT_EQ(scan.findings[0].page, std::optional<std::uint32_t>(blob));
  EXPECT_NE(scan.findings[0].ToString().find("fails its checksum"), std::string::npos);
}

// A leaf that cannot be read loses its own rows only: the node page above it names the next
// leaf. A next-page pointer that skips a leaf is caught by the same second opinion.
TEST(MariaDbRowsTest, ScanGoesOnPastALeafItCannotRead) {
  testing::TempDir tmp;
  auto [ibd, def] = UnpackMariaDbTable(tmp, "mi_many");
  ASSERT_NE(def.Clustered(), nullptr);           // its CREATE TABLE read
  std::map<std::uint32_t, std::size_t> rows_on;  // leaf -> rows, of the intact file
  std::vector<std::uint32_t> chain;
  {
    auto file = SpaceFile::Open(ibd);
    ASSERT_TRUE(file.ok());
    ASSERT_TRUE(PlaceInFile(def, *file).ok());
    ScanRows(*file, def, *def.Clustered(), false, [&](const Row& r) {
      if (!rows_on[r.page]++) chain.push_back(r.page);
    });
  }
  ASSERT_GE(chain.size(), 10u);
  const std::uint32_t lost = chain[3], skipper = chain[7], skipped = chain[8];
  testing::OverwriteAt(ibd, std::uint64_t{lost} * 16384, std::string(16384, '\0'));
  const std::uint32_t past = chain[9];
  const char next[4] = {char(past >> 24), char(past >> 16), char(past >> 8), char(past)};
  testing::OverwriteAt(ibd, std::uint64_t{skipper} * 16384 + 12, std::string_view(next, 4));  // FIL_PAGE_NEXT
  auto file = SpaceFile::Open(ibd);
  ASSERT_TRUE(file.ok());
  std::map<std::uint32_t, std::size_t> seen;
  RowScan scan = ScanRows(*file, def, *def.Clustered(), false, [&](const Row& r) { ++seen[r.page]; });
  auto expected = rows_on;
  expected.erase(lost);
  EXPECT_EQ(seen, expected);
  std::string said;
  for (const Finding& f : scan.findings) said += f.ToString() + "\n";
  EXPECT_NE(said.find("rows of this page are lost; the scan goes on at page " + std::to_string(chain[4])),
            std::string::npos)
      << said;
  EXPECT_NE(said.find("parent's next node pointer to page " + std::to_string(skipped)), std::string::npos) << said;
}

// A root page overwritten with zeros: the clustered index is still found (the smallest index
// id of the file), its leaves by their chain, and every row is read; the damage is said.
TEST(MariaDbRowsTest, RowsUnderADamagedRootAreReadAlongTheLeafChain) {
  testing::TempDir tmp;
  auto [ibd, def] = UnpackMariaDbTable(tmp, "key_shapes");
  ASSERT_NE(def.Clustered(), nullptr);  // its CREATE TABLE read
  testing::OverwriteAt(ibd, 3 * 16384, std::string(16384, '\0'));
  auto file = SpaceFile::Open(ibd);
  ASSERT_TRUE(file.ok());
  ASSERT_TRUE(PlaceInFile(def, *file).ok());
  std::string ours = TsvHeader(RowColumns(def, *def.Clustered()), false);
  RowScan scan = ScanRows(*file, def, *def.Clustered(), false, [&](const Row& r) { ours += TsvLine(r, false); });
  EXPECT_EQ(ours, Slurp(testing::TestDataDir() / "ibdninja" / "truth" / "key_shapes.tsv"));
  ASSERT_EQ(scan.findings.size(), 2u);
  EXPECT_EQ(scan.findings[0].page, std::optional<std::uint32_t>(3));
  EXPECT_NE(scan.findings[1].ToString().find("the scan starts here instead"), std::string::npos)
      << scan.findings[1].ToString();
}

// A .frm cut short or overwritten is refused with the offset, never read past its end.
TEST(MariaDbRowsTest, DamagedFrmIsRefused) {
  testing::TempDir tmp;
  testing::Gunzip(testing::TestDataDir() / "ibdninja" / "truth" / "mariadb" / "type_test.frm.gz", tmp.path() / "t.frm");
  const std::string frm = Slurp(tmp.path() / "t.frm");
  auto read = [](const std::string& b) {
    return TableFromFrm({reinterpret_cast<const std::byte*>(b.data()), b.size()}, "t");
  };
  ASSERT_TRUE(read(frm).ok());
  EXPECT_FALSE(read(frm.substr(0, 63)).ok());
  EXPECT_FALSE(read(frm.substr(0, frm.size() / 2)).ok());
  EXPECT_FALSE(read("\xFE\x02" + frm.substr(2)).ok());
}

// The same files with no CREATE TABLE: the definitions come from the SYS_COLUMNS of the
// ibdata1 MariaDB wrote beside them. Whatever SYS_COLUMNS keeps decodes exactly; what it does
// not (DECIMAL's scale, ENUM labels, fractions of seconds, ...) is said unknown, never guessed;
// ZEROFILL, which it does not keep either, only pads the same number.
TEST(MariaDbRowsTest, FilesMariaDbWroteReadWithTheDictionaryInIbdata1) {
  const fs::path dir = testing::TestDataDir() / "ibdninja" / "truth";
  testing::TempDir tmp;
  testing::Gunzip(dir / "mariadb" / "ibdata1.gz", tmp.path() / "ibdata1");
  fs::create_directories(tmp.path() / "ibdninja_test");
  ServerDictionaries servers;
  std::size_t tables = 0, exact_tables = 0, exact_cells = 0, unknown_cells = 0, unpadded_cells = 0;
  for (const auto& e : fs::directory_iterator(dir / "mariadb")) {
    const std::string name = e.path().filename().string();
    if (!name.ends_with(".ibd.gz")) continue;
    const std::string table = name.substr(0, name.size() - 7);
    SCOPED_TRACE(table);
    const fs::path ibd = tmp.path() / "ibdninja_test" / (table + ".ibd");
    testing::Gunzip(e.path(), ibd);
    auto file = SpaceFile::Open(ibd);
    ASSERT_TRUE(file.ok()) << file.status().ToString();
    const Dictionary d = DictionaryFor(*file, servers.For(*file));
    const TableDef* def = nullptr;
    for (const auto& t : d.tables) {
      if (!def && RootedIn(t, *file)) def = &t;
    }
    ASSERT_NE(def, nullptr);
    EXPECT_EQ(def->name, table);
    std::string ours = TsvHeader(RowColumns(*def, *def->Clustered()), false);
    RowScan scan = ScanRows(*file, *def, *def->Clustered(), false, [&](const Row& r) { ours += TsvLine(r, false); });
    EXPECT_TRUE(scan.findings.empty()) << scan.findings.front().ToString();
    const std::string truth = Slurp(dir / (table + ".tsv"));
    ++tables;
    if (ours == truth) ++exact_tables;
    const auto a = Split(ours, '\n'), b = Split(truth, '\n');
    ASSERT_EQ(a.size(), b.size());
    for (std::size_t r = 0; r < a.size(); ++r) {
      const auto x = Split(a[r], '\t'), y = Split(b[r], '\t');
      ASSERT_EQ(x.size(), y.size()) << "row " << r;
      for (std::size_t c = 0; c < x.size(); ++c) {
        // ZEROFILL is not in SYS_COLUMNS: such a column's numbers come without their padding.
        const std::size_t digits = y[c].find_first_not_of('0');
        const bool unpadded = !y[c].empty() && y[c].find_first_not_of("0123456789") == std::string::npos &&
                              x[c] == (digits == std::string::npos ? "0" : y[c].substr(digits));
        if (x[c] == y[c]) {
          ++exact_cells;
        } else if (unpadded) {
          ++unpadded_cells;
        } else {
          EXPECT_EQ(x[c].rfind("(unknown: ", 0), 0u) << "row " << r << ": " << x[c] << " vs " << y[c];
          ++unknown_cells;
        }
      }
    }
  }
  EXPECT_EQ(tables, 24u);
  EXPECT_GE(exact_tables, 15u);
  // SYS_INDEXES and SYS_FIELDS give the secondary indexes too: roots and key parts.
  auto file = SpaceFile::Open(tmp.path() / "ibdninja_test" / "multi_index.ibd");
  ASSERT_TRUE(file.ok());
  const Dictionary d = DictionaryFor(*file, servers.For(*file));
  for (const auto& t : d.tables) {
    if (!RootedIn(t, *file)) continue;
    for (const char* index : {"idx_name", "idx_dept", "idx_email"}) {
      SCOPED_TRACE(index);
      const IndexDef* ix = nullptr;
      for (const auto& i : t.indexes) ix = i.name == index ? &i : ix;
      ASSERT_NE(ix, nullptr);
      std::string ours = TsvHeader(RowColumns(t, *ix), false);
      RowScan scan = ScanRows(*file, t, *ix, false, [&](const Row& r) { ours += TsvLine(r, false); });
      EXPECT_TRUE(scan.findings.empty());
      EXPECT_EQ(ours, Slurp(dir / ("multi_index." + std::string(index) + ".tsv")));
    }
  }
  EXPECT_GT(exact_cells, 10 * unknown_cells);
  EXPECT_LE(unpadded_cells, 8u);  // edge_numbers' two ZEROFILL integer columns
  std::printf("SYS_COLUMNS: %zu of %zu tables exact; %zu cells exact, %zu unknown, %zu without ZEROFILL padding\n",
              exact_tables, tables, exact_cells, unknown_cells, unpadded_cells);
}

// A column map that does not fit the definition given (the CREATE TABLE of the table before
// its columns were dropped, say) is said, and no row is decoded with the wrong columns.
TEST(MariaDbRowsTest, ColumnMapThatDoesNotFitTheDefinitionIsRefused) {
  const fs::path dir = testing::TestDataDir() / "ibdninja" / "truth";
  testing::TempDir tmp;
  const fs::path ibd = tmp.path() / "mi_drop_add.ibd";
  testing::Gunzip(dir / "mariadb" / "mi_drop_add.ibd.gz", ibd);
  auto file = SpaceFile::Open(ibd);
  ASSERT_TRUE(file.ok());
  auto def = TableFromCreateTable(
      "CREATE TABLE mi_drop_add (id INT PRIMARY KEY, a INT NOT NULL, b VARCHAR(20), "
      "c DATETIME(3))",
      "", file->flavor());
  ASSERT_TRUE(def.ok());
  ASSERT_TRUE(PlaceInFile(*def, *file).ok());
  std::size_t rows = 0;
  RowScan scan = ScanRows(*file, *def, *def->Clustered(), false, [&](const Row& r) {
    ++rows;
    for (const auto& c : r.cells) EXPECT_FALSE(c.text.has_value());
  });
  ASSERT_FALSE(scan.findings.empty());
  EXPECT_NE(scan.findings.front().ToString().find("the column map"), std::string::npos)
      << scan.findings.front().ToString();
  EXPECT_EQ(rows, 4u);
  EXPECT_EQ(scan.unknown_cells, 4u * 4u);
}

// --create-table reads what schema dumps and scripts hold, and says which line it cannot.
TEST(CreateTableTest, DefinitionsFromSqlAsDumpsWriteIt) {
  const std::string sql =
      "/*!40101 SET NAMES utf8mb4 */;\nDROP TABLE IF EXISTS `t`;\n"
      "CREATE TABLE `other` (a int) ENGINE=InnoDB;\n"
      "CREATE TABLE `t` (\n  `id` bigint(20) unsigned NOT NULL AUTO_INCREMENT,\n"
      "  `name` varchar(40) COLLATE latin1_bin DEFAULT 'x,y' COMMENT 'a (comment)',\n"
      "  `price` decimal(12,3) NOT NULL DEFAULT 0.000,\n  `kind` enum('a','b''c') DEFAULT NULL,\n"
      "  `twice` int GENERATED ALWAYS AS (`id` * 2) VIRTUAL,\n  `doc` json DEFAULT NULL,\n"
      "  PRIMARY KEY (`id`),\n  KEY `k` (`name`(10)),\n  FULLTEXT KEY `f` (`name`),\n"
      "  CONSTRAINT `fk` FOREIGN KEY (`id`) REFERENCES `other` (`a`)\n"
      ") ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 /*!50100 PARTITION BY HASH (id) */;\n";
  auto t = TableFromCreateTable(sql, "t", ondisk::Flavor::kMySql);
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  ASSERT_EQ(t->columns.size(), 9u);  // the six, InnoDB's FTS_DOC_ID (FULLTEXT), DB_TRX_ID and DB_ROLL_PTR
  const IndexDef& ix = *t->Clustered();
  EXPECT_EQ(ix.fields,
            (std::vector<std::string>{"id", "DB_TRX_ID", "DB_ROLL_PTR", "name", "price", "kind", "doc", "FTS_DOC_ID"}));
  EXPECT_TRUE(t->columns[6].hidden);
  EXPECT_EQ(t->columns[1].format.collation, 8);  // latin1_bin: latin1
  EXPECT_EQ(t->columns[1].field.max_length, 40u);
  EXPECT_EQ(t->columns[2].field.fixed_length, 6u);  // DECIMAL(12,3): 9 integer digits in 4 bytes + 3 in 2
  EXPECT_EQ(t->columns[3].format.elements, (std::vector<std::string>{"a", "b'c"}));
  // Labels with backslash escapes mean what the server stored for them.
  auto escaped = TableFromCreateTable(R"(CREATE TABLE e (k ENUM('tab\there', 'a\'b', 'back\\slash', 'nul\0', '50\%')))",
                                      "", ondisk::Flavor::kMariaDb);
  ASSERT_TRUE(escaped.ok());
  EXPECT_EQ(escaped->columns[0].format.elements,
            (std::vector<std::string>{"tab\there", "a'b", "back\\slash", std::string("nul\0", 4), "50\\%"}));
  EXPECT_TRUE(t->columns[4].is_virtual);
  EXPECT_EQ(t->columns[5].format.type, ondisk::ColumnType::kJson);
  auto maria = TableFromCreateTable(sql, "t", ondisk::Flavor::kMariaDb);
  ASSERT_TRUE(maria.ok());
  EXPECT_EQ(maria->columns[5].format.type, ondisk::ColumnType::kVarchar);  // MariaDB's JSON is LONGTEXT

  auto bad = TableFromCreateTable("CREATE TABLE t (\n  a int,\n  b frobnicate(3)\n);", "", ondisk::Flavor::kMySql);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("line 3: column 'b': type frobnicate"), std::string::npos)
      << bad.status().ToString();
  EXPECT_FALSE(TableFromCreateTable("SELECT 1;", "", ondisk::Flavor::kMySql).ok());
  // A character set not known here is refused, not read as UTF-8: its width places the columns after it.
  auto charset = TableFromCreateTable("CREATE TABLE t (\n a INT,\n b CHAR(4) CHARACTER SET klingon, c INT)", "",
                                      ondisk::Flavor::kMySql);
  ASSERT_FALSE(charset.ok());
  EXPECT_NE(charset.status().message().find("line 3: column b: character set or collation klingon"), std::string::npos)
      << charset.status().ToString();
  EXPECT_TRUE(TableFromCreateTable("CREATE TABLE t (a CHAR(4) CHARACTER SET koi8r)", "", ondisk::Flavor::kMySql).ok());
  // MariaDB's UUID and INET types, with their widths.
  auto uuid = TableFromCreateTable("CREATE TABLE t (id INT PRIMARY KEY, u UUID, i INET4, n INT, KEY `by u` (u))", "",
                                   ondisk::Flavor::kMariaDb);
  ASSERT_TRUE(uuid.ok()) << uuid.status().ToString();
  EXPECT_EQ(uuid->columns[1].format.type, ondisk::ColumnType::kUuid);
  EXPECT_EQ(uuid->columns[1].field.fixed_length, 16u);
  EXPECT_EQ(uuid->columns[2].field.fixed_length, 4u);
  ASSERT_EQ(uuid->indexes.size(), 2u);
  EXPECT_EQ(uuid->indexes[1].name, "by u");  // key names as written
  // Generated columns: AS (...) alone is VIRTUAL (not stored); a STORED one is stored, and an
  // INSERT that restores the rows must not give it a value.
  auto gen =
      TableFromCreateTable("CREATE TABLE g (a INT PRIMARY KEY, v INT AS (a + 1), s INT AS (a * 2) STORED, b INT)", "",
                           ondisk::Flavor::kMariaDb);
  ASSERT_TRUE(gen.ok());
  EXPECT_TRUE(gen->columns[1].is_virtual);
  EXPECT_TRUE(gen->columns[2].generated);
  EXPECT_FALSE(gen->columns[2].is_virtual);
  const auto gen_columns = RowColumns(*gen, *gen->Clustered());
  ASSERT_EQ(gen_columns.size(), 3u);  // a, s, b: the file holds s
  Row row;
  row.cells = {{"1", ""}, {"2", ""}, {"3", ""}};
  EXPECT_EQ(SqlInsert("g", gen_columns, {row}), "INSERT INTO `g` (`a`,`b`) VALUES\n(1,3);\n");
  auto like = TableFromCreateTable("CREATE TABLE a (x int);\nCREATE TABLE b LIKE a;", "b", ondisk::Flavor::kMySql);
  ASSERT_FALSE(like.ok());
  EXPECT_NE(like.status().message().find("line 2: CREATE TABLE b LIKE a copies another table"), std::string::npos)
      << like.status().ToString();
  EXPECT_FALSE(TableFromCreateTable(sql, "missing", ondisk::Flavor::kMySql).ok());
}

// MySQL 5.7's sakila files carry no dictionary: read with a CREATE TABLE, they give the rows
// MySQL 8.0's files give through their SDI, every byte.
TEST(SakilaRowsTest, MySql57FilesWithACreateTableReadAsThe80FilesDo) {
  const fs::path fixtures = testing::SharedFixturesDir() / "mysql-sakila";
  const std::string sql = Slurp(testing::TestDataDir() / "sakila-5.7" / "create.sql");
  for (const char* name : {"actor", "film", "language", "country", "city", "category"}) {
    SCOPED_TRACE(name);
    auto file = SpaceFile::Open(fixtures / "5.7" / "sakila" / (std::string(name) + ".ibd"));
    ASSERT_TRUE(file.ok());
    auto def = TableFromCreateTable(sql, name, file->flavor());
    ASSERT_TRUE(def.ok()) << def.status().ToString();
    ASSERT_TRUE(PlaceInFile(*def, *file).ok());
    EXPECT_EQ(ScanText(*file, *def, *def->Clustered()),
              RowsText(fixtures / "8.0" / "sakila" / (std::string(name) + ".ibd")));
  }
}

// The sakila tables of MySQL 8.0 give their well-known contents.
TEST(SakilaRowsTest, WellKnownRowsAndCounts) {
  const fs::path dir = testing::SharedFixturesDir() / "mysql-sakila" / "8.0" / "sakila";
  const std::map<std::string, std::size_t> counts = {
      {"actor", 200},       {"category", 16},        {"city", 600},       {"country", 109}, {"film", 1000},
      {"film_actor", 5462}, {"film_category", 1000}, {"inventory", 4581}, {"language", 6},  {"store", 2},
      {"staff", 2},         {"address", 603},        {"customer", 599}};
  for (const auto& [name, rows] : counts) {
    const std::string text = RowsText(dir / (name + ".ibd"));
    EXPECT_EQ(Split(text, '\n').size(), rows + 2) << name;  // header and the final newline
  }
  const auto actor = Split(RowsText(dir / "actor.ibd"), '\n');
  EXPECT_EQ(actor[0], "actor_id\tfirst_name\tlast_name\tlast_update");
  EXPECT_EQ(actor[1], "1\tPENELOPE\tGUINESS\t2006-02-15 04:34:33");
  EXPECT_EQ(actor[200], "200\tTHORA\tTEMPLE\t2006-02-15 04:34:33");
  // FULLTEXT: the hidden FTS_DOC_ID is an 8-byte integer, last in the clustered record, and
  // the key of FTS_DOC_ID_INDEX.
  const auto fts = Split(RowsText(dir / "film_text.ibd", nullptr, "FTS_DOC_ID_INDEX"), '\n');
  ASSERT_EQ(fts.size(), 1002u);
  EXPECT_EQ(fts[0], "FTS_DOC_ID\tfilm_id");
  EXPECT_EQ(fts[1], "2\t1");
  EXPECT_EQ(fts[1000], "1001\t1000");
  const auto film = Split(RowsText(dir / "film.ibd"), '\n');
  EXPECT_EQ(film[1],
            "1\tACADEMY DINOSAUR\tA Epic Drama of a Feminist And a Mad Scientist who must Battle a Teacher "
            "in The Canadian Rockies\t2006\t1\tNULL\t6\t0.99\t86\t20.99\tPG\tDeleted Scenes,Behind the "
            "Scenes\t2006-02-15 05:03:42");
}

// A FULLTEXT index's six tables, as MariaDB wrote them (tests/data/mariadb-fts, made by
// tests/data/mariadb-fts/make.sh): read with the CREATE TABLE of the table they index,
// they give, one after the other, exactly what the server printed for
// INFORMATION_SCHEMA.INNODB_FT_INDEX_TABLE; the deleted ids and settings, its other tables.
class FtsAuxTest : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const auto& e : fs::directory_iterator(dir_)) {
      if (e.path().extension() == ".gz") testing::Gunzip(e.path(), tmp_.path() / e.path().stem());
    }
    auto parent = TableFromCreateTable(Slurp(dir_ / "create.sql"), "", ondisk::Flavor::kMariaDb);
    ASSERT_TRUE(parent.ok()) << parent.status().ToString();
    parent_ = std::move(*parent);
  }

  // The table file `name` as `inspect rows` prints it: INDEX tables expanded per position.
  std::string Rows(const std::string& name, bool header = true) {
    auto file = SpaceFile::Open(tmp_.path() / name);
    EXPECT_TRUE(file.ok());
    auto aux = FtsAuxOf(file->path());
    EXPECT_TRUE(aux.has_value()) << name;
    auto def = FtsAuxTable(*aux, FtsWordColumn(parent_));
    EXPECT_TRUE(def.ok()) << def.status().ToString();
    EXPECT_TRUE(PlaceInFile(*def, *file).ok());
    const bool expand = aux->kind == FtsAuxFile::kIndex;
    std::string out = header ? TsvHeader(expand ? FtsIndexColumns() : RowColumns(*def, *def->Clustered()), false) : "";
    RowScan scan = ScanRows(*file, *def, *def->Clustered(), false, [&](const Row& r) {
      if (!expand) {
        out += TsvLine(r, false);
        return;
      }
      const auto st = ExpandIlist(r, [&](const Row& line) { out += TsvLine(line, false); });
      EXPECT_TRUE(st.ok()) << st.ToString();
    });
    EXPECT_TRUE(scan.findings.empty());
    EXPECT_EQ(scan.unknown_cells, 0u);
    return out;
  }

  const fs::path dir_ = testing::TestDataDir() / "mariadb-fts";
  testing::TempDir tmp_;
  TableDef parent_;
};

TEST_F(FtsAuxTest, IndexTablesGiveWhatInnodbFtIndexTableShows) {
  std::string ours;
  for (int n = 1; n <= 6; ++n)
    ours += Rows("FTS_0000000000000012_000000000000001e_INDEX_" + std::to_string(n) + ".ibd", n == 1);
  EXPECT_EQ(ours, Slurp(dir_ / "truth" / "innodb_ft_index_table.tsv"));
}

// The table itself: its hidden FTS_DOC_ID is stored but not listed, as SELECT * does not.
TEST_F(FtsAuxTest, TheIndexedTableReadsAsItsClientPrintsIt) {
  auto file = SpaceFile::Open(tmp_.path() / "articles.ibd");
  ASSERT_TRUE(file.ok());
  TableDef def = parent_;
  ASSERT_TRUE(PlaceInFile(def, *file).ok());
  std::string ours = TsvHeader(RowColumns(def, *def.Clustered()), false);
  RowScan scan = ScanRows(*file, def, *def.Clustered(), false, [&](const Row& r) { ours += TsvLine(r, false); });
  EXPECT_TRUE(scan.findings.empty());
  EXPECT_EQ(ours, Slurp(dir_ / "truth" / "articles.tsv"));
}

// Read with a CREATE TABLE that lacks the FULLTEXT index (as it reads after DROP INDEX, while
// InnoDB keeps its FTS_DOC_ID), no value is given, and the finding says what is missing.
TEST_F(FtsAuxTest, ADefinitionWithoutTheDocIdIsToldWhatItLacks) {
  std::string sql = Slurp(dir_ / "create.sql");
  const auto ft = sql.find(",\n  FULLTEXT KEY");
  ASSERT_NE(ft, std::string::npos);
  sql.erase(ft, sql.find('\n', ft + 2) - ft);
  auto def = TableFromCreateTable(sql, "", ondisk::Flavor::kMariaDb);
  ASSERT_TRUE(def.ok()) << def.status().ToString();
  auto file = SpaceFile::Open(tmp_.path() / "articles.ibd");
  ASSERT_TRUE(file.ok());
  ASSERT_TRUE(PlaceInFile(*def, *file).ok());
  std::size_t rows = 0;
  RowScan scan = ScanRows(*file, *def, *def->Clustered(), false, [&](const Row& r) {
    ++rows;
    for (const RowCell& c : r.cells) EXPECT_FALSE(c.text) << *c.text;
  });
  EXPECT_GT(rows, 0u);
  ASSERT_FALSE(scan.findings.empty());
  EXPECT_NE(scan.findings[0].ToString().find("FTS_DOC_ID"), std::string::npos) << scan.findings[0].ToString();
}

TEST_F(FtsAuxTest, DeletedIdsAndSettingsAreTheServersOwn) {
  // INNODB_FT_DELETED names its column DOC_ID; the table's column is doc_id.
  const std::string deleted = Slurp(dir_ / "truth" / "innodb_ft_deleted.tsv");
  ASSERT_EQ(deleted.rfind("DOC_ID\n", 0), 0u);
  EXPECT_EQ(Rows("FTS_0000000000000012_DELETED.ibd", false), deleted.substr(7));
  EXPECT_EQ(Rows("FTS_0000000000000012_BEING_DELETED.ibd", false), "");
  // INNODB_FT_CONFIG shows four of the keys, one of them with no row (printed empty).
  const std::string config = Rows("FTS_0000000000000012_CONFIG.ibd");
  for (const auto& line : Split(Slurp(dir_ / "truth" / "innodb_ft_config.tsv"), '\n')) {
    if (line.empty() || line.starts_with("KEY\t") || line.ends_with("\t")) continue;
    EXPECT_NE(config.find("\n" + line + "\n"), std::string::npos) << line;
  }
}

TEST(FtsAuxNames, MariaDbAndMySqlNamesAreRecognised) {
  auto a = FtsAuxOf("db/FTS_0000000000000012_000000000000001e_INDEX_3.ibd");
  ASSERT_TRUE(a);
  EXPECT_EQ(a->kind, FtsAuxFile::kIndex);
  EXPECT_EQ(a->table_id, 0x12u);
  EXPECT_EQ(a->index_id, 0x1eu);
  EXPECT_EQ(a->part, 3);
  auto b = FtsAuxOf("fts_0000000000000451_being_deleted_cache.ibd");
  ASSERT_TRUE(b);
  EXPECT_EQ(b->kind, FtsAuxFile::kDocIds);
  EXPECT_EQ(FtsAuxOf("fts_0000000000000451_config.ibd")->kind, FtsAuxFile::kConfig);
  EXPECT_FALSE(FtsAuxOf("FTS_12_INDEX_1.ibd"));
  EXPECT_FALSE(FtsAuxOf("film_text.ibd"));
}

// An ilist cut inside a number, or holding another number of documents than doc_count says,
// is said so rather than read as far as it goes.
TEST(FtsAuxNames, DamagedIlistsAreRefused) {
  Row node;
  node.cells = {{"word", ""}, {"5", ""}, {"9", ""}, {"2", ""}, {std::string("\x85\x81\x00\x04", 4), ""}};
  std::vector<std::string> lines;
  auto each = [&](const Row& r) { lines.push_back(*r.cells[4].text + ":" + *r.cells[5].text); };
  EXPECT_FALSE(ExpandIlist(node, each).ok());  // doc 5 at position 1, then a number cut short
  node.cells[4].text = std::string("\x85\x81\x00\x84\x82\x83\x00", 7);
  lines.clear();
  ASSERT_TRUE(ExpandIlist(node, each).ok());
  EXPECT_EQ(lines, (std::vector<std::string>{"5:1", "9:2", "9:3"}));
  node.cells[3].text = "3";
  EXPECT_FALSE(ExpandIlist(node, each).ok());
}

}  // namespace
}  // namespace strata::inspect
