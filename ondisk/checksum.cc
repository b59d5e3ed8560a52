#include "ondisk/checksum.h"

#include <zlib.h>

#include <algorithm>
#include <cassert>

#include "ondisk/crc32c.h"
#include "ondisk/fil_header.h"
#include "ondisk/page_type.h"

namespace strata::ondisk {

namespace {

constexpr std::uint32_t kFoldMask1 = 1463735687;  // UT_HASH_RANDOM_MASK
constexpr std::uint32_t kFoldMask2 = 1653893711;  // UT_HASH_RANDOM_MASK2

std::uint32_t FoldPair(std::uint32_t n1, std::uint32_t n2) {
  return ((((n1 ^ n2 ^ kFoldMask2) << 8) + n1) ^ kFoldMask1) + n2;
}

// CRC of a range, feeding each 8-byte group that starts at an 8-aligned page offset in
// reverse byte order: what big-endian hosts computed with the 64-bit crc32 instruction.
std::uint32_t LegacyRangeCrc(ConstBytes page, std::size_t begin, std::size_t end) {
  std::uint32_t crc = 0;
  std::size_t i = begin;
  auto feed = [&](std::size_t from, std::size_t n) { crc = Crc32cExtend(crc, page.subspan(from, n)); };
  while (i < end && i % 8 != 0) feed(i++, 1);
  std::byte group[8];
  for (; i + 8 <= end; i += 8) {
    for (int k = 0; k < 8; ++k) group[k] = page[i + 7 - k];
    crc = Crc32cExtend(crc, ConstBytes(group, 8));
  }
  while (i < end) feed(i++, 1);
  return crc;
}

// MySQL and MariaDB ignore the flush-LSN bytes 26..33 when deciding a page is all zero.
bool AllZeroIgnoringFlushLsn(ConstBytes page) { return AllZero(page.first(26)) && AllZero(page.subspan(34)); }

}  // namespace

bool AllZero(ConstBytes b) {
  return std::all_of(b.begin(), b.end(), [](std::byte x) { return x == std::byte{0}; });
}

std::string ToString(ChecksumAlgorithm a) {
  switch (a) {
    case ChecksumAlgorithm::kNone:
      return "none";
    case ChecksumAlgorithm::kCrc32:
      return "crc32";
    case ChecksumAlgorithm::kCrc32Legacy:
      return "crc32_legacy_big_endian";
    case ChecksumAlgorithm::kInnodb:
      return "innodb";
    case ChecksumAlgorithm::kFullCrc32:
      return "full_crc32";
  }
  return "checksum(" + std::to_string(static_cast<int>(a)) + ")";
}

std::uint32_t PageCrc32(ConstBytes page) {
  return Crc32c(page.subspan(4, 22)) ^ Crc32c(page.subspan(38, page.size() - 38 - 8));
}

std::uint32_t PageCrc32Legacy(ConstBytes page) {
  return LegacyRangeCrc(page, 4, 26) ^ LegacyRangeCrc(page, 38, page.size() - 8);
}

std::uint32_t InnodbFold(ConstBytes data) {
  std::uint32_t fold = 0;
  for (std::byte b : data) fold = FoldPair(fold, static_cast<std::uint8_t>(b));
  return fold;
}

std::uint32_t PageInnodbNewChecksum(ConstBytes page) {
  return InnodbFold(page.subspan(4, 22)) + InnodbFold(page.subspan(38, page.size() - 38 - 8));
}

std::uint32_t PageInnodbOldChecksum(ConstBytes page) { return InnodbFold(page.first(26)); }

std::optional<std::size_t> FullCrc32StoredSize(ConstBytes page) {
  std::uint16_t type = Load16(page, FilHeader::kType);
  if (!IsFullCrc32Compressed(type)) return page.size();
  std::size_t size = static_cast<std::size_t>(type & 0x7FFF) << 8;
  if (size < kFilHeaderSize + 4 || size >= page.size()) return std::nullopt;
  return size;
}

std::uint32_t PageFullCrc32(ConstBytes page, std::size_t stored_size) {
  assert(stored_size >= 4 && stored_size <= page.size());
  return Crc32c(page.first(stored_size - 4));
}

void StampChecksum(MutableBytes page, ChecksumAlgorithm algorithm) {
  assert(PageSize::IsValid(page.size()));
  const std::size_t size = page.size();
  switch (algorithm) {
    case ChecksumAlgorithm::kNone:
      Store32(page, 0, kNoChecksumMagic);
      Store32(page, size - 8, kNoChecksumMagic);
      return;
    case ChecksumAlgorithm::kCrc32: {
      std::uint32_t crc = PageCrc32(page);
      Store32(page, 0, crc);
      Store32(page, size - 8, crc);
      return;
    }
    case ChecksumAlgorithm::kInnodb:
      // The old checksum covers bytes 0..3, so the new one goes first.
      Store32(page, 0, PageInnodbNewChecksum(page));
      Store32(page, size - 8, PageInnodbOldChecksum(page));
      return;
    case ChecksumAlgorithm::kFullCrc32: {
      auto stored = FullCrc32StoredSize(page);
      assert(stored && "full_crc32 page type claims an impossible compressed size");
      // Only uncompressed pages keep an LSN copy before the CRC; compressed ones hold data there.
      if (*stored == size) Store32(page, size - 8, static_cast<std::uint32_t>(Load64(page, FilHeader::kLsn)));
      Store32(page, *stored - 4, PageFullCrc32(page, *stored));
      return;
    }
    case ChecksumAlgorithm::kCrc32Legacy:
      assert(false && "the big-endian legacy crc32 is accepted on read, never written");
      return;
  }
}

PageCheck ValidatePage(ConstBytes page, bool full_crc32) {
  assert(PageSize::IsValid(page.size()));
  const std::size_t size = page.size();
  PageCheck r;
  if (full_crc32) {
    auto stored_size = FullCrc32StoredSize(page);
    if (!stored_size) {
      r.stored = Load32(page, size - 4);
      return r;  // impossible compressed size: corrupt
    }
    r.stored = Load32(page, *stored_size - 4);
    if (r.stored == 0 && AllZero(page)) {
      r.valid = r.all_zero = true;
      return r;
    }
    r.computed = PageFullCrc32(page, *stored_size);
    bool compressed = *stored_size != size;
    bool encrypted = Load32(page, 0) != 0;  // key version
    if (!compressed && !encrypted) {
      r.lsn_mismatch = Load32(page, 20) != Load32(page, size - 8);
    }
    r.valid = r.stored == r.computed && !r.lsn_mismatch;
    if (r.stored == r.computed) r.algorithm = ChecksumAlgorithm::kFullCrc32;
    return r;
  }

  const std::uint32_t f1 = Load32(page, 0);
  const std::uint32_t f2 = Load32(page, size - 8);
  r.stored = f1;
  r.computed = PageCrc32(page);
  r.lsn_mismatch = Load32(page, 20) != Load32(page, size - 4);
  if (f1 == 0 && f2 == 0 && Load64(page, FilHeader::kLsn) == 0) {
    // Zero checksums and LSN: valid only as a never-written page, as InnoDB decides.
    r.valid = r.all_zero = AllZeroIgnoringFlushLsn(page);
    if (r.valid) r.lsn_mismatch = false;
    return r;
  }
  if (f1 == f2 && f1 == r.computed) {
    r.algorithm = ChecksumAlgorithm::kCrc32;
  } else if (f1 == f2 && f1 == kNoChecksumMagic) {
    r.algorithm = ChecksumAlgorithm::kNone;
  } else if ((f2 == PageInnodbOldChecksum(page) || f2 == Load32(page, FilHeader::kLsn)) &&
             (f1 == 0 || f1 == PageInnodbNewChecksum(page))) {
    r.algorithm = ChecksumAlgorithm::kInnodb;
  } else if (f1 == f2 && f1 == PageCrc32Legacy(page)) {
    r.algorithm = ChecksumAlgorithm::kCrc32Legacy;
  }
  r.valid = r.algorithm.has_value() && !r.lsn_mismatch;
  return r;
}

std::uint32_t ZipPageCrc32(ConstBytes page) {
  return Crc32c(page.subspan(4, 12)) ^ Crc32c(page.subspan(24, 2)) ^ Crc32c(page.subspan(34));
}

std::uint32_t ZipPageAdler32(ConstBytes page) {
  auto add = [](uLong a, ConstBytes b) {
    return adler32(a, reinterpret_cast<const Bytef*>(b.data()), static_cast<uInt>(b.size()));
  };
  return static_cast<std::uint32_t>(
      add(add(add(adler32(0, nullptr, 0), page.subspan(4, 12)), page.subspan(24, 2)), page.subspan(34)));
}

PageCheck ValidateCompressedPage(ConstBytes page) {
  PageCheck r;
  r.stored = Load32(page, 0);
  r.computed = ZipPageCrc32(page);
  if (r.stored == 0 && Load64(page, FilHeader::kLsn) == 0 && AllZeroIgnoringFlushLsn(page)) {
    r.valid = r.all_zero = true;
    return r;
  }
  if (r.stored == r.computed)
    r.algorithm = ChecksumAlgorithm::kCrc32;
  else if (r.stored == kNoChecksumMagic)
    r.algorithm = ChecksumAlgorithm::kNone;
  else if (r.stored == ZipPageAdler32(page))
    r.algorithm = ChecksumAlgorithm::kInnodb;
  r.valid = r.algorithm.has_value();
  return r;
}

Misplacement CheckPlacement(ConstBytes page, PageNo expected_page, SpaceId expected_space) {
  FilHeader h(page);
  Misplacement m;
  m.page_no_differs = h.page_no() != expected_page;
  m.space_id_differs = h.space_id() != expected_space;
  if (m.any() && AllZero(page)) return {};  // never written: nothing to misplace
  return m;
}

}  // namespace strata::ondisk
