// Undo records found by roll pointer, among the undo logs a rollback segment still holds.
//
// A DB_ROLL_PTR names a rollback segment, a page and an offset. Only the logs reachable from
// the rollback segments are undo logs: those of active and cached undo segments (the undo
// slots) and the committed ones purge has not processed (the history list). A page outside
// them may hold a purged log's records, or another log's since, so a roll pointer into it
// is said to lead nowhere rather than followed. Each record found comes with the transaction
// whose log holds it, which must be the one that wrote the version the pointer came from.
//
// Rollback segment numbers: MySQL 5.7, MariaDB and Strata use the TRX_SYS slot number (the
// slot names the tablespace); MySQL 8.0 uses the undo tablespace's number (0: the system
// tablespace), derived from its space id.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "inspect/space_file.h"
#include "ondisk/status.h"
#include "ondisk/undo.h"

namespace strata::inspect {

struct UndoRecordAt {
  const SpaceFile* file = nullptr;
  std::uint32_t space_id = 0;
  std::uint32_t page = 0;
  std::size_t offset = 0;
  std::uint64_t trx_id = 0;  // of the undo log holding the record
  std::uint64_t trx_no = 0;  // its commit number; 0 while the transaction is active
  bool page_damaged = false; // the undo page fails its checksum: what it says may be wrong
};

// The system tablespace and the undo tablespaces (undo001.., undo_001.., *.ibu) of the data
// directory `file` is in: beside the ibdata1 found next to it or one directory up.
// NotFound when there is no ibdata1 there.
ondisk::Result<std::vector<SpaceFile>> OpenUndoSpaces(const std::filesystem::path& file, const EncryptionKeys* keys);

class UndoLocator {
 public:
  // `files`: the system tablespace and the undo tablespaces of one data directory (others
  // are ignored).
  explicit UndoLocator(const std::vector<const SpaceFile*>& files);

  // The record `p` names. NotFound when no undo log a rollback segment holds has it: purged.
  // Corruption when the log's records do not lead to it; IoError when where it would be
  // cannot be read (its tablespace is not at hand, or a rollback segment there is damaged).
  ondisk::Result<UndoRecordAt> Find(const ondisk::RollPtr& p) const;

  // Why some roll pointers cannot be followed at all (no system tablespace, a rollback
  // segment's tablespace missing or damaged); empty when every segment was read.
  const std::vector<std::string>& gaps() const { return gaps_; }
  std::size_t logs() const { return logs_; }

 private:
  // Records of one undo log on one page: [start, end).
  struct Span {
    std::uint16_t start = 0, end = 0;
    std::uint64_t trx_id = 0, trx_no = 0;
  };
  void ReadRseg(const SpaceFile& f, std::uint32_t page, const std::string& source);
  void ReadSegment(const SpaceFile& f, std::uint32_t first_page);
  void AddSpan(const SpaceFile& f, std::uint32_t page, Span s);
  void Gap(const SpaceFile* f, std::string why);
  const SpaceFile* SpaceOf(std::uint8_t rseg_id) const;

  std::map<std::uint32_t, const SpaceFile*> by_space_;
  std::map<std::uint8_t, std::uint32_t> rseg_space_;  // rollback segment number -> space id
  std::map<std::uint64_t, std::vector<Span>> spans_;  // (space << 32 | page) -> its logs' records
  std::map<std::uint64_t, bool> segments_;            // first pages already read
  std::vector<std::string> gaps_;
  std::set<std::uint32_t> spaces_with_gaps_;
  std::size_t logs_ = 0;
};

}  // namespace strata::inspect
