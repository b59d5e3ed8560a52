// Crashes by SIGKILL: this test binary runs itself as a child (KillChild.InsertsUntilKilled)
// that inserts rows with flush_log_at_trx_commit=1 and reports each acknowledged key on a pipe;
// the parent kills it at a random moment, reopens the directory (recovery) and checks that
// every acknowledged row is there and nothing else but, at most, the one in flight.
// STRATA_KILLS sets the number of kills (the `slow` label runs more).
#include <gtest/gtest.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <random>
#include <set>

#include "engine/db.h"
#include "tests/util/tsv.h"
#include "tests/util/table_spec.h"

namespace strata::engine {
namespace {

using testing::Col;
using testing::NotNull;

TableSpec Spec() {
  return {"kill", "t", {NotNull(Col("id", ColumnType::kInt)), Col("v", ColumnType::kVarchar, 300)}, {"id"}, {}};
}

constexpr int kAckFd = 3;  // the child reports acknowledged keys here (stdout carries gtest's output)

std::string Value1(int id) { return std::string(50 + id % 200, static_cast<char>('a' + id % 26)); }

// The child: runs only when the parent set STRATA_KILL_DIR.
TEST(KillChild, InsertsUntilKilled) {
  const char* dir = std::getenv("STRATA_KILL_DIR");
  if (!dir) GTEST_SKIP() << "run by KillTest as its child";
  DatabaseOptions o;
  o.buffer_pool_bytes = 1u << 20;
  o.redo_log_bytes = 1u << 20;
  auto db = Database::Open(dir, o);
  ASSERT_TRUE(db.ok()) << db.status().ToString();
  (void)(*db)->CreateDatabase("kill");
  auto t = (*db)->GetTable("kill", "t");
  if (!t.ok()) t = (*db)->CreateTable(Spec());
  ASSERT_TRUE(t.ok());
  int next = std::atoi(std::getenv("STRATA_KILL_FROM"));
  for (;; ++next) {
    ASSERT_TRUE((*t)->Insert({Value::Int(next), Value::String(Value1(next))}).ok());
    const std::string line = std::to_string(next) + "\n";
    if (::write(kAckFd, line.data(), line.size()) < 0) return;  // acknowledged
  }
}

TEST(KillTest, AcknowledgedRowsSurviveSigkill) {
  const char* env_kills = std::getenv("STRATA_KILLS");
  const int kills = env_kills ? std::atoi(env_kills) : 5;
  testing::TempDir tmp;
  const std::string dir = (tmp.path() / "d").string();
  std::mt19937 rng(5);
  std::set<int> acked;
  int next = 0;
  for (int round = 0; round < kills; ++round) {
    int fds[2];
    ASSERT_EQ(::pipe(fds), 0);
    const pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      ::close(fds[0]);  // first: the read end may itself be fd 3
      if (fds[1] != kAckFd) ::dup2(fds[1], kAckFd);
      const int null = ::open("/dev/null", O_WRONLY);
      ::dup2(null, STDOUT_FILENO);
      ::setenv("STRATA_KILL_DIR", dir.c_str(), 1);
      ::setenv("STRATA_KILL_FROM", std::to_string(next).c_str(), 1);
      ::execl("/proc/self/exe", "engine_test", "--gtest_filter=KillChild.InsertsUntilKilled", nullptr);
      ::_exit(127);
    }
    ::close(fds[1]);
    // Kill it after a random number of acknowledged commits (counting them, not the clock: a
    // slow machine or a sanitizer build only stretches the run), in the middle of the next ones.
    const std::size_t want = 1 + rng() % 300;
    std::string out;
    char buf[4096];
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(2);
    while (static_cast<std::size_t>(std::count(out.begin(), out.end(), '\n')) < want &&
           std::chrono::steady_clock::now() < deadline) {
      pollfd p{fds[0], POLLIN, 0};
      if (::poll(&p, 1, 1000) <= 0) continue;
      const ssize_t n = ::read(fds[0], buf, sizeof buf);
      if (n <= 0) break;  // the child ended
      out.append(buf, static_cast<std::size_t>(n));
    }
    ::kill(pid, SIGKILL);
    int status = 0;
    ::waitpid(pid, &status, 0);
    for (ssize_t n; (n = ::read(fds[0], buf, sizeof buf)) > 0;) out.append(buf, static_cast<std::size_t>(n));
    ::close(fds[0]);
    ASSERT_TRUE(WIFSIGNALED(status)) << "the child ended by itself (status " << status << "): " << out;
    std::size_t pos = 0;
    for (std::size_t nl; (nl = out.find('\n', pos)) != std::string::npos; pos = nl + 1) {
      const int id = std::stoi(out.substr(pos, nl - pos));
      acked.insert(id);
      next = std::max(next, id + 1);
    }
    // Recover and compare: every acknowledged row; besides them only the one in flight.
    DatabaseOptions o;
    o.buffer_pool_bytes = 1u << 20;
    auto db = Database::Open(dir, o);
    ASSERT_TRUE(db.ok()) << "round " << round << ": " << db.status().ToString();
    auto t = (*db)->GetTable("kill", "t");
    if (!t.ok()) {
      ASSERT_TRUE(acked.empty()) << "rows were acknowledged but the table is gone";
      continue;
    }
    std::set<int> present;
    ASSERT_TRUE((*t)->Scan({},
                           [&](const Row& r) {
                             const int id = static_cast<int>(r[0].as_int());
                             EXPECT_EQ(r[1].as_string(), Value1(id));
                             present.insert(id);
                             return true;
                           })
                    .ok());
    for (int id : acked) ASSERT_TRUE(present.count(id)) << "acknowledged row " << id << " lost in round " << round;
    for (int id : present) {
      if (!acked.count(id)) {
        ASSERT_EQ(id, next) << "row " << id << " was never acknowledged";
        acked.insert(id);  // committed just before the kill: it stays from now on
        ++next;
      }
    }
    ASSERT_TRUE((*t)->Check().ok());
  }
  EXPECT_GE(acked.size(), static_cast<std::size_t>(kills)) << "a child was killed before it committed anything";
  RecordProperty("acknowledged_rows", static_cast<int>(acked.size()));
}

}  // namespace
}  // namespace strata::engine
