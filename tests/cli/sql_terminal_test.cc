// `strata sql` at a real terminal (a pseudo-terminal the test drives key by key): Ctrl-C as
// the mysql client takes it. It used to end the shell with status 130, dropping the open
// transaction.
#include <gtest/gtest.h>
#include <poll.h>
#include <pty.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <fstream>
#include <string>

#include "tests/util/fixtures.h"
#include "tests/util/run_command.h"
#include "tests/util/tsv.h"

namespace {

using strata::testing::RunCommand;
using strata::testing::TempDir;

// The shell on the slave side of a pseudo-terminal; the test types on the master side.
class Terminal {
 public:
  explicit Terminal(const TempDir& home, const std::string& datadir) {
    pid_ = forkpty(&fd_, nullptr, nullptr, nullptr);
    if (pid_ == 0) {
      setenv("HOME", home.path().c_str(), 1);
      execl(STRATA_BINARY, "strata", "sql", "--datadir", datadir.c_str(), static_cast<char*>(nullptr));
      _exit(127);
    }
  }
  ~Terminal() {
    if (pid_ > 0 && !exited_) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
    if (fd_ >= 0) close(fd_);
  }
  bool started() const { return pid_ > 0; }

  void Type(const std::string& keys) { ASSERT_EQ(write(fd_, keys.data(), keys.size()), ssize_t(keys.size())); }

  // What the terminal shows until `text` appears (or 60 s pass); what it showed is kept.
  bool WaitFor(const std::string& text) {
    const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (screen_.find(text, seen_) == std::string::npos) {
      if (std::chrono::steady_clock::now() > end) return false;
      pollfd p{fd_, POLLIN, 0};
      if (poll(&p, 1, 100) <= 0) continue;
      char buf[4096];
      const ssize_t n = read(fd_, buf, sizeof buf);
      if (n <= 0) return false;
      for (ssize_t i = 0; i < n; ++i) {
        if (buf[i] != '\r') screen_ += buf[i];
      }
    }
    seen_ = screen_.find(text, seen_) + text.size();
    return true;
  }
  const std::string& screen() const { return screen_; }

  int Wait() {
    int status = 0;
    waitpid(pid_, &status, 0);
    exited_ = true;
    return status;
  }

 private:
  int fd_ = -1;
  pid_t pid_ = -1;
  bool exited_ = false;
  std::string screen_;
  std::size_t seen_ = 0;
};

// At the prompt Ctrl-C drops the statement typed so far, on its first line or a later one,
// and the shell goes on; while a statement runs it stops that statement (ERROR 1317, rolled
// back) and the transaction it ran in stays open with what it did before.
TEST(SqlTerminalTest, CtrlCDropsTheLineOrStopsTheStatementAndTheShellStays) {
  TempDir tmp;
  const std::string dir = (tmp.path() / "d").string();
  {
    // Rows enough for a statement that runs for seconds.
    std::ofstream script(tmp.path() / "rows.sql");
    script << "CREATE DATABASE x; USE x; CREATE TABLE big (id INT PRIMARY KEY, v VARCHAR(20));\n";
    for (int b = 0; b < 100; ++b) {
      script << "INSERT INTO big VALUES ";
      for (int i = 0; i < 1000; ++i) script << (i ? "," : "") << "(" << b * 1000 + i << ",'abcdefgh')";
      script << ";\n";
    }
  }
  auto load =
      RunCommand(std::string(STRATA_BINARY) + " sql --datadir " + dir + " < " + (tmp.path() / "rows.sql").string());
  ASSERT_EQ(load.exit_code, 0) << load.err;

  Terminal t(tmp, dir);
  ASSERT_TRUE(t.started());
  ASSERT_TRUE(t.WaitFor("strata> ")) << t.screen();
  t.Type("SELECT 'dropped'");
  ASSERT_TRUE(t.WaitFor("'dropped'"));
  t.Type("\x03");
  ASSERT_TRUE(t.WaitFor("^C\nstrata> ")) << t.screen();
  t.Type("SELECT\n");
  ASSERT_TRUE(t.WaitFor("    -> ")) << t.screen();
  t.Type("'also dropped'\x03");
  ASSERT_TRUE(t.WaitFor("^C\nstrata> ")) << t.screen();
  t.Type("USE x; BEGIN; INSERT INTO big VALUES (-1, 'kept');\n");
  ASSERT_TRUE(t.WaitFor("1 row affected")) << t.screen();
  ASSERT_TRUE(t.WaitFor("strata> ")) << t.screen();
  // Each row builds a long string: many seconds unless stopped.
  t.Type("UPDATE big SET v = 'changed' WHERE LENGTH(REPEAT(v, 20000)) > 0;\n");
  ASSERT_TRUE(t.WaitFor("WHERE LENGTH(REPEAT(v, 20000)) > 0;\n")) << t.screen();
  usleep(300 * 1000);
  t.Type("\x03");
  ASSERT_TRUE(t.WaitFor("-- query aborted\nERROR 1317 (70100): Query execution was interrupted\n")) << t.screen();
  ASSERT_TRUE(t.WaitFor("strata> ")) << t.screen();
  t.Type("COMMIT;\n");
  ASSERT_TRUE(t.WaitFor("strata> ")) << t.screen();
  t.Type("quit\n");
  ASSERT_TRUE(t.WaitFor("Bye")) << t.screen();
  const int status = t.Wait();
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
  EXPECT_EQ(t.screen().find("'dropped'", t.screen().find("^C")), std::string::npos) << "a dropped line ran:\n"
                                                                                    << t.screen();

  // The INSERT before the interrupted UPDATE was committed; the UPDATE changed nothing.
  auto after = RunCommand(std::string(STRATA_BINARY) + " sql --datadir " + dir +
                          " x -e \"SELECT COUNT(*), SUM(v = 'kept'), SUM(v = 'changed') FROM big\"");
  ASSERT_EQ(after.exit_code, 0) << after.err;
  EXPECT_EQ(after.out, "COUNT(*)\tSUM(v = 'kept')\tSUM(v = 'changed')\n100001\t1\t0\n");
}

}  // namespace
