#include "inspect/redo_report.h"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <unordered_map>

#include "inspect/path_check.h"
#include "inspect/redo_records.h"
#include "ondisk/checksum.h"
#include "ondisk/fil_header.h"
#include "ondisk/fsp_header.h"
#include "ondisk/mariadb_redo.h"
#include "ondisk/mysql_redo.h"
#include "ondisk/redo.h"
#include "ondisk/redo_record.h"

namespace strata::inspect {

using namespace strata::ondisk;

namespace {

std::string FormatName(std::uint32_t format) {
  if (format == kStrataLogFormat) return "Strata redo log, version 1";
  return ToString(static_cast<LogFormat>(format & 0x7FFFFFFF));
}

bool KnownFormat(std::uint32_t format) {
  static constexpr LogFormat kKnown[] = {LogFormat::kLegacy,    LogFormat::kMySql57,     LogFormat::kMySql801,
                                         LogFormat::kMySql803,  LogFormat::kMySql8019,   LogFormat::kMySql8028,
                                         LogFormat::kMySql8030, LogFormat::kMaria103,    LogFormat::kMaria104,
                                         LogFormat::kMariaPhys, LogFormat::kMariaPhys108};
  const auto f = static_cast<LogFormat>(format & 0x7FFFFFFF);
  return format == kStrataLogFormat || std::find(std::begin(kKnown), std::end(kKnown), f) != std::end(kKnown);
}

// A tablespace given where a log was meant: its page 0 is an FSP_HDR page that passes its
// own checksum (a log's header never does).
bool IsTablespace(std::ifstream& in, std::uint64_t file_size) {
  std::vector<std::byte> head(std::min<std::uint64_t>(file_size, kMaxPageSize));
  in.seekg(0);
  if (head.size() < FspHeader::kFlags + 4 ||
      !in.read(reinterpret_cast<char*>(head.data()), static_cast<std::streamsize>(head.size())))
    return false;
  auto flags = FspFlags::Decode(Load32(head, FspHeader::kFlags));
  if (!flags.ok() || flags->physical_page_size > head.size()) return false;
  const ConstBytes p0(head.data(), flags->physical_page_size);
  // (ROW_FORMAT=COMPRESSED pages carry the compressed-page checksum, at 1 to 16 KiB.)
  const PageCheck c =
      !flags->full_crc32 && flags->zip_ssize ? ValidateCompressedPage(p0) : ValidatePage(p0, flags->full_crc32);
  return c.valid && !c.all_zero && FilHeader(p0).type() == PageType::kFspHdr && FilHeader(p0).page_no().value() == 0;
}

bool BlockFramed(std::uint32_t format) {
  const auto f = static_cast<LogFormat>(format & 0x7FFFFFFF);
  return format == kStrataLogFormat || f != LogFormat::kMariaPhys108;
}

// MySQL 8.0.30+'s spare files, #innodb_redo/#ib_redoN_tmp.
bool IsSpareRedoFile(const std::filesystem::path& p) {
  const std::string name = p.filename().string();
  return name.starts_with("#ib_redo") && name.ends_with("_tmp");
}

// N of a MySQL 8.0.30+ log file #ib_redoN; nullopt for any other name.
std::optional<long> RedoFileNumber(const std::filesystem::path& p) {
  const std::string name = p.filename().string();
  if (!name.starts_with("#ib_redo") || IsSpareRedoFile(p)) return std::nullopt;
  const std::string digits = name.substr(8);
  if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos || digits.size() > 9)
    return std::nullopt;
  return std::stol(digits);
}

std::optional<std::vector<std::byte>> ReadBytes(const std::filesystem::path& p, std::uint64_t offset, std::size_t n) {
  std::ifstream in(p, std::ios::binary);
  std::vector<std::byte> out(n);
  in.seekg(static_cast<std::streamoff>(offset));
  if (!in.read(reinterpret_cast<char*>(out.data()), static_cast<std::streamsize>(n))) return std::nullopt;
  return out;
}

// The newest valid checkpoint LSN a block-framed log file holds (0: none).
std::uint64_t NewestCheckpointLsn(const std::filesystem::path& p) {
  std::uint64_t best = 0;
  for (std::size_t at : {kLogCheckpoint1, kLogCheckpoint2}) {
    if (auto b = ReadBytes(p, at, kLogBlockSize)) {
      if (auto cp = LogCheckpoint::Decode(*b); cp.ok() && cp->checksum_ok) best = std::max(best, cp->lsn);
    }
  }
  return best;
}

// The log of a data directory: ib_logfile0 (MariaDB, MySQL before 8.0.30), else the
// #innodb_redo/#ib_redoN file holding the newest checkpoint, as MySQL's recovery chooses it.
std::filesystem::path RedoFileIn(const std::filesystem::path& dir) {
  std::error_code ec;
  if (std::filesystem::exists(dir / "ib_logfile0", ec)) return dir / "ib_logfile0";
  std::filesystem::path best = dir / "ib_logfile0";
  std::pair<std::uint64_t, long> best_key{0, -1};  // checkpoint LSN, then N
  for (const auto& e : std::filesystem::directory_iterator(dir / "#innodb_redo", ec)) {
    const auto n = RedoFileNumber(e.path());
    if (!n) continue;
    const std::pair<std::uint64_t, long> key{NewestCheckpointLsn(e.path()), *n};
    if (key > best_key) best_key = key, best = e.path();
  }
  return best;
}

// MySQL 8.0.30+: the #ib_redoN files beside `file` that belong to its log (same format and
// log UUID, a good header), in LSN order. Each holds LSNs [start, start + size - 2048).
struct RedoFileSpan {
  std::filesystem::path path;
  std::uint64_t start_lsn = 0, end_lsn = 0;
};
std::vector<RedoFileSpan> RedoFileSet(const std::filesystem::path& file, std::uint32_t uuid) {
  std::vector<RedoFileSpan> spans;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(file.parent_path().empty() ? "." : file.parent_path(), ec)) {
    if (!RedoFileNumber(e.path())) continue;
    const auto size = std::filesystem::file_size(e.path(), ec);
    auto block = ReadBytes(e.path(), 0, kLogBlockSize);
    if (ec || !block || size < kLogFileHeaderSize + kLogBlockSize) continue;
    auto h = LogFileHeader::Decode(*block);
    if (!h.ok() || !h->checksum_ok || h->format != static_cast<std::uint32_t>(LogFormat::kMySql8030) ||
        h->subformat_or_uuid != uuid) {
      continue;
    }
    const std::uint64_t data = (size - kLogFileHeaderSize) / kLogBlockSize * kLogBlockSize;
    spans.push_back({e.path(), h->start_lsn, h->start_lsn + data});
  }
  std::sort(spans.begin(), spans.end(), [](const auto& a, const auto& b) { return a.start_lsn < b.start_lsn; });
  return spans;
}

