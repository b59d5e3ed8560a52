#include "cli/import_command.h"

#include <boost/program_options.hpp>
#include <fmt/format.h>

#include <chrono>
#include <iostream>

#include "cli/command.h"
#include "cli/input_file.h"
#include "cli/options.h"
#include "cli/progress.h"
#include "cli/sql_output.h"
#include "engine/db.h"
#include "sql/import.h"

namespace po = boost::program_options;

namespace strata::cli {

namespace {

std::string Bytes(double b) {
  if (b >= 1 << 30) return fmt::format("{:.2f} GiB", b / (1 << 30));
  if (b >= 1 << 20) return fmt::format("{:.1f} MiB", b / (1 << 20));
  return fmt::format("{:.0f} KiB", b / 1024);
}

std::string Eta(double seconds) {
  const auto s = static_cast<long>(seconds);
  return s >= 3600 ? fmt::format("{}h{:02}m", s / 3600, s / 60 % 60) : fmt::format("{}m{:02}s", s / 60, s % 60);
}

// What the feeding of the dumps read and whether it went through.
struct Fed {
  std::uint64_t text_bytes = 0;
  bool ok = true;
};

// Every dump file through the importer, a megabyte at a time, with the progress bar.
Fed FeedFiles(std::vector<std::unique_ptr<InputFile>>& inputs, std::uint64_t total_bytes, sql::Importer& importer,
              std::chrono::steady_clock::time_point start, ProgressBar& bar) {
  Fed fed;
  std::uint64_t done_bytes = 0;
  std::string buf(1u << 20, '\0');
  for (auto& in : inputs) {
    importer.StartFile(in->path());
    while (fed.ok) {
      auto n = in->Read(buf.data(), buf.size());
      if (!n.ok()) {
        std::cerr << "\nstrata import: " << n.status().ToString() << "\n";
        fed.ok = false;
        break;
      }
      if (*n == 0) break;
      fed.text_bytes += *n;
      fed.ok = importer.Feed({buf.data(), *n});
      const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      const std::uint64_t at = done_bytes + in->position();
      const double rate = importer.rows() / std::max(secs, 1e-3);
      const double eta = at ? secs * (static_cast<double>(total_bytes) / at - 1) : 0;
      bar.Update(std::min(at, total_bytes - (total_bytes > 0)),
                 fmt::format("{}  {:.0f} rows/s  ETA {}  {}", Bytes(static_cast<double>(at)), rate, Eta(eta),
                             importer.current_table()));
    }
    if (fed.ok) fed.ok = importer.FinishFile();
    done_bytes += in->size();
    if (!fed.ok) break;
  }
  return fed;
}

struct Timing {
  double total = 0, loading = 0;
  bool enabling_redo = false;
};

// The summary on stdout (warnings and notes on stderr, as the client shows them).
void Summarize(const sql::ImportResult& r, engine::Database& db, std::size_t n_files, std::uint64_t text_bytes,
               std::uint64_t file_bytes, const Timing& t, bool force) {
  std::uint64_t data_bytes = 0;
  for (const std::string& name : r.tables) {
    const auto dot = name.find('.');
    if (auto table = db.GetTable(name.substr(0, dot), name.substr(dot + 1)); table.ok())
      data_bytes += (*table)->file_bytes();
  }
  std::cout << fmt::format(
      "Imported {} rows into {} tables from {} file(s) in {:.2f} s ({:.2f} s loading{}): {:.0f} rows/s, "
      "{:.1f} MiB/s of dump text\n",
      r.rows, r.tables.size(), n_files, t.total, t.loading, t.enabling_redo ? ", then enabling redo" : "",
      r.rows / std::max(t.total, 1e-3), text_bytes / std::max(t.total, 1e-3) / (1 << 20));
  if (!r.header_database.empty()) {
    std::cout << fmt::format(
        "Loaded into `{}`, the database the dump's header names (it has no USE; --database chooses "
        "another)\n",
        r.header_database);
  }
  if (r.bulk_rows)
    std::cout << fmt::format("{} rows went into empty tables in key order: indexes built bottom-up\n", r.bulk_rows);
  if (!r.errors.empty() && !force) {
    std::cout << fmt::format("Stopped at line {}{}: every statement before it was applied and stays", r.errors[0].line,
                             r.errors[0].file.empty() ? "" : " of " + r.errors[0].file);
    if (r.statements_after_error) {
      std::cout << fmt::format("; {} rows of {} INSERTs after it were applied too (tables load side by side) and stay",
                               r.rows_after_error, r.statements_after_error);
    }
    std::cout << "\n";
  }
  std::cout << fmt::format("Dump text {} ({} on disk); table files {}; {} statements",
                           Bytes(static_cast<double>(text_bytes)), Bytes(static_cast<double>(file_bytes)),
                           Bytes(static_cast<double>(data_bytes)), r.statements)
            << (r.skipped ? fmt::format(" ({} skipped: versioned statements this server does not support)", r.skipped)
                          : "")
            << "\n";
  if (r.warning_count || r.notes) {
    std::cout << fmt::format("{} warnings, {} notes{}\n", r.warning_count, r.notes,
                             r.warning_count > r.warnings.size()
                                 ? fmt::format(" (the first {} below)", r.warnings.size())
                             : r.warning_count ? " (below)"
                                               : "");
    for (const sql::ImportWarning& w : r.warnings) {
      std::cerr << fmt::format("{} (Code {}) at line {}{}: {}\n", sql::LevelName(w.warning.level), w.warning.code,
                               w.line, w.file.empty() ? "" : " of " + w.file, w.warning.message);
    }
  }
}

po::options_description ImportOptionsDescription() {
  po::options_description options("Options");
  options.add_options()("datadir", po::value<std::string>(), "the Strata data directory (created when missing)")(
      "dump", po::value<std::vector<std::string>>(), "mysqldump files, plain or .gz; - for stdin")(
      "database", po::value<std::string>(),
      "load into this database (created when missing); default: the one the dump's header names")(
      "disable-redo",
      "load with redo logging disabled (ALTER INSTANCE DISABLE INNODB REDO_LOG), enabled again at the end")(
      "threads", po::value<unsigned>()->default_value(0), "threads reading rows (0: one per core; at most 256)")(
      "buffer-pool", po::value<std::size_t>()->default_value(256), "buffer pool size in MiB")(
      "open-files", po::value<std::size_t>(), kOpenFilesHelp)(

      "force-recovery", po::value<int>()->default_value(0), kForceRecoveryHelp)(
      "force,f", "go on after a failed statement (exit status 1 at the end)")("help,h", "show this help");
  return options;
}

void ImportUsage(std::ostream& out, const po::options_description& options) {
  out << "Usage: strata import DUMP... --datadir D [--database NAME] [--disable-redo] [--threads N]\n\n"
      << "Loads mysqldump files as `mysql < dump.sql` would, faster: INSERT rows are read straight from\n"
      << "the text by several threads and tables load side by side. A progress bar (bytes, rows/s, ETA,\n"
      << "table) is drawn on stderr when it is a terminal; a summary follows. With --disable-redo the\n"
      << "load is not logged: a crash during it leaves a data directory that refuses to open (recover\n"
      << "by loading again); redo is enabled again, with every page written, before the command ends.\n"
      << "The first failed statement stops the load with \"ERROR <code> (<state>) at line L in FILE\";\n"
      << "every statement before it stays applied. Unlike the mysql client, INSERTs after it that\n"
      << "other tables' loaders had already applied stay too; the summary says how many rows.\n"
      << "A dump without USE (mysqldump of one database)\n"
      << "loads into --database, else into the database its header names.\n\n"
      << options << "\n";
}

}  // namespace

int Import(const std::vector<std::string>& args) {
  const po::options_description options = ImportOptionsDescription();
  po::positional_options_description positional;
  positional.add("dump", -1);
  auto usage = [&](std::ostream& out) { ImportUsage(out, options); };
  po::variables_map vm;
  if (auto done = ParseOptions("import", args, options, positional, usage, vm, {"datadir", "dump"})) return *done;
  if (vm["threads"].as<unsigned>() > 256) {
    std::cerr << "strata import: --threads takes 0 to 256, not " << vm["threads"].as<unsigned>() << "\n";
    usage(std::cerr);
    return kExitUsage;
  }
  const auto files = vm["dump"].as<std::vector<std::string>>();
  std::vector<std::unique_ptr<InputFile>> inputs;
  std::uint64_t total_bytes = 0;
  for (const std::string& f : files) {
    auto in = InputFile::Open(f);
    if (!in.ok()) {
      std::cerr << "strata import: " << in.status().ToString() << "\n";
      return kExitFailure;
    }
    total_bytes += (*in)->size();
    inputs.push_back(std::move(*in));
  }

  engine::DatabaseOptions dbo;
  int exit_code = kExitOk;
  auto db = OpenDataDirectory("import", vm, dbo, exit_code);
  if (!db) return exit_code;
  const bool disable_redo = vm.count("disable-redo") > 0;
  if (disable_redo) {
    if (ondisk::Status s = db->SetRedoLogging(false); !s.ok()) {
      std::cerr << "strata import: cannot disable redo logging: " << s.ToString() << "\n";
      return kExitFailure;
    }
    std::cerr << "strata import: redo logging disabled for the load; a crash before it is enabled again "
                 "leaves the data directory unusable\n";
  }

  const auto start = std::chrono::steady_clock::now();
  sql::ImportOptions io;
  if (vm.count("database")) io.database = vm["database"].as<std::string>();
  io.threads = vm["threads"].as<unsigned>();
  io.force = vm.count("force") > 0;
  sql::Importer importer(*db, io);
  ProgressBar bar("import", total_bytes);
  const Fed fed = FeedFiles(inputs, total_bytes, importer, start, bar);
  const sql::ImportResult r = importer.Finish();
  bar.Finish();
  Timing t;
  t.loading = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  for (const auto& e : r.errors) {
    std::cerr << "strata import: " << FormatError(e.error, e.line) << (e.file.empty() ? "" : " (in " + e.file + ")")
              << "\n";
  }
  if (disable_redo) {
    if (ondisk::Status s = db->SetRedoLogging(true); !s.ok()) {
      std::cerr << "strata import: enabling redo logging again failed: " << s.ToString() << "\n";
      return kExitFailure;
    }
    std::cerr << "strata import: redo logging enabled again (every page written, checkpoint taken)\n";
  }
  t.total = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  t.enabling_redo = disable_redo;
  Summarize(r, *db, files.size(), fed.text_bytes, total_bytes, t, io.force);
  return r.errors.empty() && fed.ok ? kExitOk : kExitFailure;
}

}  // namespace strata::cli
