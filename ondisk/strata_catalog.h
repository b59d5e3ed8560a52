// The envelope of Strata's catalog (which databases and tables a Strata data directory holds),
// kept on ibdata1's data dictionary header page (page 7) beside InnoDB's DICT_HDR counters.
// Format version 1:
//   FIL+8  8  DICT_HDR_TABLE_ID: the next table id    FIL+16  8  DICT_HDR_INDEX_ID: the next index id
//   FIL+24 4  DICT_HDR_MAX_SPACE_ID: the next space id
//   256    8  magic "STRATCAT"
//   264    4  format version (1)
//   268    4  length of the zlib stream below
//   272    4  length of the JSON text it inflates to
//   276   ..  zlib stream of the JSON {"databases": [...], "tables": [{"database","name","space_id"}],
//             "ddl_log": [{"remove": "db/t.ibd"}, {"remove_dir": "db"},
//                         {"move_back": "db/t.ibd", "to": "db/#sql-alter-9.ibd"}]}
// The engine writes it (engine/system_space.h says when and what the JSON means); the inspector
// reads it to tell a table's file from one the catalog does not know.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "ondisk/endian.h"
#include "ondisk/status.h"

namespace strata::ondisk {

struct CatalogPage {
  std::uint64_t next_table_id = 1, next_index_id = 1;
  std::uint32_t next_space_id = 1;
  std::string json;
};

// Whether the page carries a Strata catalog at all (a MySQL or MariaDB page 7 does not).
bool HasStrataCatalog(ConstBytes page);
// Corruption naming `where` and what is wrong; NotSupported for a newer format version.
Result<CatalogPage> DecodeCatalogPage(ConstBytes page, std::string_view where);
// Writes the catalog into the page (its trailer untouched); NotSupported when it does not fit.
Status EncodeCatalogPage(const CatalogPage& c, MutableBytes page);

}  // namespace strata::ondisk