// The header's flags: Strata's and MySQL's logs give the same field other values.
bool HasFlag(const RedoReport& r, std::uint32_t strata_bit, std::uint32_t mysql_bit) {
  return r.flags & (r.format == kStrataLogFormat ? strata_bit : mysql_bit);
}

std::vector<std::string> FlagNames(const RedoReport& r) {
  std::vector<std::pair<std::uint32_t, const char*>> known;
  if (r.format == kStrataLogFormat) {
    known = {{kLogFlagNoLogging, "NO_LOGGING (redo disabled)"},
             {kLogFlagCrashUnsafe, "CRASH_UNSAFE (not shut down cleanly while disabled)"}};
  } else {
    known = {{kMySqlLogFlagNoLogging, "NO_LOGGING (redo disabled)"},
             {kMySqlLogFlagCrashUnsafe, "CRASH_UNSAFE (not shut down cleanly while disabled)"},
             {kMySqlLogFlagNotInitialized, "NOT_INITIALIZED (the data directory was never fully made)"},
             {kMySqlLogFlagFileFull, "FILE_FULL (written to its end; the log goes on in the next file)"}};
  }
  std::vector<std::string> out;
  std::uint32_t rest = r.flags;
  for (const auto& [bit, name] : known) {
    if (r.flags & bit) out.emplace_back(name), rest &= ~bit;
  }
  if (rest) out.push_back(fmt::format("{:#x} (not a flag this reader knows)", rest));
  return out;
}

}  // namespace

namespace {

// One analysis of a log: its file header, checkpoints, and the records from the newest
// checkpoint on. Each step returns false after adding the finding that stops it.
class RedoAnalysis {
 public:
  RedoAnalysis(const std::filesystem::path& input, const RedoOptions& opt, const MariaMtrVisitor& visit)
      : input_(input), opt_(opt), visit_(visit) {
    r_.page_asked = opt.page;
  }

