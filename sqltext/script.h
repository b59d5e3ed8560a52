// Cuts a stream of SQL text into statements the way the mysql client does: at the delimiter
// (`;` until a `DELIMITER xx` line changes it) or `\G`/`\g`, never inside quotes or comments,
// with the line each statement starts on for error messages ("ERROR 1064 at line 12").
//
// Text arrives in pieces of any size (a terminal line, a 1 MiB block of a dump) and
// statements come out as soon as they are complete.
#pragma once

#include <cstddef>

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace strata::sqltext {

struct ScriptStatement {
  std::string text;        // without the delimiter
  std::uint64_t line = 0;  // where the statement starts, counting from 1
  bool vertical = false;   // ended by \G: print one column per line
};

class StatementSplitter {
 public:
  using Sink = std::function<bool(ScriptStatement&)>;  // false stops the splitter

  // With `mariadb`, MariaDB's versioned comments (/*M!...*/) stay in the statement, as its
  // client keeps them, for a lexer that reads them as MariaDB would; else they go, as the
  // mysql client drops them.
  explicit StatementSplitter(bool mariadb = false) : mariadb_(mariadb) {}

  // Feeds more text; calls `sink` for each statement it completes. False once a sink said stop.
  bool Feed(std::string_view text, const Sink& sink);
  // The end of the input: a last statement without a delimiter still runs, as in the client.
  bool Finish(const Sink& sink);

  // A statement has begun and is not complete (the shell's "->" prompt).
  bool pending() const { return started_ || state_ != State::kCode; }
  const std::string& delimiter() const { return delimiter_; }
  std::uint64_t line() const { return line_; }
  // Drops the statement begun so far (the client's \c).
  void Clear();

 private:
  enum class State : std::uint8_t { kCode, kSingle, kDouble, kBacktick, kComment };
  bool Line(std::string_view line, bool complete, const Sink& sink);
  bool Emit(bool vertical, const Sink& sink);
  void Append(std::string_view s);

  std::string delimiter_ = ";";
  std::string partial_;     // a line not yet ended by '\n'
  std::string current_;     // the statement so far
  bool started_ = false;    // current_ holds something besides space and comments
  std::uint64_t line_ = 1;  // the line being read
  std::uint64_t start_line_ = 1;
  State state_ = State::kCode;
  bool escaped_ = false;  // the last character inside a quote was a backslash
  bool stopped_ = false;
  bool mariadb_ = false;
};

}  // namespace strata::sqltext
