#include "sqltext/script.h"

#include <cctype>

#include "sqltext/lexer.h"

namespace strata::sqltext {

namespace {

std::string_view Trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

}  // namespace

void StatementSplitter::Clear() {
  current_.clear();
  started_ = false;
  state_ = State::kCode;
  escaped_ = false;
}

bool StatementSplitter::Feed(std::string_view text, const Sink& sink) {
  while (!stopped_ && !text.empty()) {
    const std::size_t nl = text.find('\n');
    if (nl == std::string_view::npos) {
      partial_.append(text);
      break;
    }
    if (partial_.empty()) {
      if (!Line(text.substr(0, nl), true, sink)) return false;
    } else {
      partial_.append(text.substr(0, nl));
      std::string line = std::move(partial_);
      partial_.clear();
      if (!Line(line, true, sink)) return false;
    }
    text.remove_prefix(nl + 1);
  }
  return !stopped_;
}

bool StatementSplitter::Finish(const Sink& sink) {
  if (!partial_.empty()) {
    std::string line = std::move(partial_);
    partial_.clear();
    if (!Line(line, false, sink)) return false;
  }
  // What is held at the end runs, as the mysql client sends it: a statement without its
  // delimiter, even one followed by a comment left open (the comment is not part of it).
  if (started_) return Emit(false, sink);
  return !stopped_;
}

void StatementSplitter::Append(std::string_view s) {
  if (s.empty()) return;
  if (!started_) {  // leading space is not kept
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
    if (s.empty()) return;
    started_ = true;
    start_line_ = line_;
  }
  current_.append(s);
}

bool StatementSplitter::Emit(bool vertical, const Sink& sink) {
  ScriptStatement st{std::move(current_), start_line_, vertical};
  current_.clear();
  started_ = false;
  if (!sink(st)) stopped_ = true;
  return !stopped_;
}

// One line of input (without its '\n'). Each state scans ahead to the next character that
// matters and copies the run in one piece: dump lines are megabytes long.
bool StatementSplitter::Line(std::string_view line, bool complete, const Sink& sink) {
  if (state_ == State::kCode && !started_) {
    const std::string_view t = Trim(line);
    if (t.size() >= 9 && EqualsIgnoreCase(t.substr(0, 9), "delimiter") &&
        (t.size() == 9 || std::isspace(static_cast<unsigned char>(t[9])))) {
      std::string_view d = Trim(t.substr(9));
      const std::size_t space = d.find_first_of(" \t");
      if (space != std::string_view::npos) d = d.substr(0, space);
      if (!d.empty()) delimiter_ = std::string(d);
      ++line_;
      return true;
    }
  }
  std::size_t i = 0, run = 0;  // run: start of the text not yet appended
  const char d0 = delimiter_[0];
  while (i < line.size()) {
    const char c = line[i];
    switch (state_) {
      case State::kCode: {
        if (c == d0 && line.compare(i, delimiter_.size(), delimiter_) == 0) {
          Append(line.substr(run, i - run));
          i += delimiter_.size();
          run = i;
          if (started_ && !Emit(false, sink)) return false;
          continue;
        }
        if (c == '\\' && i + 1 < line.size() && (line[i + 1] == 'G' || line[i + 1] == 'g')) {
          Append(line.substr(run, i - run));
          const bool vertical = line[i + 1] == 'G';
          i += 2;
          run = i;
          if (started_ && !Emit(vertical, sink)) return false;
          continue;
        }
        if (c == '\'')
          state_ = State::kSingle;
        else if (c == '"')
          state_ = State::kDouble;
        else if (c == '`')
          state_ = State::kBacktick;
        else if (c == '#' || (c == '-' && i + 1 < line.size() && line[i + 1] == '-' &&
                              (i + 2 == line.size() || std::isspace(static_cast<unsigned char>(line[i + 2]))))) {
          Append(line.substr(run, i - run));  // a line comment: the rest of the line goes
          run = i = line.size();
          continue;
        } else if (c == '/' && line.substr(i, 2) == "/*" && line.substr(i, 3) != "/*!" && line.substr(i, 3) != "/*+" &&
                   !(mariadb_ && line.substr(i, 4) == "/*M!")) {  // versioned comments and hints stay
          Append(line.substr(run, i - run));
          if (started_) current_.push_back(' ');
          state_ = State::kComment;
          i += 2;
          run = i;
          continue;
        }
        ++i;
        break;
      }
      case State::kSingle:
      case State::kDouble:
      case State::kBacktick: {
        const char quote = state_ == State::kSingle ? '\'' : state_ == State::kDouble ? '"' : '`';
        if (escaped_) {
          escaped_ = false;
          ++i;
          break;
        }
        // Jump to the next quote or backslash.
        std::size_t j = i;
        while (j < line.size() && line[j] != quote && (line[j] != '\\' || state_ == State::kBacktick)) ++j;
        i = j;
        if (i >= line.size()) break;
        if (line[i] == '\\') {
          escaped_ = true;
        } else {
          state_ = State::kCode;  // a doubled quote reopens at once, which is the same
        }
        ++i;
        break;
      }
      case State::kComment: {
        const std::size_t end = line.find("*/", i);
        if (end == std::string_view::npos) {
          i = run = line.size();
        } else {
          state_ = State::kCode;
          i = run = end + 2;
        }
        break;
      }
    }
  }
  Append(line.substr(run, i - run));
  if (complete && (started_ || state_ == State::kSingle || state_ == State::kDouble || state_ == State::kBacktick)) {
    if (state_ != State::kComment) current_.push_back('\n');
  }
  ++line_;
  return true;
}

}  // namespace strata::sqltext