  RedoReport Run() {
    if (!Open() || !ReadHeader()) return std::move(r_);
    if (auto there = FromTheNewestFile()) return std::move(*there);
    if (!ReadCheckpoints()) return std::move(r_);
    if (phys_) {
      ReadPhysical();
    } else if (ScanBlocks()) {
      DecodeStream();
    }
    return std::move(r_);
  }

 private:
  bool Fail(const std::string& what, const std::string& detail) {
    r_.findings.push_back({Severity::kError, r_.file, std::nullopt, std::nullopt, what, detail});
    return false;
  }
  bool InputIsDirectory() const {
    std::error_code ec;
    return std::filesystem::is_directory(input_, ec);
  }
  bool Read(std::uint64_t offset, std::vector<std::byte>& out) {
    if (offset + out.size() > r_.file_size) return false;
    in_.seekg(static_cast<std::streamoff>(offset));
    in_.read(reinterpret_cast<char*>(out.data()), static_cast<std::streamsize>(out.size()));
    return static_cast<bool>(in_);
  }

  // The file: the directory's log when given a directory; a spare file, a tablespace or
  // something that is no file at all stops here.
  bool Open() {
    path_ = InputIsDirectory() ? RedoFileIn(input_) : input_;
    r_.file = path_.string();
    if (IsSpareRedoFile(path_)) {
      r_.findings.push_back(
          {Severity::kInfo, r_.file, std::nullopt, std::nullopt, "spare log file",
           "MySQL 8.0.30+ keeps this file ready to become the next #ib_redo file: it holds no log yet"});
      r_.format_name = "spare #innodb_redo file";
      r_.scan_end = "a spare file: not read";
      return false;
    }
    if (auto refused = RefusedPath(path_)) return Fail("not read", *refused);
    in_.open(path_, std::ios::binary);
    if (!in_) {
      return Fail("cannot open", InputIsDirectory() ? "no ib_logfile0 or #innodb_redo/#ib_redoN in this directory"
                                                    : "cannot read the file");
    }
    in_.seekg(0, std::ios::end);
    r_.file_size = static_cast<std::uint64_t>(in_.tellg());
    if (IsTablespace(in_, r_.file_size)) {
      return Fail("not a redo log",
                  "this is a tablespace (page 0 is an FSP_HDR page with a valid checksum): read it "
                  "with `strata inspect summary`, `pages` or `check`");
    }
    return true;
  }

  bool ReadHeader() {
    std::vector<std::byte> block(kLogBlockSize);
    if (!Read(0, block))
      return Fail("truncated", fmt::format("{} bytes: shorter than a log file header", r_.file_size));
    auto header = LogFileHeader::Decode(block);
    if (!header.ok()) return Fail("file header", header.status().message());
    if (!KnownFormat(header->format) && !header->checksum_ok) {
      return Fail("not a redo log", fmt::format("its header names format {:#x}, none InnoDB or Strata writes, and its "
                                                "checksum does not match",
                                                header->format));
    }
    header_ = *header;
    r_.format = header->format;
    r_.format_name = FormatName(header->format);
    r_.creator = header->creator;
    r_.start_lsn = header->start_lsn;
    r_.flags = header->flags;
    if (HasFlag(r_, kLogFlagCrashUnsafe, kMySqlLogFlagCrashUnsafe)) {
      // The cause of whatever damage the pages show, said before any of it.
      r_.findings.push_back(
          {Severity::kError, r_.file, std::nullopt, std::nullopt, "crash-unsafe",
           "redo logging was disabled (ALTER INSTANCE DISABLE INNODB REDO_LOG, or an import with --disable-redo) and "
           "the server did not stop cleanly: pages it had not yet written are lost or torn and no log can bring them "
           "back, so zeroed pages and broken links in these files are expected; load the data again"});
    }
    r_.header_checksum_ok = header->checksum_ok;
    if (!r_.header_checksum_ok)
      r_.findings.push_back({Severity::kWarning, r_.file, std::nullopt, 508, "file header", "checksum does not match"});
    r_.block_framed = BlockFramed(header->format);
    phys_ = !r_.block_framed;
    // MySQL 8.0.30+: each #ib_redoN file holds one stretch of LSNs from its start LSN on, at
    // offset 2048 + (LSN - start LSN); the log goes on in the next file, not round this one.
    per_file_ = header->format == static_cast<std::uint32_t>(LogFormat::kMySql8030);
    return true;
  }

