#include "inspect/doublewrite_report.h"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <map>

#include "inspect/redo_report.h"
#include "inspect/space_file.h"
#include "ondisk/checksum.h"
#include "ondisk/doublewrite.h"
#include "ondisk/fil_header.h"
#include "ondisk/page_compressed.h"
#include "ondisk/page_type.h"

namespace strata::inspect {

using namespace strata::ondisk;

namespace {

// The tablespaces of a data directory by space id, and what its redo log says.
struct DataDir {
  std::vector<SpaceFile> files;
  std::map<std::uint32_t, const SpaceFile*> by_id;
  Flavor flavor = Flavor::kUnknown;  // the system tablespace's
  std::optional<std::uint64_t> checkpoint_lsn, log_end_lsn;
  std::optional<std::map<std::pair<std::uint32_t, std::uint32_t>, RedoPageInfo>> redo_pages;  // when decoded
};

// Which tablespace a copy is of (see DoublewriteCopy::space_from).
void Attribute(ConstBytes copy, std::uint32_t page, const DataDir& dir, DoublewriteCopy& c) {
  const std::uint32_t header_space = Load32(copy, FilHeader::kSpaceId);
  if (auto it = dir.by_id.find(header_space); it != dir.by_id.end() && page < it->second->n_pages()) {
    c.space = header_space, c.space_from = "header";
    return;
  }
  // MariaDB's full_crc32 format keeps only bytes 0-25 of an encrypted or page-compressed page
  // in clear: the space id field is then cipher or compressed data.
  for (const auto& [id, f] : dir.by_id) {
    if (!f->shape().full_crc32 || !f->shape().page_compressed() || !IsPageCompressed(copy, true)) continue;
    auto cp = ReadCompressedPage(copy, true, static_cast<PageCompression>(f->shape().flags->compression_algorithm));
    std::vector<std::byte> out(copy.size());
    if (cp.ok() && !cp->encrypted && DecompressPage(copy, *cp, out).ok() && Load32(out, FilHeader::kSpaceId) == id &&
        page < f->n_pages()) {
      c.space = id, c.space_from = "decompressed";
      return;
    }
  }
  const SpaceFile* same = nullptr;
  int matches = 0;
  for (const auto& [id, f] : dir.by_id) {
    if (page >= f->n_pages()) continue;
    ConstBytes stored = f->stored_page(page);
    if (c.length <= stored.size() && std::equal(copy.begin(), copy.begin() + c.length, stored.begin()) &&
        AllZero(stored.subspan(c.length))) {
      same = f, ++matches;
    }
  }
  if (matches == 1) c.space = same->space_id().value(), c.space_from = "identical page";
}

// A copy checked as its tablespace's pages are: a page-compressed one (not encrypted) once
// inflated, as the file's own pages are read.
PageCheck CheckCopy(const SpaceFile& f, ConstBytes copy) {
  if (f.shape().page_compressed() && IsPageCompressed(copy, f.shape().full_crc32)) {
    auto cp = ReadCompressedPage(copy, f.shape().full_crc32,
                                 static_cast<PageCompression>(f.shape().flags->compression_algorithm));
    if (cp.ok() && !cp->encrypted) {
      // full_crc32 checksums the compressed bytes (the page inside keeps none); the older
      // format's page inside carries its own.
      std::vector<std::byte> page(copy.size());
      PageCheck r;
      const bool inflates = DecompressPage(copy, *cp, page).ok();
      if (f.shape().full_crc32) {
        r.valid = inflates && CompressedPageCrcHolds(copy, *cp);
        return r;
      }
      return inflates ? f.CheckPage(page) : r;
    }
  }
  return f.CheckPage(copy);
}

// Which copies a server's recovery takes.
enum class RecoveryRule { kUnknown, kAnyWholeCopy, kCheckpointToEndOfLog };

DoublewriteCopy Examine(ConstBytes slot, std::uint32_t index, std::uint64_t offset, RecoveryRule rule,
                        const DataDir& dir) {
  DoublewriteCopy c;
  c.slot = index;
  c.file_offset = offset;
  c.page = Load32(slot, FilHeader::kPageNo);
  c.lsn = Load64(slot, FilHeader::kLsn);
  c.length = DoublewritePayloadLength(slot);
  c.header_space = Load32(slot, FilHeader::kSpaceId);
  Attribute(slot, c.page, dir, c);
  const SpaceFile* f = c.space ? dir.by_id.at(*c.space) : nullptr;
  c.type = ToString(FilHeader(slot).type(), f ? f->flavor() : dir.flavor);
  if (f) {
    c.tablespace = f->path().string();
    // A ROW_FORMAT=COMPRESSED copy fills the first KEY_BLOCK_SIZE bytes of its slot.
    ConstBytes copy = slot.first(std::min(slot.size(), f->page_size()));
    const PageCheck own = CheckCopy(*f, copy);
    c.whole = own.valid;
    c.unverifiable = own.unverifiable;
    ConstBytes stored = f->stored_page(c.page);
    const PageCheck at_home = f->CheckPage(f->page(c.page));  // as `check` reads it: decompressed, decrypted
    c.page_lsn = Load64(stored, FilHeader::kLsn);
    if (!at_home.unverifiable) c.page_valid = at_home.valid && !at_home.all_zero;
    c.relation = c.lsn > *c.page_lsn ? "newer" : c.lsn == *c.page_lsn ? "equal" : "older";
    c.identical = c.relation == "equal" && std::equal(copy.begin(), copy.end(), stored.begin(), stored.end());
  } else {
    c.whole = ValidatePage(slot, true).valid || ValidatePage(slot, false).valid;
  }
  if (rule == RecoveryRule::kCheckpointToEndOfLog && dir.checkpoint_lsn && dir.log_end_lsn) {
    c.eligible = c.lsn >= *dir.checkpoint_lsn && c.lsn <= *dir.log_end_lsn;
  } else if (rule == RecoveryRule::kAnyWholeCopy) {
    c.eligible = true;
  }
  return c;
}

// One slot: its bytes, where they are in their file, and (system area) the page it occupies.
struct Slot {
  ConstBytes bytes;
  std::uint64_t offset = 0;
  std::optional<std::uint32_t> own_page;
};

// An all-zero slot, or MySQL's placeholder (a page naming space 0 and the slot's own page
// number in the system tablespace), is unused.
void ExamineSlots(const std::vector<Slot>& slots, RecoveryRule rule, const DataDir& dir, DoublewriteSource& src) {
  src.slots = static_cast<std::uint32_t>(slots.size());
  for (std::uint32_t i = 0; i < slots.size(); ++i) {
    ConstBytes b = slots[i].bytes;
    const bool placeholder = slots[i].own_page && !b.empty() && Load32(b, FilHeader::kSpaceId) == 0 &&
                             Load32(b, FilHeader::kPageNo) == *slots[i].own_page;
    if (b.empty() || AllZero(b) || placeholder) {
      ++src.unused;
      continue;
    }
    src.copies.push_back(Examine(b, i, slots[i].offset, rule, dir));
  }
}

std::vector<std::byte> ReadAll(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary | std::ios::ate);
  std::vector<std::byte> v(in ? static_cast<std::size_t>(in.tellg()) : 0);
  in.seekg(0);
  in.read(reinterpret_cast<char*>(v.data()), static_cast<std::streamsize>(v.size()));
  return v;
}

// The data directory's tablespaces (each copy is judged against its page there) and, from
// its redo log, the checkpoint and end LSNs and the pages the log changes.
DataDir OpenDataDir(const std::filesystem::path& dir_path, const EncryptionKeys* keys, DoublewriteReport& r) {
  DataDir dir;
  std::vector<Finding> ignored;
  dir.files = OpenSpaces({dir_path}, &ignored, keys);
  for (const SpaceFile& f : dir.files) {
    dir.by_id.emplace(f.space_id().value(), &f);
    if (f.kind() == SpaceKind::kSystem && dir.flavor == Flavor::kUnknown) dir.flavor = f.flavor();
  }
  std::error_code ec;
  if (std::filesystem::exists(dir_path / "ib_logfile0", ec) ||
      std::filesystem::is_directory(dir_path / "#innodb_redo", ec)) {
    RedoReport redo = AnalyzeRedo(dir_path, {});
    if (redo.newest) {
      r.checkpoint_lsn = dir.checkpoint_lsn = redo.checkpoints[*redo.newest].lsn;
      r.log_end_lsn = dir.log_end_lsn = redo.lsn_end;
    }
    if (redo.records_decoded) dir.redo_pages = std::move(redo.pages);
  }
  return dir;
}

// The doublewrite area of the system tablespace `system` (two extents TRX_SYS names).
void ReadSystemArea(const std::filesystem::path& p, const SpaceFile& system, const DataDir& dir, bool quiet,
                    DoublewriteReport& r) {
  if (system.n_pages() <= 5) return;
  const auto area = FindDoublewriteArea(system.stored_page(5));
  if (!area) {
    if (!quiet) {
      r.findings.push_back(
          {Severity::kInfo, p.string(), 5, std::nullopt, "no doublewrite area", "TRX_SYS holds no doublewrite magic"});
    }
    return;
  }
  DoublewriteSource src{p.string(),
                        "system tablespace area",
                        static_cast<std::uint32_t>(system.page_size()),
                        0,
                        0,
                        {area->block1, area->block2},
                        {}};
  if (!area->repeat_matches) {
    r.findings.push_back({Severity::kWarning, p.string(), 5, system.page_size() - 200 + 22, "doublewrite header",
                          "the repeated magic and block numbers differ from the first copy"});
  }
  std::vector<Slot> slots;
  for (std::uint32_t i = 0; i < area->slots(); ++i) {
    const std::uint32_t pg = area->SlotPage(i);
    slots.push_back(
        {pg < system.n_pages() ? system.stored_page(pg) : ConstBytes{}, std::uint64_t{pg} * system.page_size(), pg});
  }
  // MariaDB's recovery keeps only copies from the checkpoint to the end of the log;
  // MySQL's (up to 8.0.19, the last to use this area) takes any whole copy.
  ExamineSlots(slots,
               dir.flavor == Flavor::kMariaDb ? RecoveryRule::kCheckpointToEndOfLog
               : dir.flavor == Flavor::kMySql ? RecoveryRule::kAnyWholeCopy
                                              : RecoveryRule::kUnknown,
               dir, src);
  r.sources.push_back(std::move(src));
}

// A doublewrite file of its own: MySQL 8.0.20+'s #ib_<page size>_<n>.dblwr or Strata's.
void ReadDoublewriteFile(const std::filesystem::path& p, const DoublewriteFileName& name, const DataDir& dir,
                         DoublewriteReport& r) {
  std::uint32_t ps = name.page_size;
  if (ps == 0)
    ps = dir.files.empty() ? static_cast<std::uint32_t>(kDefaultPageSize)
                           : static_cast<std::uint32_t>(dir.files.front().page_size());
  DoublewriteSource src{
      p.string(),
      name.kind == DoublewriteFileKind::kStrata ? "Strata doublewrite file" : "MySQL 8.0.20+ doublewrite file",
      ps,
      0,
      0,
      {},
      {}};
  const std::vector<std::byte> bytes = ReadAll(p);
  if (bytes.size() % ps) {
    r.findings.push_back({Severity::kWarning, p.string(), std::nullopt, bytes.size() / ps * ps, "file size",
                          fmt::format("{} bytes: not whole {}-byte slots; the last {} bytes are not read", bytes.size(),
                                      ps, bytes.size() % ps)});
  }
  std::vector<Slot> slots;
  for (std::uint64_t at = 0; at + ps <= bytes.size(); at += ps)
    slots.push_back({ConstBytes(bytes).subspan(at, ps), at, std::nullopt});
  ExamineSlots(slots, RecoveryRule::kAnyWholeCopy, dir, src);  // MySQL's and Strata's recovery
  r.sources.push_back(std::move(src));
}

// Torn copies; then each damaged page once, with the copy recovery would mend it from:
// MariaDB tries its copies from the highest slot down, MySQL in the order it loads them.
void JudgeDamagedPages(const DataDir& dir, DoublewriteReport& r) {
  std::map<std::pair<std::string, std::uint32_t>, std::vector<std::pair<DoublewriteSource*, DoublewriteCopy*>>> damaged;
  for (auto& src : r.sources) {
    for (auto& c : src.copies) {
      if (!c.whole && !c.unverifiable) {
        r.findings.push_back(
            {Severity::kWarning, src.file, std::nullopt, c.file_offset, "torn copy",
             fmt::format("slot {} (page {} LSN {}): its checksum does not hold; recovery would not use it", c.slot,
                         c.page, c.lsn)});
      }
      if (c.page_valid == false) damaged[{c.tablespace, c.page}].emplace_back(&src, &c);
    }
  }
  for (auto& [page, copies] : damaged) {
    if (dir.flavor == Flavor::kMariaDb) std::reverse(copies.begin(), copies.end());
    const auto mender = std::find_if(copies.begin(), copies.end(), [](const auto& x) {
      return x.second->whole && x.second->eligible.value_or(false);
    });
    if (mender != copies.end()) {
      mender->second->restores = true;
      r.findings.push_back(
          {Severity::kWarning, page.first, page.second, std::nullopt, "damaged page",
           fmt::format("its checksum fails; recovery would restore it from slot {} of {} (LSN {})",
                       mender->second->slot, std::filesystem::path(mender->first->file).filename().string(),
                       mender->second->lsn)});
      continue;
    }
    std::string why;
    for (const auto& [src, c] : copies) {
      why += fmt::format(
          "{}slot {} {}", why.empty() ? "" : ", ", c->slot,
          !c->whole ? "is torn too" : fmt::format("has LSN {}, outside the checkpoint..end of log window", c->lsn));
    }
    std::string then;
    const auto space = copies.front().second->space;
    if (dir.redo_pages && space) {
      const auto it = dir.redo_pages->find({*space, page.second});
      then = it == dir.redo_pages->end()
                 ? "; the log has no records for it, so crash recovery will not notice: reading the page will fail"
                 : fmt::format("; the log has {} records for it after the checkpoint: crash recovery will stop here",
                               it->second.records);
    }
    r.findings.push_back({Severity::kError, page.first, page.second, std::nullopt, "damaged page",
                          fmt::format("its checksum fails and no copy would mend it ({}){}", why, then)});
  }
}

}  // namespace

