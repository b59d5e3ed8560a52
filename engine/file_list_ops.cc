#include "engine/file_list_ops.h"

namespace strata::engine {

using namespace strata::ondisk;

namespace {

Result<ListNode> ReadNode(PageStore& store, FileAddr a) {
  auto page = store.Page(a.page);
  if (!page.ok()) return page.status();
  STRATA_RETURN_IF_ERROR(a.CheckNode(page->size(), kListNodeSize, a.offset));
  return ListNode::Decode(*page, a.offset);
}

Status WriteNode(PageStore& store, FileAddr a, const ListNode& n) {
  auto page = store.Page(a.page);
  if (!page.ok()) return page.status();
  n.EncodeTo(*page, a.offset);
  return Status::Ok();
}

Status WriteBase(PageStore& store, ListRef list, const ListBase& b) {
  auto page = store.Page(list.page);
  if (!page.ok()) return page.status();
  b.EncodeTo(*page, list.offset);
  return Status::Ok();
}

}  // namespace

Result<ListBase> ListGet(PageStore& store, ListRef list) {
  auto page = store.Page(list.page);
  if (!page.ok()) return page.status();
  return ListBase::Decode(*page, list.offset);
}

Status ListAddLast(PageStore& store, ListRef list, FileAddr node) {
  auto base = ListGet(store, list);
  if (!base.ok()) return base.status();
  STRATA_RETURN_IF_ERROR(WriteNode(store, node, {base->last, FileAddr{}}));
  if (base->length == 0) {
    base->first = node;
  } else {
    auto last = ReadNode(store, base->last);
    if (!last.ok()) return last.status();
    last->next = node;
    STRATA_RETURN_IF_ERROR(WriteNode(store, base->last, *last));
  }
  base->last = node;
  ++base->length;
  return WriteBase(store, list, *base);
}

Status ListAddFirst(PageStore& store, ListRef list, FileAddr node) {
  auto base = ListGet(store, list);
  if (!base.ok()) return base.status();
  STRATA_RETURN_IF_ERROR(WriteNode(store, node, {FileAddr{}, base->first}));
  if (base->length == 0) {
    base->last = node;
  } else {
    auto first = ReadNode(store, base->first);
    if (!first.ok()) return first.status();
    first->prev = node;
    STRATA_RETURN_IF_ERROR(WriteNode(store, base->first, *first));
  }
  base->first = node;
  ++base->length;
  return WriteBase(store, list, *base);
}

Status ListRemove(PageStore& store, ListRef list, FileAddr node) {
  auto base = ListGet(store, list);
  if (!base.ok()) return base.status();
  if (base->length == 0) return Status::Corruption("removing a node from an empty list");
  auto n = ReadNode(store, node);
  if (!n.ok()) return n.status();
  if (n->prev.is_null()) {
    if (!(base->first == node)) return Status::Corruption("list node without a predecessor is not the list's first");
    base->first = n->next;
  } else {
    auto prev = ReadNode(store, n->prev);
    if (!prev.ok()) return prev.status();
    prev->next = n->next;
    STRATA_RETURN_IF_ERROR(WriteNode(store, n->prev, *prev));
  }
  if (n->next.is_null()) {
    base->last = n->prev;
  } else {
    auto next = ReadNode(store, n->next);
    if (!next.ok()) return next.status();
    next->prev = n->prev;
    STRATA_RETURN_IF_ERROR(WriteNode(store, n->next, *next));
  }
  --base->length;
  STRATA_RETURN_IF_ERROR(WriteNode(store, node, ListNode{}));
  return WriteBase(store, list, *base);
}

}  // namespace strata::engine
