#include "cli/inspect_rows_command.h"

#include <boost/program_options.hpp>

#include <algorithm>
#include <charconv>
#include <fstream>
#include <iostream>
#include <iterator>
#include <optional>

#include <fmt/format.h>

#include "cli/command.h"
#include "cli/key_options.h"
#include "cli/progress.h"
#include "inspect/path_check.h"
#include "inspect/redo_apply.h"
#include "inspect/cfg.h"
#include "inspect/create_table.h"
#include "inspect/record_history.h"
#include "inspect/undo_locator.h"
#include "inspect/frm.h"
#include "inspect/fts_aux.h"
#include "inspect/row_output.h"
#include "inspect/rows.h"
#include "inspect/schema.h"
#include "inspect/space_file.h"
#include "inspect/sys_dictionary.h"

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

constexpr std::size_t kRowsPerInsert = 1000;
constexpr std::uint64_t kVersionProblemsSaid = 10;  // each on a line of its own; then a count

int Fail(const std::string& message) {
  std::cerr << "strata inspect rows: " << message << "\n";
  return kExitFailure;
}

// The table the .cfg beside `file` describes, added to `dict`; a .cfg that cannot be read is said.
void AppendCfgBeside(const SpaceFile& file, Dictionary& dict) {
  auto cfg = TableFromCfgBeside(file);
  if (cfg.ok())
    dict.tables.push_back(std::move(*cfg));
  else if (!cfg.status().IsNotFound())
    std::cerr << "strata inspect rows: " << cfg.status().message() << " (not used)\n";
}

// Notes on stderr for what the output leaves out by design: virtual columns (computed by the
// server, not stored) and, when the definition is SYS_COLUMNS', whether an UNSIGNED integer is
// ZEROFILL (not recorded there; the server would pad it with zeros).
void SayWhatIsLeftOut(const TableDef& table, bool from_sys_columns) {
  std::string virtuals, unsigned_ints;
  for (const auto& c : table.columns) {
    if (c.is_virtual && !c.dropped) virtuals += (virtuals.empty() ? "" : ", ") + c.name;
    if (from_sys_columns && !c.hidden && c.format.type == ondisk::ColumnType::kInt && c.format.is_unsigned) {
      unsigned_ints += (unsigned_ints.empty() ? "" : ", ") + c.name;
    }
  }
  if (!virtuals.empty()) {
    std::cerr << "strata inspect rows: note: left out, as the file does not store them: virtual column(s) " << virtuals
              << "\n";
  }
  if (!unsigned_ints.empty()) {
    std::cerr << "strata inspect rows: note: SYS_COLUMNS does not say whether " << unsigned_ints << " (UNSIGNED) "
              << "are ZEROFILL (the server would pad them with zeros): the .frm or --create-table says\n";
  }
}

