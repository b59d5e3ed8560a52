#include "ondisk/lob.h"

#include <zlib.h>

#include <algorithm>
#include <cassert>
#include <string>

#include "ondisk/fil_header.h"
#include "ondisk/page_type.h"

namespace strata::ondisk {

namespace {
Status Overrun(std::size_t at, std::uint64_t len, std::size_t capacity) {
  return Status::CorruptionAt(
      at, "data length " + std::to_string(len) + " exceeds the page's " + std::to_string(capacity) + " bytes");
}
}  // namespace

Result<BlobPage> BlobPage::Decode(ConstBytes page) {
  STRATA_RETURN_IF_ERROR(CheckPageSpan(page));
  BlobPage b{Load32(page, kPartLen), PageNo(Load32(page, kNextPage))};
  if (b.part_len > Capacity(page.size())) return Overrun(kPartLen, b.part_len, Capacity(page.size()));
  return b;
}

Result<ConstBytes> BlobChain::Part(std::uint32_t page_no, ConstBytes page) {
  const std::string at = "BLOB chain page " + std::to_string(page_no);
  if (!seen_.insert(page_no).second) return Status::Corruption(at + ": the chain loops");
  if (page.empty()) return Status::Corruption(at + ": past the end of the file");
  const PageType type = FilHeader(page).type();
  if (type != PageType::kBlob && !(sdi_ && type == PageType::kSdiBlobOrInstant))
    return Status::Corruption(at + ": a page of type " + ToString(type) + ", not a BLOB page");
  auto blob = BlobPage::Decode(page);
  if (!blob.ok()) return blob.status().WithContext(at);
  const std::size_t part = static_cast<std::size_t>(std::min<std::uint64_t>(blob->part_len, length_ - taken_));
  taken_ += part;
  next_ = blob->next_page.value();
  return page.subspan(BlobPage::kData, part);
}

Status BlobChain::Finish() const {
  if (taken_ == length_) return Status::Ok();
  return Status::Corruption("BLOB chain ends after " + std::to_string(taken_) + " of " + std::to_string(length_) +
                            " bytes");
}

Status BlobChain::Take(std::uint32_t page_no, ConstBytes page, std::string& out) {
  auto part = Part(page_no, page);
  if (!part.ok()) return part.status();
  out.append(reinterpret_cast<const char*>(part->data()), part->size());
  return Status::Ok();
}

Status BlobChain::Take(std::uint32_t page_no, ConstBytes page, std::vector<std::byte>& out) {
  auto part = Part(page_no, page);
  if (!part.ok()) return part.status();
  out.insert(out.end(), part->begin(), part->end());
  return Status::Ok();
}

void BlobPage::EncodeTo(MutableBytes page) const {
  assert(part_len <= Capacity(page.size()));
  Store32(page, kPartLen, part_len);
  Store32(page, kNextPage, next_page.value());
}

Result<LobIndexEntry> LobIndexEntry::Decode(ConstBytes page, std::size_t at) {
  if (at < kFilHeaderSize || !Fits(page.size() - kFilTrailerSize, at, kSize)) {
    return Status::CorruptionAt(at, "LOB index entry does not fit in the page body");
  }
  LobIndexEntry e;
  e.node = ListNode::Decode(page, at);
  e.versions = ListBase::Decode(page, at + 12);
  e.creator_trx = Load48(page, at + 28);
  e.modifier_trx = Load48(page, at + 34);
  e.undo_no = Load32(page, at + 40);
  e.modifier_undo_no = Load32(page, at + 44);
  e.data_page = PageNo(Load32(page, at + 48));
  e.data_len = Load16(page, at + 52);
  e.lob_version = Load32(page, at + 56);
  return e;
}

void LobIndexEntry::EncodeTo(MutableBytes page, std::size_t at) const {
  node.EncodeTo(page, at);
  versions.EncodeTo(page, at + 12);
  Store48(page, at + 28, creator_trx);
  Store48(page, at + 34, modifier_trx);
  Store32(page, at + 40, undo_no);
  Store32(page, at + 44, modifier_undo_no);
  Store32(page, at + 48, data_page.value());
  Store16(page, at + 52, data_len);
  Store16(page, at + 54, 0);
  Store32(page, at + 56, lob_version);
}

Result<LobFirstPage> LobFirstPage::Decode(ConstBytes page) {
  STRATA_RETURN_IF_ERROR(CheckPageSpan(page));
  LobFirstPage f;
  f.version = Load8(page, kVersion);
  f.flags = Load8(page, kFlags);
  f.lob_version = Load32(page, kLobVersion);
  f.last_trx = Load48(page, kLastTrx);
  f.last_undo = Load32(page, kLastUndo);
  f.data_len = Load32(page, kDataLen);
  f.creator_trx = Load48(page, kCreatorTrx);
  f.index_list = ListBase::Decode(page, kIndexList);
  f.free_list = ListBase::Decode(page, kFreeList);
  if (f.data_len > Capacity(page.size())) return Overrun(kDataLen, f.data_len, Capacity(page.size()));
  STRATA_RETURN_IF_ERROR(f.index_list.Check(page.size(), LobIndexEntry::kSize, kIndexList));
  STRATA_RETURN_IF_ERROR(f.free_list.Check(page.size(), LobIndexEntry::kSize, kFreeList));
  return f;
}

void LobFirstPage::EncodeTo(MutableBytes page) const {
  assert(data_len <= Capacity(page.size()));
  Store8(page, kVersion, version);
  Store8(page, kFlags, flags);
  Store32(page, kLobVersion, lob_version);
  Store48(page, kLastTrx, last_trx);
  Store32(page, kLastUndo, last_undo);
  Store32(page, kDataLen, data_len);
  Store48(page, kCreatorTrx, creator_trx);
  index_list.EncodeTo(page, kIndexList);
  free_list.EncodeTo(page, kFreeList);
}

Result<LobDataPage> LobDataPage::Decode(ConstBytes page) {
  STRATA_RETURN_IF_ERROR(CheckPageSpan(page));
  LobDataPage d{Load8(page, kVersion), Load32(page, kDataLen), Load48(page, kTrx)};
  if (d.data_len > Capacity(page.size())) return Overrun(kDataLen, d.data_len, Capacity(page.size()));
  return d;
}

void LobDataPage::EncodeTo(MutableBytes page) const {
  assert(data_len <= Capacity(page.size()));
  Store8(page, kVersion, version);
  Store32(page, kDataLen, data_len);
  Store48(page, kTrx, trx);
}

struct ZBlobReader::Stream {
  z_stream z{};
  bool started = false, ended = false;
  ~Stream() {
    if (started) inflateEnd(&z);
  }
};

ZBlobReader::ZBlobReader(std::size_t length) : z_(std::make_unique<Stream>()), length_(length) {}
ZBlobReader::~ZBlobReader() = default;

Result<std::uint32_t> ZBlobReader::Feed(ConstBytes page) {
  if (page.size() <= kData)
    return Status::Corruption("a compressed BLOB page of " + std::to_string(page.size()) + " bytes");
  if (!z_->started) {
    if (inflateInit(&z_->z) != Z_OK) return Status::IoError("zlib cannot start inflating");
    z_->started = true;
  }
  if (z_->ended) return Status::Corruption("the compressed BLOB's stream ended on an earlier page");
  const std::size_t before = out_.size();
  out_.resize(length_);
  z_->z.next_in = reinterpret_cast<Bytef*>(const_cast<std::byte*>(page.data() + kData));
  z_->z.avail_in = static_cast<uInt>(page.size() - kData);
  z_->z.next_out = reinterpret_cast<Bytef*>(out_.data() + before);
  z_->z.avail_out = static_cast<uInt>(length_ - before);
  const int rc = inflate(&z_->z, Z_NO_FLUSH);
  out_.resize(length_ - z_->z.avail_out);
  if (rc == Z_STREAM_END) z_->ended = true;
  if (rc != Z_OK && rc != Z_STREAM_END && !(rc == Z_BUF_ERROR && z_->z.avail_out == 0)) {
    return Status::CorruptionAt(kData + (page.size() - kData - z_->z.avail_in),
                                std::string("the compressed BLOB does not inflate: ") +
                                    (z_->z.msg ? z_->z.msg : "zlib error " + std::to_string(rc)));
  }
  if (out_.size() == length_) return kFilNull;
  const std::uint32_t next = Load32(page, 12);
  if (z_->ended || next == kFilNull) {
    return Status::Corruption("the compressed BLOB ends after " + std::to_string(out_.size()) + " of its " +
                              std::to_string(length_) + " bytes");
  }
  return next;
}

}  // namespace strata::ondisk
