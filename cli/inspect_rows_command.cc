#include "cli/inspect_rows_command.h"

#include <boost/program_options.hpp>

#include <charconv>
#include <iostream>
#include <optional>

#include "cli/command.h"
#include "cli/key_options.h"
#include "cli/progress.h"
#include "cli/rows_printer.h"
#include "inspect/definition_resolver.h"
#include "inspect/fts_aux.h"
#include "inspect/path_check.h"
#include "inspect/record_history.h"
#include "inspect/redo_apply.h"
#include "inspect/rows.h"
#include "inspect/schema.h"
#include "inspect/space_file.h"
#include "inspect/sys_dictionary.h"
#include "inspect/undo_locator.h"

namespace strata::cli {

namespace po = boost::program_options;
using namespace strata::inspect;

namespace {

constexpr const char* kUsage =
    "PATH [--index NAME] [--create-table FILE.sql [--table NAME]] [--deleted | --history | --as-of TRX]\n"
    "     [--format tsv|json|sql]\n\n"
    "Every row of the table in PATH (a .ibd file), in primary key order, as `mysql -B` prints\n"
    "SELECT * (virtual columns, which the server computes on read, are left out); with --index,\n"
    "that secondary index's entries in its order. The definition comes from the file's own\n"
    "dictionary (MySQL 8.0 and later), or, for MySQL 5.x and MariaDB files, from the server's\n"
    ".frm beside it, else the .cfg of FLUSH TABLES ... FOR EXPORT beside it, else the data\n"
    "directory's ibdata1 (these two lack some types' details, such as DECIMAL's scale), or\n"
    "from --create-table: any SQL file holding the table's CREATE TABLE (a schema dump, the\n"
    "script that made it), which then wins. A FULLTEXT index's tables (FTS_*_INDEX_1..6.ibd)\n"
    "print as INFORMATION_SCHEMA.INNODB_FT_INDEX_TABLE shows them, a line per word position\n"
    "(POSITION, as there, is the gap from the word's previous position; --format sql gives the\n"
    "rows as stored); with --create-table give the CREATE TABLE of the table they index.\n"
    "A value the definition cannot decode is printed as \"(unknown: REASON)\", never guessed,\n"
    "and the exit status is then 1. Damaged pages are named on stderr (exit 1) and read past:\n"
    "a lost leaf loses its own rows only.\n\n"
    "--history and --as-of rebuild older versions of rows from the undo logs on disk, as MVCC\n"
    "does; the data directory's ibdata1 and undo tablespaces (undo001.., undo_001.., *.ibu,\n"
    "beside the ibdata1 found next to PATH or one directory up) must be at hand.\n"
    "--history adds a line for each older version, with the transaction that wrote it and what\n"
    "it did. A primary key UPDATE shows as a delete of the old key and an insert of the new one,\n"
    "as InnoDB makes it. Changes of transactions that had not committed when the files were\n"
    "written are marked \"(not committed)\". Where purge has removed the undo records that\n"
    "would tell, the line says \"(purged)\"; nothing is guessed.\n"
    "--as-of N prints the rows that a read view sees when it sees every committed transaction\n"
    "below N and none from N on. SHOW ENGINE INNODB STATUS prints such a view as \"will not see\n"
    "trx with id >= N, sees < N\". A view whose two numbers differ also hides the transactions\n"
    "that were active when it began, and the status line does not list them. If purge has\n"
    "already passed N, this is said and the exit status is 1.\n"
    "Tables altered instantly (MySQL row versions, MariaDB's instant ALTER) print their rows,\n"
    "but their history is not followed.";

constexpr std::uint64_t kVersionProblemsSaid = 10;  // each on a line of its own; then a count
constexpr const char* kSays = "strata inspect rows: ";

int Fail(const std::string& message) {
  std::cerr << kSays << message << "\n";
  return kExitFailure;
}

struct RowsOptions {
  std::string path;
  RowFormat format = RowFormat::kTsv;
  std::optional<std::string> index;
  DefinitionSources sources;
  bool deleted = false;
  bool history = false;
  std::optional<std::uint64_t> as_of;
  bool apply_redo = false;
  EncryptionKeys keys;

