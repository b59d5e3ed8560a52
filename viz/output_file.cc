#include "viz/output_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

namespace strata::viz {

using ondisk::Status;

Status WriteFileAtomically(const std::filesystem::path& path, const std::function<Status(std::FILE*)>& write) {
  const std::filesystem::path dir = path.has_parent_path() ? path.parent_path() : std::filesystem::path(".");
  std::string tmp = (dir / ("." + path.filename().string() + ".XXXXXX")).string();
  const int fd = ::mkstemp(tmp.data());
  if (fd < 0) return Status::IoError(path.string() + ": cannot create a file beside it: " + std::strerror(errno));
  std::FILE* f = ::fdopen(fd, "wb");
  if (!f) {
    ::close(fd);
    ::unlink(tmp.c_str());
    return Status::IoError(path.string() + ": " + std::strerror(errno));
  }
  auto fail = [&](Status s) {
    std::fclose(f);
    ::unlink(tmp.c_str());
    return s;
  };
  if (Status s = write(f); !s.ok()) return fail(s);
  if (std::fflush(f) != 0 || ::fsync(fd) != 0) {
    return fail(
        Status::IoError(path.string() + ": write failed (" + std::strerror(errno) + "); the old file is unchanged"));
  }
  // mkstemp makes the file 0600: give it the old file's mode, or what the umask allows.
  struct stat old {};
  mode_t mode = 0;
  if (::stat(path.c_str(), &old) == 0) {
    mode = old.st_mode & 07777;
  } else {
    const mode_t mask = ::umask(0);
    ::umask(mask);
    mode = 0666 & ~mask;
  }
  (void)::fchmod(fd, mode);
  if (std::fclose(f) != 0) {
    ::unlink(tmp.c_str());
    return Status::IoError(path.string() + ": write failed (" + std::strerror(errno) + "); the old file is unchanged");
  }
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    const int err = errno;
    ::unlink(tmp.c_str());
    return Status::IoError(path.string() + ": cannot replace it: " + std::strerror(err));
  }
  return Status::Ok();
}

Status WriteFileAtomically(const std::filesystem::path& path, std::string_view bytes) {
  return WriteFileAtomically(path, [&](std::FILE* f) {
    if (std::fwrite(bytes.data(), 1, bytes.size(), f) != bytes.size()) {
      return Status::IoError(path.string() + ": write failed (" + std::strerror(errno) +
                             "); the old file is unchanged");
    }
    return Status::Ok();
  });
}

}  // namespace strata::viz
