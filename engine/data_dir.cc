#include "engine/data_dir.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <vector>

#include "ondisk/redo.h"
#include "ondisk/redo_record.h"

namespace strata::engine {

using namespace strata::ondisk;

namespace {

std::string Listing(const std::set<std::string>& names) {
  std::string out;
  std::size_t shown = 0;
  for (const auto& n : names) {
    if (shown++ == 6) return out + ", ...";
    out += (out.empty() ? "" : ", ") + n;
  }
  return out;
}

// A MySQL or MariaDB data directory names itself by files Strata never writes.
bool LooksLikeServerDir(const std::set<std::string>& names) {
  for (const char* n : {"#innodb_redo", "mysql", "aria_log_control", "auto.cnf", "ibtmp1", "undo_001", "mysql.ibd",
                        "ib_buffer_pool", "performance_schema"}) {
    if (names.count(n)) return true;
  }
  return false;
}

Status CheckStrataLog(Env& env, const std::filesystem::path& dir, const std::set<std::string>& names) {
  const auto log = dir / "ib_logfile0";
  if (!names.count("ib_logfile0")) {
    if (LooksLikeServerDir(names)) {
      return Status::NotSupported(
          fmt::format("{} is a MySQL or MariaDB data directory ({}), not Strata's: Strata opens only "
                      "directories it made (strata inspect reads this one without writing)",
                      dir.string(), Listing(names)));
    }
    return Status::Corruption(
        fmt::format("{}: ib_logfile0 is missing; without it committed changes that were not yet "
                    "written to the tables cannot be recovered",
                    dir.string()));
  }
  auto f = env.OpenFile(log, OpenMode::kReadOnly);
  if (!f.ok()) return f.status();
  std::vector<std::byte> block(kLogBlockSize);
  auto size = (*f)->Size();
  if (!size.ok()) return size.status();
  if (*size < kLogBlockSize)
    return Status::Corruption(fmt::format("{}: {} bytes, shorter than a log header", log.string(), *size));
  STRATA_RETURN_IF_ERROR((*f)->Read(0, block));
  auto header = LogFileHeader::Decode(block);
  if (!header.ok()) return header.status().WithContext(log.string());
  if (header->checksum_ok && header->format != kStrataLogFormat) {
    return Status::NotSupported(
        fmt::format("{} is not a Strata data directory: its ib_logfile0 was written by '{}' (log "
                    "format {:#x}); Strata opens only directories it made (strata inspect reads "
                    "this one without writing)",
                    dir.string(), header->creator, header->format & 0x7fffffffu));
  }
  return Status::Ok();  // a damaged header is the log's to report, with its details
}

}  // namespace

Result<DataDirKind> ClassifyDataDir(Env& env, const std::filesystem::path& dir) {
  if (!env.Exists(dir)) return DataDirKind::kNew;
  auto listed = env.ListDir(dir);
  if (!listed.ok()) return listed.status();
  std::set<std::string> names(listed->begin(), listed->end());
  names.erase("strata.lock");  // a lock file alone holds nothing
  if (names.empty()) return DataDirKind::kNew;
  if (names.count(kCreationMarker)) {
    const bool only_created = std::all_of(names.begin(), names.end(), [](const std::string& n) {
      return std::find(std::begin(kCreatedFiles), std::end(kCreatedFiles), n) != std::end(kCreatedFiles);
    });
    if (only_created) return DataDirKind::kUnfinishedCreation;
  }
  if (names.count("ibdata1")) {
    STRATA_RETURN_IF_ERROR(CheckStrataLog(env, dir, names));
    return DataDirKind::kStrata;
  }
  if (LooksLikeServerDir(names)) {
    return Status::NotSupported(
        fmt::format("{} is a MySQL or MariaDB data directory ({}), not Strata's: Strata opens only "
                    "directories it made (strata inspect reads this one without writing)",
                    dir.string(), Listing(names)));
  }
  if (names.count("ib_logfile0")) STRATA_RETURN_IF_ERROR(CheckStrataLog(env, dir, names));  // another server's log?
  if (names.count("ib_logfile0") || names.count("ib_doublewrite")) {
    return Status::Corruption(
        fmt::format("{}: ibdata1 is missing, but the directory holds {}: it was a data directory, and creating a new "
                    "one here would "
                    "throw away its redo log and its tables; restore ibdata1 from a backup, or use an empty directory",
                    dir.string(), Listing(names)));
  }
  return Status::InvalidArgument(
      fmt::format("{} is not empty ({}) and holds no Strata data directory: a new data "
                  "directory is created only in a new or empty directory",
                  dir.string(), Listing(names)));
}

Status RemoveCreatedFiles(Env& env, const std::filesystem::path& dir) {
  Status first;
  for (const char* name : kCreatedFiles) {
    if (!env.Exists(dir / name)) continue;
    if (Status s = env.Remove(dir / name); !s.ok() && first.ok()) first = s;
  }
  return first;
}

}  // namespace strata::engine