  bool with_deleted() const { return deleted || history; }
  bool versions() const { return history || as_of; }
};

po::options_description RowsOptionsDescription() {
  po::options_description options("Options");
  options.add_options()("index", po::value<std::string>(), "read this index instead of the clustered one")(
      "create-table", po::value<std::string>(), "take the definition from the CREATE TABLE in this SQL file")(
      "table", po::value<std::string>(),
      "with --create-table: which table of the file, TABLE or DATABASE.TABLE (default: the first)")(
      "deleted", "also rows that are delete-marked but not purged (an extra column says which)")(
      "format", po::value<std::string>()->default_value("tsv"),
      "tsv (as mysql -B), json, or sql (INSERT statements that restore the rows)")("json", "same as --format json")(
      "history",
      "also each row's older versions, from the undo logs on disk: a line each, with (version), "
      "(DB_TRX_ID) and (change) columns")("as-of", po::value<std::string>()->value_name("TRX"),
                                          "the rows as a read view sees them that sees every "
                                          "committed transaction below TRX and none from TRX on")(
      "apply-redo",
      "replay the redo log of the data directory the file is in (MariaDB 10.8+, Strata) onto its pages in "
      "memory first, as crash recovery would; the file is never written")("help,h", "show this help");
  AddKeyOptions(options);
  return options;
}

// The options, or the exit status when they cannot be run (said, with the usage where it helps).
std::optional<int> ParseOptions(const std::vector<std::string>& args, RowsOptions& o) {
  const po::options_description options = RowsOptionsDescription();
  po::options_description all;
  all.add(options).add_options()("path", po::value<std::vector<std::string>>(), "");
  po::positional_options_description pos;
  pos.add("path", -1);
  po::variables_map vm;
  auto help = [&](std::ostream& out) { out << "Usage: strata inspect rows " << kUsage << "\n\n" << options << "\n"; };
  try {
    po::store(po::command_line_parser(args).options(all).positional(pos).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    std::cerr << kSays << e.what() << "\n";
    help(std::cerr);
    return kExitUsage;
  }
  if (vm.count("help")) {
    help(std::cout);
    return kExitOk;
  }
  if (!vm.count("path") || vm["path"].as<std::vector<std::string>>().size() != 1) {
    std::cerr << kSays << "give one tablespace file\n";
    help(std::cerr);
    return kExitUsage;
  }
  auto usage_error = [](const std::string& why) {
    std::cerr << kSays << why << "\n";
    return kExitUsage;
  };
  o.path = vm["path"].as<std::vector<std::string>>()[0];
  const std::string fmt_name = vm.count("json") ? "json" : vm["format"].as<std::string>();
  if (fmt_name == "tsv")
    o.format = RowFormat::kTsv;
  else if (fmt_name == "json")
    o.format = RowFormat::kJson;
  else if (fmt_name == "sql")
    o.format = RowFormat::kSql;
  else
    return usage_error("--format is tsv, json or sql, not '" + fmt_name + "'");
  if (vm.count("json") && !vm["format"].defaulted() && vm["format"].as<std::string>() != "json")
    return usage_error("--json and --format " + vm["format"].as<std::string>() + " ask for two formats");
  if (vm.count("table") && !vm.count("create-table"))
    return usage_error("--table names a table of --create-table's file; give that file");
  if (vm.count("index")) o.index = vm["index"].as<std::string>();
  if (vm.count("create-table")) o.sources.create_table = vm["create-table"].as<std::string>();
  if (vm.count("table")) o.sources.table = vm["table"].as<std::string>();
  o.deleted = vm.count("deleted") > 0;
  o.history = vm.count("history") > 0;
  o.apply_redo = vm.count("apply-redo") > 0;
  if (o.index && o.format == RowFormat::kSql)
    return usage_error("--format sql restores whole rows; a secondary index holds only some columns");
  if (vm.count("as-of")) {
    // A transaction id: 1 to 2^48 - 1 (DB_TRX_ID is 6 bytes).
    const std::string text = vm["as-of"].as<std::string>();
    std::uint64_t n = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
    if (ec != std::errc() || end != text.data() + text.size() || n == 0 || n >= (std::uint64_t{1} << 48))
      return usage_error("--as-of takes a transaction id, 1 to 281474976710655, not '" + text + "'");
    o.as_of = n;
  }
  if (o.versions() && o.index)
    return usage_error("older versions are kept for a table's rows, not for a secondary index's entries");
  if (o.history + o.as_of.has_value() + o.deleted > 1)
    return usage_error("--history, --as-of and --deleted each choose which versions to print: give one");
  if (o.history && o.format == RowFormat::kSql)
    return usage_error("--history and --format sql do not go together (a restore takes one version of each row)");
  if (o.with_deleted() && o.format == RowFormat::kSql)
    return usage_error("--deleted and --format sql do not go together (a restore must not bring back deleted rows)");
  auto keys = KeysFromOptions(vm);
  if (!keys.ok()) return Fail(keys.status().message());
  o.keys = std::move(*keys);
  return std::nullopt;
}

// The file and, for older versions, the undo tablespaces, brought forward by the redo log when
// asked (else a log past the pages is warned of).
struct OpenedFiles {
  std::optional<SpaceFile> file;
  std::vector<SpaceFile> undo;
};

std::optional<int> OpenFiles(const RowsOptions& o, OpenedFiles& opened) {
  if (auto refused = RefusedPath(o.path)) return Fail(o.path + ": " + *refused);
  auto file = SpaceFile::Open(o.path, &o.keys);
  if (!file.ok()) return Fail(o.path + ": " + file.status().ToString());
  opened.file = std::move(*file);
  if (o.versions()) {  // older versions are in the undo logs of the system and undo tablespaces
    auto undo = OpenUndoSpaces(o.path, &o.keys);
    if (!undo.ok()) return Fail(o.path + ": " + undo.status().message());
    opened.undo = std::move(*undo);
  }
  // The data directory the file is in (its own directory or the one above, holding a redo
  // log): its changes past the checkpoint replayed, or said to be missing from the pages.
  const std::filesystem::path datadir = DataDirOf(o.path).value_or(std::filesystem::path());
  if (datadir.empty()) {
    if (o.apply_redo) return Fail(o.path + ": --apply-redo: no redo log beside the file or in the directory above it");
    return std::nullopt;
  }
  if (!o.apply_redo) {
    if (auto stale = StaleLogFinding(datadir)) std::cerr << kSays << "warning: " << stale->ToString() << "\n";
    return std::nullopt;
  }
  std::vector<SpaceFile> all;
  all.push_back(std::move(*opened.file));
  for (auto& u : opened.undo) all.push_back(std::move(u));
  RedoApplyResult applied = ApplyRedo(datadir, all);
  for (const auto& f : applied.findings) std::cerr << kSays << ToString(f.severity) << ": " << f.ToString() << "\n";
  if (HasError(applied.findings)) return kExitFailure;
  opened.file = std::move(all[0]);
  for (std::size_t i = 1; i < all.size(); ++i) opened.undo[i - 1] = std::move(all[i]);
  return std::nullopt;
}

// Why the file's pages cannot be read record by record, if they cannot.
std::optional<std::string> UnreadablePages(const SpaceFile& file) {
  if (!file.shape().flags && file.page_size() < ondisk::kDefaultPageSize) {
    // A ROW_FORMAT=COMPRESSED table: only page 0's flags say what its pages unpack to.
    return "page 0's tablespace flags are unreadable and its pages are " + std::to_string(file.page_size()) +
           " bytes: this looks like a ROW_FORMAT=COMPRESSED table, and without the flags the size its pages unpack "
           "to is not known";
  }
  // Encrypted pages that were not decrypted (no key given, or not the right one) hold no rows;
  // page 3 is the first a table's data (or MySQL's dictionary) is on.
  if (file.n_pages() <= 3 || !file.IsEncryptedPage(file.page(3))) return std::nullopt;
  if (const auto& crypt = file.unpacked().mariadb_crypt) {
    return "the tablespace is encrypted by MariaDB (key id " + std::to_string(crypt->key_id) +
           "); its pages need the key: give the server's key file with --key-file";
  }
  return "the tablespace is encrypted (ENCRYPTION='Y'); its pages need the server's keyring: give its keyring_file "
         "with --keyring";
}

// The index --index names (default: the clustered one), or why it cannot be listed.
ondisk::Result<const IndexDef*> ChooseIndex(const TableDef& table, const RowsOptions& o) {
  const IndexDef* index = table.Clustered();
  if (o.index) {
    index = nullptr;
    for (const auto& ix : table.indexes) {
      if (ix.name == *o.index) index = &ix;
    }
    if (!index) {
      std::string names;
      for (const auto& ix : table.indexes) {
        if (!ix.leaf.fields.empty()) names += (names.empty() ? "" : ", ") + ix.name;
      }
      return ondisk::Status::NotFound(o.path + ": table " + table.name + " has no index '" + *o.index +
                                      "' whose entries can be listed (these can: " + names +
                                      "; FULLTEXT and SPATIAL indexes are not read this way)");
    }
  }
  if (index->root_page == ondisk::kFilNull) {
    return ondisk::Status::NotFound(o.path + ": where index " + index->name +
                                    " starts is recorded in the server's dictionary (SYS_INDEXES in the data "
                                    "directory's ibdata1), which is not at hand");
  }
  return index;
}

// Older versions of rows: where their undo records are, how a record's are followed, and what
// of them could not be told.
class Versions {
 public:
  Versions(const RowsOptions& o, const std::vector<SpaceFile>& undo_files, const SpaceFile& file, const TableDef& table,
           const IndexDef& index)
      : o_(o), index_(index) {
    std::vector<const SpaceFile*> spaces;
    for (const auto& u : undo_files) spaces.push_back(&u);
    locator_.emplace(spaces);
    for (const auto& u : undo_files) {
      for (const auto& f : u.findings()) {
        if (f.severity == Severity::kError) std::cerr << kSays << "warning: " << f.ToString() << "\n";
      }
    }
    const auto& gaps = locator_->gaps();
    for (std::size_t i = 0; i < gaps.size() && i < kVersionProblemsSaid; ++i)
      std::cerr << kSays << "warning: " << gaps[i] << " (versions whose undo records are there cannot be rebuilt)\n";
    if (gaps.size() > kVersionProblemsSaid) {
      std::cerr << kSays << "warning: " << gaps.size() - kVersionProblemsSaid
                << " more places in the undo logs cannot be read\n";
    }
    history_.emplace(file, table, index, *locator_);
    if (!history_->refused().empty()) std::cerr << kSays << o.path << ": " << history_->refused() << "\n";
    // Purge removes the versions of transactions committed before the oldest commit still in
    // the history; a transaction at or above N commits after N, so a view below it is whole.
    const std::uint64_t oldest = locator_->oldest_history_trx_no().value_or(locator_->max_trx_id() + 1);
    if (o.as_of && *o.as_of + 1 < oldest) {
      std::cerr << kSays << "warning: purge has removed the undo logs of transactions committed before number "
                << oldest << ": a read view below transaction " << *o.as_of
                << " may have seen versions that are gone (rows deleted since are then missing here, without a "
                   "word)\n";
      purge_passed_view_ = true;
    }
  }

  // --history: every version of `row`; --as-of: the one the read view sees, if it sees the row.
  void Print(const Row& row, const std::vector<RowColumn>& columns, RowsPrinter& printer) {
    const std::vector<RecordVersion> versions = history_->Versions(row);
    for (const RecordVersion& v : versions) {
      // Damage, files not at hand (said once above when the table's history is refused).
      const bool unreadable = v.change.empty() && !v.purged;
      if (unreadable && ++unreadable_ <= kVersionProblemsSaid && history_->refused().empty()) {
        std::cerr << kSays << o_.path << ": the record at page " << row.page << " offset " << row.offset << ": "
                  << v.unknown << "\n";
      }
    }
    if (o_.history) {
      for (std::size_t i = 1; i < versions.size(); ++i) {
        for (const auto& c : versions[i].row.cells) unknown_values_ += !c.unknown.empty();
      }
      printer.Versions(versions);
    } else if (auto seen = VersionSeenBy(versions, *o_.as_of, columns, index_, unknown_values_)) {
      printer.Row(*seen);
    }
  }

  // What could not be told, said after the rows; whether all was.
  bool SayWhatWasNotWhole() const {
    if (unreadable_ > kVersionProblemsSaid) {
      std::cerr << kSays << unreadable_ << " rows in all have versions that cannot be told (the first "
                << kVersionProblemsSaid << " are said above)\n";
    }
    if (unknown_values_) std::cerr << kSays << unknown_values_ << " value(s) of older versions could not be given\n";
    return unreadable_ == 0 && unknown_values_ == 0 && !purge_passed_view_;
  }

 private:
  const RowsOptions& o_;
  const IndexDef& index_;
  std::optional<UndoLocator> locator_;
  std::optional<RecordHistory> history_;
  bool purge_passed_view_ = false;
  std::uint64_t unreadable_ = 0;
  std::uint64_t unknown_values_ = 0;
};

}  // namespace

int InspectRows(const std::vector<std::string>& args) {
  RowsOptions o;
  if (auto exit = ParseOptions(args, o)) return *exit;
  OpenedFiles opened;
  if (auto exit = OpenFiles(o, opened)) return *exit;
  const SpaceFile& file = *opened.file;
  if (auto why = UnreadablePages(file)) return Fail(o.path + ": " + *why);

  ServerDictionaries servers;
  o.sources.server = servers.For(file);
  auto resolved = ResolveDefinition(file, o.sources);
  if (!resolved.ok()) return Fail(resolved.status().message());
  for (const auto& note : resolved->notes) std::cerr << kSays << note << "\n";
  if (!resolved->table) return Fail(NoDefinitionMessage(file));
  if (o.format == RowFormat::kSql) {
    // INSERTs carry the digits that read back as the same FLOAT, not the six the client shows.
    for (auto& t : resolved->dict.tables) t.UseExactFloats();
  }
  const TableDef& table = *resolved->Table();
  auto chosen = ChooseIndex(table, o);
  if (!chosen.ok()) return Fail(chosen.status().message());
  const IndexDef& index = **chosen;

  // A FULLTEXT index table reads as INNODB_FT_INDEX_TABLE shows it: a line per word position.
  const std::optional<FtsAuxFile> aux = FtsAuxOf(file.path());
  const bool expand = aux && aux->kind == FtsAuxFile::kIndex && index.clustered && o.format != RowFormat::kSql;
  const std::vector<RowColumn> columns = expand ? FtsIndexColumns() : RowColumns(table, index);
  std::optional<Versions> versions;
  if (o.versions()) versions.emplace(o, opened.undo, file, table, index);
  RowsPrinter printer(
      o.format, columns, o.with_deleted(), o.history,
      {o.path, table.schema.empty() ? table.name : table.schema + "." + table.name, index.name, table.name});
  printer.Begin();
  ProgressBar progress("rows", file.n_pages());
  std::uint32_t last_page = ondisk::kFilNull;
  std::uint64_t pages_seen = 0, bad_ilists = 0;
  RowScan scan = ScanRows(file, table, index, o.with_deleted() || o.as_of, [&](const Row& row) {
    if (row.page != last_page) {
      last_page = row.page;
      progress.Update(++pages_seen);
    }
    if (versions) return versions->Print(row, columns, printer);
    if (!expand) return printer.Row(row);
    if (const auto st = ExpandIlist(row, [&](const Row& r) { printer.Row(r); }); !st.ok()) {
      ++bad_ilists;
      std::cerr << kSays << o.path << ": " << st.message() << "\n";
    }
  });
  progress.Finish();
  printer.End(scan.findings);

  // What opening the file found (a damaged page 0, a cut tail) is said too: the rows may be
  // all there is, but the file is not whole.
  std::size_t file_errors = 0;
  for (const auto& f : file.findings()) {
    std::cerr << kSays << f.ToString() << "\n";
    file_errors += f.severity == Severity::kError;
  }
  for (const auto& f : scan.findings) std::cerr << kSays << f.ToString() << "\n";
  const bool versions_whole = !versions || versions->SayWhatWasNotWhole();
  if (scan.unknown_cells) {
    const std::uint64_t left_out = printer.rows_left_out();
    std::cerr << kSays << scan.unknown_cells << " value(s) could not be decoded"
              << (left_out ? " (" + std::to_string(left_out) + " row(s) left out of the INSERTs)" : "") << "\n";
  }
  return scan.findings.empty() && scan.unknown_cells == 0 && bad_ilists == 0 && file_errors == 0 && versions_whole
             ? kExitOk
             : kExitFailure;
}

}  // namespace strata::cli
