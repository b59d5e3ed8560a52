// ibdata1, the system tablespace (space 0), with InnoDB's fixed page roles:
//   0 FSP_HDR   1 IBUF_BITMAP   2 INODE   3 SYS (change buffer header)
//   4 INDEX (change buffer root, empty)   5 TRX_SYS (rollback segment slots)
//   6 SYS (first rollback segment header)   7 SYS (data dictionary header)
// The dictionary header page keeps InnoDB's counters (DICT_HDR_ROW_ID, TABLE_ID, INDEX_ID,
// MAX_SPACE_ID) and, from byte 256, the engine's catalog (ondisk/strata_catalog.h has the
// bytes): which databases and tables exist and in which tablespace, as JSON
// {"databases": [...], "tables": [{"database","name","space_id"}], "ddl_log": [...]}.
// Table definitions themselves live in each table's SDI, not here.
//
// The catalog page is the commit point of every DDL statement (MySQL 8.0's atomic DDL, with the
// page's mini-transaction as the dictionary transaction): a statement changes it in one
// mini-transaction and makes the log durable before it reports success. Its "ddl_log" lists the
// files an open must remove: a CREATE names its new file (or directory) before making it and
// takes the entry out in the write that adds the table, so a crash before that leaves nothing
// behind; a DROP names the files in the write that removes the tables, so the files go only
// once the drop is committed, and an open after a crash finishes it. Readers of format 1 that
// predate "ddl_log" ignore it.
#pragma once

#include <string>
#include <vector>

#include "engine/buffer_pool.h"
#include "ondisk/sys_tables.h"

namespace strata::engine {

inline constexpr std::uint32_t kSystemSpaceInitialPages = 768;  // 12 MiB, as innodb_data_file_path's default
inline constexpr ondisk::PageNo kDictHeaderPage{ondisk::DictHeader::kPage};

struct CatalogEntry {
  std::string database, name;
  std::uint32_t space_id = 0;
};

// A file or directory (relative to the data directory) that the next open removes; or a file
// a statement renamed before its commit point (kMoveBack), which the next open renames `back`
// when it finds the entry: the statement did not commit (its commit takes the entry out).
struct DdlLogEntry {
  enum class Kind { kRemoveFile, kRemoveDir, kMoveBack };
  Kind kind = Kind::kRemoveFile;
  std::string path;
  std::string back;  // kMoveBack: the name the file had
  bool operator==(const DdlLogEntry&) const = default;
};

struct Catalog {
  std::uint64_t next_table_id = 1, next_index_id = 1;
  std::uint32_t next_space_id = 1;
  std::vector<std::string> databases;
  std::vector<CatalogEntry> tables;
  std::vector<DdlLogEntry> ddl_log;
};

// Lays out a new system tablespace in `space` (already registered with the pool).
Status CreateSystemSpace(BufferPool& pool, Tablespace& space);
// ibdata1's FSP header, inode, TRX_SYS, rollback segment and catalog pages (header_check.h).
Status CheckSystemSpaceHeaders(BufferPool& pool, const Tablespace& space);
Status WriteCatalog(BufferPool& pool, Tablespace& space, const Catalog& catalog);
Result<Catalog> ReadCatalog(BufferPool& pool, Tablespace& space);

}  // namespace strata::engine