  // One #ib_redoN file of several: recovery starts from the newest checkpoint of them all,
  // which may be in another file (--all reads from the start of the file given instead).
  std::optional<RedoReport> FromTheNewestFile() {
    if (!per_file_ || opt_.all || InputIsDirectory()) return std::nullopt;
    std::filesystem::path best = path_;
    std::uint64_t best_lsn = NewestCheckpointLsn(path_);
    for (const auto& span : RedoFileSet(path_, header_.subformat_or_uuid)) {
      if (const std::uint64_t lsn = NewestCheckpointLsn(span.path); lsn > best_lsn) best_lsn = lsn, best = span.path;
    }
    if (best == path_) return std::nullopt;
    RedoReport there = AnalyzeRedo(best, opt_, visit_);
    there.findings.insert(
        there.findings.begin(),
        {Severity::kInfo, r_.file, std::nullopt, std::nullopt, "newer checkpoint",
         fmt::format("the log's newest checkpoint (LSN {}) is in {}: read from there, as recovery would", best_lsn,
                     best.filename().string())});
    return there;
  }

  // Checkpoints: the newer valid one is where recovery would start.
  bool ReadCheckpoints() {
    for (std::size_t at : phys_ ? std::vector<std::size_t>{kMariaPhysCheckpoint1, kMariaPhysCheckpoint2}
                                : std::vector<std::size_t>{kLogCheckpoint1, kLogCheckpoint2}) {
      RedoCheckpointInfo c;
      c.file_offset = at;
      std::vector<std::byte> cb(phys_ ? 64 : kLogBlockSize);
      if (Read(at, cb)) {
        auto cp = phys_ ? LogCheckpoint::DecodeMariaPhys(cb) : LogCheckpoint::Decode(cb);
        if (cp.ok()) {
          c.valid = cp->checksum_ok && cp->lsn != 0;
          c.number = cp->number;
          c.lsn = cp->lsn;
          c.end_lsn = cp->maria_end_lsn;
          c.offset = cp->offset;
        }
      }
      r_.checkpoints.push_back(c);
    }
    for (std::size_t i = 0; i < r_.checkpoints.size(); ++i) {
      const auto& c = r_.checkpoints[i];
      if (!c.valid) continue;
      // MariaDB 10.8+ and MySQL 8.0.30+ keep no checkpoint number: the larger LSN is the newer.
      const bool by_lsn = phys_ || per_file_;
      const bool newer = !r_.newest || (by_lsn ? c.lsn > r_.checkpoints[*r_.newest].lsn
                                               : c.number > r_.checkpoints[*r_.newest].number);
      if (newer) r_.newest = i;
    }
    if (!r_.newest) return Fail("checkpoints", "neither checkpoint block is valid");
    r_.lsn_begin = r_.lsn_end = checkpoint().lsn;
    return true;
  }
  const RedoCheckpointInfo& checkpoint() const { return r_.checkpoints[*r_.newest]; }

  // MariaDB 10.8+: mini-transactions from the checkpoint, with no blocks around them.
  void ReadPhysical() {
    const RedoCheckpointInfo& cp = checkpoint();
    if (opt_.all) {
      r_.findings.push_back({Severity::kInfo, r_.file, std::nullopt, std::nullopt, "--all",
                             "a MariaDB 10.8+ log can only be walked from its checkpoint (nothing marks where an "
                             "older mini-transaction starts): read from there"});
    }
    WalkMariaPhys(path_, r_.file_size, r_.start_lsn, cp.lsn, opt_, r_, visit_);
    // The server writes its FILE_CHECKPOINT record at the checkpoint's end LSN and will not
    // recover a log whose readable records stop short of it or at it (the record itself
    // unreadable): bytes were cut or damaged there.
    if (r_.records_decoded && cp.end_lsn != 0 && cp.end_lsn >= r_.lsn_end) {
      r_.findings.push_back({Severity::kError, r_.file, std::nullopt, std::nullopt, "log ends early",
                             fmt::format("the readable records end at LSN {}, short of the FILE_CHECKPOINT record at "
                                         "the checkpoint's end LSN {}: the log was cut or damaged there, "
                                         "and MariaDB's recovery refuses it",
                                         r_.lsn_end, cp.end_lsn)});
      r_.scan_end = fmt::format(
          "{} mini-transactions after the checkpoint; the next bytes do not form one, short of "
          "the checkpoint's end LSN",
          r_.mtr_groups);
    }
    FindTopPages(r_);
  }

