#include "tests/fuzz/inspect_readers.h"

#include <sys/mman.h>
#include <unistd.h>

#include <fstream>
#include <iterator>
#include <string>

#include "inspect/check.h"
#include "inspect/cfg.h"
#include "inspect/create_table.h"
#include "inspect/encryption_keys.h"
#include "inspect/extents.h"
#include "inspect/frm.h"
#include "inspect/fts_aux.h"
#include "inspect/illustrate.h"
#include "inspect/index_report.h"
#include "inspect/lsn_report.h"
#include "inspect/page_view.h"
#include "inspect/redo_report.h"
#include "inspect/regions.h"
#include "inspect/row_output.h"
#include "inspect/rows.h"
#include "inspect/schema.h"
#include "inspect/summary.h"
#include "inspect/sys_dictionary.h"
#include "inspect/record_history.h"
#include "inspect/undo.h"
#include "inspect/undo_locator.h"

namespace strata::fuzz {

using namespace strata::inspect;

namespace {

// Today's definitions of the tables that extra/21_mariadb_instant.sql alters instantly.
constexpr const char* kMariaDbInstantTables[] = {
    "CREATE TABLE mi_reorder (c INT, b VARCHAR(10), id INT PRIMARY KEY, a INT) DEFAULT CHARSET=utf8mb4",
    "CREATE TABLE mi_drop_add (id INT PRIMARY KEY, d INT NOT NULL DEFAULT 42, b VARCHAR(20), c DATETIME(3), "
    "e VARCHAR(10) DEFAULT 'dflt', f TEXT) DEFAULT CHARSET=utf8mb4",
    "CREATE TABLE mi_compact (added SMALLINT DEFAULT -7, id INT PRIMARY KEY, keep1 CHAR(4) CHARACTER SET latin1, "
    "keep2 DECIMAL(10,2)) DEFAULT CHARSET=utf8mb4 ROW_FORMAT=COMPACT",
    "CREATE TABLE mi_redundant (id INT PRIMARY KEY, d VARCHAR(10), a VARCHAR(30), c INT) DEFAULT CHARSET=utf8mb4 "
    "ROW_FORMAT=REDUNDANT",
    "CREATE TABLE mi_varpk (k VARCHAR(20) PRIMARY KEY, b VARCHAR(10), n INT NOT NULL, z DATE DEFAULT '2024-02-29') "
    "DEFAULT CHARSET=utf8mb4",
    "CREATE TABLE mi_many (id INT PRIMARY KEY, c VARCHAR(12) NOT NULL DEFAULT 'added', pad CHAR(200), b INT NOT NULL) "
    "DEFAULT CHARSET=utf8mb4",
};

// The keys of the encrypted seed files (tests/data/mariadb-encrypted/keys.txt; the master
// key in tests/data/mysql-encrypted/keyring_test), so mutations of them are decrypted.
const EncryptionKeys& SeedKeys() {
  static const EncryptionKeys keys = [] {
    EncryptionKeys k;
    k.mariadb[1] = {0x47, 0x20, 0x32, 0x0b, 0xa9, 0x15, 0x96, 0x08, 0x42, 0x3a, 0xbe, 0xdb, 0xfa, 0xfe, 0x96, 0x25,
                    0xb3, 0xe5, 0xcf, 0x6d, 0x38, 0x0e, 0xe9, 0xc9, 0x1c, 0x51, 0x12, 0x95, 0x12, 0xe2, 0xfd, 0x14};
    k.mysql["INNODBKey-0ca67a48-5da5-11f0-b0fe-bc24111003dd-1"] = {
        0x29, 0x61, 0xbf, 0xe4, 0x56, 0xe7, 0xf7, 0xc1, 0x65, 0xd2, 0xcb, 0xb5, 0x03, 0x88, 0x84, 0xe7,
        0xb1, 0x0d, 0xa3, 0x8b, 0xa8, 0x6a, 0x68, 0x34, 0x79, 0x7f, 0x69, 0xef, 0x09, 0x17, 0x4c, 0xb9};
    return k;
  }();
  return keys;
}

}  // namespace

void InspectFile(const std::filesystem::path& path) {
  {  // Any file may be a key file or a keyring too.
    EncryptionKeys keys;
    (void)LoadMySqlKeyring(path, &keys);
    (void)LoadMariaDbKeyFile(path, "", &keys);
    (void)LoadMariaDbKeyFile(path, "secret", &keys);
  }
  {  // Any file may be a .frm or a .cfg too.
    std::ifstream in(path, std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    (void)TableFromFrm({reinterpret_cast<const std::byte*>(bytes.data()), bytes.size()}, "t");
    (void)TableFromCfg({reinterpret_cast<const std::byte*>(bytes.data()), bytes.size()}, ondisk::Flavor::kMariaDb);
  }
  // Any file may be handed to `inspect redo` too.
  RedoOptions redo;
  redo.records = true;
  (void)ToText(AnalyzeRedo(path, redo));
  redo.all = true;  // MySQL 8.0.30+ logs decoded from the file's start
  (void)ToText(AnalyzeRedo(path, redo));
  auto f = SpaceFile::Open(path, &SeedKeys());
  if (!f.ok()) return;
  (void)ToText(Summarize(*f));
  (void)ToText(CheckSpace(*f));
  (void)ToText(AnalyzeIndexes(*f));
  (void)FindRegions(*f);
  SpaceMap m = BuildSpaceMap(*f);
  ExtentsReport x = AnalyzeExtents(*f, m);
  (void)IllustrateExtents(x, ReadDictionary(*f), {});
  (void)IllustrateLsn(AnalyzeLsn(*f, m), 64, {});
  for (std::uint32_t n = 0; n < f->n_pages() && n < 16; ++n) (void)ToText(ViewPage(*f, n, true));
  (void)ToText(AnalyzeUndo({&*f}, true));
  (void)ReadSysDictionary(*f);  // an ibdata1's SYS_TABLES/SYS_COLUMNS/SYS_INDEXES/SYS_FIELDS
  // `inspect rows` on every index the file's dictionary describes: records, LOBs, row versions,
  // every column type's decoder, and the three output forms.
  Dictionary d = ReadDictionary(*f);
  // Files without one (MariaDB's) read as `--create-table` would: as each of the tables of
  // tests/data/ibdninja/extra/21_mariadb_instant.sql, so instant ALTER metadata records and
  // column maps are decoded too.
  if (d.tables.empty() && f->flavor() == ondisk::Flavor::kMariaDb) {
    for (const char* sql : kMariaDbInstantTables) {
      auto t = TableFromCreateTable(sql, "", f->flavor());
      if (t.ok() && PlaceInFile(*t, *f).ok()) d.tables.push_back(std::move(*t));
    }
  }
  // And as each kind of FULLTEXT auxiliary table (tests/data/mariadb-fts), INDEX tables'
  // ilists expanded.
  bool fts_index = false;
  if (d.tables.empty()) {
    ColumnDef word;
    word.nullable = true;
    word.format.collation = 45;
    for (auto kind : {FtsAuxFile::kIndex, FtsAuxFile::kConfig, FtsAuxFile::kDocIds}) {
      auto t = FtsAuxTable({kind, 1, 2, 1}, &word);
      if (t.ok() && PlaceInFile(*t, *f).ok()) {
        fts_index = kind == FtsAuxFile::kIndex;
        d.tables.push_back(std::move(*t));
        break;
      }
    }
  }
  const UndoLocator undo({&*f});
  for (const auto& t : d.tables) {
    for (const auto& ix : t.indexes) {
      if (ix.root_page == ondisk::kFilNull || t.columns.empty()) continue;
      const auto columns = RowColumns(t, ix);
      const RecordHistory history(*f, t, ix, undo);
      std::vector<Row> complete;
      std::size_t rows = 0;
      (void)ScanRows(*f, t, ix, true, [&](const Row& r) {
        if (++rows > 2000) return;
        if (rows < 100) {
          for (const auto& v : history.Versions(r)) (void)VersionJson(columns, v);
        }
        (void)TsvLine(r, true);
        if (fts_index) (void)ExpandIlist(r, [](const Row& line) { (void)TsvLine(line, false); });
        (void)RowJson(columns, r).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
        bool whole = true;
        for (const auto& c : r.cells) whole &= c.unknown.empty();
        if (whole) complete.push_back(r);
      });
      if (!complete.empty()) (void)SqlInsert(t.name, columns, complete);
    }
  }
}

void InspectEverything(const std::uint8_t* data, std::size_t size) {
  const int fd = ::memfd_create("strata-fuzz", 0);
  if (fd < 0) return;
  std::size_t done = 0;
  while (done < size) {
    const ssize_t n = ::write(fd, data + done, size - done);
    if (n <= 0) break;
    done += static_cast<std::size_t>(n);
  }
  InspectFile("/proc/self/fd/" + std::to_string(fd));
  ::close(fd);
}

}  // namespace strata::fuzz
