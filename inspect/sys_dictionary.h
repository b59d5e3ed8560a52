// MySQL 5.7 and MariaDB keep their data dictionary in the system tablespace: SYS_TABLES and
// SYS_INDEXES are REDUNDANT-format B-trees whose roots DICT_HDR (page 7 of ibdata1) names
// (innodb-format.md §12.2). Reading them gives index ids their names in every .ibd of that
// server, the way SDI does inside a MySQL 8.0 file.
#pragma once

#include <filesystem>
#include <map>
#include <optional>

#include "inspect/schema.h"
#include "inspect/space_file.h"

namespace strata::inspect {

// Table and index names (no column layouts) from a system tablespace; empty for files that are
// not one or whose dictionary cannot be read (then `findings` says why).
Dictionary ReadSysDictionary(const SpaceFile& system);

// Server dictionaries by ibdata1, read once each: what a file's index names come from when
// the file itself has no dictionary (MySQL 5.7, MariaDB).
class ServerDictionaries {
 public:
  // The dictionary of `f`'s server, or null (MySQL 8.0 files, no ibdata1 nearby, unreadable).
  const Dictionary* For(const SpaceFile& f);

 private:
  std::map<std::filesystem::path, Dictionary> by_system_;
};

// The ibdata1 of the data directory a tablespace file sits in (its directory or the one
// above), if there is one.
std::optional<std::filesystem::path> FindSystemTablespace(const std::filesystem::path& file);

}  // namespace strata::inspect
