#include "cli/sql_command.h"

#include <unistd.h>

#include <boost/program_options.hpp>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <iostream>

#include "cli/command.h"
#include "cli/input_file.h"
#include "cli/options.h"
#include "cli/sql_output.h"
#include "cli/terminal_lines.h"
#include "engine/db.h"
#include "sqltext/script.h"
#include "sql/session.h"

namespace po = boost::program_options;

namespace strata::cli {

namespace {

using sql::ScriptStatement;
using sql::Session;
using sql::StatementSplitter;

struct ShellOptions {
  OutputMode mode = OutputMode::kBatch;
  OutputOptions output;
  bool force = false;          // go on after an error
  bool interactive = false;    // errors without line numbers, summaries after each statement
  bool show_warnings = false;  // each statement's SHOW WARNINGS after it, as the mysql client's --show-warnings
};

std::string_view Trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

// Runs statements as the splitter completes them. `failed` is set by the first error.
class Runner {
 public:
  Runner(Session& session, const ShellOptions& options) : session_(session), options_(options) {}

  bool Run(ScriptStatement& st) {
    const std::string_view text = Trim(st.text);
    if (text == "quit" || text == "exit" || text == "\\q") {
      quit_ = true;
      return false;
    }
    ResultPrinter printer(std::cout, st.vertical ? OutputMode::kVertical : options_.mode, options_.output);
    const auto start = std::chrono::steady_clock::now();
    if (terminal_) terminal_->SetRunning(&session_);
    const sql::StatementOutcome o = session_.Execute(st.text, printer);
    if (terminal_) terminal_->SetRunning(nullptr);
    if (o.error && o.error->code == 1317 && terminal_)
      std::cout << " -- query aborted\n";  // after the ^C the terminal echoed
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    printer.Done(o, seconds);
    std::cout.flush();  // a program reading our output sees each result as it completes
    if (o.error) {
      failed_ = true;
      std::cerr << FormatError(*o.error, options_.interactive ? std::nullopt : std::optional(st.line)) << "\n";
      PrintWarnings(o);
      return options_.force || options_.interactive;
    }
    PrintWarnings(o);
    return true;
  }

  // As the mysql client prints them: "Warning (Code 1264): Out of range value ...".
  void PrintWarnings(const sql::StatementOutcome& o) {
    // An error alone was said on stderr already; with warnings, the client lists them all.
    if (!options_.show_warnings || o.warnings.empty()) return;
    for (const sql::SqlWarning& w : session_.diagnostics())
      std::cout << sql::LevelName(w.level) << " (Code " << w.code << "): " << w.message << "\n";
    std::cout.flush();
  }

  bool failed() const { return failed_; }
  bool quit() const { return quit_; }
  // Ctrl-C at this terminal interrupts the statements run from now on.
  void set_terminal(TerminalLines* terminal) { terminal_ = terminal; }

