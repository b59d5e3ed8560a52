// File addresses and the doubly linked lists that thread through pages (innodb-format.md
// §0.1, §5).
//
//   file address (6 bytes)        list base node (16 bytes)         list node (12 bytes)
//   OFFSET SIZE FIELD             OFFSET SIZE FIELD                 OFFSET SIZE FIELD
//   0      4    page (FIL_NULL)   0      4    length                0      6    prev address
//   4      2    byte offset       4      6    first node address    6      6    next address
//                                 10     6    last node address
//
// An address points at the list node inside an element, not at the element's start. A
// list may span pages; walking it needs the tablespace, which ondisk does not own, so
// ondisk only decodes and encodes one base or node at a time, and says when an address
// cannot be a node in a page of the given size.
#pragma once

#include <cstdint>

#include "ondisk/endian.h"
#include "ondisk/status.h"
#include "ondisk/types.h"

namespace strata::ondisk {

inline constexpr std::size_t kFileAddrSize = 6;
inline constexpr std::size_t kListBaseSize = 16;
inline constexpr std::size_t kListNodeSize = 12;

struct FileAddr {
  PageNo page = kNullPage;
  std::uint16_t offset = 0;

  bool is_null() const { return page == kNullPage; }
  constexpr bool operator==(const FileAddr&) const = default;

  static FileAddr Decode(ConstBytes b, std::size_t at) { return {PageNo(Load32(b, at)), Load16(b, at + 4)}; }
  void EncodeTo(MutableBytes b, std::size_t at) const {
    Store32(b, at, page.value());
    Store16(b, at + 4, offset);
  }
  // Corruption unless null or a node of `node_size` bytes fits between the FIL header and
  // trailer of a page of `page_size` bytes. `where` is the offset the address was read from.
  Status CheckNode(std::size_t page_size, std::size_t node_size, std::size_t where) const;
};

struct ListBase {
  std::uint32_t length = 0;
  FileAddr first;
  FileAddr last;

  constexpr bool operator==(const ListBase&) const = default;
  static ListBase Decode(ConstBytes b, std::size_t at) {
    return {Load32(b, at), FileAddr::Decode(b, at + 4), FileAddr::Decode(b, at + 10)};
  }
  void EncodeTo(MutableBytes b, std::size_t at) const {
    Store32(b, at, length);
    first.EncodeTo(b, at + 4);
    last.EncodeTo(b, at + 10);
  }
  // Corruption when an empty list has ends, a non-empty one lacks them, or an end is not a
  // possible node address.
  Status Check(std::size_t page_size, std::size_t node_size, std::size_t where) const;
};

struct ListNode {
  FileAddr prev;
  FileAddr next;

  constexpr bool operator==(const ListNode&) const = default;
  static ListNode Decode(ConstBytes b, std::size_t at) {
    return {FileAddr::Decode(b, at), FileAddr::Decode(b, at + 6)};
  }
  void EncodeTo(MutableBytes b, std::size_t at) const {
    prev.EncodeTo(b, at);
    next.EncodeTo(b, at + 6);
  }
};

}  // namespace strata::ondisk
