#include "inspect/page_regions.h"

#include "ondisk/fil_header.h"
#include "ondisk/index_page.h"
#include "ondisk/record.h"
#include "ondisk/zip_page.h"

namespace strata::inspect {

using namespace strata::ondisk;

namespace {

constexpr Rgb kHeaderColor{120, 130, 150}, kPageHeaderColor{150, 110, 240}, kSystemRecordsColor{220, 60, 180},
    kRecordsColor{66, 135, 245}, kLogColor{70, 190, 190}, kRefsColor{230, 190, 60}, kColumnsColor{60, 180, 75},
    kDirectoryColor{245, 130, 48};

}  // namespace

std::vector<PageRegion> PageRegions(const SpaceFile& f, ConstBytes page) {
  const std::size_t size = page.size();
  std::vector<PageRegion> r;
  r.push_back({"FIL header", 0, kFilHeaderSize, kHeaderColor});
  ZipPageParts zip;
  auto ip = IsBtreePage(FilHeader(page).type(), f.flavor())
                ? f.OpenIndexPage(page, &zip)
                : Result<IndexPage>(Status::NotSupported("not a B-tree page"));
  if (ip.ok() && f.shape().compressed()) {
    // The stored page's parts (its records are those of the logical page it unpacks to); a
    // compressed page has no FIL trailer.
    const std::size_t dir = size - kDirSlotSize * zip.n_dense,
                      refs_end = zip.trailer_start + kExternRefSize * zip.n_blobs;
    r.push_back({"page header", kFilHeaderSize, kPageData, kPageHeaderColor});
    r.push_back({"zlib stream", kPageData, zip.stream_end, kRecordsColor});
    r.push_back({"modification log", zip.stream_end, zip.log_end + 1, kLogColor});
    r.push_back({"free space", zip.log_end + 1, zip.trailer_start, kFreeColor});
    r.push_back({"off-page references", zip.trailer_start, refs_end, kRefsColor});
    r.push_back({"stored columns", refs_end, dir, kColumnsColor});
    r.push_back({"dense directory", dir, size, kDirectoryColor});
    return r;
  }
  // Pages of a compressed tablespace have no FIL trailer, whatever their type.
  const std::size_t trailer = f.shape().compressed() ? size : size - kFilTrailerSize;
  if (ip.ok()) {
    // IndexPage::Open checked supremum end <= heap top <= directory start < trailer.
    const std::size_t dir = trailer - kDirSlotSize * ip->n_dir_slots();
    r.push_back({"page header", kFilHeaderSize, kPageData, kPageHeaderColor});
    r.push_back({"infimum/supremum", kPageData, ip->supremum_end(), kSystemRecordsColor});
    r.push_back({"records", ip->supremum_end(), ip->heap_top(), kRecordsColor});
    r.push_back({"free space", ip->heap_top(), dir, kFreeColor});
    r.push_back({"directory", dir, trailer, kDirectoryColor});
  } else {
    r.push_back({"body", kFilHeaderSize, trailer, kColumnsColor});
  }
  if (trailer < size) r.push_back({"FIL trailer", trailer, size, kHeaderColor});
  return r;
}

}  // namespace strata::inspect
