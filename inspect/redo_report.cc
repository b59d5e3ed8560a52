#include "inspect/redo_report.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <fstream>
#include <functional>
#include <memory>
#include <unordered_map>

#include "ondisk/crc32c.h"
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

bool BlockFramed(std::uint32_t format) {
  const auto f = static_cast<LogFormat>(format & 0x7FFFFFFF);
  return format == kStrataLogFormat || f != LogFormat::kMariaPhys108;
}

// Records counted by type and by page. Type names are static strings: counting compares
// pointers, as a log holds millions of records.
class RecordTally {
 public:
  void Type(const char* type) {
    for (auto& [t, n] : types_) {
      if (t == type) return void(++n);
    }
    types_.emplace_back(type, 1);
  }
  RedoPageInfo& Page(std::uint32_t space, std::uint32_t page) { return pages_[std::uint64_t{space} << 32 | page]; }
  void AddTo(RedoReport& r) const {
    for (const auto& [type, n] : types_) r.record_types[type] += n;
    for (const auto& [id, info] : pages_)
      r.pages[{static_cast<std::uint32_t>(id >> 32), static_cast<std::uint32_t>(id)}] = info;
  }

 private:
  std::vector<std::pair<const char*, std::uint64_t>> types_;
  std::unordered_map<std::uint64_t, RedoPageInfo> pages_;  // space << 32 | page
};

// The LSN of byte i of the block payloads read from the block at LSN `first_block` on.
std::uint64_t LsnAt(std::uint64_t first_block, std::size_t i) {
  return first_block + i / kLogBlockPayload * kLogBlockSize + kLogBlockHeaderSize + i % kLogBlockPayload;
}

// A parser's message, its "offset N" (a position in the payloads read) given as the LSN there.
std::string WithLsn(const std::string& message, const std::function<std::uint64_t(std::size_t)>& lsn_of) {
  std::size_t n = 0, end = 0;
  if (message.rfind("offset ", 0) != 0 || (end = message.find(": ")) == std::string::npos) return message;
  const auto [p, ec] = std::from_chars(message.data() + 7, message.data() + end, n);
  if (ec != std::errc() || p != message.data() + end) return message;
  return fmt::format("byte at LSN {}{}", lsn_of(n), message.substr(end));
}

// Each block's first-record-group field (the byte where the first mini-transaction starting in
// it starts, 0 for none), against where the decoded records put them: the server wrote the
// field, so agreement confirms every record length decoded on the way. Disagreements are
// errors naming the block's LSN (the first five; then a count).
class FirstGroupCheck {
 public:
  // `fields[k]` is block k's field; blocks before `from_block` are not checked.
  FirstGroupCheck(const std::vector<std::uint16_t>& fields, std::size_t from_block, std::uint64_t first_block,
                  RedoReport& r)
      : fields_(fields), checked_(from_block), first_block_(first_block), r_(r) {}
  ~FirstGroupCheck() {
    if (mismatches_ > 5) {
      r_.findings.push_back(
          {Severity::kError, r_.file, std::nullopt, std::nullopt, "log block",
           fmt::format("{} blocks in all disagree with the records about where mini-transactions start", mismatches_)});
    }
  }
  // A mini-transaction starts at payload byte `at`.
  void At(std::size_t at) {
    const std::size_t blk = at / kLogBlockPayload;
    for (; checked_ <= blk && checked_ < fields_.size(); ++checked_) {
      const std::uint16_t want =
          checked_ == blk ? static_cast<std::uint16_t>(at % kLogBlockPayload + kLogBlockHeaderSize) : 0;
      if (fields_[checked_] == want || ++mismatches_ > 5) continue;
      r_.findings.push_back(
          {Severity::kError, r_.file, std::nullopt, std::nullopt, "log block",
           fmt::format("LSN {}: its header says the first mini-transaction starting in it is at byte {}; "
                       "the records before it put it at {}: the log is damaged, or a record was misread",
                       first_block_ + checked_ * kLogBlockSize, fields_[checked_], want)});
    }
  }

 private:
  const std::vector<std::uint16_t>& fields_;
  std::size_t checked_;
  std::uint64_t first_block_;
  RedoReport& r_;
  std::uint64_t mismatches_ = 0;
};

