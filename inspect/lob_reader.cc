#include "inspect/lob_reader.h"

#include <fmt/format.h>

#include <set>

#include "ondisk/checksum.h"
#include "ondisk/fil_header.h"
#include "ondisk/lob.h"
#include "ondisk/page_type.h"

namespace strata::inspect {

using namespace strata::ondisk;

namespace {

Status Broken(std::uint32_t page, const std::string& what) {
  return Status::Corruption(fmt::format("page {}: {}", page, what));
}

// Adds page p to `failing` when it fails its checksum: its bytes are read all the same.
void NoteChecksum(const SpaceFile& file, std::uint32_t p, std::vector<std::uint32_t>* failing) {
  if (failing && !file.CheckPage(file.page(p)).valid) failing->push_back(p);
}

// Old format: each page holds a part and the next page's number.
Result<std::string> ReadBlobChain(const SpaceFile& file, const ExternRef& ref, std::vector<std::uint32_t>* failing) {
  std::string out;
  BlobChain chain(ref.page_no, ref.length);
  while (auto p = chain.next()) {
    const bool in_file = *p < file.n_pages();
    STRATA_RETURN_IF_ERROR(chain.Take(*p, in_file ? file.page(*p) : ConstBytes(), out));
    NoteChecksum(file, *p, failing);
  }
  STRATA_RETURN_IF_ERROR(chain.Finish());
  return out;
}

// MySQL 8.0: the first page's list of index entries, each naming a data page and its length
// (the first entry's data is on the first page itself).
Result<std::string> ReadLob(const SpaceFile& file, const ExternRef& ref, std::vector<std::uint32_t>* failing) {
  ConstBytes first = file.page(ref.page_no);
  auto head = LobFirstPage::Decode(first);
  if (!head.ok()) return head.status().WithContext(fmt::format("page {}", ref.page_no));
  NoteChecksum(file, ref.page_no, failing);
  std::string out;
  std::set<std::pair<std::uint32_t, std::uint16_t>> seen;
  for (FileAddr at = head->index_list.first; !at.is_null() && out.size() < ref.length;) {
    const std::uint32_t p = at.page.value();
    if (p >= file.n_pages() || !seen.insert({p, at.offset}).second)
      return Broken(p, "LOB index list leaves the file or loops");
    auto entry = LobIndexEntry::Decode(file.page(p), at.offset);
    if (!entry.ok()) return entry.status().WithContext(fmt::format("page {}", p));
    const std::uint32_t dp = entry->data_page.value();
    if (dp >= file.n_pages()) return Broken(dp, "a LOB index entry points past the end of the file");
    ConstBytes data_page = file.page(dp);
    std::size_t from = 0, len = entry->data_len;
    if (dp == ref.page_no) {
      from = LobFirstPage::kData;
      len = std::min<std::size_t>(len, LobFirstPage::Capacity(first.size()));
    } else {
      if (FilHeader(data_page).type() != PageType::kLobData)
        return Broken(dp, "a LOB index entry points at a page that is not LOB data");
      auto d = LobDataPage::Decode(data_page);
      if (!d.ok()) return d.status().WithContext(fmt::format("page {}", dp));
      from = LobDataPage::kData;
      len = std::min<std::size_t>(len, LobDataPage::Capacity(data_page.size()));
      NoteChecksum(file, dp, failing);
    }
    out.append(reinterpret_cast<const char*>(data_page.data()) + from,
               std::min<std::size_t>(len, ref.length - out.size()));
    at = entry->node.next;
  }
  if (out.size() != ref.length)
    return Broken(ref.page_no, fmt::format("LOB holds {} of its {} bytes", out.size(), ref.length));
  return out;
}

// ROW_FORMAT=COMPRESSED: a zlib stream across a chain of ZBLOB pages.
Result<std::string> ReadZBlobChain(const SpaceFile& file, const ExternRef& ref, std::vector<std::uint32_t>* failing) {
  ZBlobReader reader(ref.length);
  std::set<std::uint32_t> seen;
  for (std::uint32_t p = ref.page_no; p != kFilNull;) {
    if (p >= file.n_pages() || !seen.insert(p).second)
      return Broken(p, "compressed BLOB chain leaves the file or loops");
    ConstBytes page = file.page(p);
    const PageType type = FilHeader(page).type();
    if (type != (p == ref.page_no ? PageType::kZBlob : PageType::kZBlob2)) {
      return Broken(p, "a compressed BLOB chain reaches a page of type " + ToString(type));
    }
    NoteChecksum(file, p, failing);
    auto next = reader.Feed(page);
    if (!next.ok()) return next.status().WithContext(fmt::format("page {}", p));
    p = *next;
  }
  return reader.Take();
}

}  // namespace

Result<std::string> ReadExternal(const SpaceFile& file, const ExternRef& ref, std::vector<std::uint32_t>* failing) {
  if (ref.page_no >= file.n_pages())
    return Broken(ref.page_no, "an off-page reference points past the end of the file");
  switch (FilHeader(file.page(ref.page_no)).type()) {
    case PageType::kBlob:
      return ReadBlobChain(file, ref, failing);
    case PageType::kLobFirst:
      return ReadLob(file, ref, failing);
    case PageType::kZBlob:
      return ReadZBlobChain(file, ref, failing);
    case PageType::kZLobFirst:
      return Status::NotSupported(
          fmt::format("page {}: MySQL 8.0's compressed LOB pages are not read yet", ref.page_no));
    default:
      return Broken(ref.page_no, "an off-page reference points at a page that is not a BLOB or LOB page");
  }
}

}  // namespace strata::inspect