 private:
  TerminalLines* terminal_ = nullptr;
  Session& session_;
  const ShellOptions& options_;
  bool failed_ = false;
  bool quit_ = false;
};

int RunStream(InputFile& in, Runner& runner) {
  StatementSplitter splitter;
  auto sink = [&](ScriptStatement& st) { return runner.Run(st); };
  std::string buf(1u << 20, '\0');
  while (true) {
    auto n = in.Read(buf.data(), buf.size());
    if (!n.ok()) {
      std::cerr << "strata sql: " << n.status().ToString() << "\n";
      return kExitFailure;
    }
    if (*n == 0) break;
    if (!splitter.Feed({buf.data(), *n}, sink)) return runner.failed() && !runner.quit() ? kExitFailure : kExitOk;
  }
  splitter.Finish(sink);
  return runner.failed() ? kExitFailure : kExitOk;
}

int RunInteractive(Session& session, Runner& runner) {
  std::cout << "Welcome to the Strata SQL shell. Commands end with ; or \\g; \\G prints one column per line.\n"
            << "Data directory: " << session.db().dir().string() << "    Type 'quit' or 'exit' to leave.\n\n";
  const char* home = std::getenv("HOME");
  TerminalLines terminal(home ? std::string(home) + "/.strata_history" : "");
  runner.set_terminal(&terminal);
  StatementSplitter splitter;
  auto sink = [&](ScriptStatement& st) { return runner.Run(st); };
  while (!runner.quit()) {
    const std::string prompt = splitter.pending() ? "    -> " : "strata> ";
    std::string line;
    const TerminalLines::Got got = terminal.Read(prompt, line);
    if (got == TerminalLines::Got::kEnd) {  // Ctrl-D
      std::cout << "Bye\n";
      break;
    }
    if (got == TerminalLines::Got::kCancelled) {  // Ctrl-C: the statement typed so far is dropped
      splitter.Clear();
      continue;
    }
    const std::string_view t = Trim(line);
    if (!t.empty()) terminal.AddHistory(line);
    if (!splitter.pending() && (t == "quit" || t == "exit" || t == "\\q" || t == "quit;" || t == "exit;")) {
      std::cout << "Bye\n";
      break;
    }
    if (t == "\\c" || (t.size() >= 2 && t.substr(t.size() - 2) == "\\c")) {
      splitter.Clear();
      continue;
    }
    line.push_back('\n');
    splitter.Feed(line, sink);
  }
  runner.set_terminal(nullptr);
  return kExitOk;
}

}  // namespace

int Sql(const std::vector<std::string>& args) {
  po::options_description options("Options");
  options.add_options()("datadir", po::value<std::string>(), "the Strata data directory (created when missing)")(
      "database,D", po::value<std::string>(), "the database to USE first")("execute,e", po::value<std::string>(),
                                                                           "run these statements and exit")(
      "batch,B", "tab-separated output, no summaries (the default when input or output is not a terminal)")(
      "table,t", "boxed tables even when the output is not a terminal")(
      "vertical,E", "one column per line for every result")("skip-column-names,N", "no header line")(
      "raw,r", "batch values without escaping")("force,f", "go on after a failed statement (exit status 1 at the end)")(
      "show-warnings", "print each statement's notes and warnings after it, as SHOW WARNINGS lists them")(
      "buffer-pool", po::value<std::size_t>()->default_value(128), "buffer pool size in MiB")(
      "open-files", po::value<std::size_t>(), kOpenFilesHelp)(

      "force-recovery", po::value<int>()->default_value(0), kForceRecoveryHelp)("read-only", kReadOnlyHelp)(
      "help,h", "show this help");
  po::positional_options_description positional;
  positional.add("database", 1);
  auto usage = [&](std::ostream& out) {
    out << "Usage: strata sql --datadir D [DATABASE] [-e \"STATEMENTS\"] [options] [< script.sql]\n\n"
        << "A SQL shell on a Strata data directory, in the mysql client's manner: typed statements at a\n"
        << "terminal (line editing, history in ~/.strata_history, boxed results, \\G for vertical\n"
        << "output, Ctrl-C to drop the line typed or stop the statement running), or a script or\n"
        << "dump from stdin, run statement by statement with tab-separated\n"
        << "results flushed as each statement completes. The first failed statement stops a script\n"
        << "with \"ERROR <code> (<state>) at line L: <message>\" and exit status 1 (--force goes on).\n\n"
        << options << "\n";
  };
  po::variables_map vm;
  if (auto done = ParseOptions("sql", args, options, positional, usage, vm, {"datadir"})) return *done;

  engine::DatabaseOptions dbo;
  int exit_code = kExitOk;
  auto db = OpenDataDirectory("sql", vm, dbo, exit_code);
  if (!db) return exit_code;
  Session session(*db);
  const bool stdin_tty = ::isatty(STDIN_FILENO), stdout_tty = ::isatty(STDOUT_FILENO);
  const bool execute = vm.count("execute") > 0;
  ShellOptions so;
  so.interactive = !execute && stdin_tty;
  const bool table = vm.count("table") || (!vm.count("batch") && stdout_tty && (execute || stdin_tty));
  so.mode = vm.count("vertical") ? OutputMode::kVertical : table ? OutputMode::kTable : OutputMode::kBatch;
  so.output.column_names = !vm.count("skip-column-names");
  so.output.raw = vm.count("raw") > 0;
  so.output.summaries = so.interactive;
  so.force = vm.count("force") > 0;
  so.show_warnings = vm.count("show-warnings") > 0;
  Runner runner(session, so);

  if (vm.count("database")) {
    ScriptStatement use{"USE `" + vm["database"].as<std::string>() + "`", 0, false};
    sql::StatementOutcome o;
    ResultPrinter quiet(std::cout, OutputMode::kBatch, {});
    o = session.Execute(use.text, quiet);
    if (o.error) {
      std::cerr << FormatError(*o.error, std::nullopt) << "\n";
      return kExitFailure;
    }
  }
  // A script that committed asynchronously (async_commit) succeeds only once all it committed
  // is durable.
  auto durable = [&](int code) -> int {
    engine::Status s = session.WaitDurable();
    if (s.ok()) return code;
    std::cerr << FormatError(sql::FromStatus(s), std::nullopt) << "\n";
    return kExitFailure;
  };
  if (execute) {
    StatementSplitter splitter;
    auto sink = [&](ScriptStatement& st) { return runner.Run(st); };
    if (splitter.Feed(vm["execute"].as<std::string>(), sink)) splitter.Finish(sink);
    return durable(runner.failed() ? kExitFailure : kExitOk);
  }
  if (so.interactive) return durable(RunInteractive(session, runner));
  auto in = InputFile::Open("-", /*gzip_allowed=*/false);
  if (!in.ok()) {
    std::cerr << "strata sql: " << in.status().ToString() << "\n";
    return kExitFailure;
  }
  return durable(RunStream(**in, runner));
}

}  // namespace strata::cli
