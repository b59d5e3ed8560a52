// MySQL 8.0.30+ redo records (#innodb_redo/#ib_redoN, log format 6), read from the byte stream
// of the log blocks' payloads (redo.h frames them). docs/research/redo-records.md §2 has the
// sources and the checks on real files behind this.
//
// A mini-transaction is either one record whose type byte has bit 7 set (MLOG_SINGLE_REC_FLAG),
// or records without that bit closed by MLOG_MULTI_REC_END (type 31, one byte). MLOG_DUMMY_RECORD
// (32, one byte) stands alone. Every other record:
//
//   type (1) | space id (compressed) | page number (compressed) | body (by type)
//
// except MLOG_TABLE_DYNAMIC_META (62): type | table id | version (both "much compressed") |
// persister (1) | its data. File operations (FILE_CREATE, RENAME, DELETE, EXTEND, INDEX_LOAD)
// name page 0 of the space they concern; they change no page. Records of B-tree pages (types
// 67-76) carry an index description first (field count and lengths, instant-column versions).
// Numbers use mach.h's compressed forms, MySQL 8.0.19+'s short forms near 2^32 included.
//
// The record types of MySQL 8.0.27 and older (9-18, 38-46, 52, 53), which 8.0.30 never writes
// and refuses to recover, are Corruption here, as are types the server does not know.
#pragma once

#include <cstdint>

#include "ondisk/endian.h"
#include "ondisk/status.h"

namespace strata::ondisk {

inline constexpr std::uint8_t kMlogSingleRecFlag = 0x80;
inline constexpr std::uint8_t kMlogMultiRecEnd = 31;
inline constexpr std::uint8_t kMlogDummyRecord = 32;

struct MySqlRedoRecord {
  const char* type = "";  // "MLOG_REC_INSERT", ... (static strings: one pointer per type)
  std::uint8_t code = 0;  // without the single-record flag
  bool single = false;    // the whole mini-transaction
  bool page_op = false;   // changes page (space, page)
  bool file_op = false;   // concerns tablespace `space` as a file
  std::uint32_t space = 0, page = 0;
  std::uint32_t offset = 0, length = 0;  // MLOG_nBYTES and MLOG_WRITE_STRING: what they write
  std::uint64_t value = 0;               // MLOG_nBYTES: the value written (big-endian on the page)
  std::size_t data = 0;                  // MLOG_WRITE_STRING: where in the bytes its string starts
  std::size_t size = 0;                  // bytes, the type byte included
};

// Decodes the record at b[at]. NotFound when `b` ends before the record does (its rest is in
// bytes not read yet, or it was never written); Corruption naming the byte otherwise.
Status ParseMySqlRedoRecord(ConstBytes b, std::size_t at, MySqlRedoRecord* out);

}  // namespace strata::ondisk
