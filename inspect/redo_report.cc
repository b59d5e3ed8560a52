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

RedoReport AnalyzeRedo(const std::filesystem::path& input, const RedoOptions& opt, const MariaMtrVisitor& visit) {
  RedoReport r;
  r.page_asked = opt.page;
  std::error_code ec;
  const std::filesystem::path path = std::filesystem::is_directory(input, ec) ? RedoFileIn(input) : input;
  r.file = path.string();
  auto fail = [&](const std::string& what, const std::string& detail) {
    r.findings.push_back({Severity::kError, r.file, std::nullopt, std::nullopt, what, detail});
    return r;
  };
  if (IsSpareRedoFile(path)) {
    r.findings.push_back({Severity::kInfo, r.file, std::nullopt, std::nullopt, "spare log file",
                          "MySQL 8.0.30+ keeps this file ready to become the next #ib_redo file: it holds no log yet"});
    r.format_name = "spare #innodb_redo file";
    r.scan_end = "a spare file: not read";
    return r;
  }
  if (auto refused = RefusedPath(path)) return fail("not read", *refused);
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return fail("cannot open", std::filesystem::is_directory(input, ec)
                                   ? "no ib_logfile0 or #innodb_redo/#ib_redoN in this directory"
                                   : "cannot read the file");
  }
  in.seekg(0, std::ios::end);
  r.file_size = static_cast<std::uint64_t>(in.tellg());
  auto read = [&](std::uint64_t offset, std::vector<std::byte>& out) {
    if (offset + out.size() > r.file_size) return false;
    in.seekg(static_cast<std::streamoff>(offset));
    in.read(reinterpret_cast<char*>(out.data()), static_cast<std::streamsize>(out.size()));
    return static_cast<bool>(in);
  };
  if (IsTablespace(in, r.file_size)) {
    return fail("not a redo log",
                "this is a tablespace (page 0 is an FSP_HDR page with a valid checksum): read it "
                "with `strata inspect summary`, `pages` or `check`");
  }
  std::vector<std::byte> block(kLogBlockSize);
  if (!read(0, block)) return fail("truncated", fmt::format("{} bytes: shorter than a log file header", r.file_size));
  auto header = LogFileHeader::Decode(block);
  if (!header.ok()) return fail("file header", header.status().message());
  if (!KnownFormat(header->format) && !header->checksum_ok) {
    return fail("not a redo log", fmt::format("its header names format {:#x}, none InnoDB or Strata writes, and its "
                                              "checksum does not match",
                                              header->format));
  }
  r.format = header->format;
  r.format_name = FormatName(header->format);
  r.creator = header->creator;
  r.start_lsn = header->start_lsn;
  r.flags = header->flags;
  if (HasFlag(r, kLogFlagCrashUnsafe, kMySqlLogFlagCrashUnsafe)) {
    // The cause of whatever damage the pages show, said before any of it.
    r.findings.push_back(
        {Severity::kError, r.file, std::nullopt, std::nullopt, "crash-unsafe",
         "redo logging was disabled (ALTER INSTANCE DISABLE INNODB REDO_LOG, or an import with --disable-redo) and "
         "the server did not stop cleanly: pages it had not yet written are lost or torn and no log can bring them "
         "back, so zeroed pages and broken links in these files are expected; load the data again"});
  }
  r.header_checksum_ok = header->checksum_ok;
  if (!r.header_checksum_ok) {
    r.findings.push_back({Severity::kWarning, r.file, std::nullopt, 508, "file header", "checksum does not match"});
  }
  r.block_framed = BlockFramed(header->format);
  // One #ib_redoN file of several: recovery starts from the newest checkpoint of them all,
  // which may be in another file (--all reads from the start of the file given instead).
  if (header->format == static_cast<std::uint32_t>(LogFormat::kMySql8030) && !opt.all &&
      !std::filesystem::is_directory(input, ec)) {
    std::filesystem::path best = path;
    std::uint64_t best_lsn = NewestCheckpointLsn(path);
    for (const auto& span : RedoFileSet(path, header->subformat_or_uuid)) {
      if (const std::uint64_t lsn = NewestCheckpointLsn(span.path); lsn > best_lsn) best_lsn = lsn, best = span.path;
    }
    if (best != path) {
      RedoReport there = AnalyzeRedo(best, opt, visit);
      there.findings.insert(
          there.findings.begin(),
          {Severity::kInfo, r.file, std::nullopt, std::nullopt, "newer checkpoint",
           fmt::format("the log's newest checkpoint (LSN {}) is in {}: read from there, as recovery would", best_lsn,
                       best.filename().string())});
      return there;
    }
  }

  // Checkpoints: the newer valid one is where recovery would start.
  const bool phys = !r.block_framed;
  // MySQL 8.0.30+: each #ib_redoN file holds one stretch of LSNs from its start LSN on, at
  // offset 2048 + (LSN - start LSN); the log goes on in the next file, not round this one.
  const bool per_file = header->format == static_cast<std::uint32_t>(LogFormat::kMySql8030);
  for (std::size_t at : phys ? std::vector<std::size_t>{kMariaPhysCheckpoint1, kMariaPhysCheckpoint2}
                             : std::vector<std::size_t>{kLogCheckpoint1, kLogCheckpoint2}) {
    RedoCheckpointInfo c;
    c.file_offset = at;
    std::vector<std::byte> cb(phys ? 64 : kLogBlockSize);
    if (read(at, cb)) {
      auto cp = phys ? LogCheckpoint::DecodeMariaPhys(cb) : LogCheckpoint::Decode(cb);
      if (cp.ok()) {
        c.valid = cp->checksum_ok && cp->lsn != 0;
        c.number = cp->number;
        c.lsn = cp->lsn;
        c.end_lsn = cp->maria_end_lsn;
      }
    }
    r.checkpoints.push_back(c);
  }
  for (std::size_t i = 0; i < r.checkpoints.size(); ++i) {
    const auto& c = r.checkpoints[i];
    if (!c.valid) continue;
    // MariaDB 10.8+ and MySQL 8.0.30+ keep no checkpoint number: the larger LSN is the newer.
    const bool by_lsn = phys || per_file;
    const bool newer =
        !r.newest || (by_lsn ? c.lsn > r.checkpoints[*r.newest].lsn : c.number > r.checkpoints[*r.newest].number);
    if (newer) r.newest = i;
  }
  if (!r.newest) return fail("checkpoints", "neither checkpoint block is valid");
  const RedoCheckpointInfo& cp = r.checkpoints[*r.newest];
  r.lsn_begin = r.lsn_end = cp.lsn;
  if (phys) {
    if (opt.all) {
      r.findings.push_back({Severity::kInfo, r.file, std::nullopt, std::nullopt, "--all",
                            "a MariaDB 10.8+ log can only be walked from its checkpoint (nothing marks where an older "
                            "mini-transaction starts): read from there"});
    }
    r.lsn_end = cp.lsn;
    WalkMariaPhys(path, r.file_size, r.start_lsn, cp.lsn, opt, r, visit);
    // The server writes its FILE_CHECKPOINT record at the checkpoint's end LSN and will not
    // recover a log whose readable records stop short of it or at it (the record itself
    // unreadable): bytes were cut or damaged there.
    if (r.records_decoded && cp.end_lsn != 0 && cp.end_lsn >= r.lsn_end) {
      r.findings.push_back({Severity::kError, r.file, std::nullopt, std::nullopt, "log ends early",
                            fmt::format("the readable records end at LSN {}, short of the FILE_CHECKPOINT record at "
                                        "the checkpoint's end LSN {}: the log was cut or damaged there, "
                                        "and MariaDB's recovery refuses it",
                                        r.lsn_end, cp.end_lsn)});
      r.scan_end = fmt::format(
          "{} mini-transactions after the checkpoint; the next bytes do not form one, short of "
          "the checkpoint's end LSN",
          r.mtr_groups);
    }
    FindTopPages(r);
    return r;
  }

  // Blocks from the checkpoint's block on: round the circular area (MySQL before 8.0.30, MariaDB
  // before 10.8, Strata), or on through this #ib_redo file and the ones after it (MySQL 8.0.30+).
  std::vector<std::byte> cpb(kLogBlockSize);
  read(*r.newest == 0 ? kLogCheckpoint1 : kLogCheckpoint2, cpb);
  const std::uint64_t cp_offset = Load64(cpb, LogCheckpoint::kOffset);
  if (r.file_size <= kLogFileHeaderSize + kLogBlockSize) return fail("truncated", "no room for log blocks");
  std::vector<RedoFileSpan> spans;
  std::uint64_t scan_from = cp.lsn;
  if (per_file) {
    spans = RedoFileSet(path, header->subformat_or_uuid);
    if (std::none_of(spans.begin(), spans.end(), [&](const auto& s) { return s.start_lsn == r.start_lsn; })) {
      spans.push_back(
          {path, r.start_lsn, r.start_lsn + (r.file_size - kLogFileHeaderSize) / kLogBlockSize * kLogBlockSize});
      std::sort(spans.begin(), spans.end(), [](const auto& x, const auto& y) { return x.start_lsn < y.start_lsn; });
    }
    // --all: every record the files still hold (from the oldest file of a data directory, or
    // from the start of the file given).
    if (opt.all) scan_from = std::filesystem::is_directory(input, ec) ? spans.front().start_lsn : r.start_lsn;
  } else if (opt.all && static_cast<LogFormat>(r.format & 0x7FFFFFFF) == LogFormat::kMariaPhys &&
             cp.lsn - r.start_lsn + kLogBlockSize < r.file_size - kLogFileHeaderSize) {
    scan_from = r.start_lsn;  // the ring has not come round: it holds everything since it was made
  } else if (opt.all) {
    r.findings.push_back({Severity::kInfo, r.file, std::nullopt, std::nullopt, "--all",
                          "this log is read from its checkpoint: only MySQL 8.0.30+ logs and MariaDB 10.5-10.7 logs "
                          "that have not come round their ring are read from their start"});
  }
  r.lsn_begin = r.lsn_end = scan_from;
  const std::uint64_t first_block = scan_from - scan_from % kLogBlockSize;
  const std::uint64_t capacity = r.file_size - kLogFileHeaderSize;

  // Where the block at LSN `b` is, and reading it; another #ib_redo file is opened as needed.
  struct Where {
    const std::filesystem::path* file = nullptr;
    std::uint64_t offset = 0;
  };
  auto where = [&](std::uint64_t b) -> Result<std::optional<Where>> {
    if (!per_file) {
      // Placed by the checkpoint's block, whose file offset the checkpoint gives.
      auto off =
          LogGroupOffset(b, cp.lsn - cp.lsn % kLogBlockSize, cp_offset - cp_offset % kLogBlockSize, r.file_size, 1);
      if (!off.ok()) return off.status();
      return std::optional<Where>(Where{&path, *off});
    }
    for (const auto& span : spans) {
      if (b >= span.start_lsn && b < span.end_lsn)
        return std::optional<Where>(Where{&span.path, kLogFileHeaderSize + (b - span.start_lsn)});
    }
    return std::optional<Where>();
  };
  std::ifstream other;
  std::filesystem::path other_path;
  auto read_block = [&](const Where& w, std::vector<std::byte>& out) {
    if (*w.file == path) return read(w.offset, out);
    if (other_path != *w.file) other = std::ifstream(*w.file, std::ios::binary), other_path = *w.file;
    other.seekg(static_cast<std::streamoff>(w.offset));
    return static_cast<bool>(other.read(reinterpret_cast<char*>(out.data()), static_cast<std::streamsize>(out.size())));
  };
  // Whether any of the 8 blocks after a bad one at LSN `b` is a written block of its own LSN
  // with a good checksum: then the bad block is damage inside the log, not its torn end.
  auto block_follows = [&](std::uint64_t b) {
    std::vector<std::byte> next_block(kLogBlockSize);
    for (std::uint64_t next = b + kLogBlockSize; next <= b + 8 * kLogBlockSize; next += kLogBlockSize) {
      auto w = where(next);
      if (!w.ok() || !w->has_value() || !read_block(**w, next_block)) return false;
      if (ReadLogBlockAt(next_block, next, r.format).state == LogBlockState::kWritten) return true;
    }
    return false;
  };

  if (auto w = where(first_block); !w.ok() || !w->has_value()) {
    r.scan_end = w.ok() ? fmt::format("LSN {} is in none of the #ib_redo files here (this one holds {} .. {})",
                                      scan_from, r.start_lsn, r.start_lsn + capacity)
                        : w.status().message();
    return fail("checkpoint", r.scan_end);
  }
  LogPayloadStream stream;
  stream.Reset(first_block);
  bool encrypted = false;
  r.scan_end = "the whole circular area was read";
  for (std::uint64_t b = first_block; per_file || b - first_block < capacity; b += kLogBlockSize) {
    auto w = where(b);
    if (!w.ok()) return fail("checkpoint", w.status().message());
    if (!w->has_value()) {
      r.scan_end = fmt::format("the #ib_redo files here end at LSN {}", b);
      break;
    }
    const std::string file = (*w)->file->string();
    if (r.log_files.empty() || r.log_files.back() != file) r.log_files.push_back(file);
    ++r.blocks_read;
    if (!read_block(**w, block)) {
      r.scan_end = "the file ends";
      break;
    }
    const LogBlockAt at = ReadLogBlockAt(block, b, r.format);
    if (at.state == LogBlockState::kOtherLsn) {
      r.scan_end = fmt::format("block at LSN {} belongs elsewhere (an older pass over the file, or never written)", b);
      if (block_follows(b)) {  // written blocks of their own LSNs after it: damage, not the end
        r.findings.push_back(
            {Severity::kError, file, std::nullopt, static_cast<std::size_t>((*w)->offset), "log block",
             fmt::format("LSN {}: its header is not this block's, and written blocks follow it: the log "
                         "is damaged here, and recovery would stop at this block",
                         b)});
      }
      break;
    }
    if (at.state == LogBlockState::kBadChecksum) {
      r.scan_end = fmt::format("block at LSN {} has a bad checksum", b);
      // A torn last write is normal after a crash; a bad block with good ones after it is not.
      const bool more = block_follows(b);
      r.findings.push_back(
          {more ? Severity::kError : Severity::kWarning, file, std::nullopt, static_cast<std::size_t>((*w)->offset),
           "log block",
           more ? fmt::format("LSN {}: checksum does not match, and written blocks follow it: the log is "
                              "damaged here, and recovery would stop at this block",
                              b)
                : fmt::format("LSN {}: checksum does not match (a torn last write is normal after a crash)", b)});
      break;
    }
    ++r.blocks_valid;
    encrypted |= at.header.encrypted;
    r.lsn_end = b + std::min<std::size_t>(at.header.data_len, kLogBlockSize);
    if (!stream.Append(block, at.header)) {
      r.scan_end = fmt::format("block at LSN {} is the last one written ({} bytes)", b, at.header.data_len);
      break;
    }
  }
  const std::vector<std::uint16_t>& first_group = stream.first_groups();
  // Where the checkpoint's byte is in the stream of payloads; read from the start of a block,
  // where its first mini-transaction begins.
  std::size_t from =
      (scan_from - first_block) < kLogBlockHeaderSize ? 0 : scan_from - first_block - kLogBlockHeaderSize;
  if (scan_from == first_block && !first_group.empty() && first_group[0] >= kLogBlockHeaderSize) {
    from = first_group[0] - kLogBlockHeaderSize;
  }
  if (r.format == kStrataLogFormat) {
    r.records_decoded = true;
    DecodeRecords(stream.data(), from, first_block, opt, r, visit);
    FindTopPages(r);
  } else if (per_file && encrypted) {
    r.scan_end += "; its blocks are encrypted (innodb_redo_log_encrypt): records not decoded";
  } else if (per_file) {
    DecodeMySqlRecords(stream.data(), first_group, from, first_block, opt, r);
    FindTopPages(r);
  } else if (static_cast<LogFormat>(r.format & 0x7FFFFFFF) == LogFormat::kMariaPhys) {
    DecodeMaria105Records(stream.data(), first_group, from, first_block, opt, r);
    FindTopPages(r);
  }
  return r;
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
