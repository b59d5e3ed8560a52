// `strata experiment keys` end to end at a small N: every page figure it reports agrees with
// what `strata inspect summary` reads from the files it left, the row counts are right, the
// report's files exist, and the shape of the study shows even at this size.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <regex>

#include "tests/util/fixtures.h"
#include "tests/util/run_command.h"
#include "tests/util/tsv.h"
#include "viz/raster.h"

namespace {

using strata::testing::Strata;
using strata::testing::TempDir;
namespace fs = std::filesystem;

TEST(ExperimentKeysCliTest, ReportedFiguresMatchInspect) {
  TempDir tmp;
  const fs::path out = tmp.path() / "report";
  const auto run = Strata(
      "experiment keys --rows 20000 --batch 50 --strategies autoinc,uuid,ulid,uuid-bin --buffer-pool 8M --json --out " +
      out.string());
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto j = nlohmann::json::parse(run.out);
  std::ifstream saved(out / "results.json");
  ASSERT_TRUE(saved.good());
  EXPECT_EQ(nlohmann::json::parse(saved), j);
  ASSERT_EQ(j["results"].size(), 4u);

  std::map<std::string, nlohmann::json> by_strategy;
  for (const auto& r : j["results"]) {
    const std::string strategy = r["strategy"];
    by_strategy[strategy] = r;
    EXPECT_EQ(r["count"], 20000) << strategy;
    EXPECT_EQ(r["records"], 20000) << strategy;
    EXPECT_EQ(r["samples"].size(), 20u) << strategy;
    EXPECT_EQ(r["samples"].back()["rows"], 20000) << strategy;
    const std::string file = r["file"];
    EXPECT_EQ(r["file_bytes"], fs::file_size(file)) << strategy;

    const auto inspected = Strata("inspect summary --json " + file);
    ASSERT_EQ(inspected.exit_code, 0) << inspected.err;
    const auto s = nlohmann::json::parse(inspected.out)["files"][0];
    EXPECT_EQ(r["pages"], s["pages"]) << strategy;
    nlohmann::json ix;  // key-only: the clustered index is the table's only index (beside the SDI's)
    for (const auto& i : s["indexes"]) {
      if (i["name"] != "SDI") {
        EXPECT_TRUE(ix.is_null()) << strategy << ": a second index";
        ix = i;
      }
    }
    EXPECT_EQ(ix["name"], "PRIMARY");
    EXPECT_EQ(r["leaf_pages"], ix["leaf_pages"]) << strategy;
    EXPECT_EQ(r["data_pages"].get<std::uint64_t>(),
              ix["leaf_pages"].get<std::uint64_t>() + ix["nonleaf_pages"].get<std::uint64_t>())
        << strategy;
    EXPECT_EQ(r["index_pages"], 0) << strategy;
    EXPECT_EQ(r["levels"], ix["levels"]) << strategy;
    EXPECT_EQ(r["records"], ix["records"]) << strategy;
    EXPECT_DOUBLE_EQ(r["avg_leaf_fill"].get<double>(), ix["avg_leaf_fill"].get<double>()) << strategy;

    const auto check = Strata("inspect check " + file);
    EXPECT_EQ(check.exit_code, 0) << strategy << ": " << check.out << check.err;
  }
  // The study's shape, already at 20,000 rows.
  // (20,000 rows fill only ~30 leaves of autoinc; the half-full last one costs it a point or two.)
  EXPECT_GT(by_strategy["autoinc"]["avg_leaf_fill"].get<double>(), 0.85);
  EXPECT_LT(by_strategy["uuid"]["avg_leaf_fill"].get<double>(), 0.75);
  EXPECT_GT(by_strategy["uuid"]["leaf_pages"].get<std::uint64_t>(),
            by_strategy["ulid"]["leaf_pages"].get<std::uint64_t>());
  EXPECT_GT(by_strategy["uuid"]["page_splits"].get<std::uint64_t>(),
            by_strategy["autoinc"]["page_splits"].get<std::uint64_t>());

  for (const char* name : {"report.md", "report.html", "insert_time.png", "extents.png", "lsn.png", "index.png"}) {
    EXPECT_TRUE(fs::exists(out / name)) << name;
  }
  for (const char* image : {"insert_time.png", "extents.png", "lsn.png"}) {
    auto png = strata::viz::ReadPng(out / image);
    ASSERT_TRUE(png.ok()) << image << ": " << png.status().ToString();
    EXPECT_GT(png->width(), 600) << image;
  }
  std::ifstream md(out / "report.md");
  const std::string text((std::istreambuf_iterator<char>(md)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("![Cumulative seconds against rows inserted](insert_time.png)"), std::string::npos);
  EXPECT_NE(text.find("| uuid | strata | char(36) |"), std::string::npos) << text;
  // Every figure in the prose under the table is one of the table's: nothing written from
  // memory. (Above it, the run's parameters, as given.)
  std::string table;
  std::vector<std::string> prose;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("|", 0) == 0)
      table += line;
    else if (!table.empty() && !line.empty() && line[0] != '#' && line[0] != '!' && line[0] != '*')
      prose.push_back(line);
  }
  EXPECT_NE(text.find("20,000 rows per table"), std::string::npos) << "numbers written one way";
  const std::regex figure(R"((^|[\s])(\d[\d,]*(\.\d+)?[x%]?)(?=[\s,;:)]|$))");
  int figures = 0;
  for (const auto& p : prose) {
    for (auto it = std::sregex_iterator(p.begin(), p.end(), figure); it != std::sregex_iterator(); ++it) {
      ++figures;
      EXPECT_NE(table.find((*it)[2].str()), std::string::npos) << (*it)[2].str() << " in: " << p;
    }
  }
  EXPECT_GT(figures, 20);
}

