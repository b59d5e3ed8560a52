// Undo records found by roll pointer, among the undo logs that still hold versions.
//
// A DB_ROLL_PTR names a rollback segment, a page and an offset. The logs that still hold
// versions are the committed ones purge has not processed (each rollback segment's history
// list) and those of transactions still active or prepared (the last log of an undo segment
// in that state). Anything else on an undo page is purged: a cached page keeps the headers and
// records of logs purge has finished with until it is reused, and a page may have been freed
// and reused since, so a roll pointer into them is said to lead nowhere rather than followed.
// Each record found comes with the transaction whose log holds it, which must be the one that
// wrote the version the pointer came from, and whether that transaction had committed.
//
// The pages read on the way (TRX_SYS, RSEG_ARRAY, rollback segment headers, undo pages) must
// pass their checksums: where one does not, the logs behind it cannot be known, and a roll
// pointer into that tablespace is unknown rather than purged.
//
// Rollback segment numbers: MySQL 5.7, MariaDB and Strata use the TRX_SYS slot number (the
// slot names the tablespace); MySQL 8.0 uses the undo tablespace's number (0: the system
// tablespace), derived from its space id.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
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
  bool active = false;       // the transaction had not committed (active or prepared)
  // "undo002 page 66 offset 272"
  std::string Where() const;
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

  // The record `p` names. NotFound when no undo log that still holds versions has it: purged.
  // Corruption when the log's records do not lead to it or its page fails its checksum;
  // IoError when where it would be cannot be read (its tablespace is not at hand, or pages
  // on the way there are damaged).
  ondisk::Result<UndoRecordAt> Find(const ondisk::RollPtr& p) const;

  // Why some roll pointers cannot be followed (no system tablespace, a tablespace missing or
  // damaged); empty when every rollback segment was read.
  const std::vector<std::string>& gaps() const { return gaps_; }
  // The newest transaction id or commit number these files know of (TRX_SYS, MariaDB's
  // rollback segment headers, the undo log headers): a record written by a later
  // transaction is not of this server, or these files are older than it.
  std::uint64_t max_trx_id() const { return max_trx_id_; }
  // The oldest commit number still in a history list: purge has removed the versions of every
  // transaction committed before it. nullopt when the history is empty.
  std::optional<std::uint64_t> oldest_history_trx_no() const { return oldest_history_; }

 private:
  // Records of one undo log on one page: [start, end).
  struct Span {
    std::uint16_t start = 0, end = 0;
    std::uint64_t trx_id = 0, trx_no = 0;
    bool active = false;
  };
  bool Intact(const SpaceFile& f, std::uint32_t page, const std::string& what);
  void ReadRseg(const SpaceFile& f, std::uint32_t page, const std::string& source);
  void ReadActive(const SpaceFile& f, std::uint32_t seg_page);
  void ReadLog(const SpaceFile& f, std::uint32_t page, std::uint16_t header, bool active);
  void Gap(const SpaceFile* f, std::string why);
  const SpaceFile* SpaceOf(std::uint8_t rseg_id) const;

  std::map<std::uint32_t, const SpaceFile*> by_space_;
  std::map<std::uint8_t, std::uint32_t> rseg_space_;  // rollback segment number -> space id
  std::map<std::uint64_t, std::vector<Span>> spans_;  // (space << 32 | page) -> its logs' records
  std::set<std::uint64_t> logs_read_;                 // (space, page, header offset)
  std::vector<std::string> gaps_;
  std::set<std::uint32_t> spaces_with_gaps_;
  bool no_rollback_segments_ = false;  // TRX_SYS could not be read
  std::uint64_t max_trx_id_ = 0;
  std::optional<std::uint64_t> oldest_history_;
  mutable std::map<std::uint64_t, bool> page_intact_;  // undo pages' checksums, checked once each
};

}  // namespace strata::inspect
