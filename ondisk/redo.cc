#include "ondisk/redo.h"

#include <algorithm>
#include <cassert>
#include <cstring>

#include "ondisk/crc32c.h"
#include "ondisk/redo_record.h"

namespace strata::ondisk {

std::string ToString(LogFormat f) {
  switch (f) {
    case LogFormat::kLegacy:
      return "legacy (MySQL <= 5.7.8, MariaDB <= 10.1)";
    case LogFormat::kMySql57:
      return "MySQL 5.7.9 / MariaDB 10.2";
    case LogFormat::kMySql801:
      return "MySQL 8.0.1";
    case LogFormat::kMySql803:
      return "MySQL 8.0.3";
    case LogFormat::kMySql8019:
      return "MySQL 8.0.19";
    case LogFormat::kMySql8028:
      return "MySQL 8.0.28";
    case LogFormat::kMySql8030:
      return "MySQL 8.0.30+";
    case LogFormat::kMaria103:
      return "MariaDB 10.3";
    case LogFormat::kMaria104:
      return "MariaDB 10.4";
    case LogFormat::kMariaPhys:
      return "MariaDB 10.5-10.7 (PHYS)";
    case LogFormat::kMariaPhys108:
      return "MariaDB 10.8+ (Phys)";
  }
  return "log format " + std::to_string(static_cast<std::uint32_t>(f));
}

std::uint32_t LogBlockNumber(Lsn lsn) {
  return static_cast<std::uint32_t>(((lsn.value() / kLogBlockSize) & 0x3FFFFFFF) + 1);
}

std::uint32_t LogLegacyBlockChecksum(ConstBytes block) {
  std::uint64_t sum = 1;
  unsigned shift = 0;
  for (std::size_t i = 0; i < kLogBlockSize - kLogBlockTrailerSize; ++i) {
    const std::uint64_t b = static_cast<std::uint8_t>(block[i]);
    sum = (sum & 0x7FFFFFFF) + b + (b << shift);
    if (++shift > 24) shift = 0;
  }
  return static_cast<std::uint32_t>(sum);
}

LogChecksum CheckLogBlockChecksum(ConstBytes block) {
  assert(block.size() >= kLogBlockSize);
  const std::uint32_t stored = Load32(block, kLogBlockSize - 4);
  if (stored == Crc32c(block.first(kLogBlockSize - 4))) return LogChecksum::kCrc32c;
  if (stored == 0xDEADBEEF) return LogChecksum::kNone;
  if (stored == LogLegacyBlockChecksum(block)) return LogChecksum::kLegacy;
  return LogChecksum::kBad;
}

namespace {
Status CheckBlockSize(ConstBytes b) {
  if (b.size() < kLogBlockSize) {
    return Status::CorruptionAt(b.size(), "log block is " + std::to_string(b.size()) + " bytes, expected 512");
  }
  return Status::Ok();
}
void StampCrc(MutableBytes b) { Store32(b, kLogBlockSize - 4, Crc32c(b.first(kLogBlockSize - 4))); }
}  // namespace

Result<LogBlockHeader> LogBlockHeader::Decode(ConstBytes block) {
  STRATA_RETURN_IF_ERROR(CheckBlockSize(block));
  LogBlockHeader h;
  const std::uint32_t no = Load32(block, kNumber);
  h.number = no & 0x7FFFFFFF;
  h.flush_bit = no >> 31;
  const std::uint16_t len = Load16(block, kDataLen);
  h.data_len = len & 0x7FFF;
  h.encrypted = len >> 15;
  h.first_rec_group = Load16(block, kFirstRecGroup);
  h.checkpoint_no = Load32(block, kCheckpointNo);
  if (h.data_len < kLogBlockHeaderSize || h.data_len > kLogBlockSize) {
    return Status::CorruptionAt(kDataLen, "log block data length " + std::to_string(h.data_len));
  }
  if (h.first_rec_group != 0 && (h.first_rec_group < kLogBlockHeaderSize || h.first_rec_group > h.data_len)) {
    return Status::CorruptionAt(
        kFirstRecGroup, "first record group at " + std::to_string(h.first_rec_group) + " is outside the block's data");
  }
  return h;
}

void LogBlockHeader::EncodeTo(MutableBytes block) const {
  assert(block.size() >= kLogBlockSize && number < (1u << 30) + 1 && data_len <= kLogBlockSize);
  Store32(block, kNumber, number | (flush_bit ? 0x80000000u : 0));
  Store16(block, kDataLen, static_cast<std::uint16_t>(data_len | (encrypted ? 0x8000 : 0)));
  Store16(block, kFirstRecGroup, first_rec_group);
  Store32(block, kCheckpointNo, checkpoint_no);
  StampCrc(block);
}

LogBlockAt ReadLogBlockAt(ConstBytes block, std::uint64_t lsn, std::uint32_t log_format) {
  LogBlockAt at;
  auto h = LogBlockHeader::Decode(block);
  if (!h.ok() || h->number != LogBlockNumber(Lsn(lsn))) return at;
  at.header = *h;
  const LogChecksum sum = CheckLogBlockChecksum(block);
  const bool accepted = log_format == kStrataLogFormat ? sum == LogChecksum::kCrc32c : sum != LogChecksum::kBad;
  at.state = accepted ? LogBlockState::kWritten : LogBlockState::kBadChecksum;
  return at;
}

void LogPayloadStream::Reset(std::uint64_t first_block_lsn, std::size_t expected_bytes) {
  bytes_.clear();
  bytes_.reserve(expected_bytes);
  valid_ = 0;
  first_block_ = first_block_lsn;
  first_groups_.clear();
}

bool LogPayloadStream::Append(ConstBytes block, const LogBlockHeader& header) {
  const std::size_t end = std::min<std::size_t>(header.data_len, kLogBlockSize - kLogBlockTrailerSize);
  const std::size_t base = bytes_.size();
  bytes_.resize(base + kLogBlockPayload, std::byte{0});
  if (end > kLogBlockHeaderSize)
    std::memcpy(bytes_.data() + base, block.data() + kLogBlockHeaderSize, end - kLogBlockHeaderSize);
  valid_ = base + (end > kLogBlockHeaderSize ? end - kLogBlockHeaderSize : 0);
  first_groups_.push_back(header.first_rec_group);
  return header.data_len >= kLogBlockSize;
}

Result<LogFileHeader> LogFileHeader::Decode(ConstBytes block) {
  STRATA_RETURN_IF_ERROR(CheckBlockSize(block));
  LogFileHeader h;
  h.format = Load32(block, kFormat);
  h.subformat_or_uuid = Load32(block, kSubformat);
  h.start_lsn = Load64(block, kStartLsn);
  const char* creator = reinterpret_cast<const char*>(block.data() + kCreator);
  h.creator.assign(creator, strnlen(creator, kCreatorSize));
  h.flags = Load32(block, kFlags);
  h.strata_file_size = Load64(block, kStrataFileSize);
  h.checksum_ok = CheckLogBlockChecksum(block) == LogChecksum::kCrc32c;
  return h;
}

void LogFileHeader::EncodeTo(MutableBytes block) const {
  assert(block.size() >= kLogBlockSize && creator.size() < kCreatorSize);
  std::memset(block.data(), 0, kLogBlockSize);
  Store32(block, kFormat, format);
  Store32(block, kSubformat, subformat_or_uuid);
  Store64(block, kStartLsn, start_lsn);
  std::memcpy(block.data() + kCreator, creator.data(), creator.size());
  Store32(block, kFlags, flags);
  Store64(block, kStrataFileSize, strata_file_size);
  StampCrc(block);
}

Result<LogCheckpoint> LogCheckpoint::Decode(ConstBytes block) {
  STRATA_RETURN_IF_ERROR(CheckBlockSize(block));
  LogCheckpoint c;
  c.number = Load64(block, kNumber);
  c.lsn = Load64(block, kLsn);
  c.offset = Load64(block, kOffset);
  c.log_buf_size = Load64(block, kLogBufSize);
  c.maria_end_lsn = Load64(block, kMariaEndLsn);
  c.checksum_ok = CheckLogBlockChecksum(block) == LogChecksum::kCrc32c;
  return c;
}

void LogCheckpoint::EncodeTo(MutableBytes block) const {
  assert(block.size() >= kLogBlockSize);
  std::memset(block.data(), 0, kLogBlockSize);
  Store64(block, kNumber, number);
  Store64(block, kLsn, lsn);
  Store64(block, kOffset, offset);
  Store64(block, kLogBufSize, log_buf_size);
  Store64(block, kMariaEndLsn, maria_end_lsn);
  StampCrc(block);
}

Result<LogCheckpoint> LogCheckpoint::DecodeMariaPhys(ConstBytes block) {
  if (block.size() < kPhysSize) {
    return Status::CorruptionAt(block.size(), "MariaDB checkpoint block shorter than 64 bytes");
  }
  LogCheckpoint c;
  c.lsn = Load64(block, kPhysLsn);
  c.maria_end_lsn = Load64(block, kPhysEndLsn);
  c.checksum_ok = Load32(block, kPhysCrc) == Crc32c(block.first(kPhysCrc));
  return c;
}

Result<std::uint64_t> LogGroupOffset(std::uint64_t lsn, std::uint64_t cp_lsn, std::uint64_t cp_offset,
                                     std::uint64_t file_size, std::uint32_t n_files) {
  assert(file_size > kLogFileHeaderSize && n_files > 0);
  if (cp_offset >= n_files * file_size || cp_offset % file_size < kLogFileHeaderSize) {
    return Status::CorruptionAt(kLogCheckpoint1 + LogCheckpoint::kOffset,
                                "checkpoint offset " + std::to_string(cp_offset) + " is not in the log files' payload");
  }
  const std::uint64_t payload = file_size - kLogFileHeaderSize;
  const std::uint64_t capacity = n_files * payload;
  // Group offset -> payload offset and back, skipping each file's header.
  const std::uint64_t cp_payload = cp_offset - kLogFileHeaderSize * (1 + cp_offset / file_size);
  const std::uint64_t distance = lsn >= cp_lsn ? (lsn - cp_lsn) % capacity : capacity - (cp_lsn - lsn) % capacity;
  const std::uint64_t s = (cp_payload + distance) % capacity;
  return s + kLogFileHeaderSize * (1 + s / payload);
}

}  // namespace strata::ondisk
