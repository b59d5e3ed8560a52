// Strata's redo records (log format kStrataLog, version 1), carried in InnoDB's 512-byte log
// blocks (redo.h). Like MariaDB 10.5+'s, they are physical writes addressed by page: replaying
// a mini-transaction's records onto a page older than the mini-transaction rebuilds the page
// exactly (INV-5: a record is applied only when the page LSN is older than its group's end).
//
//   record     type byte, then fields (c32 = InnoDB's compressed 32-bit integer, mach.h)
//   0x01 WRITE    space c32, page c32, offset 2 bytes BE, length c32, then `length` bytes
//   0x02 INIT     space c32, page c32: the page starts as all zeros (WRITEs follow)
//   0x03 EXTEND   space c32, size c32: the file holds at least `size` pages
//   0xFE MTR_END  ends one mini-transaction; recovery applies only complete groups
//
// The records of one mini-transaction are contiguous in the log; the pages it changed carry
// the LSN just past its MTR_END byte.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ondisk/endian.h"
#include "ondisk/status.h"

namespace strata::ondisk {

// LOG_HEADER_FORMAT of a Strata redo log ("STR" + version 1). Frozen on disk.
inline constexpr std::uint32_t kStrataLogFormat = 0x53545201;
// LOG_HEADER_FLAGS of a Strata redo log. Frozen on disk.
inline constexpr std::uint32_t kLogFlagNoLogging = 1u << 1;    // redo logging is disabled
inline constexpr std::uint32_t kLogFlagCrashUnsafe = 1u << 2;  // disabled and not shut down cleanly
// The same field of MySQL 8.0's header (log0constants.h), whose flag n is bit n - 1.
inline constexpr std::uint32_t kMySqlLogFlagNoLogging = 1u << 0;
inline constexpr std::uint32_t kMySqlLogFlagCrashUnsafe = 1u << 1;
inline constexpr std::uint32_t kMySqlLogFlagNotInitialized = 1u << 2;  // the data directory was never fully made
inline constexpr std::uint32_t kMySqlLogFlagFileFull = 1u << 3;        // 8.0.30+: written to its end, closed

enum class RedoType : std::uint8_t { kWrite = 0x01, kInit = 0x02, kExtend = 0x03, kMtrEnd = 0xFE };
std::string ToString(RedoType t);

struct RedoRecord {
  RedoType type = RedoType::kWrite;
  std::uint32_t space = 0;
  std::uint32_t page = 0;    // kExtend: the size in pages
  std::uint16_t offset = 0;  // kWrite
  ConstBytes bytes;          // kWrite: a view into the parsed buffer
};

void AppendRedoWrite(std::vector<std::byte>& out, std::uint32_t space, std::uint32_t page, std::uint16_t offset,
                     ConstBytes bytes);
void AppendRedoInit(std::vector<std::byte>& out, std::uint32_t space, std::uint32_t page);
void AppendRedoExtend(std::vector<std::byte>& out, std::uint32_t space, std::uint32_t pages);
void AppendRedoMtrEnd(std::vector<std::byte>& out);

// Parses one record at `at`. nullopt when the buffer ends inside it (the rest of the group
// was never written); Corruption for an unknown type or a write past a page of
// `page_size` bytes.
Result<std::optional<RedoRecord>> ParseRedoRecord(ConstBytes buf, std::size_t at, std::size_t page_size,
                                                  std::size_t* next);

}  // namespace strata::ondisk
