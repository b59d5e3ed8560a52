// The record decoders behind AnalyzeRedo (redo_report.h), one per log family. Each reads the
// payload stream of the log's blocks (ondisk::LogPayloadStream) from stream position
// `begin`/`from` (the checkpoint's mini-transaction), whose block 0 starts at LSN
// `first_block`, and adds what it finds to `r`: record counts by type and page, the records
// asked for, findings, and where the records end.
#pragma once

#include <cstdint>
#include <filesystem>
#include <vector>

#include "inspect/redo_report.h"
#include "ondisk/types.h"

namespace strata::inspect {

// Strata's own records; `visit` is given each mini-transaction (for --apply-redo).
void DecodeRecords(ondisk::ConstBytes stream, std::size_t begin, std::uint64_t first_block, const RedoOptions& opt,
                   RedoReport& r, const MariaMtrVisitor& visit);
// MySQL 5.7-9.x; `first_group` is each block's first-record-group field, checked against
// where the decoded records put the groups.
void DecodeMySqlRecords(ondisk::ConstBytes stream, const std::vector<std::uint16_t>& first_group, std::size_t from,
                        std::uint64_t first_block, const RedoOptions& opt, RedoReport& r);
// MariaDB 10.5-10.7, whose records are 10.8's in 512-byte blocks.
void DecodeMaria105Records(ondisk::ConstBytes stream, const std::vector<std::uint16_t>& first_group, std::size_t begin,
                           std::uint64_t first_block, const RedoOptions& opt, RedoReport& r);
// MariaDB 10.8+: no blocks; the ring of the file at `path` walked from the checkpoint.
void WalkMariaPhys(const std::filesystem::path& path, std::uint64_t file_size, std::uint64_t first_lsn,
                   std::uint64_t cp_lsn, const RedoOptions& opt, RedoReport& r, const MariaMtrVisitor& visit);
// The ten pages with the most records, most first (RedoReport::top_pages).
void FindTopPages(RedoReport& r);

}  // namespace strata::inspect
