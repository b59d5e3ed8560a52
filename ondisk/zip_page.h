// ROW_FORMAT=COMPRESSED B-tree pages: how InnoDB packs a logical (4-16 KiB) INDEX page into a
// KEY_BLOCK_SIZE page of 1-16 KiB, and how it is unpacked.
//
//   0        38           94                                                       size
//   +--------+------------+--------------------+---------+ - - - +---------+-----+-------+
//   | FIL hdr| page header| zlib stream        | mod log |  free | BLOB    | sys | dense |
//   |        | (as is)    | fields, then heap  | entries |       | refs    | cols| dir   |
//   +--------+------------+--------------------+---------+ - - - +---------+-----+-------+
//                                                          (grows ->)  (<- grows)
//
// - The FIL header and page header (bytes 0-93) are kept uncompressed; FIL_PAGE_LSN and the
//   checksum are the compressed page's own. There is no FIL trailer.
// - The zlib stream starts with a description of the index's fields (enough to split a
//   record: fixed lengths, nullability, which lengths may take two bytes, where DB_TRX_ID is)
//   in a block of its own, then the logical page's record heap from offset 120 in heap order,
//   leaving out what is stored elsewhere: the 5 fixed header bytes of every record, the 13
//   bytes of DB_TRX_ID + DB_ROLL_PTR on clustered leaves, the 4-byte child page number on
//   node pages, and the 20-byte reference of every off-page column.
// - The modification log follows the stream: records written since the page was last
//   compressed, each as (heap_no - 1) << 1 | cleared in 1 or 2 bytes, then (unless cleared)
//   the record's header bytes in reverse and its data, less what is stored elsewhere. A 0
//   byte ends it.
// - The trailer grows down from the page end: the dense directory (2 bytes per record, user
//   records in key order then the free list; 0x4000 = owns a directory slot, 0x8000 =
//   delete-marked, low 14 bits = offset on the logical page), then per heap_no either 13
//   bytes of DB_TRX_ID + DB_ROLL_PTR (clustered leaves) or 4 bytes of child page number (node
//   pages), then the 20-byte off-page references of live records in heap and field order.
#pragma once

#include <cstddef>

#include "ondisk/endian.h"
#include "ondisk/record.h"
#include "ondisk/status.h"

namespace strata::ondisk {

// Where the parts of a compressed page lie: what a page view shows of it.
struct ZipPageParts {
  std::size_t stream_end = 0;     // first byte after the zlib stream: the modification log
  std::size_t log_end = 0;        // the byte that ends the log (its 0)
  std::size_t trailer_start = 0;  // lowest byte of the trailer, BLOB references included
  std::size_t n_dense = 0;        // dense directory entries (user records and free list)
  std::size_t log_records = 0;    // records the modification log writes or clears
  std::size_t n_blobs = 0;        // off-page references kept in the trailer
  // The fields as the stream describes them (runs of NOT NULL fixed-length fields merged
  // into one; node pages end with the child page number): enough to split every record.
  RecordLayout layout;
};

// Unpacks the compressed INDEX page `zip` into `out`, whose size is the logical page size,
// as an ordinary COMPACT page (with its FIL trailer zeroed). Corruption says what does not
// hold and at which offset of the compressed page; `out` is then not a page to read.
Result<ZipPageParts> DecompressIndexPage(ConstBytes zip, MutableBytes out);

}  // namespace strata::ondisk
