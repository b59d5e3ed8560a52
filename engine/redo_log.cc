#include "engine/redo_log.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstring>

#include "ondisk/redo.h"
#include "ondisk/redo_record.h"

namespace strata::engine {

using namespace strata::ondisk;

namespace {
constexpr std::size_t kPayloadEnd = kLogBlockSize - kLogBlockTrailerSize;  // 508
constexpr std::uint64_t kFirstLsn = kLogStartLsn + kLogBlockHeaderSize;    // the first record byte
}  // namespace

Result<std::unique_ptr<RedoLog>> RedoLog::Create(Env& env, const std::filesystem::path& path, std::uint64_t capacity) {
  capacity = std::max<std::uint64_t>(capacity / kLogBlockSize * kLogBlockSize, 64 * kLogBlockSize);
  auto f = env.OpenFile(path, OpenMode::kCreateNew);
  if (!f.ok()) return f.status();
  STRATA_RETURN_IF_ERROR((*f)->Resize(kLogFileHeaderSize + capacity));
  auto log = std::unique_ptr<RedoLog>(new RedoLog(std::move(*f), capacity));
  {
    MutexLock lock(log->mu_);  // no other thread has it yet; the lock is for the rule's checker
    log->written_lsn_ = log->flushed_lsn_ = kFirstLsn;
    log->checkpoint_lsn_ = kFirstLsn;
  }
  STRATA_RETURN_IF_ERROR(log->WriteHeader());
  // Both checkpoint slots valid from the start, so that Open always finds one.
  STRATA_RETURN_IF_ERROR(log->Checkpoint(Lsn(kFirstLsn)));
  STRATA_RETURN_IF_ERROR(log->Checkpoint(Lsn(kFirstLsn)));
  MutexLock lock(log->mu_);
  log->buf_.assign(kLogBlockSize, std::byte{0});
  return log;
}

Status RedoLog::WriteHeader() {
  std::vector<std::byte> block(kLogBlockSize);
  LogFileHeader h;
  h.format = kStrataLogFormat;
  h.start_lsn = kLogStartLsn;
  h.creator = "Strata";
  h.flags = flags_;
  h.strata_file_size = kLogFileHeaderSize + capacity_;
  h.EncodeTo(block);
  STRATA_RETURN_IF_ERROR(file_->Write(0, block));
  STRATA_RETURN_IF_ERROR(file_->Sync());
  MutexLock lock(mu_);
  ++stats_.fsyncs;
  return Status::Ok();
}

Result<std::unique_ptr<RedoLog>> RedoLog::Open(Env& env, const std::filesystem::path& path, bool read_only) {
  auto f = env.OpenFile(path, read_only ? OpenMode::kReadOnly : OpenMode::kExisting);
  if (!f.ok()) return f.status();
  auto size = (*f)->Size();
  if (!size.ok()) return size.status();
  if (*size < kLogFileHeaderSize + 64 * kLogBlockSize || (*size - kLogFileHeaderSize) % kLogBlockSize != 0) {
    return Status::Corruption(fmt::format("{}: {} bytes is not a redo log's size (truncated?)", path.string(), *size));
  }
  std::vector<std::byte> block(kLogBlockSize);
  STRATA_RETURN_IF_ERROR((*f)->Read(0, block));
  auto header = LogFileHeader::Decode(block);
  if (!header.ok()) return header.status().WithContext(path.string());
  if (!header->checksum_ok) return Status::Corruption(path.string() + ": the log file header has a bad checksum");
  if (header->format != kStrataLogFormat) {
    return Status::NotSupported(fmt::format("{}: not a Strata redo log (format {:#x}, creator '{}')", path.string(),
                                            header->format, header->creator));
  }
  if (header->strata_file_size != 0 && header->strata_file_size != *size) {
    return Status::Corruption(fmt::format(
        "{}: the file is {} bytes but its header (offset 52) says {}: the log was {}; "
        "recovery would read its records at the wrong places, so nothing was opened",
        path.string(), *size, header->strata_file_size, *size < header->strata_file_size ? "truncated" : "extended"));
  }
  auto log = std::unique_ptr<RedoLog>(new RedoLog(std::move(*f), *size - kLogFileHeaderSize));
  log->flags_ = header->flags;
  MutexLock lock(log->mu_);  // no other thread has it yet; the lock is for the rule's checker
  bool found = false;
  for (std::size_t at : {kLogCheckpoint1, kLogCheckpoint2}) {
    STRATA_RETURN_IF_ERROR(log->file_->Read(at, block));
    auto cp = LogCheckpoint::Decode(block);
    if (!cp.ok() || !cp->checksum_ok || cp->lsn < kFirstLsn) continue;
    if (!found || cp->number > log->checkpoint_no_) {
      log->checkpoint_no_ = cp->number;
      log->checkpoint_lsn_ = cp->lsn;
      found = true;
    }
  }
  if (!found) return Status::Corruption(path.string() + ": neither checkpoint block is valid");
  return log;
}

std::uint64_t RedoLog::FileOffset(std::uint64_t block_lsn) const {
  return kLogFileHeaderSize + (block_lsn - kLogStartLsn) % capacity_;
}

Result<std::vector<RedoGroup>> RedoLog::Recover(std::size_t page_size) {
  MutexLock lock(mu_);
  const std::uint64_t first_block = checkpoint_lsn_ - checkpoint_lsn_ % kLogBlockSize;
  LogPayloadStream& stream = recovered_;
  stream.Reset(first_block, std::min<std::uint64_t>(capacity_, 64u << 20));
  std::vector<std::byte> chunk;
  constexpr std::uint64_t kChunkBlocks = 2048;  // 1 MiB reads
  bool done = false;
  for (std::uint64_t b = first_block; !done && b - first_block < capacity_;) {
    // As many blocks as fit before the end of the circle (and of the capacity).
    const std::uint64_t off = FileOffset(b);
    const std::uint64_t n =
        std::min<std::uint64_t>({kChunkBlocks, (kLogFileHeaderSize + capacity_ - off) / kLogBlockSize,
                                 (capacity_ - (b - first_block)) / kLogBlockSize});
    chunk.resize(n * kLogBlockSize);
    STRATA_RETURN_IF_ERROR(file_->Read(off, chunk));
    for (std::uint64_t k = 0; k < n; ++k, b += kLogBlockSize) {
      ConstBytes block = ConstBytes(chunk).subspan(k * kLogBlockSize, kLogBlockSize);
      const LogBlockAt at = ReadLogBlockAt(block, b, kStrataLogFormat);
      if (at.state != LogBlockState::kWritten ||
          (b == first_block && at.header.data_len < checkpoint_lsn_ % kLogBlockSize)) {
        // The end of the log: a block of an earlier lap, one never written, or the torn last
        // write of a crash (the inspector says so too). Not when the log goes on after it:
        // then it is damage in the middle, and the records after it (acknowledged commits
        // among them) would be dropped without a word.
        std::vector<std::byte> after(kLogBlockSize);
        const bool has_after = b + kLogBlockSize - first_block < capacity_;
        if (has_after) STRATA_RETURN_IF_ERROR(file_->Read(FileOffset(b + kLogBlockSize), after));
        const bool this_lap = at.state == LogBlockState::kBadChecksum;
        if (has_after && ReadLogBlockAt(after, b + kLogBlockSize, kStrataLogFormat).state == LogBlockState::kWritten) {
          return Status::Corruption(fmt::format(
              "{}: the log block at LSN {} (file offset {}) is damaged ({}), and the log goes on after it: the records "
              "past it cannot be replayed, so nothing was opened; restore the log from a backup",
              path().string(), b, FileOffset(b),
              this_lap ? "its checksum does not match" : "its header is not this lap's"));
        }
        done = true;
        break;
      }
      if (!stream.Append(block, at.header)) {
        done = true;
        break;
      }
    }
  }
  auto lsn_at = [&](std::size_t i) { return stream.LsnAt(i); };
  ConstBytes s = stream.data();

  std::vector<RedoGroup> groups;
  std::size_t i = checkpoint_lsn_ % kLogBlockSize - kLogBlockHeaderSize;
  std::size_t group_start = i;
  while (i < s.size()) {
    std::size_t next = 0;
    auto r = ParseRedoRecord(s, i, page_size, &next);
    if (!r.ok()) return r.status().WithContext(fmt::format("{}: recovery at LSN {}", path().string(), lsn_at(i)));
    if (!r->has_value()) break;  // the last group was cut short: it never committed
    i = next;
    if ((*r)->type == RedoType::kMtrEnd) {
      groups.push_back({Lsn(lsn_at(group_start)), Lsn(lsn_at(i)), s.subspan(group_start, i - group_start)});
      group_start = i;
    }
  }
  // Appends continue right after the last complete group, in its block.
  lsn_ = lsn_at(group_start);
  buf_lsn_ = lsn_ - lsn_ % kLogBlockSize;
  buf_.assign(kLogBlockSize, std::byte{0});
  const std::size_t block_start = (buf_lsn_ - first_block) / kLogBlockSize * kLogBlockPayload;
  const std::size_t keep = lsn_ % kLogBlockSize - kLogBlockHeaderSize;
  if (stream.stride_bytes() < block_start + keep) {
    return Status::Corruption(
        fmt::format("{}: the log block at the checkpoint (LSN {}) is damaged", path().string(), checkpoint_lsn_));
  }
  if (keep > 0) std::memcpy(buf_.data() + kLogBlockHeaderSize, stream.data().data() + block_start, keep);
  // The stream kept each block's header field of where its first group starts.
  const std::uint64_t last_block_lsn = first_block + (stream.blocks() ? stream.blocks() - 1 : 0) * kLogBlockSize;
  if (buf_lsn_ == last_block_lsn && stream.blocks() > 0) {
    const std::uint16_t first_group = stream.first_groups().back();
    if (first_group != 0 && first_group < lsn_ % kLogBlockSize)
      Store16(buf_, LogBlockHeader::kFirstRecGroup, first_group);
  } else if (keep > 0 && buf_lsn_ >= first_block) {
    // A full block from the middle of the scan: its header is not at hand, but any group
    // start before lsn_ in it was recorded there; find it from the groups themselves.
    for (const auto& g : groups) {
      if (g.start.value() >= buf_lsn_ && g.start.value() < lsn_) {
        Store16(buf_, LogBlockHeader::kFirstRecGroup, static_cast<std::uint16_t>(g.start.value() % kLogBlockSize));
        break;
      }
    }
  }
  written_lsn_ = flushed_lsn_ = lsn_;
  return groups;
}

void RedoLog::AppendBytes(ConstBytes bytes) {
  while (!bytes.empty()) {
    const std::size_t off = lsn_ % kLogBlockSize;
    const std::size_t at = (lsn_ - off - buf_lsn_);
    if (buf_.size() < at + kLogBlockSize) buf_.resize(at + kLogBlockSize, std::byte{0});
    const std::size_t n = std::min(bytes.size(), kPayloadEnd - off);
    std::memcpy(buf_.data() + at + off, bytes.data(), n);
    lsn_ += n;
    bytes = bytes.subspan(n);
    if (lsn_ % kLogBlockSize == kPayloadEnd) {
      lsn_ += kLogBlockTrailerSize + kLogBlockHeaderSize;
      if (buf_.size() < at + 2 * kLogBlockSize) buf_.resize(at + 2 * kLogBlockSize, std::byte{0});
    }
  }
}

std::pair<Lsn, Lsn> RedoLog::Append(ConstBytes records) {
  MutexLock lock(mu_);
  const std::uint64_t start = lsn_;
  const std::size_t at = start - start % kLogBlockSize - buf_lsn_;
  if (buf_.size() < at + kLogBlockSize) buf_.resize(at + kLogBlockSize, std::byte{0});
  if (Load16(buf_, at + LogBlockHeader::kFirstRecGroup) == 0)
    Store16(buf_, at + LogBlockHeader::kFirstRecGroup, static_cast<std::uint16_t>(start % kLogBlockSize));
  AppendBytes(records);
  ++stats_.appends;
  stats_.bytes += records.size();
  if (lsn_ - checkpoint_lsn_ > capacity_ - 4 * kLogBlockSize && error_.ok()) {
    // The log would overwrite what recovery still needs: nothing from here on may be
    // reported durable. (Database checks free space before each operation so this stays
    // an alarm, not a path.)
    error_ = Status::IoError(fmt::format("{}: redo log full: {} bytes since the checkpoint, capacity {}",
                                         path().string(), lsn_ - checkpoint_lsn_, capacity_));
  }
  return {Lsn(start), Lsn(lsn_)};
}

std::pair<Lsn, Lsn> RedoLog::Advance(std::uint64_t bytes) {
  MutexLock lock(mu_);
  const std::uint64_t start = lsn_;
  lsn_ += std::max<std::uint64_t>(bytes, 1);
  // Stay on a payload position, as appends would.
  if (lsn_ % kLogBlockSize >= kPayloadEnd || lsn_ % kLogBlockSize < kLogBlockHeaderSize) {
    lsn_ = lsn_ - lsn_ % kLogBlockSize + kLogBlockSize + kLogBlockHeaderSize;
  }
  buf_lsn_ = lsn_ - lsn_ % kLogBlockSize;
  buf_.assign(kLogBlockSize, std::byte{0});
  written_lsn_ = flushed_lsn_ = lsn_;  // nothing is logged: nothing to wait for
  return {Lsn(start), Lsn(lsn_)};
}

Status RedoLog::Fail(const Status& s, const char* what) {
  // Sticks: a later write or sync that succeeds proves nothing about what this one lost.
  if (error_.ok()) {
    error_ = s.WithContext(fmt::format("redo log {} failed; nothing after LSN {} is durable", what, flushed_lsn_));
  }
  cv_.NotifyAll();
  WakeDurable();
  return error_;
}

void RedoLog::WaitForSyncInFlight(std::uint64_t target) {
  DurableWaiter me;
  durable_waiters_.emplace(target, &me);
  while (!me.woken) me.cv.Wait(mu_);
}

void RedoLog::WakeDurable() {
  auto it = durable_waiters_.begin();
  while (it != durable_waiters_.end() && (it->first <= flushed_lsn_ || !error_.ok())) {
    it->second->woken = true;
    it->second->cv.NotifyOne();
    it = durable_waiters_.erase(it);
  }
}

Status RedoLog::WriteBlocks(Lsn target, bool sync) {
  for (;;) {
    if (!error_.ok()) return error_;
    if ((sync ? flushed_lsn_ : written_lsn_) >= target.value()) return Status::Ok();
    if (sync && written_lsn_ >= target.value()) {
      // Written: a sync must start after the write ended to cover it.
      if (syncing_upto_ >= target.value()) {
        WaitForSyncInFlight(target.value());
        continue;
      }
      if (syncs_in_flight_ >= kSyncsInFlight) {
        cv_.Wait(mu_);
        continue;
      }
      if (!writing_ && lsn_ > written_lsn_) {
        // Take in what was appended meanwhile first: the same fsync then covers it too.
      } else {
        const std::uint64_t upto = written_lsn_;
        ++syncs_in_flight_;
        syncing_upto_ = std::max(syncing_upto_, upto);
        mu_.Unlock();
        const auto began = std::chrono::steady_clock::now();
        Status s = file_->Sync();
        const auto took = std::chrono::steady_clock::now() - began;
        mu_.Lock();
        --syncs_in_flight_;
        if (syncs_in_flight_ == 0) syncing_upto_ = 0;
        if (!s.ok()) {
          return Fail(s, "sync");
        }
        ++stats_.fsyncs;
        ++stats_.commit_syncs;
        stats_.commit_sync_micros +=
            static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::microseconds>(took).count());
        flushed_lsn_ = std::max(flushed_lsn_, upto);
        WakeDurable();
        if (syncs_in_flight_ == kSyncsInFlight - 1) cv_.NotifyAll();  // a slot came free
        continue;
      }
    }
    if (writing_) {
      cv_.Wait(mu_);
      continue;
    }
    writing_ = true;
    const std::uint64_t end = lsn_;
    const std::uint64_t first = buf_lsn_;
    const std::size_t n_blocks = (end - first) / kLogBlockSize + 1;
    if (buf_.size() < n_blocks * kLogBlockSize) buf_.resize(n_blocks * kLogBlockSize, std::byte{0});
    // Take the buffer whole (no copy); appends carry on in a new one that starts with the
    // partial last block, which the next write rewrites.
    std::vector<std::byte> out;
    out.swap(buf_);
    out.resize(n_blocks * kLogBlockSize);
    buf_.reserve(1u << 20);
    buf_.assign(out.end() - kLogBlockSize, out.end());
    buf_lsn_ = end - end % kLogBlockSize;
    for (std::size_t k = 0; k < n_blocks; ++k) {
      const std::uint64_t b = first + k * kLogBlockSize;
      LogBlockHeader h;
      h.number = LogBlockNumber(Lsn(b));
      h.flush_bit = k == 0;
      h.data_len = static_cast<std::uint16_t>(k + 1 == n_blocks ? end % kLogBlockSize : kLogBlockSize);
      h.first_rec_group = Load16(out, k * kLogBlockSize + LogBlockHeader::kFirstRecGroup);
      h.checkpoint_no = static_cast<std::uint32_t>(checkpoint_no_);
      h.EncodeTo(MutableBytes(out).subspan(k * kLogBlockSize, kLogBlockSize));
    }
    mu_.Unlock();
    Status s;
    for (std::size_t k = 0; k < n_blocks && s.ok();) {  // contiguous runs, split where the circle wraps
      const std::uint64_t off = FileOffset(first + k * kLogBlockSize);
      const std::size_t room = static_cast<std::size_t>((kLogFileHeaderSize + capacity_ - off) / kLogBlockSize);
      const std::size_t run = std::min(room, n_blocks - k);
      s = file_->Write(off, ConstBytes(out).subspan(k * kLogBlockSize, run * kLogBlockSize));
      k += run;
    }
    mu_.Lock();
    writing_ = false;
    if (!s.ok()) {
      return Fail(s, "write");
    }
    ++stats_.writes;
    written_lsn_ = std::max(written_lsn_, end);
    cv_.NotifyAll();
  }
}