// Where the records of a MariaDB mini-transaction starting at `i` end: at its termination
// byte, a byte 0 or 1 (no record starts so; each record's first byte gives its length).
// nullopt when they run to `limit` or a length is malformed.
std::optional<std::uint64_t> MariaRecordsEnd(ConstBytes all, std::uint64_t i, std::uint64_t limit) {
  std::uint64_t l = i;
  while (l < limit && std::to_integer<unsigned>(all[l]) > 1) {
    std::size_t p = l + 1;
    std::uint64_t n = std::to_integer<unsigned>(all[l]) & 0x0F;
    if (n == 0) {
      auto v = DecodeMariaVarint(all, &p);
      if (!v.ok()) return std::nullopt;
      n = std::uint64_t{*v} + 15;
    }
    l += 1 + n;
  }
  if (l >= limit) return std::nullopt;
  return l;
}

// One whole MariaDB mini-transaction, ending at `end_lsn`: decoded, visited, counted, and its
// records kept when asked for. `lsn_of(k)`: the LSN of its k-th byte. False (said) when its
// records do not decode.
bool TakeMariaMtr(ConstBytes records, const std::function<std::uint64_t(std::size_t)>& lsn_of, std::uint64_t end_lsn,
                  const RedoOptions& opt, RedoReport& r, RecordTally& tally, std::vector<MariaRedoRecord>& decoded,
                  const MariaMtrVisitor& visit) {
  if (Status st = ParseMariaMtr(records, &decoded); !st.ok()) {
    r.findings.push_back(
        {Severity::kError, r.file, std::nullopt, std::nullopt, "redo record",
         fmt::format("mini-transaction at LSN {} (its checksum holds): {}", lsn_of(0), WithLsn(st.message(), lsn_of))});
    return false;
  }
  if (visit) visit(decoded, end_lsn);
  for (const MariaRedoRecord& x : decoded) {
    tally.Type(x.type);
    if (x.page_op) {
      RedoPageInfo& pi = tally.Page(x.space, x.page);
      ++pi.records;
      pi.last_lsn = end_lsn;
      pi.freed = x.freed;
    }
    const bool wanted = opt.page ? x.page_op && x.space == opt.page->first && x.page == opt.page->second : opt.records;
    if (wanted) {
      r.records.push_back({lsn_of(x.at), r.mtr_groups, x.type, x.space, x.page, x.offset, x.length,
                           std::vector<std::byte>(x.data.begin(), x.data.end())});
    }
  }
  ++r.mtr_groups;
  return true;
}

// MariaDB 10.5-10.7: the records 10.8+ writes, in 512-byte blocks; a mini-transaction ends at
// its termination byte and has no checksum of its own (its blocks have theirs). Decoded, not
// replayed: no crashed 10.5-10.7 server's files are at hand to check a replay against (ApplyRedo
// says so), so no visitor is called.
void DecodeMaria105Records(ConstBytes stream, const std::vector<std::uint16_t>& first_group, std::size_t begin,
                           std::uint64_t first_block, const RedoOptions& opt, RedoReport& r) {
  RecordTally tally;
  std::vector<MariaRedoRecord> decoded;
  FirstGroupCheck group_starts(first_group, begin / kLogBlockPayload + 1, first_block, r);
  std::size_t i = begin;
  while (i < stream.size()) {
    // A lone termination byte (10.5 writes one after a FILE_RENAME's mini-transaction) starts
    // nothing: the block headers' first-record-group fields skip it too.
    if (std::to_integer<unsigned>(stream[i]) <= 1) {
      ++i;
      continue;
    }
    group_starts.At(i);
    const auto l = MariaRecordsEnd(stream, i, stream.size());
    if (!l) break;  // the log ends (a mini-transaction cut short is not applied)
    auto lsn_of = [&](std::size_t k) { return LsnAt(first_block, i + k); };
    if (!TakeMariaMtr(ConstBytes(stream).subspan(i, *l - i), lsn_of, LsnAt(first_block, *l + 1), opt, r, tally, decoded,
                      {}))
      break;
    i = *l + 1;
  }
  tally.AddTo(r);
  r.records_decoded = true;
}

