// The pages every write to a tablespace starts from (its FSP header, inode page, SDI root;
// ibdata1's TRX_SYS, rollback segment and catalog pages), checked when the space is opened so
// that a damaged one is refused by name before anything is written from it: a write through a
// zeroed FSP header would lay a made-up header over the damage.
#pragma once

#include "engine/buffer_pool.h"
#include "ondisk/page_type.h"

namespace strata::engine {

// Corruption naming the file, page, offset and what was expected, unless page `page` of
// `space` reads back (checksum) as a page of `type` that names this space and page; page 0
// must also carry `fsp_flags`, this space id and a size the file has.
Status CheckHeaderPage(BufferPool& pool, const Tablespace& space, ondisk::PageNo page, ondisk::PageType type,
                       const char* what, std::uint32_t fsp_flags);

}  // namespace strata::engine
