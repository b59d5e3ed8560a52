// The records of a redo log, decoded from the payload stream its blocks make (or, for
// MariaDB 10.8+, from its ring): Strata's own records, MySQL 8.0.30+'s, and MariaDB 10.5+'s. The
// counting and the checks of where mini-transactions start live here; redo_report.cc reads
// the files, the header and the checkpoints, and calls these.
#include "inspect/redo_records.h"

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
  // At every checkpoint (a clean shutdown's last included) MariaDB writes a mini-transaction
  // of FILE_CHECKPOINT, after a FILE_MODIFY for each file changed since: it changes nothing.
  auto is = [](const MariaRedoRecord& x, std::string_view type) { return std::string_view(x.type) == type; };
  if (std::any_of(decoded.begin(), decoded.end(), [&](const auto& x) { return is(x, "FILE_CHECKPOINT"); }) &&
      std::all_of(decoded.begin(), decoded.end(),
                  [&](const auto& x) { return is(x, "FILE_CHECKPOINT") || is(x, "FILE_MODIFY"); }))
    ++r.checkpoint_marks;
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

}  // namespace

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
    const auto l = MariaMtrRecordsEnd(stream, i, stream.size());
    if (!l) break;  // the log ends (a mini-transaction cut short is not applied)
    auto lsn_of = [&](std::size_t k) { return LsnAt(first_block, i + k); };
    if (!TakeMariaMtr(ConstBytes(stream).subspan(i, *l - i), lsn_of, LsnAt(first_block, *l + kMariaMtrTermination), opt,
                      r, tally, decoded, {}))
      break;
    i = *l + kMariaMtrTermination;
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
    const std::uint64_t limit = std::min<std::uint64_t>(i + kMtrMax, size - kMariaMtrTrailer);
    const auto end = MariaMtrRecordsEnd(all, i, limit);
    if (!end || *end == i || all[*end] != seqbit(cp_lsn + *end)) break;
    const std::uint64_t l = *end;
    const ConstBytes records = all.subspan(i, l - i);
    if (Crc32c(records) != Load32(all, l + kMariaMtrTermination)) break;
    // A whole mini-transaction: what recovery would apply.
    auto lsn_of = [&](std::size_t k) { return cp_lsn + i + k; };
    if (!TakeMariaMtr(records, lsn_of, cp_lsn + l + kMariaMtrTrailer, opt, r, tally, decoded, visit)) break;
    i = l + kMariaMtrTrailer;
  }
  tally.AddTo(r);
  r.records_decoded = true;
  r.lsn_end = cp_lsn + i;
  r.scan_end = fmt::format(
      "{} mini-transactions after the checkpoint; the next bytes do not form one (the end of "
      "the log)",
      r.mtr_groups);
}

}  // namespace strata::inspect