DoublewriteReport AnalyzeDoublewrite(const std::filesystem::path& path, const EncryptionKeys* keys) {
  DoublewriteReport r;
  r.path = path.string();
  std::error_code ec;
  const bool is_dir = std::filesystem::is_directory(path, ec);
  if (!is_dir && !std::filesystem::exists(path, ec)) {
    r.findings.push_back(
        {Severity::kError, r.path, std::nullopt, std::nullopt, "not found", "no such file or directory"});
    return r;
  }
  const std::filesystem::path dir_path = is_dir ? path : (path.has_parent_path() ? path.parent_path() : ".");
  const DataDir dir = OpenDataDir(dir_path, keys, r);
  // What to read: the given file, or everything of the directory.
  std::vector<std::filesystem::path> candidates;
  if (is_dir) {
    for (const auto& e : std::filesystem::directory_iterator(dir_path, ec)) candidates.push_back(e.path());
    std::sort(candidates.begin(), candidates.end());
  } else {
    candidates.push_back(path);
  }
  for (const auto& p : candidates) {
    const auto dblwr = ParseDoublewriteFileName(p.filename().string());
    const SpaceFile* system = nullptr;
    for (const SpaceFile& f : dir.files) {
      if (f.kind() == SpaceKind::kSystem && std::filesystem::equivalent(f.path(), p, ec)) system = &f;
    }
    if (system) {
      ReadSystemArea(p, *system, dir, is_dir, r);
    } else if (dblwr && dblwr->kind == DoublewriteFileKind::kMySqlDetectOnly) {
      r.findings.push_back(
          {Severity::kInfo, p.string(), std::nullopt, std::nullopt, "DETECT_ONLY doublewrite",
           "innodb_doublewrite=DETECT_ONLY keeps page ids, not copies: nothing here to mend a page from"});
    } else if (dblwr) {
      ReadDoublewriteFile(p, *dblwr, dir, r);
    } else if (!is_dir) {
      r.findings.push_back({Severity::kError, p.string(), std::nullopt, std::nullopt, "not a doublewrite file",
                            "give a data directory, ibdata1, #ib_<page size>_<n>.dblwr or ib_doublewrite"});
    }
  }
  if (is_dir && r.sources.empty()) {
    r.findings.push_back({Severity::kInfo, r.path, std::nullopt, std::nullopt, "no doublewrite",
                          "no doublewrite area in ibdata1 and no doublewrite file here"});
  }
  JudgeDamagedPages(dir, r);
  return r;
}