  // Where the block scan starts: the checkpoint, or with --all the oldest LSN the files hold.
  std::uint64_t ScanFrom() {
    std::uint64_t from = checkpoint().lsn;
    if (per_file_) {
      spans_ = RedoFileSet(path_, header_.subformat_or_uuid);
      if (std::none_of(spans_.begin(), spans_.end(), [&](const auto& s) { return s.start_lsn == r_.start_lsn; })) {
        spans_.push_back(
            {path_, r_.start_lsn, r_.start_lsn + (r_.file_size - kLogFileHeaderSize) / kLogBlockSize * kLogBlockSize});
        std::sort(spans_.begin(), spans_.end(), [](const auto& x, const auto& y) { return x.start_lsn < y.start_lsn; });
      }
      // --all: every record the files still hold (from the oldest file of a data directory, or
      // from the start of the file given).
      if (opt_.all) from = InputIsDirectory() ? spans_.front().start_lsn : r_.start_lsn;
    } else if (opt_.all && static_cast<LogFormat>(r_.format & 0x7FFFFFFF) == LogFormat::kMariaPhys &&
               checkpoint().lsn - r_.start_lsn + kLogBlockSize < r_.file_size - kLogFileHeaderSize) {
      from = r_.start_lsn;  // the ring has not come round: it holds everything since it was made
    } else if (opt_.all) {
      r_.findings.push_back({Severity::kInfo, r_.file, std::nullopt, std::nullopt, "--all",
                             "this log is read from its checkpoint: only MySQL 8.0.30+ logs and MariaDB 10.5-10.7 "
                             "logs that have not come round their ring are read from their start"});
    }
    return from;
  }

  // Where the block at LSN `b` is: placed by the checkpoint's block, whose file offset the
  // checkpoint gives, or (MySQL 8.0.30+) in the #ib_redo file whose stretch holds it.
  struct Where {
    const std::filesystem::path* file = nullptr;
    std::uint64_t offset = 0;
  };
  Result<std::optional<Where>> Locate(std::uint64_t b) const {
    if (!per_file_) {
      const RedoCheckpointInfo& cp = checkpoint();
      auto off =
          LogGroupOffset(b, cp.lsn - cp.lsn % kLogBlockSize, cp.offset - cp.offset % kLogBlockSize, r_.file_size, 1);
      if (!off.ok()) return off.status();
      return std::optional<Where>(Where{&path_, *off});
    }
    for (const auto& span : spans_) {
      if (b >= span.start_lsn && b < span.end_lsn)
        return std::optional<Where>(Where{&span.path, kLogFileHeaderSize + (b - span.start_lsn)});
    }
    return std::optional<Where>();
  }
  bool ReadBlock(const Where& w, std::vector<std::byte>& out) {
    if (*w.file == path_) return Read(w.offset, out);
    if (other_path_ != *w.file) other_ = std::ifstream(*w.file, std::ios::binary), other_path_ = *w.file;
    other_.seekg(static_cast<std::streamoff>(w.offset));
    return static_cast<bool>(
        other_.read(reinterpret_cast<char*>(out.data()), static_cast<std::streamsize>(out.size())));
  }
  // Whether any of the 8 blocks after a bad one at LSN `b` is a written block of its own LSN
  // with a good checksum: then the bad block is damage inside the log, not its torn end.
  bool BlockFollows(std::uint64_t b) {
    std::vector<std::byte> next_block(kLogBlockSize);
    for (std::uint64_t next = b + kLogBlockSize; next <= b + 8 * kLogBlockSize; next += kLogBlockSize) {
      auto w = Locate(next);
      if (!w.ok() || !w->has_value() || !ReadBlock(**w, next_block)) return false;
      if (ReadLogBlockAt(next_block, next, r_.format).state == LogBlockState::kWritten) return true;
    }
    return false;
  }

