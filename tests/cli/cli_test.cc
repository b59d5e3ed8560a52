// Runs the real `strata` binary and checks what users see: help, version, exit codes.
#include <gtest/gtest.h>

#include <string>

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

}  // namespace