// The table `table` of the SQL file; without one, the table named like `file`, else the first.
ondisk::Result<TableDef> DefinitionFromSql(const std::filesystem::path& file, const std::string& sql_path,
                                           const std::string& table, ondisk::Flavor flavor) {
  std::ifstream in(sql_path, std::ios::binary);
  if (!in) return ondisk::Status::IoError(sql_path + ": cannot be read");
  const std::string sql((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  auto def = TableFromCreateTable(sql, table.empty() ? file.stem().string() : table, flavor);
  if (!def.ok() && table.empty()) def = TableFromCreateTable(sql, "", flavor);
  if (!def.ok()) return def.status().WithContext(sql_path);
  return def;
}

// The definition of a FULLTEXT auxiliary table: fixed by InnoDB, but for an INDEX table's
// words, whose type is that of the FULLTEXT index's first column in `parent`.
ondisk::Result<TableDef> FtsDefinition(const FtsAuxFile& aux, const TableDef* parent, const SpaceFile& file) {
  const ColumnDef* word = parent ? FtsWordColumn(*parent) : nullptr;
  if (parent && !word && aux.kind == FtsAuxFile::kIndex) {
    return ondisk::Status::InvalidArgument(
        "table " + parent->name +
        " has no FULLTEXT index (or several whose first "
        "columns differ in type): give the CREATE TABLE of the table this index is of");
  }
  auto def = FtsAuxTable(aux, word);
  if (!def.ok()) return def.status().WithContext(file.path().string());
  STRATA_RETURN_IF_ERROR(PlaceInFile(*def, file));
  return def;
}

}  // namespace

int InspectRows(const std::vector<std::string>& args) {
  po::options_description options("Options");
  options.add_options()("index", po::value<std::string>(), "read this index instead of the clustered one")(
      "create-table", po::value<std::string>(), "take the definition from the CREATE TABLE in this SQL file")(
      "table", po::value<std::string>(), "with --create-table: which table of the file (default: the first)")(
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
    std::cerr << "strata inspect rows: " << e.what() << "\n";
    help(std::cerr);
    return kExitUsage;
  }
  if (vm.count("help")) {
    help(std::cout);
    return kExitOk;
  }
  if (!vm.count("path") || vm["path"].as<std::vector<std::string>>().size() != 1) {
    std::cerr << "strata inspect rows: give one tablespace file\n";
    help(std::cerr);
    return kExitUsage;
  }
  const std::string fmt_name = vm.count("json") ? "json" : vm["format"].as<std::string>();
  RowFormat format;
  if (fmt_name == "tsv")
    format = RowFormat::kTsv;
  else if (fmt_name == "json")
    format = RowFormat::kJson;
  else if (fmt_name == "sql")
    format = RowFormat::kSql;
  else {
    std::cerr << "strata inspect rows: --format is tsv, json or sql, not '" << fmt_name << "'\n";
    return kExitUsage;
  }
  if (vm.count("json") && !vm["format"].defaulted() && vm["format"].as<std::string>() != "json") {
    std::cerr << "strata inspect rows: --json and --format " << vm["format"].as<std::string>()
              << " ask for two formats\n";
    return kExitUsage;
  }
  if (vm.count("table") && !vm.count("create-table")) {
    std::cerr << "strata inspect rows: --table names a table of --create-table's file; give that file\n";
    return kExitUsage;
  }
  if (vm.count("index") && format == RowFormat::kSql) {
    std::cerr << "strata inspect rows: --format sql restores whole rows; a secondary index holds only some columns\n";
    return kExitUsage;
  }
  const bool history = vm.count("history") > 0;
  std::optional<std::uint64_t> as_of;
  if (vm.count("as-of")) {
    // A transaction id: 1 to 2^48 - 1 (DB_TRX_ID is 6 bytes).
    const std::string text = vm["as-of"].as<std::string>();
    std::uint64_t n = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
    if (ec != std::errc() || end != text.data() + text.size() || n == 0 || n >= (std::uint64_t{1} << 48)) {
      std::cerr << "strata inspect rows: --as-of takes a transaction id, 1 to 281474976710655, not '" << text << "'\n";
      return kExitUsage;
    }
    as_of = n;
  }
  if ((history || as_of) && vm.count("index")) {
    std::cerr
        << "strata inspect rows: older versions are kept for a table's rows, not for a secondary index's entries\n";
    return kExitUsage;
  }
  if (history + (as_of.has_value()) + vm.count("deleted") > 1) {
    std::cerr
        << "strata inspect rows: --history, --as-of and --deleted each choose which versions to print: give one\n";
    return kExitUsage;
  }
  if (history && format == RowFormat::kSql) {
    std::cerr << "strata inspect rows: --history and --format sql do not go together (a restore takes one version of "
                 "each row)\n";
    return kExitUsage;
  }
  const bool with_deleted = vm.count("deleted") > 0 || history;
  if (with_deleted && format == RowFormat::kSql) {
    std::cerr << "strata inspect rows: --deleted and --format sql do not go together (a restore must not bring back "
                 "deleted rows)\n";
    return kExitUsage;
  }

  auto keys = KeysFromOptions(vm);
  if (!keys.ok()) return Fail(keys.status().message());
  const std::string path = vm["path"].as<std::vector<std::string>>()[0];
  if (auto refused = RefusedPath(path)) return Fail(path + ": " + *refused);
  auto file = SpaceFile::Open(path, &*keys);
  if (!file.ok()) return Fail(path + ": " + file.status().ToString());
  // The data directory the file is in (its own directory or the one above, holding a redo
  // log): its changes past the checkpoint replayed, or said to be missing from the pages.
  const std::filesystem::path datadir = DataDirOf(path).value_or(std::filesystem::path());
  // Older versions are in the undo logs of the system and undo tablespaces.
  std::vector<SpaceFile> undo_files;
  if (history || as_of) {
    auto opened = OpenUndoSpaces(path, &*keys);
    if (!opened.ok()) return Fail(path + ": " + opened.status().message());
    undo_files = std::move(*opened);
  }
  if (!datadir.empty() && vm.count("apply-redo")) {
    std::vector<SpaceFile> all;
    all.push_back(std::move(*file));
    for (auto& u : undo_files) all.push_back(std::move(u));
    RedoApplyResult applied = ApplyRedo(datadir, all);
    for (const auto& f : applied.findings)
      std::cerr << "strata inspect rows: " << ToString(f.severity) << ": " << f.ToString() << "\n";
    if (HasError(applied.findings)) return kExitFailure;
    file = std::move(all[0]);
    for (std::size_t i = 1; i < all.size(); ++i) undo_files[i - 1] = std::move(all[i]);
  } else if (!datadir.empty()) {
    if (auto stale = StaleLogFinding(datadir))
      std::cerr << "strata inspect rows: warning: " << stale->ToString() << "\n";
  } else if (vm.count("apply-redo")) {
    return Fail(path + ": --apply-redo: no redo log beside the file or in the directory above it");
  }
  // Page bodies that are not plain B-tree pages cannot be read record by record.
  if (!file->flags() && file->page_size() < ondisk::kDefaultPageSize) {
    // A ROW_FORMAT=COMPRESSED table: only page 0's flags say what its pages unpack to.
    return Fail(path + ": page 0's tablespace flags are unreadable and its pages are " +
                std::to_string(file->page_size()) +
                " bytes: this looks like a ROW_FORMAT=COMPRESSED table, and without the flags the size its pages "
                "unpack to is not known");
  }
  // Encrypted pages that were not decrypted (no key given, or not the right one) hold no rows;
  // page 3 is the first a table's data (or MySQL's dictionary) is on.
  if (file->n_pages() > 3 && file->IsEncryptedPage(file->page(3))) {
    if (const auto& crypt = file->mariadb_crypt()) {
      return Fail(path + ": the tablespace is encrypted by MariaDB (key id " + std::to_string(crypt->key_id) +
                  "); its pages need the key: give the server's key file with --key-file");
    }
    return Fail(path +
                ": the tablespace is encrypted (ENCRYPTION='Y'); its pages need the server's keyring: give its "
                "keyring_file with --keyring");
  }
  const std::optional<FtsAuxFile> aux = FtsAuxOf(file->path());
  ServerDictionaries servers;
  Dictionary dict;
  bool given = false;          // dict.tables[0] is the file's table, placed in it (--create-table, .frm)
  std::size_t own_tables = 0;  // dict.tables before the server's SYS_* ones
  if (vm.count("create-table")) {
    auto def = DefinitionFromSql(file->path(), vm["create-table"].as<std::string>(),
                                 vm.count("table") ? vm["table"].as<std::string>() : "", file->flavor());
    if (!def.ok()) return Fail(def.status().message());
    if (aux)
      def = FtsDefinition(*aux, &*def, *file);  // the SQL is the indexed table's
    else if (const auto placed = PlaceInFile(*def, *file); !placed.ok())
      def = placed;
    if (!def.ok()) return Fail(def.status().message());
    dict.tables.push_back(std::move(*def));
    given = true;
    AppendCfgBeside(*file, dict);  // for secondary roots
    if (const Dictionary* server = servers.For(*file)) dict.Append(*server);
  } else {
    dict = ReadDictionary(*file);  // MySQL 8.0's SDI
    // MySQL 5.x and MariaDB: the server's .frm beside the file, else its ibdata1's SYS_COLUMNS.
    if (dict.tables.empty() && !aux) {
      if (auto frm = TableFromFrmBeside(*file); frm.ok())
        dict.tables.push_back(std::move(*frm)), given = true;
      else if (!frm.status().IsNotFound())
        std::cerr << "strata inspect rows: " << frm.status().message()
                  << " (read with SYS_COLUMNS instead, if ibdata1 is at hand)\n";
    }
    // The .cfg of FLUSH TABLES ... FOR EXPORT: SYS_COLUMNS' facts and every index's root.
    if (!aux) AppendCfgBeside(*file, dict);
    own_tables = dict.tables.size();
    if (const Dictionary* server = servers.For(*file)) dict.Append(*server);
  }
  // The table whose clustered index is rooted in this file (a server's dictionary lists all);
  // one given for the file is its table even when its root page is damaged.
  TableDef* table = given ? &dict.tables.front() : nullptr;
  for (auto& t : dict.tables) {
    if (!table && !t.columns.empty() && RootedIn(t, *file)) table = &t;
  }
  // A definition that does not know its secondary indexes' roots (.frm, --create-table) takes
  // them from the server's SYS_INDEXES, by name, when its ibdata1 is at hand.
  for (const auto& other : dict.tables) {
    if (!table || &other == table || !RootedIn(other, *file) || other.Clustered()->id != table->Clustered()->id)
      continue;
    for (auto& ix : table->indexes) {
      for (const auto& sys : other.indexes) {
        if (!ix.clustered && ix.root_page == ondisk::kFilNull && sys.name == ix.name)
          ix.root_page = sys.root_page, ix.id = sys.id;
      }
    }
  }
  if (!table && aux) {
    auto def = FtsDefinition(*aux, nullptr, *file);
    if (!def.ok()) return Fail(def.status().message());
    dict.tables.push_back(std::move(*def));
    table = &dict.tables.back();
  }
  if (!table) {
    return Fail(path +
                ": no table definition with columns: MySQL 8.0 files carry one (SDI), MySQL 5.x and MariaDB "
                "keep theirs in the ibdata1 of the data directory (SYS_COLUMNS); without one, give the table's CREATE "
                "TABLE with --create-table FILE.sql");
  }
  SayWhatIsLeftOut(*table, !given && static_cast<std::size_t>(table - dict.tables.data()) >= own_tables);
  const IndexDef* index = table->Clustered();
  if (vm.count("index")) {
    index = nullptr;
    for (const auto& ix : table->indexes) {
      if (ix.name == vm["index"].as<std::string>()) index = &ix;
    }
    if (!index) {
      std::string names;
      for (const auto& ix : table->indexes) {
        if (!ix.leaf.fields.empty()) names += (names.empty() ? "" : ", ") + ix.name;
      }
      return Fail(path + ": table " + table->name + " has no index '" + vm["index"].as<std::string>() +
                  "' whose entries can be " + "listed (these can: " + names +
                  "; FULLTEXT and SPATIAL indexes are not read this way)");
    }
  }
  if (index->root_page == ondisk::kFilNull) {
    return Fail(path + ": where index " + index->name +
                " starts is recorded in the server's dictionary (SYS_INDEXES in the "
                "data directory's ibdata1), which is not at hand");
  }

  if (format == RowFormat::kSql) {
    // INSERTs carry the digits that read back as the same FLOAT, not the six the client shows.
    for (auto& t : dict.tables) {
      for (auto& c : t.columns) c.format.exact_float = true;
      for (auto& ix : t.indexes) {
        for (auto& f : ix.formats) f.exact_float = true;
      }
    }
  }
  // A FULLTEXT index table reads as INNODB_FT_INDEX_TABLE shows it: a line per word position.
  const bool expand = aux && aux->kind == FtsAuxFile::kIndex && index->clustered && format != RowFormat::kSql;
  const std::vector<RowColumn> columns = expand ? FtsIndexColumns() : RowColumns(*table, *index);
  ProgressBar progress("rows", file->n_pages());
  std::uint32_t last_page = ondisk::kFilNull;
  std::uint64_t pages_seen = 0;
  std::string out;
  const std::string insert = format == RowFormat::kSql ? SqlInsertPrefix(table->name, columns) : "";
  std::size_t in_insert = 0;                           // rows of the INSERT being written
  std::uint32_t damaged_page_said = ondisk::kFilNull;  // the failing page whose rows follow
  auto end_insert = [&] {
    if (in_insert) out += ";\n";
    in_insert = 0;
  };
  std::uint64_t rows_left_out = 0;
  auto flush = [&](bool all) {
    if (all) end_insert();
    if (all || out.size() >= (1 << 20)) {
      std::cout << out;
      out.clear();
    }
  };

  // Older versions: where their undo records are, and how a record's are followed.
  bool purge_passed_view = false;
  std::vector<const SpaceFile*> undo_spaces;
  for (const auto& u : undo_files) undo_spaces.push_back(&u);
  std::optional<UndoLocator> locator;
  std::optional<RecordHistory> versions_of;
  if (history || as_of) {
    locator.emplace(undo_spaces);
    for (const auto& u : undo_files) {
      for (const auto& f : u.findings()) {
        if (f.severity == Severity::kError) std::cerr << "strata inspect rows: warning: " << f.ToString() << "\n";
      }
    }
    const auto& gaps = locator->gaps();
    for (std::size_t i = 0; i < gaps.size() && i < kVersionProblemsSaid; ++i) {
      std::cerr << "strata inspect rows: warning: " << gaps[i]
                << " (versions whose undo records are there cannot be rebuilt)\n";
    }
    if (gaps.size() > kVersionProblemsSaid) {
      std::cerr << "strata inspect rows: warning: " << gaps.size() - kVersionProblemsSaid << " more places in the undo "
                << "logs cannot be read\n";
    }
    versions_of.emplace(*file, *table, *index, *locator);
    if (!versions_of->refused().empty()) {
      std::cerr << "strata inspect rows: " << path << ": " << versions_of->refused() << "\n";
    }
    // Purge removes the versions of transactions committed before the oldest commit still in
    // the history; a transaction at or above N commits after N, so a view below it is whole.
    const std::uint64_t oldest = locator->oldest_history_trx_no().value_or(locator->max_trx_id() + 1);
    if (as_of && *as_of + 1 < oldest) {
      std::cerr << "strata inspect rows: warning: purge has removed the undo logs of transactions committed before "
                << "number " << oldest << ": a read view below transaction " << *as_of << " may have seen versions "
                << "that are gone (rows deleted since are then missing here, without a word)\n";
      purge_passed_view = true;
    }
  }
  if (format == RowFormat::kTsv) out += history ? TsvHistoryHeader(columns) : TsvHeader(columns, with_deleted);
  // TIMESTAMPs are printed in UTC and text as UTF-8: a restore must read them so.
  if (format == RowFormat::kSql) out += "SET NAMES utf8mb4;\nSET time_zone = '+00:00';\n";
  if (format == RowFormat::kJson) {
    nlohmann::json names = nlohmann::json::array();
    for (const auto& c : columns) names.push_back(c.name);
    out += "{\"command\": \"rows\", \"schema_version\": 1, \"file\": " + nlohmann::json(path).dump() + ", \"table\": " +
           nlohmann::json(table->schema.empty() ? table->name : table->schema + "." + table->name).dump() +
           ", \"index\": " + nlohmann::json(index->name).dump() + ", \"columns\": " + names.dump() + ", \"rows\": [";
  }
  bool first = true;
  auto print = [&](const Row& row) {
    switch (format) {
      case RowFormat::kTsv:
        AppendTsvLine(out, row, with_deleted);
        break;
      case RowFormat::kJson:
        out += (first ? "\n  " : ",\n  ") +
               RowJson(columns, row).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
        break;
      case RowFormat::kSql: {
        bool complete = true;
        for (const auto& c : row.cells) complete &= c.unknown.empty();
        if (complete && row.page_damaged && row.page != damaged_page_said) {
          // Said where the rows are, so a restore can be checked: the values may be wrong.
          end_insert();
          damaged_page_said = row.page;
          out += "-- the rows below, up to the next such line, are from page " + std::to_string(row.page) +
                 ", which fails its checksum: their values may be damaged\n";
        } else if (complete && !row.page_damaged && damaged_page_said != ondisk::kFilNull) {
          end_insert();
          damaged_page_said = ondisk::kFilNull;
          out += "-- the rows below are from pages that pass their checksums\n";
        }
        if (complete) {
          out += in_insert ? ",\n" : insert;
          AppendSqlTuple(out, columns, row);
          if (++in_insert == kRowsPerInsert) end_insert();
        } else {
          end_insert();
          ++rows_left_out;
          out += "-- the row at page " + std::to_string(row.page) + " offset " + std::to_string(row.offset) +
                 " is left out: a value in it cannot be decoded\n";
        }
        break;
      }
    }
    first = false;
    flush(false);
  };
  std::uint64_t bad_ilists = 0;
  std::uint64_t unreadable_versions = 0, unknown_in_versions = 0;
  // --history: every version; --as-of: the one the read view sees, if it sees the row.
  auto print_versions = [&](const Row& row) {
    const std::vector<RecordVersion> versions = versions_of->Versions(row);
    for (std::size_t i = 0; i < versions.size(); ++i) {
      const RecordVersion& v = versions[i];
      // Damage, files not at hand (said once above when the table's history is refused).
      const bool unreadable = v.change.empty() && !v.purged;
      if (unreadable && ++unreadable_versions <= kVersionProblemsSaid && versions_of->refused().empty()) {
        std::cerr << "strata inspect rows: " << path << ": the record at page " << row.page << " offset " << row.offset
                  << ": " << v.unknown << "\n";
      }
    }
    if (history) {
      for (std::size_t i = 1; i < versions.size(); ++i) {
        for (const auto& c : versions[i].row.cells) unknown_in_versions += !c.unknown.empty();
      }
      if (format == RowFormat::kTsv) {
        for (std::size_t i = 0; i < versions.size(); ++i) AppendTsvVersion(out, versions[i], i);
      } else {
        nlohmann::json j = VersionJson(columns, versions[0]);
        j["older"] = nlohmann::json::array();
        for (std::size_t i = 1; i < versions.size(); ++i) {
          nlohmann::json older = VersionJson(columns, versions[i]);
          older.erase("page");  // the record's place; the version came from the newer one's "undo"
          older.erase("offset");
          j["older"].push_back(std::move(older));
        }
        out += (first ? "\n  " : ",\n  ") + j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
        first = false;
      }
      flush(false);
      return;
    }
    for (const auto& v : versions) {
      // A version whose writer is not known (the history refused, the record unreadable) is
      // not judged visible: what the view saw is then unknown, not this version's values.
      if (v.change.empty() && !v.purged && !v.unknown.empty() && v.trx_id == 0) break;
      // MariaDB's DB_TRX_ID 0 (history purged): every view sees it.
      if (!v.committed || (v.trx_id >= *as_of && v.trx_id != 0)) continue;
      if (&v != &versions.front()) {
        for (const auto& c : v.row.cells) unknown_in_versions += !c.unknown.empty();
      }
      if (!v.row.deleted) print(v.row);
      return;
    }
    // No version old enough: the row was inserted after the view, or what it saw is gone.
    const RecordVersion& oldest = versions.back();
    if (oldest.change == "insert") return;
    Row gone = oldest.row;
    for (std::size_t i = 0; i < columns.size(); ++i) {
      const auto key_end = index->columns.begin() + static_cast<std::ptrdiff_t>(index->n_unique_in_tree);
      if (std::find(index->columns.begin(), key_end, columns[i].column) != key_end) continue;
      gone.cells[i] = {std::nullopt, "the version this read view sees cannot be rebuilt: " + oldest.unknown};
      ++unknown_in_versions;
    }
    gone.deleted = false;
    print(gone);
  };
  RowScan scan = ScanRows(*file, *table, *index, with_deleted || as_of, [&](const Row& row) {
    if (row.page != last_page) {
      last_page = row.page;
      progress.Update(++pages_seen);
    }
    if (versions_of) return print_versions(row);
    if (!expand) return print(row);
    if (const auto st = ExpandIlist(row, print); !st.ok()) {
      ++bad_ilists;
      std::cerr << "strata inspect rows: " << path << ": " << st.message() << "\n";
    }
  });
  progress.Finish();
  if (format == RowFormat::kJson) {
    nlohmann::json findings = nlohmann::json::array();
    for (const auto& f : scan.findings) findings.push_back(ToJson(f));
    out += std::string(first ? "" : "\n") + "], \"findings\": " + findings.dump() + "}\n";
  }
  flush(true);
  std::cout.flush();
  // What opening the file found (a damaged page 0, a cut tail) is said too: the rows may be
  // all there is, but the file is not whole.
  std::size_t file_errors = 0;
  for (const auto& f : file->findings()) {
    std::cerr << "strata inspect rows: " << f.ToString() << "\n";
    file_errors += f.severity == Severity::kError;
  }
  for (const auto& f : scan.findings) std::cerr << "strata inspect rows: " << f.ToString() << "\n";
  if (unreadable_versions > kVersionProblemsSaid) {
    std::cerr << "strata inspect rows: " << unreadable_versions
              << " rows in all have versions that cannot be told (the first " << kVersionProblemsSaid
              << " are said above)\n";
  }
  if (unknown_in_versions)
    std::cerr << "strata inspect rows: " << unknown_in_versions << " value(s) of older versions could not be given\n";
  if (scan.unknown_cells) {
    std::cerr << "strata inspect rows: " << scan.unknown_cells << " value(s) could not be decoded"
              << (rows_left_out ? " (" + std::to_string(rows_left_out) + " row(s) left out of the INSERTs)" : "")
              << "\n";
  }
  const bool versions_whole = unreadable_versions == 0 && unknown_in_versions == 0 && !purge_passed_view;
  return scan.findings.empty() && scan.unknown_cells == 0 && bad_ilists == 0 && file_errors == 0 && versions_whole
             ? kExitOk
             : kExitFailure;
}

}  // namespace strata::cli
