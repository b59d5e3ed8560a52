// `strata inspect pages`: one row per page, as text (a fixed-width table) or JSON.
//
// Columns: page_no, type, lsn, prev, next, index_id, level, n_recs, data_size, used_bytes,
// free_bytes, garbage_bytes, checksum. data_size is InnoDB's own figure
// (INFORMATION_SCHEMA.INNODB_BUFFER_PAGE.DATA_SIZE = HEAP_TOP - end of supremum - GARBAGE);
// used/free are innodb_ruby's and innodb-java-reader's (free = GARBAGE + the gap between the
// heap top and the page directory; used = page size - free).
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "inspect/page_info.h"
#include "inspect/space_file.h"

namespace strata::inspect {

// "ok (crc32)", "never written", "torn", "BAD"
std::string ChecksumText(const PageInfo& p);

std::string PagesHeaderText(const SpaceFile& f);
std::string PageRowText(const SpaceFile& f, const PageInfo& p);
nlohmann::json PageRowJson(const SpaceFile& f, const PageInfo& p);

}  // namespace strata::inspect
