#include "ondisk/fsp_header.h"

#include <cassert>
#include <cstdio>

#include "ondisk/fil_header.h"

namespace strata::ondisk {

namespace {
std::string Hex(std::uint32_t v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%X", v);
  return buf;
}
std::uint32_t Bits(std::uint32_t v, int first, int count) { return (v >> first) & ((1u << count) - 1); }
}  // namespace

Result<FspFlags> FspFlags::Decode(std::uint32_t raw) {
  FspFlags f;
  f.raw = raw;
  auto bad = [&](const std::string& why) {
    return Status::CorruptionAt(FspHeader::kFlags, "tablespace flags " + Hex(raw) + ": " + why);
  };
  if (raw & 0x10) {
    f.full_crc32 = true;
    std::uint32_t ssize = Bits(raw, 0, 4);
    if (ssize < 3 || ssize > 7) return bad("full_crc32 page size code " + std::to_string(ssize));
    if (raw >> 8) return bad("full_crc32 reserved bits 8+ are set");
    f.compression_algorithm = Bits(raw, 5, 3);
    if (f.compression_algorithm > 6) return bad("unknown page_compressed algorithm");
    f.page_size = f.physical_page_size = std::size_t{512} << ssize;
    return f;
  }
  f.post_antelope = raw & 1;
  f.zip_ssize = Bits(raw, 1, 4);
  f.atomic_blobs = (raw >> 5) & 1;
  std::uint32_t ssize = Bits(raw, 6, 4);
  f.data_dir = (raw >> 10) & 1;
  f.shared = (raw >> 11) & 1;
  f.temporary = (raw >> 12) & 1;
  f.encryption = (raw >> 13) & 1;
  f.sdi = (raw >> 14) & 1;
  f.page_compression = (raw >> 16) & 1;
  // 16 KiB is always stored as 0, never as code 5.
  if (ssize != 0 && (ssize < 3 || ssize > 7 || ssize == 5)) return bad("page size code " + std::to_string(ssize));
  if (f.zip_ssize > (ssize ? ssize : 5)) {
    return bad("compressed page size code " + std::to_string(f.zip_ssize) + " exceeds the page size");
  }
  // Barracuda (DYNAMIC, COMPRESSED) sets both bits; REDUNDANT and COMPACT neither.
  if (f.post_antelope != f.atomic_blobs) return bad("POST_ANTELOPE and ATOMIC_BLOBS disagree");
  if (f.zip_ssize && !f.post_antelope) return bad("ROW_FORMAT=COMPRESSED without POST_ANTELOPE");
  if ((raw >> 15) & 1 || raw >> 17) return bad("reserved bits are set");
  f.page_size = ssize == 0 ? kDefaultPageSize : std::size_t{512} << ssize;
  f.physical_page_size = f.zip_ssize ? std::size_t{512} << f.zip_ssize : f.page_size;
  return f;
}

std::uint32_t FspFlags::EncodeMySql(PageSize ps, bool post_antelope, bool atomic_blobs, bool sdi) {
  assert(post_antelope || !atomic_blobs);
  std::uint32_t ssize = 0;
  if (ps.bytes() != kDefaultPageSize) {
    while ((std::size_t{512} << ssize) != ps.bytes()) ++ssize;
  }
  return (post_antelope ? 1u : 0u) | (atomic_blobs ? 1u << 5 : 0u) | (ssize << 6) | (sdi ? 1u << 14 : 0u);
}

std::uint32_t FspFlags::EncodeFullCrc32(PageSize ps, std::uint32_t algorithm) {
  assert(algorithm <= 6);
  std::uint32_t ssize = 0;
  while ((std::size_t{512} << ssize) != ps.bytes()) ++ssize;
  return ssize | 0x10 | (algorithm << 5);
}

std::string FspFlags::ToString() const {
  std::string s = Hex(raw) + " (";
  auto add = [&](bool on, const char* name) {
    if (on) s += std::string(s.back() == '(' ? "" : " ") + name;
  };
  add(full_crc32, "FULL_CRC32");
  add(post_antelope, "POST_ANTELOPE");
  add(zip_ssize != 0, ("ZIP_SSIZE=" + std::to_string(zip_ssize)).c_str());
  add(atomic_blobs, "ATOMIC_BLOBS");
  add(data_dir, "DATA_DIR");
  add(shared, "SHARED");
  add(temporary, "TEMPORARY");
  add(encryption, "ENCRYPTION");
  add(sdi, "SDI");
  add(page_compression, "PAGE_COMPRESSION");
  add(compression_algorithm != 0, ("ALGO=" + std::to_string(compression_algorithm)).c_str());
  s += std::string(s.back() == '(' ? "" : ", ") + std::to_string(page_size / 1024) + "K)";
  return s;
}

Result<FspHeader> FspHeader::Open(ConstBytes page0) {
  const std::size_t size = page0.size();
  if (size < 1024 || size > kMaxPageSize || (size & (size - 1))) {
    return Status::CorruptionAt(
        size, "page 0 is " + std::to_string(size) + " bytes; expected 1 to 64 KiB, a power of two (truncated?)");
  }
  auto flags = FspFlags::Decode(Load32(page0, kFlags));
  if (!flags.ok()) return flags.status();
  // (A ROW_FORMAT=COMPRESSED tablespace's page 0 is its physical size, 1-16 KiB.)
  if (flags->physical_page_size != page0.size()) {
    return Status::CorruptionAt(kFlags, "flags name a " + std::to_string(flags->physical_page_size) +
                                            "-byte page but the page read is " + std::to_string(page0.size()) +
                                            " bytes");
  }
  return FspHeader(page0, *flags);
}

PageSize FspHeader::geometry() const {
  return flags_.physical_page_size != flags_.page_size || (!flags_.full_crc32 && flags_.zip_ssize)
             ? PageSize::Compressed(flags_.physical_page_size, flags_.page_size)
             : PageSize(flags_.page_size);
}

std::size_t FspHeader::EncryptionInfoOffset(PageSize ps) {
  return kXdesArray + ps.xdes_entries_per_page() * ps.xdes_entry_size();
}

std::size_t FspHeader::SdiHeaderOffset(PageSize ps) { return EncryptionInfoOffset(ps) + kEncryptionInfoSize; }

Status FspHeader::CheckLists() const {
  const std::size_t ps = p_.size();
  STRATA_RETURN_IF_ERROR(free().Check(ps, kListNodeSize, kFree));
  STRATA_RETURN_IF_ERROR(free_frag().Check(ps, kListNodeSize, kFreeFrag));
  STRATA_RETURN_IF_ERROR(full_frag().Check(ps, kListNodeSize, kFullFrag));
  STRATA_RETURN_IF_ERROR(seg_inodes_full().Check(ps, kListNodeSize, kSegInodesFull));
  return seg_inodes_free().Check(ps, kListNodeSize, kSegInodesFree);
}

FspHeaderWriter::FspHeaderWriter(MutableBytes page0) : p_(page0) { assert(PageSize::IsValid(page0.size())); }

void FspHeaderWriter::set_sdi(std::uint32_t version, PageNo root) {
  std::size_t at = FspHeader::SdiHeaderOffset(PageSize(p_.size()));
  Store32(p_, at, version);
  Store32(p_, at + 4, root.value());
}

}  // namespace strata::ondisk
