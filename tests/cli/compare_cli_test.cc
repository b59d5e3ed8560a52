// `strata inspect compare` on files no one here wrote: two sakila tables, a damaged copy, and
// paths it cannot compare. (Strata's file against MariaDB's of the same rows is in
// experiment_keys_cli_test.cc, checked against the server's own statistics.)
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <map>

#include "tests/util/fixtures.h"
#include "tests/util/run_command.h"
#include "tests/util/tsv.h"

namespace {

using strata::testing::Strata;
using strata::testing::TempDir;
namespace fs = std::filesystem;

const fs::path kSakila = strata::testing::SharedFixturesDir() / "mysql-sakila/8.0/sakila";

std::map<std::string, nlohmann::json> Figures(const nlohmann::json& c) {
  std::map<std::string, nlohmann::json> out;
  for (const auto& f : c["figures"])
    out[(f["index"].is_null() ? "file" : f["index"].get<std::string>()) + " " + f["figure"].get<std::string>()] = f;
  return out;
}

// Every figure is the one `inspect summary` reads from that file; indexes are matched by name.
TEST(CompareCliTest, FiguresAreEachFilesOwnAndIndexesMatchByName) {
  const fs::path a = kSakila / "customer.ibd", b = kSakila / "staff.ibd";
  const auto r = Strata("inspect compare --json " + a.string() + " " + b.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto c = nlohmann::json::parse(r.out);
  auto figure = Figures(c);
  for (const auto& [side, path] : {std::pair{"a", a}, std::pair{"b", b}}) {
    const auto s = nlohmann::json::parse(Strata("inspect summary --json " + path.string()).out)["files"][0];
    EXPECT_EQ(figure["file pages"][side], s["pages"]);
    for (const auto& ix : s["indexes"]) {
      const std::string name = ix["name"];
      if (name == "SDI" || !figure.count(name + " records")) continue;
      EXPECT_EQ(figure[name + " records"][side], ix["records"]) << name;
      EXPECT_EQ(figure[name + " leaf pages"][side], ix["leaf_pages"]) << name;
      EXPECT_DOUBLE_EQ(figure[name + " leaf fill"][side].get<double>(), ix["avg_leaf_fill"].get<double>()) << name;
    }
  }
  EXPECT_EQ(figure["PRIMARY records"]["a"], 599);
  EXPECT_EQ(figure["PRIMARY records"]["b"], 2);
  EXPECT_FALSE(c["same_record_counts"].get<bool>());
  EXPECT_EQ(c["only_in_a"], nlohmann::json::array({"idx_last_name"}));
  EXPECT_EQ(figure.count("SDI records"), 0u) << "the dictionary is not an index of the table";
  const auto text = Strata("inspect compare " + a.string() + " " + b.string()).out;
  EXPECT_NE(text.find("0.00334x"), std::string::npos) << "2 against 599 is not 0.00x: " << text;
  EXPECT_NE(text.find("may not be the same table"), std::string::npos) << text;
}

// A damaged file: the damage is in the output (text and JSON), nothing is matched by guess,
// and the exit status is 1.
TEST(CompareCliTest, DamageIsSaidAndNothingIsMatchedByGuess) {
  TempDir tmp;
  const fs::path bad = tmp.path() / "film.ibd";
  fs::copy_file(kSakila / "film.ibd", bad);
  // page 0: the dictionary's root cannot be found, the names are lost
  strata::testing::OverwriteAt(bad, 100, "xxxxxxxx");
  const auto r = Strata("inspect compare --json " + (kSakila / "film.ibd").string() + " " + bad.string());
  EXPECT_EQ(r.exit_code, 1);
  const auto c = nlohmann::json::parse(r.out);
  EXPECT_FALSE(c["findings"].empty());
  EXPECT_FALSE(c["same_record_counts"].get<bool>()) << "no index was matched";
  EXPECT_TRUE(c["indexes"].empty());
  const auto text = Strata("inspect compare " + (kSakila / "film.ibd").string() + " " + bad.string());
  EXPECT_EQ(text.exit_code, 1);
  EXPECT_NE(text.out.find("damage: "), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("No index is in both files."), std::string::npos) << text.out;
}

TEST(CompareCliTest, WhatCannotBeComparedIsRefused) {
  const std::string film = (kSakila / "film.ibd").string();
  EXPECT_EQ(Strata("inspect compare " + film).exit_code, 2);
  EXPECT_EQ(Strata("inspect compare " + film + " " + film + " " + film).exit_code, 2);
  EXPECT_EQ(Strata("inspect compare " + kSakila.string() + " " + film).exit_code, 2);
  const auto missing = Strata("inspect compare --json " + film + " /no/such.ibd");
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_EQ(nlohmann::json::parse(missing.out)["findings"][0]["file"], "/no/such.ibd");
}

}  // namespace