  // Blocks from the scan's start on: round the circular area (MySQL before 8.0.30, MariaDB
  // before 10.8, Strata), or on through this #ib_redo file and the ones after it (MySQL
  // 8.0.30+), their payloads gathered in stream_ until the last block written.
  bool ScanBlocks() {
    if (r_.file_size <= kLogFileHeaderSize + kLogBlockSize) return Fail("truncated", "no room for log blocks");
    scan_from_ = ScanFrom();
    r_.lsn_begin = r_.lsn_end = scan_from_;
    first_block_ = scan_from_ - scan_from_ % kLogBlockSize;
    const std::uint64_t capacity = r_.file_size - kLogFileHeaderSize;
    if (auto w = Locate(first_block_); !w.ok() || !w->has_value()) {
      r_.scan_end = w.ok() ? fmt::format("LSN {} is in none of the #ib_redo files here (this one holds {} .. {})",
                                         scan_from_, r_.start_lsn, r_.start_lsn + capacity)
                           : w.status().message();
      return Fail("checkpoint", r_.scan_end);
    }
    stream_.Reset(first_block_);
    r_.scan_end = "the whole circular area was read";
    std::vector<std::byte> block(kLogBlockSize);
    for (std::uint64_t b = first_block_; per_file_ || b - first_block_ < capacity; b += kLogBlockSize) {
      auto w = Locate(b);
      if (!w.ok()) return Fail("checkpoint", w.status().message());
      if (!w->has_value()) {
        r_.scan_end = fmt::format("the #ib_redo files here end at LSN {}", b);
        break;
      }
      const std::string file = (*w)->file->string();
      if (r_.log_files.empty() || r_.log_files.back() != file) r_.log_files.push_back(file);
      ++r_.blocks_read;
      if (!ReadBlock(**w, block)) {
        r_.scan_end = "the file ends";
        break;
      }
      const LogBlockAt at = ReadLogBlockAt(block, b, r_.format);
      if (at.state != LogBlockState::kWritten) {
        SayWhereTheBlocksEnd(at.state, b, file, (*w)->offset);
        break;
      }
      ++r_.blocks_valid;
      encrypted_ |= at.header.encrypted;
      r_.lsn_end = b + std::min<std::size_t>(at.header.data_len, kLogBlockSize);
      if (!stream_.Append(block, at.header)) {
        r_.scan_end = fmt::format("block at LSN {} is the last one written ({} bytes)", b, at.header.data_len);
        break;
      }
    }
    return true;
  }

  // A block at LSN `b` that is not a written one of its own: the log's end, or damage when
  // written blocks follow it.
  void SayWhereTheBlocksEnd(LogBlockState state, std::uint64_t b, const std::string& file, std::uint64_t offset) {
    const auto at = static_cast<std::size_t>(offset);
    if (state == LogBlockState::kOtherLsn) {
      r_.scan_end = fmt::format("block at LSN {} belongs elsewhere (an older pass over the file, or never written)", b);
      if (BlockFollows(b)) {
        r_.findings.push_back({Severity::kError, file, std::nullopt, at, "log block",
                               fmt::format("LSN {}: its header is not this block's, and written blocks follow it: "
                                           "the log is damaged here, and recovery would stop at this block",
                                           b)});
      }
      return;
    }
    r_.scan_end = fmt::format("block at LSN {} has a bad checksum", b);
    // A torn last write is normal after a crash; a bad block with good ones after it is not.
    const bool more = BlockFollows(b);
    r_.findings.push_back(
        {more ? Severity::kError : Severity::kWarning, file, std::nullopt, at, "log block",
         more ? fmt::format("LSN {}: checksum does not match, and written blocks follow it: the log is "
                            "damaged here, and recovery would stop at this block",
                            b)
              : fmt::format("LSN {}: checksum does not match (a torn last write is normal after a crash)", b)});
  }

  // The records of the payloads gathered, by the log's format.
  void DecodeStream() {
    const std::vector<std::uint16_t>& first_group = stream_.first_groups();
    // Where the scan's first byte is in the stream of payloads; read from the start of a
    // block, where its first mini-transaction begins.
    std::size_t from =
        (scan_from_ - first_block_) < kLogBlockHeaderSize ? 0 : scan_from_ - first_block_ - kLogBlockHeaderSize;
    if (scan_from_ == first_block_ && !first_group.empty() && first_group[0] >= kLogBlockHeaderSize)
      from = first_group[0] - kLogBlockHeaderSize;
    if (r_.format == kStrataLogFormat) {
      r_.records_decoded = true;
      DecodeRecords(stream_.data(), from, first_block_, opt_, r_, visit_);
      FindTopPages(r_);
    } else if (per_file_ && encrypted_) {
      r_.scan_end += "; its blocks are encrypted (innodb_redo_log_encrypt): records not decoded";
    } else if (per_file_) {
      DecodeMySqlRecords(stream_.data(), first_group, from, first_block_, opt_, r_);
      FindTopPages(r_);
    } else if (static_cast<LogFormat>(r_.format & 0x7FFFFFFF) == LogFormat::kMariaPhys) {
      DecodeMaria105Records(stream_.data(), first_group, from, first_block_, opt_, r_);
      FindTopPages(r_);
    }
  }

