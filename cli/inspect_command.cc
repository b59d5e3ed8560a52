#include "cli/inspect_command.h"

#include "cli/inspect_rows_command.h"
#include "cli/key_options.h"
#include "cli/options.h"
#include "cli/progress.h"

#include <boost/program_options.hpp>
#include <fmt/format.h>

#include <unistd.h>

#include <charconv>
#include <cstdlib>
#include <iostream>
#include <map>
#include <optional>
#include <set>

#include "inspect/check.h"
#include "inspect/compare.h"
#include "inspect/extents.h"
#include "inspect/illustrate.h"
#include "inspect/index_report.h"
#include "inspect/lsn_report.h"
#include "inspect/page_info.h"
#include "inspect/page_view.h"
#include "inspect/orphan_files.h"
#include "inspect/path_check.h"
#include "inspect/pages.h"
#include "inspect/regions.h"
#include "inspect/schema.h"
#include "inspect/space_file.h"
#include "inspect/summary.h"
#include "inspect/sys_dictionary.h"
#include "inspect/doublewrite_report.h"
#include "inspect/redo_apply.h"
#include "inspect/redo_report.h"
#include "inspect/undo.h"

namespace strata::cli {

namespace po = boost::program_options;
using namespace strata::inspect;

namespace {

constexpr int kJsonSchemaVersion = 1;

// What every inspect command shares: PATH... and --json, one pass per tablespace.
struct InspectRun {
  std::string command;
  std::string usage;  // the line after "Usage: strata inspect <command>"
  po::options_description options{"Options"};
  po::options_description hidden;  // positional arguments, not listed in --help
  po::positional_options_description positional;
  po::variables_map vm;
  std::vector<std::filesystem::path> paths;
  bool json = false;
  EncryptionKeys keys;  // --key-file, --keyring: encrypted pages are read decrypted
  bool apply_redo = false;
  bool refused_paths = false;                           // a PATH was not read (RefusedPath): the run fails
  std::map<std::filesystem::path, RedoReport> redo_of;  // each data directory's log, read once

  InspectRun(std::string cmd, std::string use) : command(std::move(cmd)), usage(std::move(use)) {
    options.add_options()("json", "print JSON (schema: inspect/README.md)")("help,h", "show this help");
    AddKeyOptions(options);
  }

  // A file's report as this run prints it, JSON or text (ToJson/ToText found beside its type).
  template <class Report>
  void Put(const Report& r, nlohmann::json& j, std::string& text) const {
    if (json)
      j = ToJson(r);
    else
      text = ToText(r);
  }

  // For the commands that read pages: a data directory's redo log past its checkpoint.
  InspectRun& ReadsPages() {
    options.add_options()(
        "apply-redo",
        "for a data directory: replay its redo log past the checkpoint onto the pages in memory "
        "first, as crash recovery would (MariaDB 10.8+ and Strata logs); the files are never written");
    return *this;
  }

  // Each data directory given, or holding a file given: its log's changes past the checkpoint
  // replayed onto `files` (--apply-redo), or else a warning that the pages are older than the log.
  void BringForward(std::vector<SpaceFile>& files, std::vector<Finding>& findings) {
    std::set<std::filesystem::path> done;
    for (const auto& given : paths) {
      std::error_code ec;
      std::filesystem::path p = given;
      if (!std::filesystem::is_directory(given, ec)) {
        auto dir = DataDirOf(given);
        if (!dir) {
          if (apply_redo) {
            findings.push_back({Severity::kError, given.string(), std::nullopt, std::nullopt, "--apply-redo",
                                "no redo log beside the file or in the directory above it: nothing to replay"});
          }
          continue;
        }
        p = *dir;
      }
      if (!done.insert(std::filesystem::weakly_canonical(p, ec)).second) continue;
      if (HasLog(p)) {
        // A crash with redo disabled explains the damage found below: said first.
        for (const auto& f : RedoOf(p).findings) {
          if (f.what == "crash-unsafe") findings.push_back(f);
        }
      }
      if (apply_redo) {
        RedoApplyResult a = ApplyRedo(p, files);
        findings.insert(findings.end(), a.findings.begin(), a.findings.end());
      } else if (auto stale = StaleLogFinding(p, &RedoOf(p))) {
        findings.push_back(*stale);
      }
    }
  }

