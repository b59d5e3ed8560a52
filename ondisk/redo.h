// Redo log framing (innodb-format.md §11): the file header, the two checkpoint blocks and
// 512-byte log blocks of MySQL 5.7/8.0 (formats 1-6) and MariaDB up to 10.7; the header and
// checkpoints of MariaDB 10.8+ ("Phys", no block framing). Record payloads are not decoded
// here: their formats are product-internal (Strata's own are documented in ondisk/redo.md
// when the engine writes them).
//
// Log block (512 bytes):                     File header block (offset 0 of the file):
//   0   4  block number (bit 31: flush bit)     0  4  format (MariaDB: bit 31 = encrypted)
//   4   2  data length incl. header (bit 15:    4  4  subformat / log UUID (MySQL 8.0.30+)
//          encrypted, MySQL 8.0)                8  8  start LSN
//   6   2  first record group offset (0: none) 16 32 creator string ("MySQL 8.0.40", ...)
//   8   4  checkpoint number / epoch           48  4  flags (MySQL 8.0+)
//   12 496 payload                             52  8  Strata: the file's size (0: not recorded)
//                                              508 4  CRC-32C of bytes 0..507
//   508 4  CRC-32C of bytes 0..507 (0xDEADBEEF: checksums off; legacy fold in 5.6)
//
// Checkpoint block (file offsets 512 and 1536):   MariaDB 10.8+ checkpoint (4096 and 8192):
//   0 8 checkpoint number   8 8 checkpoint LSN      0 8 checkpoint LSN  8 8 end LSN
//   16 8 group offset  24 8 log buffer size         60 4 CRC-32C of bytes 0..59
//   496 8 MariaDB end LSN   508 4 CRC-32C
//
// LSNs count every byte of the block stream, headers and trailers included; the first is
// 8192 (LOG_START_LSN). A block's number is ((lsn / 512) mod 2^30) + 1.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ondisk/endian.h"
#include "ondisk/status.h"
#include "ondisk/types.h"

namespace strata::ondisk {

inline constexpr std::size_t kLogBlockSize = 512;
inline constexpr std::size_t kLogBlockHeaderSize = 12;
inline constexpr std::size_t kLogBlockTrailerSize = 4;
inline constexpr std::size_t kLogBlockPayload = kLogBlockSize - kLogBlockHeaderSize - kLogBlockTrailerSize;
inline constexpr std::size_t kLogFileHeaderSize = 2048;
inline constexpr std::size_t kLogCheckpoint1 = 512;
inline constexpr std::size_t kLogCheckpoint2 = 1536;
inline constexpr std::uint64_t kLogStartLsn = 8192;
inline constexpr std::size_t kMariaPhysCheckpoint1 = 4096;
inline constexpr std::size_t kMariaPhysCheckpoint2 = 8192;
inline constexpr std::size_t kMariaPhysStart = 12288;

// Log format values (LOG_HEADER_FORMAT). Frozen on disk.
enum class LogFormat : std::uint32_t {
  kLegacy = 0,   // MySQL <= 5.7.8, MariaDB <= 10.1
  kMySql57 = 1,  // 5.7.9, MariaDB 10.2
  kMySql801 = 2,
  kMySql803 = 3,
  kMySql8019 = 4,
  kMySql8028 = 5,
  kMySql8030 = 6,  // #innodb_redo/#ib_redoN files
  kMaria103 = 103,
  kMaria104 = 104,
  kMariaPhys = 0x50485953,     // "PHYS", 10.5-10.7
  kMariaPhys108 = 0x50687973,  // "Phys", 10.8+
};
std::string ToString(LogFormat f);

// Which checksum a block (or header) carries.
enum class LogChecksum : std::uint8_t { kBad = 0, kCrc32c = 1, kNone = 2, kLegacy = 3 };

std::uint32_t LogBlockNumber(Lsn lsn);
std::uint32_t LogLegacyBlockChecksum(ConstBytes block);  // MySQL 5.6 "innodb" log checksum
// Checks bytes 508..511 of a 512-byte block (or header/checkpoint block).
LogChecksum CheckLogBlockChecksum(ConstBytes block);

struct LogBlockHeader {
  // Where the fields sit in a block (LOG_BLOCK_HDR_NO, _DATA_LEN, _FIRST_REC_GROUP,
  // LOG_BLOCK_CHECKPOINT_NO); the records start after them, at kLogBlockHeaderSize.
  static constexpr std::size_t kNumber = 0, kDataLen = 4, kFirstRecGroup = 6, kCheckpointNo = 8;

  std::uint32_t number = 0;  // without the flush bit
  bool flush_bit = false;
  std::uint16_t data_len = 0;  // without the encrypted bit
  bool encrypted = false;
  std::uint16_t first_rec_group = 0;
  std::uint32_t checkpoint_no = 0;

