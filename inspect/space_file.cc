#include "inspect/space_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <regex>

#include "inspect/path_check.h"
#include "ondisk/checksum.h"
#include "ondisk/crc32c.h"
#include "ondisk/doublewrite.h"
#include "ondisk/fil_header.h"
#include "ondisk/page_compressed.h"
#include "ondisk/undo.h"
#include "ondisk/xdes.h"
#include "ondisk/zip_page.h"

namespace strata::inspect {

using namespace strata::ondisk;

namespace {

int KindOrder(SpaceKind k) {
  switch (k) {
    case SpaceKind::kSystem:
      return 0;
    case SpaceKind::kUndo:
      return 1;
    case SpaceKind::kDictionary:
      return 2;
    default:
      return 3;
  }
}

}  // namespace

ondisk::Result<SpaceFile> SpaceFile::Open(const std::filesystem::path& path, const EncryptionKeys* keys) {
  SpaceFile f;
  f.path_ = path;
  // Non-blocking, so that a FIFO is refused below instead of waiting for a writer.
  f.fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (f.fd_ < 0) return Status::IoError(path.string() + ": " + std::strerror(errno));
  struct stat st;
  if (::fstat(f.fd_, &st) != 0) return Status::IoError(path.string() + ": " + std::strerror(errno));
  if (!S_ISREG(st.st_mode)) return Status::InvalidArgument(path.string() + ": not a regular file");
  f.size_ = static_cast<std::uint64_t>(st.st_size);
  if (f.size_ < kMinPageSize) {
    return Status::Corruption(path.string() + ": " + std::to_string(f.size_) +
                              " bytes, shorter than the smallest page (4096); not a tablespace or truncated");
  }
  void* m = ::mmap(nullptr, f.size_, PROT_READ, MAP_SHARED, f.fd_, 0);
  if (m == MAP_FAILED) return Status::IoError(path.string() + ": mmap: " + std::strerror(errno));
  ::madvise(m, f.size_, MADV_SEQUENTIAL);
  f.data_ = static_cast<const std::byte*>(m);
  f.shape_ = DetectShape(path, {f.data_, f.size_}, f.findings_);
  const SpaceShape& shape = f.shape_;
  // MariaDB's encryption leaves its crypt data on page 0 (MySQL's files keep their own there).
  if (shape.n_pages && shape.server_version == 0) f.unpacked_.mariadb_crypt = FindMariaDbCryptData(f.page(0));
  const std::string name = path.filename().string();
  const std::size_t bytes = std::size_t{shape.n_pages} * shape.page_size;
  if (std::byte* out = PageUnpacker(name, shape, {f.data_, bytes}, f.unpacked_, f.findings_).Unpack(keys)) {
    f.stored_ = f.data_;
    f.stored_size_ = f.size_;
    f.data_ = out;
    f.size_ = bytes;
  }
  if (shape.n_pages > 5) f.doublewrite_blocks_ = FindDoublewriteBlocks(shape, f.page(5));
  return f;
}

SpaceFile::SpaceFile(SpaceFile&& o) noexcept { *this = std::move(o); }

SpaceFile& SpaceFile::operator=(SpaceFile&& o) noexcept {
  if (this == &o) return *this;
  Release();
  path_ = std::move(o.path_);
  fd_ = std::exchange(o.fd_, -1);
  data_ = std::exchange(o.data_, nullptr);
  size_ = std::exchange(o.size_, 0);
  stored_ = std::exchange(o.stored_, nullptr);
  copy_on_write_ = o.copy_on_write_;
  stored_size_ = std::exchange(o.stored_size_, 0);
  shape_ = o.shape_;
  unpacked_ = std::move(o.unpacked_);
  doublewrite_blocks_ = std::move(o.doublewrite_blocks_);
  findings_ = std::move(o.findings_);
  return *this;
}

SpaceFile::~SpaceFile() { Release(); }

void SpaceFile::Release() {
  if (data_) ::munmap(const_cast<std::byte*>(data_), size_);
  if (stored_) ::munmap(const_cast<std::byte*>(stored_), stored_size_);
  stored_ = nullptr;
  if (fd_ >= 0) ::close(fd_);
  data_ = nullptr;
  fd_ = -1;
}

Result<IndexPage> SpaceFile::OpenIndexPage(ConstBytes page, ZipPageParts* zip) const {
  if (!shape_.compressed()) return IndexPage::Open(page);
  auto logical = std::make_shared<std::vector<std::byte>>(shape_.logical_page_size());
  auto parts = DecompressIndexPage(page, *logical);
  if (!parts.ok()) return parts.status();
  if (zip) *zip = std::move(*parts);
  return IndexPage::Open(std::shared_ptr<const std::vector<std::byte>>(std::move(logical)));
}

ondisk::MutableBytes SpaceFile::MutablePage(std::uint32_t n) {
  if (n >= n_pages()) return {};
  if (!stored_ && !copy_on_write_) {  // still the file's shared read-only mapping
    void* m = ::mmap(nullptr, size_, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd_, 0);
    if (m == MAP_FAILED) return {};
    ::munmap(const_cast<std::byte*>(data_), size_);
    data_ = static_cast<const std::byte*>(m);
    copy_on_write_ = true;
  }
  return {const_cast<std::byte*>(data_) + std::size_t{n} * page_size(), page_size()};
}

void SpaceFile::Grow(std::uint32_t pages) {
  if (pages <= n_pages()) return;
  const std::size_t bytes = std::size_t{pages} * page_size();
  void* m = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (m == MAP_FAILED) return;
  std::memcpy(m, data_, std::size_t{n_pages()} * page_size());
  ::munmap(const_cast<std::byte*>(data_), size_);  // the file's mapping, or an earlier copy
  data_ = static_cast<const std::byte*>(m);
  size_ = bytes;
  shape_.n_pages = pages;
  copy_on_write_ = true;
}

void SpaceFile::RereadHeader() {
  if (n_pages() > 0) shape_.RereadHeader(page(0));
}

bool SpaceFile::ReadPages(std::uint32_t first, std::uint32_t count, std::byte* out) const {
  const std::size_t want = std::size_t{count} * page_size();
  if (stored_ || copy_on_write_) {  // the decompressed or decrypted copy, or pages --apply-redo changed
    if (std::size_t{first} + count > n_pages()) return false;
    std::memcpy(out, data_ + std::size_t{first} * page_size(), want);
    return true;
  }
  std::size_t done = 0;
  while (done < want) {
    const ssize_t n =
        ::pread(fd_, out + done, want - done, static_cast<off_t>(std::size_t{first} * page_size() + done));
    if (n <= 0) {
      if (n < 0 && errno == EINTR) continue;
      return false;
    }
    done += static_cast<std::size_t>(n);
  }
  return true;
}

bool SpaceFile::InHole(std::uint32_t first, std::uint32_t count) const {
  if (stored_ || copy_on_write_ || fd_ < 0) return false;  // pages in memory may differ from the file
  const off_t start = static_cast<off_t>(std::size_t{first} * page_size());
  const off_t end = static_cast<off_t>(std::size_t{first + count} * page_size());
  const off_t data = ::lseek(fd_, start, SEEK_DATA);
  if (data < 0) return errno == ENXIO;  // no data at or after start: a hole to the end
  return data >= end;
}

std::vector<SpaceFile> OpenSpaces(const std::vector<std::filesystem::path>& paths, std::vector<Finding>* findings,
                                  const EncryptionKeys* keys) {
  std::vector<SpaceFile> files;
  for (const auto& path : ExpandPaths(paths, findings)) {
    auto f = SpaceFile::Open(path, keys);
    if (f.ok()) {
      files.push_back(std::move(*f));
    } else if (findings) {
      findings->push_back(
          {Severity::kError, path.string(), std::nullopt, std::nullopt, "cannot open", f.status().ToString()});
    }
  }
  return files;
}

std::vector<std::filesystem::path> ExpandPaths(const std::vector<std::filesystem::path>& paths,
                                               std::vector<Finding>* findings) {
  std::vector<std::filesystem::path> out;
  for (const auto& p : paths) {
    std::error_code ec;
    if (auto refused = RefusedPath(p)) {
      if (findings)
        findings->push_back({Severity::kError, p.string(), std::nullopt, std::nullopt, "not read", *refused});
    } else if (std::filesystem::is_directory(p, ec)) {
      std::vector<std::filesystem::path> found;
      // Every level (links to directories are not followed, so no loop is walked).
      for (auto it = std::filesystem::recursive_directory_iterator(p, ec);
           !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
        if (KindFromName(it->path()) == SpaceKind::kOther) continue;
        if (auto refused = RefusedPath(it->path())) {
          if (findings) {
            findings->push_back(
                {Severity::kWarning, it->path().string(), std::nullopt, std::nullopt, "not read", *refused});
          }
          continue;
        }
        std::error_code file_ec;
        if (it->is_regular_file(file_ec)) found.push_back(it->path());
      }
      if (ec && findings) {
        findings->push_back({Severity::kError, p.string(), std::nullopt, std::nullopt, "cannot list", ec.message()});
      }
      std::sort(found.begin(), found.end(), [](const auto& a, const auto& b) {
        int ka = KindOrder(KindFromName(a)), kb = KindOrder(KindFromName(b));
        return ka != kb ? ka < kb : a < b;
      });
      if (found.empty() && findings) {
        findings->push_back({Severity::kError, p.string(), std::nullopt, std::nullopt, "no tablespaces",
                             "the directory holds no ibdata, undo or .ibd files"});
      }
      out.insert(out.end(), found.begin(), found.end());
    } else if (ParseDoublewriteFileName(p.filename().string())) {
      if (findings) {
        findings->push_back({Severity::kInfo, p.string(), std::nullopt, std::nullopt, "doublewrite file",
                             "not a tablespace: `strata inspect doublewrite` lists the page copies it holds"});
      }
    } else if (std::filesystem::exists(p, ec)) {
      out.push_back(p);
    } else if (findings) {
      findings->push_back(
          {Severity::kError, p.string(), std::nullopt, std::nullopt, "not found", "no such file or directory"});
    }
  }
  return out;
}

}  // namespace strata::inspect
