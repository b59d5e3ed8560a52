#include "ondisk/strata_catalog.h"

#include <algorithm>
#include <cstring>

#include "ondisk/endian.h"
#include "ondisk/fil_header.h"
#include "ondisk/sdi.h"
#include "ondisk/sys_tables.h"

namespace strata::ondisk {

namespace {

constexpr std::size_t kCatalog = 256;
constexpr std::size_t kCatalogHeader = 20;  // magic, version, two lengths
constexpr char kMagic[8] = {'S', 'T', 'R', 'A', 'T', 'C', 'A', 'T'};

}  // namespace

bool HasStrataCatalog(ConstBytes page) {
  return page.size() >= kCatalog + kCatalogHeader + kFilTrailerSize &&
         std::memcmp(page.data() + kCatalog, kMagic, 8) == 0;
}

Result<CatalogPage> DecodeCatalogPage(ConstBytes p, std::string_view where) {
  const std::string at(where);
  if (!HasStrataCatalog(p))
    return Status::Corruption(at + ": no Strata catalog (is this a MySQL or MariaDB data directory?)");
  if (Load32(p, kCatalog + 8) != 1)
    return Status::NotSupported(at + ": catalog format version " + std::to_string(Load32(p, kCatalog + 8)));
  const std::uint32_t zlen = Load32(p, kCatalog + 12), tlen = Load32(p, kCatalog + 16);
  if (zlen > p.size() - kCatalog - kCatalogHeader - kFilTrailerSize)
    return Status::Corruption(at + ": catalog length overruns the page");
  auto text = InflateSdi(p.subspan(kCatalog + kCatalogHeader, zlen), tlen);
  if (!text.ok()) return text.status().WithContext(at);
  CatalogPage c;
  c.next_table_id = Load64(p, DictHeader::kTableId);
  c.next_index_id = Load64(p, DictHeader::kIndexId);
  c.next_space_id = Load32(p, DictHeader::kMaxSpaceId);
  c.json = std::move(*text);
  return c;
}

Status EncodeCatalogPage(const CatalogPage& c, MutableBytes p) {
  const std::vector<std::byte> z = DeflateSdi(c.json);
  const std::size_t room = p.size() - kFilTrailerSize - kCatalog - kCatalogHeader;
  if (z.size() > room) {
    return Status::NotSupported("the catalog takes " + std::to_string(z.size()) + " bytes compressed; one page holds " +
                                std::to_string(room));
  }
  Store64(p, DictHeader::kRowId, 0);
  Store64(p, DictHeader::kTableId, c.next_table_id);
  Store64(p, DictHeader::kIndexId, c.next_index_id);
  Store32(p, DictHeader::kMaxSpaceId, c.next_space_id);
  std::fill(p.begin() + kCatalog, p.end() - kFilTrailerSize, std::byte{0});
  std::memcpy(p.data() + kCatalog, kMagic, 8);
  Store32(p, kCatalog + 8, 1);
  Store32(p, kCatalog + 12, static_cast<std::uint32_t>(z.size()));
  Store32(p, kCatalog + 16, static_cast<std::uint32_t>(c.json.size()));
  std::memcpy(p.data() + kCatalog + kCatalogHeader, z.data(), z.size());
  return Status::Ok();
}

}  // namespace strata::ondisk
