#include "tests/util/kill_child.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <thread>

namespace strata::testing {

bool Acknowledge(const std::string& line) { return ::write(kAckFd, line.data(), line.size()) >= 0; }

KilledChild RunChildUntilKilled(const std::string& test, const std::vector<std::pair<std::string, std::string>>& env,
                                std::size_t lines, std::chrono::microseconds delay) {
  KilledChild child;
  int fds[2];
  if (::pipe(fds) != 0) return child;
  const std::string filter = "--gtest_filter=" + test;
  const pid_t pid = ::fork();
  if (pid < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    return child;
  }
  if (pid == 0) {
    ::close(fds[0]);  // first: the read end may itself be fd 3
    if (fds[1] != kAckFd) ::dup2(fds[1], kAckFd);
    const int null = ::open("/dev/null", O_WRONLY);
    ::dup2(null, STDOUT_FILENO);
    for (const auto& [name, value] : env) ::setenv(name.c_str(), value.c_str(), 1);
    ::execl("/proc/self/exe", "kill_child", filter.c_str(), nullptr);
    ::_exit(127);
  }
  ::close(fds[1]);
  // Counting lines, not the clock: a slow machine or a sanitizer build only stretches the run.
  char buf[4096];
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(2);
  bool ended = false;
  while (static_cast<std::size_t>(std::count(child.acks.begin(), child.acks.end(), '\n')) < lines &&
         std::chrono::steady_clock::now() < deadline) {
    pollfd p{fds[0], POLLIN, 0};
    if (::poll(&p, 1, 1000) <= 0) continue;
    const ssize_t n = ::read(fds[0], buf, sizeof buf);
    if (n <= 0) {
      ended = true;
      break;
    }
    child.acks.append(buf, static_cast<std::size_t>(n));
  }
  if (!ended && delay.count() > 0) std::this_thread::sleep_for(delay);
  ::kill(pid, SIGKILL);
  ::waitpid(pid, &child.status, 0);
  for (ssize_t n; (n = ::read(fds[0], buf, sizeof buf)) > 0;) child.acks.append(buf, static_cast<std::size_t>(n));
  ::close(fds[0]);
  child.signalled = WIFSIGNALED(child.status);
  return child;
}

}  // namespace strata::testing