  // The data directory's redo log, read the first time it is asked for.
  const RedoReport& RedoOf(const std::filesystem::path& dir) {
    auto it = redo_of.find(dir);
    if (it == redo_of.end()) it = redo_of.emplace(dir, AnalyzeRedo(dir, {})).first;
    return it->second;
  }

  void PrintHelp(std::ostream& out) const {
    out << "Usage: strata inspect " << command << " " << usage << "\n\n" << options << "\n";
  }

  // Returns an exit code when parsing ends the run (help or a usage error).
  std::optional<int> Parse(const std::vector<std::string>& args) {
    po::options_description all;
    all.add(options).add(hidden).add_options()("path", po::value<std::vector<std::string>>(), "");
    po::positional_options_description pos = positional;
    if (pos.max_total_count() == 0) pos.add("path", -1);
    try {
      po::store(po::command_line_parser(args).options(all).positional(pos).run(), vm);
      po::notify(vm);
    } catch (const po::error& e) {
      std::cerr << "strata inspect " << command << ": " << e.what() << "\n";
      PrintHelp(std::cerr);
      return kExitUsage;
    }
    if (vm.count("help")) {
      PrintHelp(std::cout);
      return kExitOk;
    }
    json = vm.count("json") > 0;
    auto loaded = KeysFromOptions(vm);
    if (!loaded.ok()) {
      std::cerr << "strata inspect " << command << ": " << loaded.status().message() << "\n";
      return kExitFailure;
    }
    keys = std::move(*loaded);
    if (!vm.count("path")) {
      std::cerr << "strata inspect " << command << ": missing PATH\n";
      PrintHelp(std::cerr);
      return kExitUsage;
    }
    for (const auto& p : vm["path"].as<std::vector<std::string>>()) {
      if (auto refused = RefusedPath(p)) {  // a FIFO or a link loop: named, and the rest go on
        std::cerr << "strata inspect " << command << ": " << p << ": " << *refused << "\n";
        refused_paths = true;
        continue;
      }
      paths.emplace_back(p);
    }
    if (paths.empty()) return kExitFailure;
    apply_redo = vm.count("apply-redo") > 0;
    return std::nullopt;
  }

  // Index names for MySQL 5.7 and MariaDB files live in their server's ibdata1.
  ServerDictionaries servers;
  const Dictionary* ServerDictionaryFor(const SpaceFile& f) { return servers.For(f); }

