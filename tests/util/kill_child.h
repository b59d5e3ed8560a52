// kill -9 tests: a child process runs one test of this same binary and writes a line to kAckFd
// for every commit it acknowledged; the parent kills it with SIGKILL at a moment it chooses and
// reads every line it wrote. Acknowledged work must survive the recovery that follows.
#pragma once

#include <chrono>
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace strata::testing {

// The child's acknowledgements (its stdout carries gtest's output).
constexpr int kAckFd = 3;

// One line to the parent (a single write, so atomic on a pipe); false once the parent is gone.
bool Acknowledge(const std::string& line);

struct KilledChild {
  std::string acks;        // every line the child wrote, those after the count included
  bool signalled = false;  // false: it ended by itself (failed, or never started)
  int status = 0;          // as waitpid gave it
};

// Runs the test `test` ("Suite.Name") of this binary in a child with `env` set, and kills it
// with SIGKILL once it has written `lines` lines and `delay` has passed (at once when it ends
// first; after two minutes at the most).
KilledChild RunChildUntilKilled(const std::string& test, const std::vector<std::pair<std::string, std::string>>& env,
                                std::size_t lines, std::chrono::microseconds delay = {});

}  // namespace strata::testing