Status RedoLog::FlushUpTo(Lsn lsn) {
  MutexLock lock(mu_);
  return WriteBlocks(lsn, true);
}

Status RedoLog::WriteCurrentBlock() {
  MutexLock lock(mu_);
  written_lsn_ = flushed_lsn_ = std::min(flushed_lsn_, buf_lsn_);
  return WriteBlocks(Lsn(lsn_), true);
}

Status RedoLog::WriteUpTo(Lsn lsn) {
  MutexLock lock(mu_);
  return WriteBlocks(lsn, false);
}

Status RedoLog::Checkpoint(Lsn lsn) {
  std::vector<std::byte> block(kLogBlockSize);
  LogCheckpoint cp;
  {
    MutexLock lock(mu_);
    if (lsn.value() > flushed_lsn_) return Status::InvalidArgument("checkpoint past the durable end of the log");
    cp.number = checkpoint_no_ + 1;
    cp.lsn = lsn.value();
    cp.offset = FileOffset(lsn.value() - lsn.value() % kLogBlockSize) + lsn.value() % kLogBlockSize;
    cp.log_buf_size = buf_.capacity();
  }
  cp.EncodeTo(block);
  STRATA_RETURN_IF_ERROR(file_->Write(cp.number % 2 ? kLogCheckpoint1 : kLogCheckpoint2, block));
  STRATA_RETURN_IF_ERROR(file_->Sync());
  MutexLock lock(mu_);
  checkpoint_no_ = cp.number;
  checkpoint_lsn_ = std::max(checkpoint_lsn_, lsn.value());
  ++stats_.checkpoints;
  ++stats_.fsyncs;
  return Status::Ok();
}

Status RedoLog::SetFlags(std::uint32_t flags) {
  flags_ = flags;
  return WriteHeader();
}

Lsn RedoLog::lsn() const {
  MutexLock lock(mu_);
  return Lsn(lsn_);
}
Lsn RedoLog::flushed_lsn() const {
  MutexLock lock(mu_);
  return Lsn(flushed_lsn_);
}
Lsn RedoLog::checkpoint_lsn() const {
  MutexLock lock(mu_);
  return Lsn(checkpoint_lsn_);
}
std::uint64_t RedoLog::used() const {
  MutexLock lock(mu_);
  return lsn_ - checkpoint_lsn_;
}
RedoStats RedoLog::stats() const {
  MutexLock lock(mu_);
  return stats_;
}

}  // namespace strata::engine
