// `inspect rows` against what a server printed: ibdNinja's MySQL 8.0.40 and 8.4 files read by
// the inspector, and the same SQL scripts run on a private MariaDB whose `mariadb -B` output is
// tests/data/ibdninja/truth (datasets/mariadb/make-ibdninja-truth.sh). Every cell must match
// byte for byte, except the ones the two servers cannot agree on (README there): NOW() read at
// different moments, and JSON, which MySQL normalises and MariaDB keeps as written — those
// are compared after putting MariaDB's text in MySQL's normal form.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <fstream>
#include <regex>
#include <sstream>

#include "inspect/row_output.h"
#include "inspect/rows.h"
#include "inspect/schema.h"
#include "inspect/space_file.h"
#include "tests/util/fixtures.h"

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
    if (c == sep) out.emplace_back();
    else out.back() += c;
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

// The batch output of ScanRows, as `strata inspect rows` prints it.
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
  std::string out = TsvHeader(RowColumns(t, *ix), false);
  RowScan scan = ScanRows(*file, t, *ix, false, [&](const Row& r) { out += TsvLine(r, false); });
  EXPECT_TRUE(scan.findings.empty()) << ibd << ": " << scan.findings.front().ToString();
  EXPECT_EQ(scan.unknown_cells, 0u) << ibd;
  return out;
}

struct Volatile {
  std::string table, column;
  int row;  // 1-based data row, 0 = every row
};
// Values of NOW()/CURRENT_TIMESTAMP: the servers ran at different times. Only their form is
// compared.
const std::vector<Volatile> kVolatile = {
    {"data_types", "timestamp_col", 1}, {"instant_add_drop", "col_datetime_0", 0}, {"instant_add_drop", "col_datetime_6", 0}};

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
      for (const auto& v : kVolatile) is_volatile |= v.table == table && v.column == header[c] && (v.row == 0 || v.row == int(r));
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

INSTANTIATE_TEST_SUITE_P(Versions, ServerRowsTest, ::testing::Values("8.0", "8.4"));

// The sakila tables of MySQL 8.0 give their well-known contents.
TEST(SakilaRowsTest, WellKnownRowsAndCounts) {
  const fs::path dir = testing::SharedFixturesDir() / "mysql-sakila" / "8.0" / "sakila";
  const std::map<std::string, std::size_t> counts = {{"actor", 200}, {"category", 16}, {"city", 600}, {"country", 109},
                                                     {"film", 1000}, {"film_actor", 5462}, {"film_category", 1000},
                                                     {"inventory", 4581}, {"language", 6}, {"store", 2}, {"staff", 2},
                                                     {"address", 603}, {"customer", 599}};
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
  EXPECT_EQ(film[1], "1\tACADEMY DINOSAUR\tA Epic Drama of a Feminist And a Mad Scientist who must Battle a Teacher "
                     "in The Canadian Rockies\t2006\t1\tNULL\t6\t0.99\t86\t20.99\tPG\tDeleted Scenes,Behind the "
                     "Scenes\t2006-02-15 05:03:42");
}

}  // namespace
}  // namespace strata::inspect
