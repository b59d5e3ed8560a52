// Lines typed at a terminal for `strata sql`: line editing and history (libedit), and Ctrl-C
// as the mysql client takes it. At the prompt Ctrl-C drops what was typed of the statement
// and gives a fresh prompt; while a statement runs it asks that statement to stop (it ends
// with ERROR 1317, the transaction stays open). The shell goes on either way: leaving is
// Ctrl-D, `quit` or `exit`.
#pragma once

#include <string>

#include "sql/session.h"

namespace strata::cli {

class TerminalLines {
 public:
  enum class Got { kLine, kEnd, kCancelled };

  // Reads and, on destruction, writes `history_file` (none when empty). One at a time: it
  // owns SIGINT while it lives.
  explicit TerminalLines(std::string history_file);
  ~TerminalLines();
  TerminalLines(const TerminalLines&) = delete;
  TerminalLines& operator=(const TerminalLines&) = delete;

  // One line without its newline; kEnd at Ctrl-D on an empty line or a closed terminal,
  // kCancelled when Ctrl-C dropped the line.
  Got Read(const std::string& prompt, std::string& line);
  void AddHistory(const std::string& line);

  // While set, Ctrl-C interrupts `session`'s statement; null again when it returns.
  void SetRunning(sql::Session* session);

 private:
  std::string history_file_;
};

}  // namespace strata::cli
