#include "tests/fuzz/inspect_readers.h"

#include <sys/mman.h>
#include <unistd.h>

#include <string>

#include "inspect/check.h"
#include "inspect/extents.h"
#include "inspect/illustrate.h"
#include "inspect/index_report.h"
#include "inspect/lsn_report.h"
#include "inspect/page_view.h"
#include "inspect/redo_report.h"
#include "inspect/regions.h"
#include "inspect/row_output.h"
#include "inspect/rows.h"
#include "inspect/schema.h"
#include "inspect/summary.h"
#include "inspect/undo.h"

namespace strata::fuzz {

using namespace strata::inspect;

void InspectFile(const std::filesystem::path& path) {
  // Any file may be handed to `inspect redo` too.
  RedoOptions redo;
  redo.records = true;
  (void)ToText(AnalyzeRedo(path, redo));
  auto f = SpaceFile::Open(path);
  if (!f.ok()) return;
  (void)ToText(Summarize(*f));
  (void)ToText(CheckSpace(*f));
  (void)ToText(AnalyzeIndexes(*f));
  (void)FindRegions(*f);
  SpaceMap m = BuildSpaceMap(*f);
  ExtentsReport x = AnalyzeExtents(*f, m);
  (void)IllustrateExtents(x, ReadDictionary(*f), {});
  (void)IllustrateLsn(AnalyzeLsn(*f, m), 64, {});
  for (std::uint32_t n = 0; n < f->n_pages() && n < 16; ++n) (void)ToText(ViewPage(*f, n, true));
  (void)ToText(AnalyzeUndo({&*f}, true));
  // `inspect rows` on every index the file's dictionary describes: records, LOBs, row versions,
  // every column type's decoder, and the three output forms.
  const Dictionary d = ReadDictionary(*f);
  for (const auto& t : d.tables) {
    for (const auto& ix : t.indexes) {
      if (ix.root_page == ondisk::kFilNull || t.columns.empty()) continue;
      const auto columns = RowColumns(t, ix);
      std::vector<Row> complete;
      std::size_t rows = 0;
      (void)ScanRows(*f, t, ix, true, [&](const Row& r) {
        if (++rows > 2000) return;
        (void)TsvLine(r, true);
        (void)RowJson(columns, r).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
        bool whole = true;
        for (const auto& c : r.cells) whole &= c.unknown.empty();
        if (whole) complete.push_back(r);
      });
      if (!complete.empty()) (void)SqlInsert(t.name, columns, complete);
    }
  }
}

void InspectEverything(const std::uint8_t* data, std::size_t size) {
  const int fd = ::memfd_create("strata-fuzz", 0);
  if (fd < 0) return;
  std::size_t done = 0;
  while (done < size) {
    const ssize_t n = ::write(fd, data + done, size - done);
    if (n <= 0) break;
    done += static_cast<std::size_t>(n);
  }
  InspectFile("/proc/self/fd/" + std::to_string(fd));
  ::close(fd);
}

}  // namespace strata::fuzz
