// Off-page columns (DYNAMIC rows): a value too long for its record moves whole to a chain of
// BLOB pages (FIL_PAGE_TYPE_BLOB, as MariaDB and MySQL 5.7 write them) taken from the
// clustered index's leaf segment; the record keeps a 20-byte reference (ExternRef) to it.
#pragma once

#include <string>
#include <string_view>

#include "engine/buffer_pool.h"
#include "ondisk/record.h"

namespace strata::engine {

class LobStore {
 public:
  // `root`: the clustered index's root page, whose leaf segment lends the pages.
  LobStore(BufferPool& pool, Tablespace& space, ondisk::PageNo root) : pool_(pool), space_(space), root_(root) {}

  Result<ondisk::ExternRef> Write(std::string_view value);
  // Corruption naming the page when the chain is broken, loops or ends early.
  Result<std::string> Read(const ondisk::ExternRef& ref);
  Status Free(const ondisk::ExternRef& ref);

 private:
  BufferPool& pool_;
  Tablespace& space_;
  ondisk::PageNo root_;
};

}  // namespace strata::engine
