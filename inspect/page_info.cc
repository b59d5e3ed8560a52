#include "inspect/page_info.h"

#include <algorithm>
#include <optional>
#include <thread>
#include <vector>

#include "ondisk/fil_header.h"
#include "ondisk/index_page.h"

namespace strata::inspect {

using namespace strata::ondisk;

namespace {
// A page carrying another page number, or another space id where the file's is known.
bool IsMisplaced(ConstBytes page, std::uint32_t n, const SpaceFile& file) {
  const Misplacement m = CheckPlacement(page, PageNo(n), file.space_id());
  return m.page_no_differs || (m.space_id_differs && file.shape().space_id_known);
}
}  // namespace

PageInfo AnalyzePage(const SpaceFile& file, std::uint32_t n, bool deep) {
  return AnalyzePage(file, n, file.page(n), deep);
}

PageInfo AnalyzePage(const SpaceFile& file, std::uint32_t n, ConstBytes page, bool deep) {
  FilHeader fil(page);
  PageInfo p;
  p.page_no = n;
  p.type = fil.type_code();
  p.lsn = fil.lsn().value();
  p.flush_lsn_field = fil.flush_lsn();
  p.prev = fil.prev().value();
  p.next = fil.next().value();
  PageCheck c = file.CheckPage(page);
  p.all_zero = c.all_zero;
  p.checksum_ok = c.valid || c.all_zero;
  p.algorithm = c.algorithm;
  p.torn = c.lsn_mismatch;
  p.encrypted = c.encrypted;
  p.unverifiable = c.unverifiable;
  if (p.unverifiable) p.encrypted_type = Load16(page, FilHeader::kEncryptedOriginalType);
  p.free = file.allocation().IsFree(n);
  p.doublewrite = file.allocation().InDoublewrite(n);
  // (MariaDB's full_crc32 encryption leaves the page number in clear, not the space id.)
  p.misplaced = !p.doublewrite &&
                (p.encrypted && file.shape().full_crc32 ? fil.page_no().value() != n : IsMisplaced(page, n, file));
  if (!p.all_zero && !p.free && !p.doublewrite && !p.encrypted && IsBtreePage(fil.type(), file.flavor()) &&
      file.shape().compressed()) {
    // ROW_FORMAT=COMPRESSED: the records are compressed, but the page header is the one of
    // the page they decompress to (heap top, garbage, directory slots), so the sizes are
    // those of that logical page; the records are unpacked only for a deep look.
    p.is_btree = true;
    p.index_id = Load64(page, IndexPage::kIndexId);
    p.level = Load16(page, IndexPage::kLevel);
    p.n_recs = Load16(page, IndexPage::kNRecs);
    p.is_root = p.prev == kFilNull && p.next == kFilNull;
    const std::size_t size = file.shape().logical_page_size(), heap_top = Load16(page, IndexPage::kHeapTop);
    const std::size_t garbage = Load16(page, IndexPage::kGarbage),
                      dir = 2 * std::size_t{Load16(page, IndexPage::kNDirSlots)};
    if (heap_top >= 120 + garbage && heap_top + dir + 8 <= size) {
      p.data_size = static_cast<std::uint32_t>(heap_top - 120 - garbage);
      p.garbage_bytes = static_cast<std::uint32_t>(garbage);
      p.free_bytes = static_cast<std::uint32_t>(garbage + size - 8 - dir - heap_top);
      p.used_bytes = static_cast<std::uint32_t>(size - p.free_bytes);
    } else {
      p.header_error = "heap top " + std::to_string(heap_top) + ", garbage " + std::to_string(garbage) + " and " +
                       std::to_string(dir / 2) + " directory slots do not fit a " + std::to_string(size) + "-byte page";
    }
    if (deep && p.header_error.empty()) {
      // The records: unpacked, then checked as those of any page.
      auto ip = file.OpenIndexPage(page);
      const Status st = ip.ok() ? ip->CheckStructure() : ip.status();
      if (!st.ok()) p.structure_error = st.message();
    }
  } else if (!p.all_zero && !p.free && !p.doublewrite && !p.encrypted && IsBtreePage(fil.type(), file.flavor())) {
    auto ip = IndexPage::Open(page);
    if (ip.ok()) {
      p.is_btree = true;
      p.index_id = ip->index_id();
      p.level = ip->level();
      p.n_recs = ip->n_recs();
      p.is_root = ip->is_root();
      PageSpace s = ip->Space();
      p.data_size = static_cast<std::uint32_t>(s.data_size);
      p.used_bytes = static_cast<std::uint32_t>(s.used_bytes);
      p.free_bytes = static_cast<std::uint32_t>(s.free_bytes);
      p.garbage_bytes = static_cast<std::uint32_t>(s.garbage_bytes);
      if (deep) {
        if (Status st = ip->CheckStructure(); !st.ok()) p.structure_error = st.message();
      }
    } else {
      p.header_error = ip.status().message();
    }
  }
  return p;
}

double PageFill(const PageInfo& p, std::size_t page_size) {
  // 120 bytes of headers and system records, 8 of trailer, two directory slots.
  const double capacity = static_cast<double>(page_size - 120 - 8 - 4);
  return p.data_size / capacity;
}

namespace {
ScanProgress::Callback& CurrentProgress() {
  static ScanProgress::Callback cb;
  return cb;
}
}  // namespace

ScanProgress::ScanProgress(Callback cb) : previous_(std::move(CurrentProgress())) { CurrentProgress() = std::move(cb); }
ScanProgress::~ScanProgress() { CurrentProgress() = std::move(previous_); }
void ScanProgress::Report(std::uint64_t done, std::uint64_t total, const std::filesystem::path& file) {
  if (CurrentProgress()) CurrentProgress()(done, total, file);
}

void ScanPages(const SpaceFile& file, const std::function<void(std::span<const PageInfo>)>& consume, bool deep) {
  constexpr std::uint32_t kBatch = 8192;
  const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  std::vector<PageInfo> batch;
  for (std::uint32_t first = 0; first < file.n_pages(); first += kBatch) {
    const std::uint32_t count = std::min(kBatch, file.n_pages() - first);
    batch.assign(count, PageInfo{});
    auto slice = [&](std::uint32_t from, std::uint32_t to) {
      // Large preads into a small buffer: bounded memory and no page fault per page, which
      // on a mapping costs more than the copy.
      constexpr std::uint32_t kChunk = 64;
      std::vector<std::byte> buf(std::size_t{kChunk} * file.page_size());
      std::optional<PageInfo> hole_page;  // what an all-zero page is, but for its number
      for (std::uint32_t c = from; c < to; c += kChunk) {
        const std::uint32_t n = std::min(kChunk, to - c);
        // A sparse file's holes are zeros the disk never stored: said as such without reading
        // them (a 6-page file extended to 100 GB took minutes).
        if (file.InHole(first + c, n)) {
          if (!hole_page) {
            const std::vector<std::byte> zeros(file.page_size());
            hole_page = AnalyzePage(file, first + c, zeros, deep);
          }
          for (std::uint32_t i = c; i < c + n; ++i) {
            batch[i] = *hole_page;
            batch[i].page_no = first + i;
            batch[i].free =
                file.allocation().IsFree(first + i);  // the rest of a zero page's view does not depend on its number
            batch[i].doublewrite = file.allocation().InDoublewrite(first + i);
          }
          continue;
        }
        const bool copied = file.ReadPages(first + c, n, buf.data());
        for (std::uint32_t i = c; i < c + n; ++i) {
          ConstBytes page = copied ? ConstBytes(buf.data() + std::size_t{i - c} * file.page_size(), file.page_size())
                                   : file.page(first + i);
          batch[i] = AnalyzePage(file, first + i, page, deep);
        }
      }
    };
    auto work = [&](unsigned t) {
      // Contiguous slices per thread keep each one reading sequentially.
      const std::uint32_t per = (count + threads - 1) / threads;
      slice(std::min(count, t * per), std::min(count, (t + 1) * per));
    };
    if (threads == 1 || count < 256) {
      slice(0, count);
    } else {
      std::vector<std::jthread> pool;
      for (unsigned t = 1; t < threads; ++t) pool.emplace_back(work, t);
      work(0);
    }
    consume(batch);
    ScanProgress::Report(first + count, file.n_pages(), file.path());
  }
}

std::string PageTypeName(const PageInfo& p, Flavor flavor) {
  if (p.doublewrite) return "DOUBLEWRITE";
  if (p.free && !p.all_zero) return "FREE (was " + PageTypeName(p.type, flavor) + ")";
  if (p.free) return "FREE";
  if (p.unverifiable) return PageTypeName(p.type, flavor) + " (" + PageTypeName(p.encrypted_type, flavor) + ")";
  if (p.encrypted) return PageTypeName(p.type, flavor) + " (encrypted)";
  return PageTypeName(p.type, flavor);
}

std::string PageTypeName(std::uint16_t type, Flavor flavor) { return ToString(static_cast<PageType>(type), flavor); }

}  // namespace strata::inspect