  const std::filesystem::path input_;
  const RedoOptions& opt_;
  const MariaMtrVisitor& visit_;
  RedoReport r_;
  std::filesystem::path path_;
  std::ifstream in_;
  LogFileHeader header_;
  bool phys_ = false;      // MariaDB 10.8+: no blocks
  bool per_file_ = false;  // MySQL 8.0.30+: #ib_redoN files
  std::vector<RedoFileSpan> spans_;
  std::ifstream other_;  // another #ib_redo file, while blocks are read from it
  std::filesystem::path other_path_;
  std::uint64_t scan_from_ = 0;
  std::uint64_t first_block_ = 0;
  LogPayloadStream stream_;
  bool encrypted_ = false;
};

}  // namespace

RedoReport AnalyzeRedo(const std::filesystem::path& input, const RedoOptions& opt, const MariaMtrVisitor& visit) {
  return RedoAnalysis(input, opt, visit).Run();
}

namespace {
std::uint64_t RecordCount(const RedoReport& r) {
  std::uint64_t n = 0;
  for (const auto& [type, count] : r.record_types) n += count;
  return n;
}
}  // namespace

nlohmann::json ToJson(const RedoReport& r, bool with_bytes) {
  nlohmann::json cps = nlohmann::json::array();
  for (std::size_t i = 0; i < r.checkpoints.size(); ++i) {
    const auto& c = r.checkpoints[i];
    cps.push_back({{"file_offset", c.file_offset},
                   {"valid", c.valid},
                   {"number", c.number},
                   {"lsn", c.lsn},
                   {"end_lsn", c.end_lsn},
                   {"newest", r.newest == i}});
  }
  nlohmann::json recs = nlohmann::json::array();
  for (const auto& x : r.records) {
    nlohmann::json j = {{"lsn", x.lsn}, {"mtr", x.mtr}, {"type", x.type}, {"space", x.space}, {"page", x.page}};
    if (x.length > 0) {
      j["offset"] = x.offset;
      j["length"] = x.length;
      if (with_bytes) {
        std::string hex;
        for (std::byte b : x.bytes) hex += fmt::format("{:02x}", std::to_integer<unsigned>(b));
        j["bytes"] = hex;
      }
    }
    recs.push_back(j);
  }
  nlohmann::json pages = nlohmann::json::array();
  for (const auto& [p, n] : r.top_pages) pages.push_back({{"page", p}, {"records", n}});
  nlohmann::json findings = nlohmann::json::array();
  for (const auto& f : r.findings) findings.push_back(ToJson(f));
  return {{"file", r.file},
          {"log_files", r.log_files},
          {"file_size", r.file_size},
          {"format", r.format},
          {"format_name", r.format_name},
          {"creator", r.creator},
          {"start_lsn", r.start_lsn},
          {"flags", r.flags},
          {"flag_names", FlagNames(r)},
          {"redo_disabled", HasFlag(r, kLogFlagNoLogging, kMySqlLogFlagNoLogging)},
          {"crash_unsafe", HasFlag(r, kLogFlagCrashUnsafe, kMySqlLogFlagCrashUnsafe)},
          {"header_checksum_ok", r.header_checksum_ok},
          {"checkpoints", cps},
          {"checkpoint_lsn", r.newest ? nlohmann::json(r.checkpoints[*r.newest].lsn) : nlohmann::json(nullptr)},
          {"lsn_begin", r.lsn_begin},
          {"lsn_end", r.lsn_end},
          {"blocks_read", r.blocks_read},
          {"blocks_valid", r.blocks_valid},
          {"scan_end", r.scan_end},
          {"records_decoded", r.records_decoded},
          {"mini_transactions", r.mtr_groups},
          {"record_count", RecordCount(r)},
          {"incomplete_tail_bytes", r.incomplete_tail_bytes},
          {"record_types", r.record_types},
          {"pages_changed", r.pages.size()},
          {"top_pages", pages},
          {"records", recs},
          {"findings", findings}};
}

