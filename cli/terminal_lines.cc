#include "cli/terminal_lines.h"

#include <editline/readline.h>
#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <optional>

namespace strata::cli {

namespace {

// What the SIGINT handler may touch: lock-free atomics and a pipe. The signal may be handled
// on any of the engine's threads, so the prompt learns of it through the pipe it polls, not
// from an interrupted system call of its own.
std::atomic<sql::Session*> running{nullptr};
std::atomic<bool> cancelled{false};
int wake_pipe[2] = {-1, -1};
static_assert(std::atomic<sql::Session*>::is_always_lock_free && std::atomic<bool>::is_always_lock_free);

extern "C" void OnShellInterrupt(int) {
  const int saved_errno = errno;
  if (sql::Session* s = running.load(std::memory_order_relaxed)) {
    s->Interrupt();
  } else {
    cancelled.store(true, std::memory_order_relaxed);
    (void)!write(wake_pipe[1], "c", 1);
  }
  errno = saved_errno;
}

struct sigaction previous_action;

// The line libedit completed (its callback interface hands it over here).
bool line_done = false;
std::optional<std::string> line_read;

extern "C" void OnShellLine(char* line) {
  line_done = true;
  if (line) {
    line_read = line;
    std::free(line);
  } else {
    line_read.reset();
  }
}

}  // namespace

TerminalLines::TerminalLines(std::string history_file) : history_file_(std::move(history_file)) {
  // libedit must not catch signals itself: a Ctrl-C reaches OnShellInterrupt.
  rl_catch_signals = 0;
  if (wake_pipe[0] < 0) (void)!pipe2(wake_pipe, O_CLOEXEC | O_NONBLOCK);
  using_history();
  if (!history_file_.empty()) read_history(history_file_.c_str());
  struct sigaction sa {};
  sa.sa_handler = OnShellInterrupt;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = 0;
  sigaction(SIGINT, &sa, &previous_action);
}

TerminalLines::~TerminalLines() {
  sigaction(SIGINT, &previous_action, nullptr);
  if (!history_file_.empty()) write_history(history_file_.c_str());
}

void TerminalLines::AddHistory(const std::string& line) { add_history(line.c_str()); }

void TerminalLines::SetRunning(sql::Session* session) { running.store(session, std::memory_order_relaxed); }

TerminalLines::Got TerminalLines::Read(const std::string& prompt, std::string& line) {
  char drained[64];
  while (read(wake_pipe[0], drained, sizeof drained) > 0) {  // a Ctrl-C between prompts is past
  }
  cancelled.store(false, std::memory_order_relaxed);
  line_done = false;
  rl_callback_handler_install(prompt.c_str(), OnShellLine);
  Got got = Got::kLine;
  while (!line_done) {
    pollfd in[2] = {{STDIN_FILENO, POLLIN, 0}, {wake_pipe[0], POLLIN, 0}};
    if (poll(in, 2, -1) < 0 && errno != EINTR) {
      got = Got::kEnd;
      break;
    }
    if (cancelled.load(std::memory_order_relaxed)) {
      got = Got::kCancelled;
      break;
    }
    if (in[0].revents != 0) rl_callback_read_char();
  }
  // Removing the handler ends the edit (the terminal back in cooked mode, libedit's line
  // emptied), so a cancelled line is gone from the next prompt too.
  rl_callback_handler_remove();
  if (got == Got::kCancelled) {
    (void)!write(STDOUT_FILENO, "^C\n", 3);
    return got;
  }
  if (got == Got::kEnd || !line_read) return Got::kEnd;
  line = std::move(*line_read);
  if (!line.empty() && line.back() == '\n') line.pop_back();
  return Got::kLine;
}

}  // namespace strata::cli
