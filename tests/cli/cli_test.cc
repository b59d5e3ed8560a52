// Runs the real `strata` binary and checks what users see: help, version, exit codes.
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <string>
#include <sys/wait.h>

namespace {

struct CliRun {
  int exit_code;
  std::string output;  // stdout and stderr together
};

CliRun Strata(const std::string& args) {
  std::string cmd = std::string(STRATA_BINARY) + " " + args + " 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  EXPECT_NE(p, nullptr);
  std::string out;
  std::array<char, 4096> buf;
  while (std::size_t n = fread(buf.data(), 1, buf.size(), p)) out.append(buf.data(), n);
  int status = pclose(p);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

TEST(CliTest, HelpListsEveryGroup) {
  CliRun r = Strata("--help");
  EXPECT_EQ(r.exit_code, 0);
  for (const char* g : {"inspect", "render", "sql", "import", "bench", "gen", "experiment"}) {
    EXPECT_NE(r.output.find(g), std::string::npos) << g;
  }
}

TEST(CliTest, VersionPrintsTheProjectVersion) {
  CliRun r = Strata("--version");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.output.rfind("strata ", 0), 0u) << r.output;
}

TEST(CliTest, UnknownOptionExitsTwoWithOneLineErrorAndUsage) {
  CliRun r = Strata("--no-such-option");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.output.rfind("strata: unrecognised option '--no-such-option'\nUsage: strata", 0), 0u)
      << r.output;
}

TEST(CliTest, UnknownGroupExitsTwo) {
  CliRun r = Strata("frobnicate");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.output.rfind("strata: unknown command 'frobnicate'\nUsage:", 0), 0u) << r.output;
}

TEST(CliTest, MissingGroupExitsTwo) { EXPECT_EQ(Strata("").exit_code, 2); }

TEST(CliTest, EveryGroupHasHelp) {
  for (const char* g : {"inspect", "render", "sql", "import", "bench", "gen", "experiment"}) {
    CliRun r = Strata(std::string(g) + " --help");
    EXPECT_EQ(r.exit_code, 0) << g;
    EXPECT_NE(r.output.find(std::string("Usage: strata ") + g), std::string::npos) << g;
  }
}

TEST(CliTest, UnknownCommandInGroupExitsTwo) {
  CliRun r = Strata("inspect no-such-command");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("unknown command 'no-such-command'"), std::string::npos) << r.output;
}

}  // namespace