std::string ToText(const RedoReport& r) {
  std::string out = r.file + "\n";
  if (r.format == 0 && r.format_name.empty()) {  // nothing was read: only why
    for (const auto& f : r.findings) out += "  - " + f.ToString() + "\n";
    return out;
  }
  out += fmt::format("  format         {} ({:#x}), creator \"{}\"\n", r.format_name, r.format, r.creator);
  out += fmt::format("  start LSN      {}\n", r.start_lsn);
  std::string flags;
  for (const std::string& f : FlagNames(r)) flags += " " + f;
  out += fmt::format("  flags          {:#x}{}\n", r.flags, flags.empty() ? " none" : flags);
  for (std::size_t i = 0; i < r.checkpoints.size(); ++i) {
    const auto& c = r.checkpoints[i];
    out += fmt::format("  checkpoint {}   {}\n", i + 1,
                       c.valid ? fmt::format("LSN {}{}{}", c.lsn, c.number ? fmt::format(" (number {})", c.number) : "",
                                             r.newest == i ? ", the newer" : "")
                               : "invalid");
  }
  if (r.log_files.size() > 1) {
    out += fmt::format("  files          {} #ib_redo files, {} .. {}\n", r.log_files.size(),
                       std::filesystem::path(r.log_files.front()).filename().string(),
                       std::filesystem::path(r.log_files.back()).filename().string());
  }
  if (r.block_framed) {
    const bool from_checkpoint = !r.newest || r.lsn_begin == r.checkpoints[*r.newest].lsn;
    out += fmt::format("  log present    LSN {} .. {} ({} bytes {})\n", r.lsn_begin, r.lsn_end,
                       r.lsn_end > r.lsn_begin ? r.lsn_end - r.lsn_begin : 0,
                       from_checkpoint ? "after the checkpoint" : "from the oldest still in the files");
    out += fmt::format("  blocks         {} read from {}, {} valid; {}\n", r.blocks_read,
                       from_checkpoint ? "the checkpoint" : fmt::format("LSN {}", r.lsn_begin), r.blocks_valid,
                       r.scan_end);
  } else {
    out += fmt::format("  log end        LSN {}: {}\n", r.lsn_end, r.scan_end);
  }
  if (r.records_decoded) {
    std::string types;
    for (const auto& [t, n] : r.record_types) types += fmt::format("{}{} {}", types.empty() ? "" : ", ", t, n);
    out += fmt::format(
        "  records        {} in {} mini-transactions{}{}\n", RecordCount(r), r.mtr_groups,
        types.empty() ? "" : ": " + types,
        r.incomplete_tail_bytes ? fmt::format("; {} bytes of a last one cut short", r.incomplete_tail_bytes) : "");
    std::size_t freed = 0;
    for (const auto& [id, info] : r.pages) freed += info.freed;
    out += fmt::format("  pages          {} changed{}\n", r.pages.size(),
                       freed ? fmt::format(" ({} freed by their last change)", freed) : "");
    if (!r.top_pages.empty()) {
      out += "  pages touched most:";
      for (const auto& [p, n] : r.top_pages) out += fmt::format(" {} ({})", p, n);
      out += "\n";
    }
    if (r.records.empty() && r.page_asked) {
      out += fmt::format("  page {}:{}      no records for it {}\n", r.page_asked->first, r.page_asked->second,
                         r.lsn_begin == (r.newest ? r.checkpoints[*r.newest].lsn : 0)
                             ? "after the checkpoint (--all: also before)"
                             : "in the log");
    }
    for (const auto& x : r.records) {
      out += fmt::format("    LSN {:>12}  mtr {:>6}  {:<8}", x.lsn, x.mtr, x.type);
      if (x.type == "MTR_END" || x.type == "MLOG_MULTI_REC_END")
        out += "\n";
      else if (x.type == "EXTEND")
        out += fmt::format(" space {} to {} pages\n", x.space, x.page);
      else if (x.length > 0) {
        out += fmt::format(" space {} page {} offset {} length {}\n", x.space, x.page, x.offset, x.length);
      } else {
        out += fmt::format(" space {} page {}\n", x.space, x.page);
      }
    }
  } else if (r.block_framed) {
    out +=
        "  records        not decoded: this tool reads the records of Strata's, MySQL 8.0.30+ and MariaDB 10.5+ logs\n";
  }
  for (const auto& f : r.findings) out += "  - " + f.ToString() + "\n";
  return out;
}

}  // namespace strata::inspect
