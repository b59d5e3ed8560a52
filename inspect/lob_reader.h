// Off-page column values read from a tablespace file: the old BLOB page chains (MySQL 5.x,
// MariaDB, Strata) and MySQL 8.0's LOBs (a first page whose index entries list the data
// pages in order; innodb-format.md §9.7-9.8).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "inspect/space_file.h"
#include "ondisk/record.h"

namespace strata::inspect {

// The `ref.length` bytes stored off-page. Corruption naming the page when a chain leaves the
// file, loops, reaches a page of another type or ends short; NotSupported for compressed
// (ROW_FORMAT=COMPRESSED) LOB pages. Pages that fail their checksum are read all the same and
// added to `failing`, when given: the value may be damaged.
ondisk::Result<std::string> ReadExternal(const SpaceFile& file, const ondisk::ExternRef& ref,
                                         std::vector<std::uint32_t>* failing = nullptr);

}  // namespace strata::inspect