namespace {

// What the copies of one source add up to (text and JSON say the same).
struct CopyCounts {
  std::uint64_t newer = 0, equal = 0, identical = 0, older = 0, unattributed = 0, whole = 0, torn = 0, eligible = 0,
                restores = 0;
};
CopyCounts Count(const DoublewriteSource& s) {
  CopyCounts n;
  for (const auto& c : s.copies) {
    n.newer += c.relation == "newer", n.equal += c.relation == "equal", n.older += c.relation == "older";
    n.identical += c.identical, n.unattributed += !c.space, n.whole += c.whole, n.torn += !c.whole && !c.unverifiable;
    n.eligible += c.eligible.value_or(false), n.restores += c.restores;
  }
  return n;
}

}  // namespace

nlohmann::json ToJson(const DoublewriteReport& r) {
  auto opt = [](const auto& v) { return v ? nlohmann::json(*v) : nlohmann::json(nullptr); };
  nlohmann::json sources = nlohmann::json::array();
  for (const auto& s : r.sources) {
    nlohmann::json copies = nlohmann::json::array();
    for (const auto& c : s.copies) {
      copies.push_back({{"slot", c.slot},
                        {"file_offset", c.file_offset},
                        {"space", opt(c.space)},
                        {"header_space", c.header_space},
                        {"space_from", c.space ? nlohmann::json(c.space_from) : nlohmann::json(nullptr)},
                        {"space_unknown_reason",
                         c.space ? nlohmann::json(nullptr)
                                 : nlohmann::json("no tablespace here has this page with these bytes, and "
                                                  "the space id field names none (not here, or not in clear)")},
                        {"page", c.page},
                        {"lsn", c.lsn},
                        {"type", c.type},
                        {"length", c.length},
                        {"whole", c.whole},
                        {"unverifiable", c.unverifiable},
                        {"tablespace", c.tablespace.empty() ? nlohmann::json(nullptr) : nlohmann::json(c.tablespace)},
                        {"page_lsn", opt(c.page_lsn)},
                        {"page_valid", opt(c.page_valid)},
                        {"relation", c.relation.empty() ? nlohmann::json(nullptr) : nlohmann::json(c.relation)},
                        {"identical", c.identical},
                        {"recovery_eligible", opt(c.eligible)},
                        {"restores", c.restores}});
    }
    const CopyCounts n = Count(s);
    sources.push_back({{"file", s.file},
                       {"kind", s.kind},
                       {"page_size", s.page_size},
                       {"slots", s.slots},
                       {"unused", s.unused},
                       {"blocks", s.blocks},
                       {"counts",
                        {{"newer", n.newer},
                         {"equal", n.equal},
                         {"identical", n.identical},
                         {"older", n.older},
                         {"unattributed", n.unattributed},
                         {"whole", n.whole},
                         {"torn", n.torn},
                         {"recovery_eligible", n.eligible},
                         {"restores", n.restores}}},
                       {"copies", copies}});
  }
  nlohmann::json findings = nlohmann::json::array();
  for (const auto& f : r.findings) findings.push_back(ToJson(f));
  return {{"path", r.path},
          {"checkpoint_lsn", opt(r.checkpoint_lsn)},
          {"log_end_lsn", opt(r.log_end_lsn)},
          {"sources", sources},
          {"findings", findings}};
}

