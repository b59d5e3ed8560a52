// Changing file lists in place (innodb-format.md §5): nodes live inside other structures
// (XDES entries, INODE pages), the base in a header; every node is reached through the
// PageStore, so one list may span many pages.
#pragma once

#include "engine/page_store.h"
#include "ondisk/file_list.h"

namespace strata::engine {

// Where a list's base node is: a page and a byte offset on it.
struct ListRef {
  ondisk::PageNo page;
  std::size_t offset;
};

Result<ondisk::ListBase> ListGet(PageStore& store, ListRef list);
Status ListAddLast(PageStore& store, ListRef list, ondisk::FileAddr node);
Status ListAddFirst(PageStore& store, ListRef list, ondisk::FileAddr node);
Status ListRemove(PageStore& store, ListRef list, ondisk::FileAddr node);

}  // namespace strata::engine