// The records of Strata's log from the checkpoint on, decoded; the first bad byte ends them.
void DecodeRecords(ConstBytes stream, std::size_t begin, std::uint64_t first_block, const RedoOptions& opt,
                   RedoReport& r, const MariaMtrVisitor& visit) {
  auto lsn_at = [&](std::size_t i) { return LsnAt(first_block, i); };
  std::vector<RedoRecordInfo> group;
  std::size_t group_start = begin;
  for (std::size_t i = begin; i < stream.size();) {
    std::size_t next = 0;
    auto rec = ParseRedoRecord(stream, i, 65536, &next);
    if (!rec.ok()) {
      r.findings.push_back({Severity::kError, r.file, std::nullopt, std::nullopt, "redo record",
                            fmt::format("at LSN {}: {}", lsn_at(i), WithLsn(rec.status().message(), lsn_at))});
      break;
    }
    if (!rec->has_value()) break;
    const RedoRecord& x = **rec;
    RedoRecordInfo info{lsn_at(i),
                        r.mtr_groups,
                        ToString(x.type),
                        x.space,
                        x.page,
                        x.offset,
                        static_cast<std::uint32_t>(x.bytes.size()),
                        std::vector<std::byte>(x.bytes.begin(), x.bytes.end())};
    i = next;
    group.push_back(std::move(info));
    if (x.type != RedoType::kMtrEnd) continue;
    // Only whole mini-transactions count: recovery replays nothing else.
    if (visit) {  // WRITE and INIT as --apply-redo replays them (see MariaMtrVisitor)
      std::vector<MariaRedoRecord> changes;
      for (const auto& g : group) {
        if (g.type != "WRITE" && g.type != "INIT") continue;
        MariaRedoRecord m;
        m.type = g.type == "WRITE" ? "STRATA_WRITE" : "STRATA_INIT";
        m.page_op = true;
        m.space = g.space, m.page = g.page, m.offset = g.offset, m.length = g.length;
        m.data = g.bytes;
        changes.push_back(m);
      }
      visit(changes, lsn_at(i));
    }
    for (auto& g : group) {
      ++r.record_types[g.type];
      if (g.type == "WRITE" || g.type == "INIT") {
        RedoPageInfo& pi = r.pages[{g.space, g.page}];
        ++pi.records;
        pi.last_lsn = lsn_at(i);
      }
      const bool wanted =
          opt.page ? (g.type == "WRITE" || g.type == "INIT") && g.space == opt.page->first && g.page == opt.page->second
                   : opt.records;
      if (wanted) r.records.push_back(std::move(g));
    }
    group.clear();
    ++r.mtr_groups;
    group_start = i;
  }
  r.incomplete_tail_bytes = stream.size() - group_start;
}

// MySQL 8.0.30+ records from the block payloads `stream` (byte i is LSN LsnAt(first_block, i)).
// Parsing starts where the log itself says a mini-transaction starts (the first block whose
// first-record-group field is set); only mini-transactions starting at byte `from` or later
// count (the checkpoint's: those before it were already on the pages). Every block's
// first-record-group field is checked against where the records put the groups: the server
// wrote it, so agreement confirms every record length decoded on the way.
void DecodeMySqlRecords(ConstBytes stream, const std::vector<std::uint16_t>& first_group, std::size_t from,
                        std::uint64_t first_block, const RedoOptions& opt, RedoReport& r) {
  r.records_decoded = true;
  std::size_t k = std::min(from / kLogBlockPayload, first_group.size());
  while (k < first_group.size() && first_group[k] == 0) ++k;
  if (k == first_group.size() || k * kLogBlockPayload + first_group[k] - kLogBlockHeaderSize > stream.size()) {
    r.incomplete_tail_bytes = stream.size() > from ? stream.size() - from : 0;
    return;
  }
  RecordTally tally;
  FirstGroupCheck group_starts(first_group, k, first_block, r);
  std::uint64_t straddling = 0;
  std::vector<std::pair<MySqlRedoRecord, std::size_t>> group;
  std::size_t at = k * kLogBlockPayload + first_group[k] - kLogBlockHeaderSize;
  while (at < stream.size()) {
    const std::size_t start = at;
    group.clear();
    Status st;
    for (bool ended = false; !ended;) {
      MySqlRedoRecord x;
      st = ParseMySqlRedoRecord(stream, at, &x);
      if (st.ok() && !group.empty() && x.single) {
        st = Status::Corruption(
            fmt::format("a record with the single-record flag inside a mini-transaction of {} records", group.size()));
      }
      if (!st.ok()) break;
      ended = x.single || x.code == kMlogMultiRecEnd || (group.empty() && x.code == kMlogDummyRecord);
      group.emplace_back(x, at);
      at += x.size;
    }
    if (!st.ok()) {
      if (!st.IsNotFound()) {
        r.findings.push_back({Severity::kError, r.file, std::nullopt, std::nullopt, "redo record",
                              fmt::format("mini-transaction at LSN {}, record at LSN {}: {}", LsnAt(first_block, start),
                                          LsnAt(first_block, at), WithLsn(st.message(), [&](std::size_t k) {
                                            return LsnAt(first_block, k);
                                          }))});
      }
      at = start;
      break;
    }
    group_starts.At(start);
    if (start < from) {
      straddling += at > from;
      continue;
    }
    const std::uint64_t end_lsn = LsnAt(first_block, at);
    for (const auto& [x, x_at] : group) {
      tally.Type(x.type);
      if (x.page_op) {
        RedoPageInfo& pi = tally.Page(x.space, x.page);
        ++pi.records;
        pi.last_lsn = end_lsn;
      }
      const bool wanted =
          opt.page ? x.page_op && x.space == opt.page->first && x.page == opt.page->second : opt.records;
      if (wanted) {
        // The bytes the record puts on the page: a string as it is, a number big-endian.
        std::vector<std::byte> bytes;
        if (x.code == 30 && x.data + x.length <= stream.size()) {
          bytes.assign(stream.begin() + static_cast<std::ptrdiff_t>(x.data),
                       stream.begin() + static_cast<std::ptrdiff_t>(x.data + x.length));
        } else if (x.code == 1 || x.code == 2 || x.code == 4 || x.code == 8) {
          for (std::uint32_t k = x.length; k-- > 0;)
            bytes.push_back(static_cast<std::byte>((x.value >> (8 * k)) & 0xFF));
        }
        r.records.push_back(
            {LsnAt(first_block, x_at), r.mtr_groups, x.type, x.space, x.page, x.offset, x.length, std::move(bytes)});
      }
    }
    ++r.mtr_groups;
  }
  r.incomplete_tail_bytes = stream.size() - at;
  tally.AddTo(r);
  if (straddling) {
    r.findings.push_back({Severity::kInfo, r.file, std::nullopt, std::nullopt, "checkpoint",
                          fmt::format("a mini-transaction begins before the checkpoint (LSN {}) and ends after it: its "
                                      "records are not counted",
                                      LsnAt(first_block, from))});
  }
}

