#include "ondisk/page_compressed.h"

#include <bzlib.h>
#include <lz4.h>
#include <lzma.h>
#include <lzo/lzo1x.h>
#include <snappy-c.h>
#include <zlib.h>

#include "ondisk/crc32c.h"
#include "ondisk/fil_header.h"

namespace strata::ondisk {

std::string ToString(PageCompression a) {
  switch (a) {
    case PageCompression::kNone:
      return "none";
    case PageCompression::kZlib:
      return "zlib";
    case PageCompression::kLz4:
      return "lz4";
    case PageCompression::kLzo:
      return "lzo";
    case PageCompression::kLzma:
      return "lzma";
    case PageCompression::kBzip2:
      return "bzip2";
    case PageCompression::kSnappy:
      return "snappy";
  }
  return "algorithm " + std::to_string(static_cast<int>(a));
}

namespace {

constexpr std::size_t kFullCrc32Payload = 26;

Status Bad(std::size_t offset, const std::string& what) {
  return Status::CorruptionAt(offset, "page-compressed page: " + what);
}

bool KnownAlgorithm(unsigned a) { return a >= 1 && a <= 6; }

// The decoders, each asked for exactly `out.size()` bytes.
Status Inflate(PageCompression a, const std::uint8_t* in, std::size_t in_len, std::uint8_t* out, std::size_t out_len) {
  bool whole = false;
  switch (a) {
    case PageCompression::kZlib: {
      // Trailing bytes after the stream (full_crc32 gives no exact length) are not an error.
      z_stream z{};
      if (inflateInit(&z) != Z_OK) return Status::IoError("zlib cannot start inflating");
      z.next_in = const_cast<Bytef*>(in);
      z.avail_in = static_cast<uInt>(in_len);
      z.next_out = out;
      z.avail_out = static_cast<uInt>(out_len);
      const int rc = inflate(&z, Z_FINISH);
      whole = rc == Z_STREAM_END && z.avail_out == 0;
      inflateEnd(&z);
      break;
    }
    case PageCompression::kLz4:
      whole = LZ4_decompress_safe(reinterpret_cast<const char*>(in), reinterpret_cast<char*>(out),
                                  static_cast<int>(in_len), static_cast<int>(out_len)) == static_cast<int>(out_len);
      break;
    case PageCompression::kLzo: {
      static const bool ready = lzo_init() == LZO_E_OK;
      if (!ready) return Status::IoError("lzo cannot start");
      lzo_uint len = out_len;
      whole = lzo1x_decompress_safe(in, in_len, out, &len, nullptr) == LZO_E_OK && len == out_len;
      break;
    }
    case PageCompression::kLzma: {
      std::uint64_t memlimit = UINT64_MAX;
      std::size_t in_pos = 0, out_pos = 0;
      whole =
          lzma_stream_buffer_decode(&memlimit, 0, nullptr, in, &in_pos, in_len, out, &out_pos, out_len) == LZMA_OK &&
          out_pos == out_len;
      break;
    }
    case PageCompression::kBzip2: {
      unsigned len = static_cast<unsigned>(out_len);
      whole = BZ2_bzBuffToBuffDecompress(reinterpret_cast<char*>(out), &len,
                                         const_cast<char*>(reinterpret_cast<const char*>(in)),
                                         static_cast<unsigned>(in_len), 1, 0) == BZ_OK &&
              len == out_len;
      break;
    }
    case PageCompression::kSnappy: {
      std::size_t len = out_len;
      whole = snappy_uncompress(reinterpret_cast<const char*>(in), in_len, reinterpret_cast<char*>(out), &len) ==
                  SNAPPY_OK &&
              len == out_len;
      break;
    }
    case PageCompression::kNone:
      return Status::InvalidArgument("no algorithm");
  }
  if (!whole) return Status::Corruption("the " + ToString(a) + " payload does not decompress to a whole page");
  return Status::Ok();
}

}  // namespace

bool IsPageCompressed(ConstBytes page, bool full_crc32) {
  if (page.size() < FilHeader::kSpaceId + 8) return false;
  const std::uint16_t type = Load16(page, FilHeader::kType);
  if (full_crc32) return type & 0x8000;
  return type == kPageCompressedType || type == kPageCompressedEncryptedType;
}

Result<CompressedPage> ReadCompressedPage(ConstBytes page, bool full_crc32, PageCompression space_algorithm) {
  CompressedPage c;
  const std::size_t size = page.size();
  const std::uint16_t type = Load16(page, FilHeader::kType);
  if (full_crc32) {
    c.stored = std::size_t{type & 0x7FFFu} << 8;
    if (c.stored <= kFullCrc32Payload + 4 || c.stored >= size) {
      return Bad(FilHeader::kType, "its stored size " + std::to_string(c.stored) + " does not fit a " +
                                       std::to_string(size) + "-byte page");
    }
    if (!KnownAlgorithm(static_cast<unsigned>(space_algorithm))) {
      return Status::Corruption("page-compressed page in a tablespace whose flags name no compression algorithm");
    }
    c.algorithm = space_algorithm;
    c.encrypted = Load32(page, 0) != 0;
    c.payload = kFullCrc32Payload;
    c.payload_end = c.stored - 4;
    // lz4, lzo and snappy need their exact length: the byte before the CRC gives its low bits
    // (encrypted with the payload: read once the page is decrypted).
    if (!c.encrypted && (c.algorithm == PageCompression::kLz4 || c.algorithm == PageCompression::kLzo ||
                         c.algorithm == PageCompression::kSnappy)) {
      const std::size_t low = Load8(page, c.stored - 5);
      c.payload_end = low ? c.stored + low - 256 - 5 : c.stored - 5;
      if (c.payload_end <= c.payload || c.payload_end > c.stored - 5) {
        return Bad(c.stored - 5, "the payload's length byte " + std::to_string(low) + " does not fit the stored size");
      }
    }
    return c;
  }
  if (type == kPageCompressedEncryptedType) {
    c.encrypted = true;
    c.algorithm = static_cast<PageCompression>(Load16(page, 40));
    c.payload = 42;
  } else {
    if (Load32(page, 0) != 0xDEADBEEF) return Bad(0, "the no-checksum magic 0xDEADBEEF is missing");
    if (Load48(page, FilHeader::kFlushLsn) != 0)
      return Bad(FilHeader::kFlushLsn, "the algorithm field's high bytes are not zero");
    c.algorithm = static_cast<PageCompression>(Load16(page, 32));
    c.payload = 40;
  }
  const std::size_t len = Load16(page, 38);
  if (!KnownAlgorithm(static_cast<unsigned>(c.algorithm))) {
    return Bad(c.payload == 42 ? 40 : 32,
               "unknown compression algorithm " + std::to_string(static_cast<int>(c.algorithm)));
  }
  if (len == 0 || c.payload + len > size)
    return Bad(38, "payload length " + std::to_string(len) + " does not fit the page");
  c.payload_end = c.payload + len;
  return c;
}

bool CompressedPageCrcHolds(ConstBytes page, const CompressedPage& c) {
  return c.stored && Crc32c(page.first(c.stored - 4)) == Load32(page, c.stored - 4);
}

Status DecompressPage(ConstBytes page, const CompressedPage& c, MutableBytes out) {
  if (c.encrypted) return Status::NotSupported("the page is encrypted; its payload needs the key");
  if (out.size() != page.size()) return Status::InvalidArgument("decompressing into a buffer that is not a page");
  const auto* in = reinterpret_cast<const std::uint8_t*>(page.data());
  Status st = Inflate(c.algorithm, in + c.payload, c.payload_end - c.payload,
                      reinterpret_cast<std::uint8_t*>(out.data()), out.size());
  if (!st.ok()) return Bad(c.payload, st.message());
  return Status::Ok();
}

}  // namespace strata::ondisk