  // Opens each tablespace and hands it to `each`, which returns its JSON and text and may
  // mark the run as failed. Prints as it goes (text) or once at the end (JSON).
  // `after`, when given, runs once the files are done: more findings for the same report.
  // `skip`: why a file is not to be read at all (said as a warning), or nullopt.
  int ForEachFile(const std::function<void(const SpaceFile&, nlohmann::json&, std::string&, bool& failed)>& each,
                  const std::function<void(std::vector<Finding>&)>& after = nullptr,
                  const std::function<std::optional<std::string>(const std::filesystem::path&)>& skip = nullptr) {
    std::vector<Finding> findings;
    auto files = ExpandPaths(paths, &findings);
    // --apply-redo changes pages of several files at once: they are all opened first.
    std::vector<SpaceFile> opened;
    if (apply_redo) {
      opened = OpenSpaces(paths, nullptr, &keys);
      files.clear();
      for (const auto& f : opened) files.push_back(f.path());
    }
    BringForward(opened, findings);
    bool failed = HasError(findings) || refused_paths;
    ScanProgress progress(TerminalProgressBar());
    nlohmann::json out = {
        {"command", command}, {"schema_version", kJsonSchemaVersion}, {"files", nlohmann::json::array()}};
    for (std::size_t i = 0; i < files.size(); ++i) {
      const auto& path = files[i];
      if (auto why = skip ? skip(path) : std::nullopt) {
        findings.push_back({Severity::kWarning, path.string(), std::nullopt, std::nullopt, "orphan file", *why});
        continue;
      }
      auto f = apply_redo ? ondisk::Result<SpaceFile>(std::move(opened[i])) : SpaceFile::Open(path, &keys);
      if (!f.ok()) {
        findings.push_back(
            {Severity::kError, path.string(), std::nullopt, std::nullopt, "cannot open", f.status().ToString()});
        failed = true;
        continue;
      }
      nlohmann::json j;
      std::string text;
      each(*f, j, text, failed);
      if (json) {
        if (!j.is_null()) out["files"].push_back(j);
      } else {
        std::cout << text << (files.size() > 1 ? "\n" : "") << std::flush;
      }
    }
    if (after) {
      const std::size_t before = findings.size();
      after(findings);
      for (std::size_t i = before; i < findings.size(); ++i) failed |= findings[i].severity == Severity::kError;
    }
    if (json) {
      nlohmann::json fj = nlohmann::json::array();
      for (const auto& f : findings) fj.push_back(ToJson(f));
      out["findings"] = fj;
      // Names and messages come from disk: replace invalid UTF-8 rather than abort.
      std::cout << out.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
    } else {
      for (const auto& f : findings) {
        std::cerr << "strata inspect " << command << ": "
                  << (f.severity == Severity::kError ? "" : ToString(f.severity) + ": ") << f.ToString() << "\n";
      }
    }
    return failed ? kExitFailure : kExitOk;
  }
};

int Summary(const std::vector<std::string>& args) {
  InspectRun run("summary",
                 "PATH...\n\nWhat each tablespace is: flavour, page size, space id, flags, page types,\n"
                 "indexes (root, levels, pages, records, fill) and checksum failures.");
  run.ReadsPages();
  if (auto rc = run.Parse(args)) return *rc;
  return run.ForEachFile([&](const SpaceFile& f, nlohmann::json& j, std::string& text, bool& failed) {
    SpaceSummary s = Summarize(f, run.ServerDictionaryFor(f));
    failed |= HasError(s.findings);  // a page failing its checksum is damage found: exit 1
    run.Put(s, j, text);
  });
}

int Regions(const std::vector<std::string>& args) {
  InspectRun run("regions", "PATH...\n\nRuns of consecutive pages of the same type (and index).");
  run.ReadsPages();
  if (auto rc = run.Parse(args)) return *rc;
  return run.ForEachFile([&](const SpaceFile& f, nlohmann::json& j, std::string& text, bool&) {
    const Dictionary names = DictionaryFor(f, run.ServerDictionaryFor(f));
    auto regions = FindRegions(f, &names);
    if (run.json)
      j = RegionsToJson(f, regions);
    else
      text = RegionsToText(f, regions);
  });
}

int Pages(const std::vector<std::string>& args) {
  InspectRun run("pages",
                 "PATH...\n\nOne row per page: page_no, type, lsn, prev, next, index_id, level, n_recs,\n"
                 "data_size, used_bytes, free_bytes, garbage_bytes, checksum.");
  run.ReadsPages();
  if (auto rc = run.Parse(args)) return *rc;
  return run.ForEachFile([&](const SpaceFile& f, nlohmann::json& j, std::string& text, bool&) {
    // Text streams straight to stdout, so huge files print in bounded memory.
    if (!run.json) std::cout << PagesHeaderText(f);
    nlohmann::json rows = nlohmann::json::array();
    ScanPages(f, [&](std::span<const PageInfo> batch) {
      for (const PageInfo& p : batch) {
        if (run.json) {
          rows.push_back(PageRowJson(f, p));
        } else {
          std::cout << PageRowText(f, p);
        }
      }
    });
    j = {{"file", f.path().string()}, {"page_size", f.page_size()}, {"pages", rows}};
    text.clear();
  });
}

int Page(const std::vector<std::string>& args) {
  InspectRun run("page",
                 "PATH N [--records]\n\nEvery header field of page N, decoded by page type; with --records,\n"
                 "each record (fields by name when the file carries its schema).");
  run.options.add_options()("records", "list the page's records");
  run.hidden.add_options()("page", po::value<std::string>(), "");
  run.positional.add("path", 1).add("page", 1);
  if (auto rc = run.Parse(args)) return *rc;
  if (!run.vm.count("page")) {
    std::cerr << "strata inspect page: missing the page number N\n";
    run.PrintHelp(std::cerr);
    return kExitUsage;
  }
  // N and PATH in either order: `page 3 t.ibd` reads as well as `page t.ibd 3`.
  const auto number = ParseUint32;
  std::string page_arg = run.vm["page"].as<std::string>();
  if (!number(page_arg) && number(run.paths[0].string())) {
    const std::filesystem::path file = page_arg;
    page_arg = run.paths[0].string();
    run.paths[0] = file;
  }
  const auto parsed = number(page_arg);
  if (!parsed) {
    std::cerr << "strata inspect page: '" << page_arg << "' is not a page number\n";
    run.PrintHelp(std::cerr);
    return kExitUsage;
  }
  const std::uint32_t n = *parsed;
  const bool records = run.vm.count("records") > 0;
  return run.ForEachFile([&](const SpaceFile& f, nlohmann::json& j, std::string& text, bool& failed) {
    if (n >= f.n_pages()) {
      std::cerr << "strata inspect page: " << f.path().string() << " has " << f.n_pages() << " pages; no page " << n
                << "\n";
      failed = true;
      j = nullptr;
      return;
    }
    PageView v = ViewPage(f, n, records, run.ServerDictionaryFor(f));
    run.Put(v, j, text);
    // Damage found: the exit status says so, as every inspect command's does.
    const ondisk::PageCheck c = f.CheckPage(f.page(n));
    if (!c.valid && !c.all_zero && !c.unverifiable) {
      std::cerr << "strata inspect page: " << f.path().string() << " page " << n << " fails its checksum\n";
      failed = true;
    }
  });
}

int Index(const std::vector<std::string>& args) {
  InspectRun run("index",
                 "PATH...\n\nEach B+tree by level (pages, records, fill min/avg/max and a histogram), its\n"
                 "leaf chain in key order with the steps that are not to the next page on disk,\n"
                 "and its segments (pages used vs allocated).");
  run.ReadsPages();
  if (auto rc = run.Parse(args)) return *rc;
  return run.ForEachFile([&](const SpaceFile& f, nlohmann::json& j, std::string& text, bool&) {
    IndexesReport r = AnalyzeIndexes(f, run.ServerDictionaryFor(f));
    run.Put(r, j, text);
  });
}

int Compare(const std::vector<std::string>& args) {
  InspectRun run("compare",
                 "A.ibd B.ibd\n\nTwo tablespaces of the same rows side by side (two engines, two keys, two row\n"
                 "formats): file size and pages, and per index, matched by name, levels, leaf and\n"
                 "non-leaf pages, records, leaf fill and leaf-chain jumps, with B against A.\n"
                 "`strata-viz --compare A.ibd B.ibd` shows the same with the maps and fill histograms.");
  if (auto rc = run.Parse(args)) return *rc;
  if (run.paths.size() != 2) {
    std::cerr << "strata inspect compare: needs two tablespaces, not " << run.paths.size() << "\n";
    run.PrintHelp(std::cerr);
    return kExitUsage;
  }
  for (const auto& p : run.paths) {
    if (std::filesystem::is_directory(p)) {
      std::cerr << "strata inspect compare: " << p.string() << ": a directory; give two tablespace files\n";
      return kExitUsage;
    }
  }
  std::vector<SpaceFile> files;
  std::vector<Finding> unreadable;
  for (const auto& p : run.paths) {
    auto f = SpaceFile::Open(p, &run.keys);
    if (f.ok())
      files.push_back(std::move(*f));
    else
      unreadable.push_back(
          {Severity::kError, p.string(), std::nullopt, std::nullopt, "cannot open", f.status().ToString()});
  }
  if (!unreadable.empty()) {
    if (run.json) {
      nlohmann::json out = {
          {"command", "compare"}, {"schema_version", kJsonSchemaVersion}, {"findings", nlohmann::json::array()}};
      for (const auto& f : unreadable) out["findings"].push_back(ToJson(f));
      std::cout << out.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
    }
    for (const auto& f : unreadable) std::cerr << "strata inspect compare: " << f.ToString() << "\n";
    return kExitFailure;
  }
  std::vector<SpaceSummary> summaries;
  std::vector<IndexesReport> indexes;
  for (const auto& f : files) {
    summaries.push_back(Summarize(f, run.ServerDictionaryFor(f)));
    indexes.push_back(AnalyzeIndexes(f, run.ServerDictionaryFor(f)));
  }
  const SpaceComparison c =
      CompareSpaces(summaries[0], indexes[0], files[0].file_bytes(), summaries[1], indexes[1], files[1].file_bytes());
  if (run.json) {
    nlohmann::json out = ToJson(c);
    out["command"] = "compare";
    out["schema_version"] = kJsonSchemaVersion;
    std::cout << out.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
  } else {
    std::cout << ToText(c);  // damage found is in it, after the figures
  }
  return c.findings.empty() ? kExitOk : kExitFailure;
}

// --illustrate and --color for the picture commands.
void AddIllustrateOptions(InspectRun& run) {
  run.options.add_options()("illustrate", "draw a picture: one extent per row, Unicode blocks and colour")(
      "color", po::value<std::string>()->default_value("auto"), "auto, always or never");
}

IllustrateOptions IllustrateOptionsFrom(const InspectRun& run) {
  IllustrateOptions o;
  const std::string c = run.vm["color"].as<std::string>();
  o.color = c == "always" || (c == "auto" && ::isatty(STDOUT_FILENO));
  const char* ct = std::getenv("COLORTERM");
  o.truecolor = ct && (std::string(ct) == "truecolor" || std::string(ct) == "24bit");
  return o;
}

int Extents(const std::vector<std::string>& args) {
  InspectRun run("extents",
                 "PATH...\n\nEvery 1 MiB extent: state (free, free_frag, full_frag, segment-owned), owner,\n"
                 "and per page used/free (from the extent descriptor) and fill.");
  run.ReadsPages();
  AddIllustrateOptions(run);
  if (auto rc = run.Parse(args)) return *rc;
  return run.ForEachFile([&](const SpaceFile& f, nlohmann::json& j, std::string& text, bool&) {
    SpaceMap m = BuildSpaceMap(f);
    ExtentsReport r = AnalyzeExtents(f, m);
    const Dictionary names = DictionaryFor(f, run.ServerDictionaryFor(f));
    if (run.json)
      j = ToJson(r, &names);
    else
      text = run.vm.count("illustrate") ? IllustrateExtents(r, names, IllustrateOptionsFrom(run)) : ToText(r, &names);
  });
}

int Lsn(const std::vector<std::string>& args) {
  InspectRun run("lsn",
                 "PATH...\n\nThe LSN of every page: range, histogram and each page's age rank\n"
                 "(never-written and free pages are marked, not counted as oldest).");
  run.ReadsPages();
  AddIllustrateOptions(run);
  if (auto rc = run.Parse(args)) return *rc;
  return run.ForEachFile([&](const SpaceFile& f, nlohmann::json& j, std::string& text, bool&) {
    LsnReport r = AnalyzeLsn(f, BuildSpaceMap(f));
    if (run.json)
      j = ToJson(r);
    else
      text = run.vm.count("illustrate")
                 ? IllustrateLsn(r, f.shape().geometry().pages_per_extent(), IllustrateOptionsFrom(run))
                 : ToText(r);
  });
}

int Schema(const std::vector<std::string>& args) {
  InspectRun run("schema",
                 "PATH...\n\nTable and index definitions the file carries (MySQL 8.0 SDI); for ibdata1\n"
                 "of MySQL 5.7 and MariaDB, the tables and indexes of SYS_TABLES and SYS_INDEXES.");
  if (auto rc = run.Parse(args)) return *rc;
  return run.ForEachFile([&](const SpaceFile& f, nlohmann::json& j, std::string& text, bool&) {
    Dictionary d = f.kind() == SpaceKind::kSystem ? ReadSysDictionary(f) : ReadDictionary(f);
    j = ToJson(d);
    j["file"] = f.path().string();
    text = f.path().string() + "\n" + ToText(d);
  });
}

// What a data directory holds beyond its tablespaces' pages: the undo logs the rollback
// segments reach (their page lists and record chains) and the redo log (header, checkpoints,
// blocks). Given only files, it says these were not checked.
void CheckDirectoryLogs(InspectRun& run, std::vector<Finding>& findings) {
  const auto& paths = run.paths;
  const EncryptionKeys& keys = run.keys;
  bool any_dir = false;
  for (const auto& p : paths) {
    std::error_code ec;
    if (!std::filesystem::is_directory(p, ec)) continue;
    any_dir = true;
    std::vector<Finding> ignored;
    std::vector<SpaceFile> files = OpenSpaces({p}, &ignored, &keys);
    std::vector<const SpaceFile*> logs;
    for (const auto& f : files) {
      if (f.kind() == SpaceKind::kSystem || f.kind() == SpaceKind::kUndo) logs.push_back(&f);
    }
    if (!logs.empty()) {
      for (const auto& f : AnalyzeUndo(logs, /*with_logs=*/true).findings) {
        if (f.severity == Severity::kError) findings.push_back(f);
      }
    }
    const bool has_log =
        std::filesystem::exists(p / "ib_logfile0") || std::filesystem::is_directory(p / "#innodb_redo");
    if (has_log) {
      for (const auto& f : run.RedoOf(p).findings) {
        if (f.severity == Severity::kError && f.what != "crash-unsafe")
          findings.push_back(f);  // that one: BringForward
      }
    } else {
      findings.push_back({Severity::kInfo, p.string(), std::nullopt, std::nullopt, "redo not checked",
                          "no ib_logfile0 or #innodb_redo here"});
    }
  }
  if (!any_dir) {
    findings.push_back(
        {Severity::kInfo, paths.empty() ? "" : paths.front().string(), std::nullopt, std::nullopt,
         "undo and redo not checked",
         "only tablespace files were given; give the data directory to check its undo and redo logs too"});
  }
}

int Check(const std::vector<std::string>& args) {
  InspectRun run("check",
                 "PATH...\n\nChecks every page (checksum, torn, misplaced, B-tree structure, zero-filled roots)\n"
                 "and the links between pages (B-tree siblings, extent and inode lists); for a data\n"
                 "directory, also the undo logs (page lists, record chains) and the redo log (header,\n"
                 "checkpoints, blocks). ROW_FORMAT=COMPRESSED pages are unpacked to check their\n"
                 "records, PAGE_COMPRESSED ones decompressed; encrypted pages are said to be (MariaDB's\n"
                 "stored checksums are still checked). Notes say what was not checked.\n"
                 "Exit status: 0 nothing found, 1 damage found (each finding names file, page, offset).");
  run.ReadsPages();
  if (auto rc = run.Parse(args)) return *rc;
  OrphanFiles orphans;
  return run.ForEachFile(
      [&](const SpaceFile& f, nlohmann::json& j, std::string& text, bool& failed) {
        CheckReport r = CheckSpace(f);
        if (auto wrong = orphans.WrongSpace(f.path(), f.space_id().value())) {
          r.findings.push_back({Severity::kError, f.path().filename().string(), 0,
                                std::size_t{ondisk::FilHeader::kSpaceId}, "not this table's file", *wrong});
        }
        failed |= !r.clean();
        run.Put(r, j, text);
      },
      [&](std::vector<Finding>& findings) {
        CheckDirectoryLogs(run, findings);
        for (const auto& p : run.paths) {
          for (const std::string& name : orphans.Missing(p)) {
            findings.push_back({Severity::kError, (p / name).string(), std::nullopt, std::nullopt, "missing file",
                                "the data directory's catalog lists this table, but its file is not there: the "
                                "server refuses the table"});
          }
        }
      },
      // Not a table's file: its pages are no table's damage (an interrupted CREATE leaves zeros
      // or nothing), and it is not read as one.
      [&](const std::filesystem::path& file) -> std::optional<std::string> {
        if (auto why = orphans.Why(file)) return *why + "; not checked as a table's file";
        return std::nullopt;
      });
}

// Undo needs every tablespace at once: TRX_SYS in ibdata1 points into the undo tablespaces.
int Undo(const std::vector<std::string>& args) {
  InspectRun run("undo",
                 "PATH...\n\nRollback segments and the history list: ibdata1 (TRX_SYS), MySQL 8.0 undo\n"
                 "tablespaces (RSEG_ARRAY) and MariaDB/5.7 undo tablespaces. Give a data directory,\n"
                 "or ibdata1 with the undo files.");
  run.ReadsPages();
  run.options.add_options()("logs", "list every undo log in the history (trx id, trx no, type, records)");
  if (auto rc = run.Parse(args)) return *rc;
  std::vector<Finding> findings;
  std::vector<SpaceFile> files = OpenSpaces(run.paths, &findings, &run.keys);
  run.BringForward(files, findings);
  std::vector<const SpaceFile*> ptrs;
  for (const auto& f : files) {
    if (f.kind() == SpaceKind::kSystem || f.kind() == SpaceKind::kUndo) ptrs.push_back(&f);
  }
  UndoReport r = AnalyzeUndo(ptrs, run.vm.count("logs") > 0);
  bool failed = HasError(findings);
  failed |= HasError(r.findings);
  r.findings.insert(r.findings.begin(), findings.begin(), findings.end());
  if (run.json) {
    nlohmann::json j = ToJson(r);
    j["command"] = "undo";
    j["schema_version"] = kJsonSchemaVersion;
    std::cout << j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
  } else {
    // The history length is the headline: a stale one is said to be stale above it, not only
    // in the findings after every rollback segment.
    for (const Finding& f : findings) {
      if (f.what == "stale pages") std::cout << "Warning: " << f.ToString() << "\n";
    }
    std::cout << ToText(r);
  }
  return failed ? kExitFailure : kExitOk;
}

// A redo log is not a tablespace: one file (or a data directory's ib_logfile0) at a time.
int Redo(const std::vector<std::string>& args) {
  InspectRun run("redo",
                 "PATH...\n\nA redo log (ib_logfile0, #innodb_redo/#ib_redoN, or a data directory holding one):\n"
                 "header, both checkpoints, the log after the newer one, and the records of Strata's,\n"
                 "MySQL 8.0.30+ and MariaDB 10.5+ logs counted by type and by page.");
  run.options.add_options()("records", "list every record after the checkpoint")(
      "page", po::value<std::string>(), "S:P: only the records for space S page P, oldest first (implies --records)")(
      "all", "MySQL 8.0.30+: every record the #ib_redo files still hold, not only those after the checkpoint");
  if (auto rc = run.Parse(args)) return *rc;
  RedoOptions opt;
  opt.records = run.vm.count("records") > 0;
  opt.all = run.vm.count("all") > 0;
  if (run.vm.count("page")) {
    const std::string p = run.vm["page"].as<std::string>();
    const auto colon = p.find(':');
    const auto space = ParseUint32(p.substr(0, colon));
    const auto page = colon == std::string::npos ? std::nullopt : ParseUint32(p.substr(colon + 1));
    if (!space || !page) {
      std::cerr << "strata inspect redo: --page wants SPACE:PAGE, two numbers below 2^32, e.g. 5:4; got '" << p
                << "'\n";
      return kExitUsage;
    }
    opt.page = std::make_pair(*space, *page);
  }
  bool failed = false;
  nlohmann::json out = {
      {"command", "redo"}, {"schema_version", kJsonSchemaVersion}, {"files", nlohmann::json::array()}};
  for (const auto& path : run.paths) {
    RedoReport r = AnalyzeRedo(path, opt);
    failed |= HasError(r.findings);
    if (run.json)
      out["files"].push_back(ToJson(r, opt.page.has_value()));
    else
      std::cout << ToText(r) << (run.paths.size() > 1 ? "\n" : "");
  }
  if (run.json) std::cout << out.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
  return failed ? kExitFailure : kExitOk;
}

int Doublewrite(const std::vector<std::string>& args) {
  InspectRun run("doublewrite",
                 "PATH...\n\nThe page copies a doublewrite area holds (a data directory's ibdata1 area and\n"
                 "#ib_*.dblwr files, or one of them): each set against the page in its tablespace\n"
                 "(newer, equal or older by LSN), whether it is whole, and which damaged pages recovery\n"
                 "would restore from it. Only pages that have a copy are looked at (`inspect check`\n"
                 "reads them all). Exit 1 when a damaged page has no copy that would mend it.");
  run.options.add_options()("slots", "list every copy, slot by slot");
  if (auto rc = run.Parse(args)) return *rc;
  bool failed = false;
  nlohmann::json out = {
      {"command", "doublewrite"}, {"schema_version", kJsonSchemaVersion}, {"paths", nlohmann::json::array()}};
  for (const auto& path : run.paths) {
    DoublewriteReport r = AnalyzeDoublewrite(path, &run.keys);
    failed |= HasError(r.findings);
    if (run.json)
      out["paths"].push_back(ToJson(r));
    else
      std::cout << ToText(r, run.vm.count("slots") > 0) << (run.paths.size() > 1 ? "\n" : "");
  }
  if (run.json) std::cout << out.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
  return failed ? kExitFailure : kExitOk;
}

}  // namespace

std::vector<Command> InspectCommands() {
  return {
      {"summary", "flavour, page size, page types, indexes, checksum failures", Summary},
      {"regions", "runs of consecutive pages of the same type", Regions},
      {"pages", "one row per page with LSN, index, records, space and checksum", Pages},
      {"index", "B+trees by level, leaf-chain order and fragmentation, segments", Index},
      {"extents", "every extent: state, owner, per-page use and fill", Extents},
      {"lsn", "page LSNs: range, histogram, age rank", Lsn},
      {"page", "every header field of one page; --records lists its records", Page},
      {"undo", "rollback segments, history list length, undo logs in the history", Undo},
      {"redo", "a redo log: header, checkpoints, blocks, records by type and page", Redo},
      {"doublewrite", "the page copies a doublewrite area holds, against their tablespace pages", Doublewrite},
      {"compare", "two tablespaces of the same rows side by side, index by index", Compare},
      {"check", "verify checksums, page structure and the links between pages", Check},
      {"schema", "table and index definitions carried in the file (SDI)", Schema},
      {"rows", "a table's rows in key order, as the mysql client prints them", InspectRows},
  };
}

}  // namespace strata::cli