// The ten pages with the most records, most first.
void FindTopPages(RedoReport& r) {
  std::vector<std::pair<std::string, std::uint64_t>> pages;
  for (const auto& [id, info] : r.pages) pages.emplace_back(fmt::format("{}:{}", id.first, id.second), info.records);
  std::stable_sort(pages.begin(), pages.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  if (pages.size() > 10) pages.resize(10);
  r.top_pages = std::move(pages);
}

// MariaDB 10.8+ ("Phys"): a ring from byte 12288 of the file; each mini-transaction is its
// records (a first byte > 1 whose low nibble is the length that follows, 0 meaning a varint
// length + 15), a termination byte (1 on even passes over the ring, 0 on odd ones) and the
// CRC-32C of the records. Walking them from the checkpoint finds where the log ends.
void WalkMariaPhys(const std::filesystem::path& path, std::uint64_t file_size, std::uint64_t first_lsn,
                   std::uint64_t cp_lsn, const RedoOptions& opt, RedoReport& r, const MariaMtrVisitor& visit) {
  constexpr std::uint64_t kStart = kMariaPhysStart;
  constexpr std::uint64_t kMtrMax = 1 << 20;  // the server gives up on longer ones too
  if (file_size <= kStart + 16 || cp_lsn < first_lsn) return;
  const std::uint64_t cap = file_size - kStart;
  // The ring mapped three times in a row (its size is whole pages), so that from the
  // checkpoint on it reads straight, once round and a last mini-transaction further: byte i
  // is LSN cp_lsn + i. Nothing is copied; a log may be gigabytes.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  void* base =
      fd < 0 || cap % 4096 ? MAP_FAILED : ::mmap(nullptr, 3 * cap, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  bool mapped = base != MAP_FAILED;
  for (int k = 0; mapped && k < 3; ++k) {
    mapped =
        ::mmap(static_cast<char*>(base) + k * cap, cap, PROT_READ, MAP_SHARED | MAP_FIXED, fd, kStart) != MAP_FAILED;
  }
  std::unique_ptr<void, std::function<void(void*)>> unmap(base, [&](void* b) {
    if (b != MAP_FAILED) ::munmap(b, 3 * cap);
  });
  // A ring that is not whole pages (a damaged or cut file) is read into memory instead.
  if (cap % 4096) {
    r.findings.push_back(
        {Severity::kWarning, r.file, std::nullopt, std::nullopt, "file size",
         fmt::format("{} bytes: a MariaDB log is whole 4 KiB pages; cut short or damaged? Its ring is read "
                     "as {} bytes",
                     file_size, cap)});
  }
  std::vector<std::byte> copy;
  if (!mapped && fd >= 0 && cap <= (std::uint64_t{64} << 20)) {
    copy.resize(3 * cap);
    for (int k = 0; k < 3; ++k) {
      if (::pread(fd, copy.data() + k * cap, cap, kStart) != static_cast<ssize_t>(cap)) copy.clear();
    }
  }
  if (fd >= 0) ::close(fd);
  if (!mapped && copy.empty()) {
    r.findings.push_back(
        {Severity::kError, r.file, std::nullopt, kStart, "cannot read", "the log's ring could not be read"});
    return;
  }
  const std::byte* ring = mapped ? static_cast<const std::byte*>(base) : copy.data();
  const std::uint64_t size = cap + std::min(cap, kMtrMax + 16);
  const ConstBytes all(ring + (cp_lsn - first_lsn) % cap, size);
  ::madvise(const_cast<std::byte*>(all.data()), size, MADV_SEQUENTIAL);
  auto seqbit = [&](std::uint64_t lsn) { return std::byte(1u - static_cast<unsigned>(((lsn - first_lsn) / cap) & 1)); };
  RecordTally tally;
  std::vector<MariaRedoRecord> decoded;
  std::uint64_t i = 0;  // where the next mini-transaction starts, from the checkpoint
  while (i < cap) {
    // Its records' lengths lead to the termination byte; then the CRC-32C of the records.
    const std::uint64_t limit = std::min<std::uint64_t>(i + kMtrMax, size - 5);  // room for T and the CRC
    const auto end = MariaRecordsEnd(all, i, limit);
    if (!end || *end == i || all[*end] != seqbit(cp_lsn + *end)) break;
    const std::uint64_t l = *end;
    const ConstBytes records = all.subspan(i, l - i);
    if (Crc32c(records) != Load32(all, l + 1)) break;
    // A whole mini-transaction: what recovery would apply.
    auto lsn_of = [&](std::size_t k) { return cp_lsn + i + k; };
    if (!TakeMariaMtr(records, lsn_of, cp_lsn + l + 5, opt, r, tally, decoded, visit)) break;
    i = l + 5;
  }
  tally.AddTo(r);
  r.records_decoded = true;
  r.lsn_end = cp_lsn + i;
  r.scan_end = fmt::format(
      "{} mini-transactions after the checkpoint; the next bytes do not form one (the end of "
      "the log)",
      r.mtr_groups);
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
  const std::filesystem::path path = std::filesystem::is_directory(input) ? RedoFileIn(input) : input;
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
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return fail("cannot open", std::filesystem::is_directory(input)
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
  std::vector<std::byte> block(kLogBlockSize);
  if (!read(0, block)) return fail("truncated", fmt::format("{} bytes: shorter than a log file header", r.file_size));
  auto header = LogFileHeader::Decode(block);
  if (!header.ok()) return fail("file header", header.status().message());
  r.format = header->format;
  r.format_name = FormatName(header->format);
  r.creator = header->creator;
  r.start_lsn = header->start_lsn;
  r.flags = header->flags;
  r.header_checksum_ok = header->checksum_ok;
  if (!r.header_checksum_ok) {
    r.findings.push_back({Severity::kWarning, r.file, std::nullopt, 508, "file header", "checksum does not match"});
  }
  r.block_framed = BlockFramed(header->format);
  // One #ib_redoN file of several: recovery starts from the newest checkpoint of them all,
  // which may be in another file (--all reads from the start of the file given instead).
  if (header->format == static_cast<std::uint32_t>(LogFormat::kMySql8030) && !opt.all &&
      !std::filesystem::is_directory(input)) {
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
    FindTopPages(r);
    return r;
  }

  // Blocks from the checkpoint's block on: round the circular area (MySQL before 8.0.30, MariaDB
  // before 10.8, Strata), or on through this #ib_redo file and the ones after it (MySQL 8.0.30+).
  std::vector<std::byte> cpb(kLogBlockSize);
  read(*r.newest == 0 ? kLogCheckpoint1 : kLogCheckpoint2, cpb);
  const std::uint64_t cp_offset = Load64(cpb, 16);
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
    if (opt.all) scan_from = std::filesystem::is_directory(input) ? spans.front().start_lsn : r.start_lsn;
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
