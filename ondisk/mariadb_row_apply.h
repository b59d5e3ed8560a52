// How MariaDB 10.5+'s logical row records change a ROW_FORMAT=COMPACT/DYNAMIC B-tree page
// (EXTENDED INSERT_HEAP_DYNAMIC, INSERT_REUSE_DYNAMIC and DELETE_ROW_FORMAT_DYNAMIC redo
// records): the record linked in after its predecessor, built from the predecessor's header
// and data bytes it shares plus the bytes logged; the directory slot that owns it grown (and
// split at 9 records) or shrunk (and balanced under 4); the heap, free list, garbage, record
// count and insert direction kept as the server keeps them.
//
// Offsets on the page: a record's "origin" is where its data starts; before it are its header
// bytes, the last five: info bits and n_owned (origin-5), heap number << 3 | status (origin-4,
// 2 bytes), the next record's offset relative to the origin (origin-2, 2 bytes, mod 2^16).
// Directory slots are 2-byte origins from page_size-10 downward; slot 0 is the infimum (99),
// the last the supremum (112).
#pragma once

#include <cstddef>

#include "ondisk/endian.h"

namespace strata::ondisk {

struct MariaInsert {
  bool reuse = false;           // taken from PAGE_FREE, not the top of the heap
  std::size_t prev = 0;         // the predecessor's origin, relative to the infimum's
  std::size_t shift = 0;        // reuse: where in the freed space (bit 0: downward)
  std::size_t enc_hdr = 0;      // bits 3..: header bytes logged; bits 0-1 info bits; bit 2 instant
  std::size_t hdr_copied = 0;   // header bytes shared with the predecessor
  std::size_t data_copied = 0;  // data bytes shared with the predecessor
  ConstBytes bytes;             // the logged header bytes, then the data bytes
};

// False when the page or the record does not fit (the server refuses the record then too).
bool ApplyMariaInsert(MutableBytes page, const MariaInsert& insert);
// `prev` as above; the record's header bytes beyond the fixed five, and its data bytes.
bool ApplyMariaDelete(MutableBytes page, std::size_t prev, std::size_t hdr_size, std::size_t data_size);

}  // namespace strata::ondisk