  // Corruption unless the block is 512 bytes with a data length of 12..512 and a first
  // record group inside the data.
  static Result<LogBlockHeader> Decode(ConstBytes block);
  // Writes the header and stamps the CRC-32C trailer over the whole block.
  void EncodeTo(MutableBytes block) const;
};

// Reading a log in LSN order, as recovery and `inspect redo` both do (so that they agree where
// a log ends): the block found where the block of `lsn` belongs is
//   kWritten      that block: its number is the LSN's and its checksum one the format writes
//                 (Strata's logs: CRC-32C only; MySQL's and MariaDB's: CRC-32C, none
//                 (0xDEADBEEF, innodb_log_checksums=OFF) or 5.6's "innodb" sum);
//   kOtherLsn     a block of an earlier lap round the circle, or one never written;
//   kBadChecksum  that block, but its checksum does not match (a torn write, or damage).
// A log ends at its first block that is not kWritten, or at a written one with data_len < 512.
enum class LogBlockState : std::uint8_t { kWritten, kOtherLsn, kBadChecksum };
struct LogBlockAt {
  LogBlockState state = LogBlockState::kOtherLsn;
  LogBlockHeader header;  // as decoded (meaningful unless kOtherLsn)
};
LogBlockAt ReadLogBlockAt(ConstBytes block, std::uint64_t lsn, std::uint32_t log_format);

// The payloads of a log's written blocks laid end to end at a fixed stride of
// kLogBlockPayload bytes, so that stream position i is at a known LSN: records that run over
// block boundaries are read from it as one run of bytes.
class LogPayloadStream {
 public:
  // Starts again at the block of `first_block_lsn` (a multiple of 512), with room for
  // `expected_bytes` of payload.
  void Reset(std::uint64_t first_block_lsn, std::size_t expected_bytes = 0);
  // Adds the next block, a written one; false once it is the log's last (data_len < 512).
  bool Append(ConstBytes block, const LogBlockHeader& header);
  ConstBytes data() const { return ConstBytes(bytes_.data(), valid_); }  // up to the last data byte
  std::size_t blocks() const { return first_groups_.size(); }
  std::size_t stride_bytes() const { return bytes_.size(); }  // blocks() whole payloads
  std::uint64_t first_block_lsn() const { return first_block_; }
  std::uint64_t LsnAt(std::size_t pos) const {
    return first_block_ + pos / kLogBlockPayload * kLogBlockSize + kLogBlockHeaderSize + pos % kLogBlockPayload;
  }
  // Each block's first record group field (0: no group starts in it).
  const std::vector<std::uint16_t>& first_groups() const { return first_groups_; }

 private:
  std::vector<std::byte> bytes_;
  std::size_t valid_ = 0;
  std::uint64_t first_block_ = 0;
  std::vector<std::uint16_t> first_groups_;
};

struct LogFileHeader {
  // Where the fields sit in the file's first block (LOG_HEADER_FORMAT, _SUBFORMAT or the
  // UUID, _START_LSN, _CREATOR (32 bytes), Strata's flags and file size).
  static constexpr std::size_t kFormat = 0, kSubformat = 4, kStartLsn = 8, kCreator = 16, kCreatorSize = 32,
                               kFlags = 48, kStrataFileSize = 52;

  std::uint32_t format = 0;  // LogFormat, plus MariaDB's encryption bit 31
  std::uint32_t subformat_or_uuid = 0;
  std::uint64_t start_lsn = 0;
  std::string creator;
  std::uint32_t flags = 0;  // kLogFlag* (Strata), kMySqlLogFlag* (MySQL 8.0+)
  // Strata logs (kStrataLogFormat) since this field: the file's size in bytes, so that a
  // truncated log is known as one (its capacity decides where each LSN lives).
  std::uint64_t strata_file_size = 0;
  bool checksum_ok = false;

  static Result<LogFileHeader> Decode(ConstBytes block);  // first 512 bytes of the file
  void EncodeTo(MutableBytes block) const;                // stamps the CRC
};

struct LogCheckpoint {
  // Where the fields sit in a checkpoint block (LOG_CHECKPOINT_NO, _LSN, _OFFSET,
  // _LOG_BUF_SIZE; MariaDB 10.5-10.7's end LSN near the block's end), and in a MariaDB 10.8+
  // checkpoint (LSN, end LSN, CRC-32C over the bytes before it).
  static constexpr std::size_t kNumber = 0, kLsn = 8, kOffset = 16, kLogBufSize = 24, kMariaEndLsn = 496;
  static constexpr std::size_t kPhysLsn = 0, kPhysEndLsn = 8, kPhysCrc = 60, kPhysSize = 64;

  std::uint64_t number = 0;
  std::uint64_t lsn = 0;
  std::uint64_t offset = 0;
  std::uint64_t log_buf_size = 0;
  std::uint64_t maria_end_lsn = 0;
  bool checksum_ok = false;

  static Result<LogCheckpoint> Decode(ConstBytes block);  // 512 bytes
  void EncodeTo(MutableBytes block) const;

  // MariaDB 10.8+ checkpoint: LSN, end LSN, CRC over bytes 0..59.
  static Result<LogCheckpoint> DecodeMariaPhys(ConstBytes block);
};

// Formats 0-5: where `lsn` lives in a group of `n_files` files of `file_size` bytes, given a
// checkpoint at (checkpoint_lsn, checkpoint_group_offset). Returns the group offset, or
// Corruption when the checkpoint's offset (read from disk) is not a payload byte of the group.
// (Format 0 checkpoints keep that offset split over bytes 16 and 304; LogCheckpoint decodes
// formats 1 and later.)
Result<std::uint64_t> LogGroupOffset(std::uint64_t lsn, std::uint64_t checkpoint_lsn,
                                     std::uint64_t checkpoint_group_offset, std::uint64_t file_size,
                                     std::uint32_t n_files);

}  // namespace strata::ondisk