// --mariadb: the same statements on a private MariaDB; its figures come from the server and
// from the file it wrote, and Strata's leaf pages land within 10% of the server's own count.
TEST(ExperimentKeysCliTest, MariadbRunsTheSameAndAgrees) {
  if (strata::testing::RunCommand("command -v mariadb && command -v mariadb-install-db").exit_code != 0) {
    GTEST_SKIP() << "needs mariadb-client-core and mariadb-server-core (scripts/install-deps.sh)";
  }
  TempDir tmp;
  const fs::path out = tmp.path() / "report";
  const auto run = Strata(
      "experiment keys --rows 6000 --batch 20 --strategies autoinc,uuid --mariadb --mariadb-port 33272 --json --out " +
      out.string());
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto j = nlohmann::json::parse(run.out);
  ASSERT_EQ(j["results"].size(), 4u);
  EXPECT_TRUE(j["mariadb_version"].get<std::string>().starts_with("MariaDB 1")) << j["mariadb_version"];
  std::map<std::string, std::uint64_t> strata_leaves;
  std::map<std::string, nlohmann::json> uuid;  // by engine
  for (const auto& r : j["results"]) {
    const std::string what = r["engine"].get<std::string>() + " " + r["strategy"].get<std::string>();
    if (r["strategy"] == "uuid") uuid[r["engine"]] = r;
    EXPECT_EQ(r["count"], 6000) << what;
    EXPECT_EQ(r["records"], 6000) << what;
    EXPECT_EQ(r["samples"].size(), 20u) << what;
    if (r["engine"] == "strata") {
      strata_leaves[r["strategy"]] = r["leaf_pages"];
      continue;
    }
    // The server's own count of leaf pages agrees with the file it wrote. (Not for the small
    // autoinc index: MariaDB 10.11's statistics give n_leaf_pages = 1 for its 10 leaves, all
    // in the leaf segment's fragment array; at 1,000,000 rows every strategy's count matched.)
    if (r["strategy"] == "uuid") {
      EXPECT_EQ(r["server_leaf_pages"], r["leaf_pages"]) << what;
    }
    EXPECT_GT(r["page_splits"].get<std::uint64_t>(), 0u) << what;
    const auto inspected = Strata("inspect summary --json " + r["file"].get<std::string>());
    ASSERT_EQ(inspected.exit_code, 0) << inspected.err;
    const auto s = nlohmann::json::parse(inspected.out)["files"][0];
    EXPECT_EQ(r["pages"], s["pages"]) << what;
    const double theirs = r["leaf_pages"].get<double>();
    EXPECT_NEAR(static_cast<double>(strata_leaves[r["strategy"]]), theirs, 0.1 * theirs) << what;
  }
  std::ifstream md(out / "report.md");
  const std::string text((std::istreambuf_iterator<char>(md)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("| uuid | mariadb | char(36) |"), std::string::npos) << text;

  // The same rows by the two engines, side by side: `inspect compare` matches PRIMARY with
  // PRIMARY and gives each file's own figures; the viewer's compare window shows them.
  const std::string a = uuid["strata"]["file"], b = uuid["mariadb"]["file"];
  const auto compared = Strata("inspect compare --json " + a + " " + b);
  ASSERT_EQ(compared.exit_code, 0) << compared.err;
  const auto c = nlohmann::json::parse(compared.out);
  EXPECT_TRUE(c["same_record_counts"].get<bool>());
  EXPECT_TRUE(c["only_in_a"].empty()) << "Strata's SDI is its dictionary, not an index of the table";
  EXPECT_TRUE(c["only_in_b"].empty());
  EXPECT_TRUE(c["findings"].empty());
  std::map<std::string, nlohmann::json> figure;
  for (const auto& f : c["figures"])
    figure[(f["index"].is_null() ? "file" : f["index"].get<std::string>()) + " " + f["figure"].get<std::string>()] = f;
  EXPECT_EQ(figure["PRIMARY records"]["a"], 6000);
  EXPECT_EQ(figure["PRIMARY records"]["b"], 6000);
  EXPECT_EQ(figure["PRIMARY leaf pages"]["a"], uuid["strata"]["leaf_pages"]);
  EXPECT_EQ(figure["PRIMARY leaf pages"]["b"], uuid["mariadb"]["leaf_pages"]);
  EXPECT_EQ(figure["PRIMARY leaf pages"]["b"], uuid["mariadb"]["server_leaf_pages"]) << "the server's own count";
  EXPECT_EQ(figure["file pages"]["b"], uuid["mariadb"]["pages"]);
  EXPECT_DOUBLE_EQ(figure["file MiB"]["b_over_a"].get<double>(), double(fs::file_size(b)) / double(fs::file_size(a)));
  EXPECT_EQ(c["indexes"].size(), 1u);
  EXPECT_EQ(Strata("inspect compare " + a).exit_code, 2) << "one file is a usage error";
#ifdef STRATA_VIZ_BINARY
  const fs::path shot = tmp.path() / "compare.png";
  const auto viewer = strata::testing::RunCommand(
      "ASAN_OPTIONS=detect_leaks=0 xvfb-run -a -s '-screen 0 1280x800x24' " + std::string(STRATA_VIZ_BINARY) + " " + a +
      " " + b + " --compare --frames 3 --screenshot " + shot.string());
  ASSERT_EQ(viewer.exit_code, 0) << viewer.out << viewer.err;
  auto png = strata::viz::ReadPng(shot);
  ASSERT_TRUE(png.ok()) << png.status().ToString();
  // The compare window fills the right column: two leaf-fill histograms side by side, in the
  // plots' colour (Dear ImGui's dark style), one in each half of it.
  const int left = static_cast<int>(png->width() * 0.62), middle = (left + png->width()) / 2;
  std::uint64_t bars_a = 0, bars_b = 0;
  for (int y = 0; y < png->height(); ++y) {
    for (int x = left; x < png->width(); ++x) {
      const auto p = png->At(x, y);
      if (p.r == 230 && p.g == 179 && p.b == 0) (x < middle ? bars_a : bars_b)++;
    }
  }
  EXPECT_GT(bars_a, 200u);
  EXPECT_GT(bars_b, 200u);
#endif
}

TEST(ExperimentKeysCliTest, BadArgumentsAreUsageErrors) {
  EXPECT_EQ(Strata("experiment keys --rows 10").exit_code, 2);  // no --out
  EXPECT_EQ(Strata("experiment keys --rows 10 --strategies uuid,uuid9 --out /tmp/x").exit_code, 2);
  EXPECT_EQ(Strata("experiment keys --rows 10 --shape wide --out /tmp/x").exit_code, 2);
  EXPECT_EQ(Strata("experiment keys --rows 10 --buffer-pool 1k --out /tmp/x").exit_code, 2);
  EXPECT_EQ(Strata("experiment keys --help").exit_code, 0);
}

}  // namespace