std::string ToText(const DoublewriteReport& r, bool every_slot) {
  std::string out;
  if (r.checkpoint_lsn)
    out += fmt::format("{}: redo checkpoint at LSN {}, log ends at LSN {}\n", r.path, *r.checkpoint_lsn,
                       r.log_end_lsn.value_or(0));
  for (const auto& s : r.sources) {
    out += s.file + "\n";
    out += fmt::format("  kind           {}{}\n", s.kind,
                       s.blocks.size() == 2
                           ? fmt::format(" (pages {}..{} and {}..{})", s.blocks[0], s.blocks[0] + s.slots / 2 - 1,
                                         s.blocks[1], s.blocks[1] + s.slots / 2 - 1)
                           : "");
    out += fmt::format("  slots          {} of {} bytes: {} hold copies, {} unused\n", s.slots, s.page_size,
                       s.copies.size(), s.unused);
    const CopyCounts n = Count(s);
    if (!s.copies.empty()) {
      out += fmt::format("  copies         {} newer than their page, {} equal ({} byte for byte), {} older{}\n",
                         n.newer, n.equal, n.identical, n.older,
                         n.unattributed ? fmt::format("; {} of no tablespace here", n.unattributed) : "");
      out += fmt::format("  copies' own    {} whole, {} torn (by the copied page's checksum)\n",
                         s.copies.size() - n.torn, n.torn);
      if (r.checkpoint_lsn && s.copies.front().eligible) {
        out +=
            fmt::format("  recovery       {} copies it would consider; {} damaged pages it would restore from here\n",
                        n.eligible, n.restores);
      }
    }
    if (!every_slot || s.copies.empty()) continue;
    out += "  slot         space    page          LSN  type              copy   page LSN       relation\n";
    for (const auto& c : s.copies) {
      out += fmt::format(
          "  {:>4}  {:>12}  {:>6}  {:>11}  {:<16}  {:<5}  {:>11}  {}{}\n", c.slot,
          c.space ? std::to_string(*c.space) : fmt::format("({})", c.header_space), c.page, c.lsn, c.type,
          c.unverifiable ? "?"
          : c.whole      ? "whole"
                         : "torn",
          c.page_lsn ? std::to_string(*c.page_lsn) : "-",
          c.relation.empty() ? "-" : c.relation + (c.identical ? " (identical)" : ""),
          c.page_valid == false ? (c.restores ? ", page damaged: restored from here" : ", page damaged") : "");
    }
  }
  bool unknown_space = false;
  for (const auto& s : r.sources) {
    for (const auto& c : s.copies) unknown_space |= !c.space;
  }
  if (every_slot && unknown_space)
    out += "  (space in parentheses: the copy's space id field, naming no tablespace here)\n";
  for (const auto& f : r.findings) out += "  - " + f.ToString() + "\n";
  return out;
}

}  // namespace strata::inspect
