// MariaDB 10.8+ redo records ("Phys" log, ib_logfile0): physical changes to pages, grouped
// into mini-transactions (redo.h frames them: records, a termination byte, a CRC-32C).
//
// A record's first byte: bit 7 "same page", bits 6-4 the type, bits 3-0 how many bytes follow
// (0: a varint v follows, and v + 15 bytes follow the first byte, the varint included).
//   type 0 FREE_PAGE  1 INIT_PAGE  2 EXTENDED (a subtype byte: row format init, undo init and
//   append, record insert and delete)  3 WRITE (offset, bytes)  4 MEMSET (offset, length,
//   pattern)  5 MEMMOVE (offset, length, source)  6 RESERVED  7 OPTION
// Without "same page" a record names its page: space id and page number, as varints. With it,
// the page of the mini-transaction's previous page record — or, before any page record, the
// whole first byte is a file operation: 0x80 FILE_CREATE, 0x90 FILE_DELETE, 0xA0 FILE_RENAME,
// 0xB0 FILE_MODIFY, 0xF0 FILE_CHECKPOINT (space, page, then a name or a checkpoint LSN).
// WRITE, MEMSET and MEMMOVE offsets are relative to where the page's previous record ended
// (0 for a record that names its page; 24, FIL_PAGE_TYPE, after INIT_PAGE and EXTENDED).
//
// Varint: the leading one bits of the first byte say how many bytes follow (0-3, or 4 after
// 0xF0), and each length starts where the shorter ones end (0x80, 0x4080, 0x204080, 0x10204080).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ondisk/endian.h"
#include "ondisk/status.h"

namespace strata::ondisk {

struct MariaRedoRecord {
  const char* type = "";  // "WRITE", "INIT_PAGE", "EXTENDED/UNDO_APPEND", "FILE_MODIFY", ...
                          // (static strings: one pointer per type)
  bool file_op = false;   // a FILE_* record: space (and page 0), no page change
  bool page_op = false;   // changes a page (space, page)
  bool freed = false;     // FREE_PAGE
  std::uint32_t space = 0, page = 0;
  std::uint32_t offset = 0;  // WRITE/MEMSET/MEMMOVE: where on the page (absolute)
  std::uint32_t length = 0;  // WRITE: bytes written; MEMSET/MEMMOVE: bytes set or moved
  std::size_t at = 0;        // its first byte within the mini-transaction
  ConstBytes data;           // WRITE: the bytes; MEMSET: the pattern; MEMMOVE: the source (a
                             // varint); EXTENDED: the subtype byte and its data; FILE_*: the name or LSN
};

// What applying a record to its page did.
enum class MariaApply : std::uint8_t {
  kApplied,
  kUnsupported,  // a record kind this reader does not replay (ROW_FORMAT=REDUNDANT rows, undo
                 // tablespace truncation): the page cannot be brought forward
  kCorrupt,      // the record does not fit the page (an offset past its end, an undo page full)
};

// Applies one page record to the page's bytes as recovery does (MariaDB 10.5+'s log0recv
// apply): INIT_PAGE, WRITE, MEMSET, MEMMOVE, FREE_PAGE (nothing to write), OPTION (ignored),
// and of EXTENDED: INIT_ROW_FORMAT_* (an empty index page), UNDO_INIT, UNDO_APPEND, and the
// COMPACT/DYNAMIC row inserts and deletes (mariadb_row_apply.h). The
// page's LSN and checksum are the caller's to set once its mini-transaction is applied.
MariaApply ApplyMariaRecord(const MariaRedoRecord& r, MutableBytes page);

// Decodes a varint at b[*at], moving *at past it; Corruption if it is malformed or cut short.
Result<std::uint32_t> DecodeMariaVarint(ConstBytes b, std::size_t* at);

// A mini-transaction's records are followed by a termination byte (0 or 1, the ring's pass
// parity; no record starts so, as each record's first byte gives its length) and, in the
// 10.8+ log, the CRC-32C of the records.
inline constexpr std::size_t kMariaMtrTermination = 1;
inline constexpr std::size_t kMariaMtrTrailer = kMariaMtrTermination + 4;

// Where the records of the mini-transaction starting at b[i] end: at its termination byte.
// nullopt when they run to `limit` or a length is malformed.
std::optional<std::uint64_t> MariaMtrRecordsEnd(ConstBytes b, std::uint64_t i, std::uint64_t limit);

// Splits one mini-transaction's records (without its termination byte and CRC) into `out`
// (cleared first; its capacity is reused, as a log holds millions of mini-transactions).
// Corruption names the byte and the reason (a length past the end, a same-page record with no
// page before it, a RESERVED record, ...).
Status ParseMariaMtr(ConstBytes records, std::vector<MariaRedoRecord>* out);

}  // namespace strata::ondisk
