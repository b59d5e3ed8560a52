#include "inspect/path_check.h"

#include <system_error>

namespace strata::inspect {

std::optional<std::string> RefusedPath(const std::filesystem::path& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);
  if (ec) {
    if (ec == std::errc::no_such_file_or_directory) return std::nullopt;
    if (ec == std::errc::too_many_symbolic_link_levels) return "a symbolic link loop (" + ec.message() + ")";
    return ec.message();
  }
  switch (st.type()) {
    case fs::file_type::fifo:
      return "a FIFO (named pipe), not a file: reading it would wait for a writer";
    case fs::file_type::socket:
      return "a socket, not a file";
    case fs::file_type::block:
    case fs::file_type::character:
      return "a device, not a tablespace file";
    default:
      return std::nullopt;
  }
}

}  // namespace strata::inspect
