// Runs the real `strata` binary and checks what users see: help, version, exit codes.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "tests/util/tsv.h"
#include "tests/util/run_command.h"

namespace {

// What a user sees on the terminal: both streams.
struct CliRun {
  int exit_code;
  std::string output;
};

CliRun StrataBoth(const std::string& args) {
  auto r = strata::testing::Strata(args);
  return {r.exit_code, r.out + r.err};
}

TEST(CliTest, HelpListsEveryGroup) {
  CliRun r = StrataBoth("--help");
  EXPECT_EQ(r.exit_code, 0);
  for (const char* g : {"inspect", "render", "sql", "import", "bench", "gen", "experiment"}) {
    EXPECT_NE(r.output.find(g), std::string::npos) << g;
  }
}

TEST(CliTest, VersionPrintsTheProjectVersion) {
  CliRun r = StrataBoth("--version");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.output.rfind("strata ", 0), 0u) << r.output;
}

TEST(CliTest, UnknownOptionExitsTwoWithOneLineErrorAndUsage) {
  CliRun r = StrataBoth("--no-such-option");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.output.rfind("strata: unrecognised option '--no-such-option'\nUsage: strata", 0), 0u) << r.output;
}

TEST(CliTest, UnknownGroupExitsTwo) {
  CliRun r = StrataBoth("frobnicate");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.output.rfind("strata: unknown command 'frobnicate'\nUsage:", 0), 0u) << r.output;
}

TEST(CliTest, MissingGroupExitsTwo) { EXPECT_EQ(StrataBoth("").exit_code, 2); }

TEST(CliTest, EveryGroupHasHelp) {
  for (const char* g : {"inspect", "render", "sql", "import", "bench", "gen", "experiment"}) {
    CliRun r = StrataBoth(std::string(g) + " --help");
    EXPECT_EQ(r.exit_code, 0) << g;
    EXPECT_NE(r.output.find(std::string("Usage: strata ") + g), std::string::npos) << g;
  }
}

TEST(CliTest, UnknownCommandInGroupExitsTwo) {
  CliRun r = StrataBoth("inspect no-such-command");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("unknown command 'no-such-command'"), std::string::npos) << r.output;
}

// Boost would wrap "-5" round to 2^64 - 5 rows, keys, threads or MiB: a disk filled or an
// abort, where a user's slip of the keyboard deserves a usage error that changes nothing.
TEST(CliTest, NegativeCountsAndSizesAreUsageErrors) {
  strata::testing::TempDir tmp;
  const std::string dir = (tmp.path() / "d").string();
  for (const std::string& args :
       {std::string("gen dump --rows -5 --keys seq -o ") + (tmp.path() / "x.sql").string(),
        std::string("gen keys --keys seq -n -1"), "sql --datadir " + dir + " --buffer-pool -1 -e 'SELECT 1'",
        "import x.sql --datadir " + dir + " --threads -1", "bench hotrow --datadir " + dir + " --threads -4"}) {
    CliRun r = StrataBoth(args);
    EXPECT_EQ(r.exit_code, 2) << args << "\n" << r.output;
    EXPECT_NE(r.output.find("cannot be negative"), std::string::npos) << args << "\n" << r.output;
  }
  for (const std::string& args :
       {"sql --datadir " + dir + " --buffer-pool 0 -e 'SELECT 1'",
        "import x.sql --datadir " + dir + " --threads 100000", "bench hotrow --datadir " + dir + " --threads 100000"}) {
    EXPECT_EQ(StrataBoth(args).exit_code, 2) << args;
  }
  EXPECT_FALSE(std::filesystem::exists(tmp.path() / "x.sql"));
  EXPECT_FALSE(std::filesystem::exists(dir)) << "a refused command created the data directory";
  // A pool the machine cannot give is the engine's refusal, not an abort.
  CliRun huge = StrataBoth("sql --datadir " + dir + " --buffer-pool 1000000000000 -e 'SELECT 1'");
  EXPECT_EQ(huge.exit_code, 1) << huge.output;
  EXPECT_NE(huge.output.find("cannot be allocated"), std::string::npos) << huge.output;
  EXPECT_FALSE(std::filesystem::exists(dir)) << "the refused pool left a data directory behind";
}

TEST(CliTest, AMissingPositionalArgumentIsNamedAsSuch) {
  CliRun r = StrataBoth("import --datadir /nonexistent");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.output.rfind("strata import: missing DUMP\n", 0), 0u) << r.output;
}

}  // namespace
