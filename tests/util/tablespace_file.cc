#include "tests/util/tablespace_file.h"

#include <stdexcept>

#include "ondisk/fil_header.h"
#include "tests/util/fixtures.h"

namespace strata::testing {

TablespaceFile TablespaceFile::Load(const std::filesystem::path& path) {
  TablespaceFile f;
  f.path = path;
  f.bytes = ReadWholeFile(path);
  if (f.bytes.size() < 4096) throw std::runtime_error(path.string() + ": shorter than one page");
  auto flags = ondisk::FspFlags::Decode(ondisk::Load32(f.bytes, ondisk::FspHeader::kFlags));
  if (!flags.ok()) throw std::runtime_error(path.string() + ": " + flags.status().ToString());
  f.page_size = flags->page_size;
  return f;
}

bool TablespaceFile::full_crc32() const { return (ondisk::Load32(bytes, ondisk::FspHeader::kFlags) & 0x10) != 0; }

}  // namespace strata::testing
