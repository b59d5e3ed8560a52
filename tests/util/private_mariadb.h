// A private MariaDB server (scripts/mariadb/server.sh) for tests that compare Strata with
// what the server itself reports. Tests that use it define STRATA_SOURCE_DIR.
#pragma once

#include <arpa/inet.h>
#include <fmt/format.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "tests/util/run_command.h"

namespace strata::testing {

class PrivateMariadb {
 public:
  // Whether the server and its clients are installed (scripts/install-deps.sh installs them).
  static bool Installed() {
    return RunCommand("command -v mariadb && command -v mariadb-dump && command -v mariadb-install-db").exit_code == 0;
  }

  // Starts a server with its data in `dir`, on a free port of 127.0.0.1 (tests running side by
  // side each get their own); up() says whether it came up.
  explicit PrivateMariadb(const std::filesystem::path& dir)
      : script_((std::filesystem::path(STRATA_SOURCE_DIR) / "scripts/mariadb/server.sh").string()),
        dir_(dir.string()),
        start_(RunCommand(fmt::format("{} start {} {} 2>&1", script_, dir_, FreePort()))) {}
  // Stopped however the test ends: a failed assertion returns early.
  ~PrivateMariadb() { (void)RunCommand(fmt::format("{} stop {} 2>&1", script_, dir_)); }
  PrivateMariadb(const PrivateMariadb&) = delete;
  PrivateMariadb& operator=(const PrivateMariadb&) = delete;

  bool up() const { return start_.exit_code == 0; }
  const std::string& start_output() const { return start_.out; }
  const std::string& dir() const { return dir_; }

  // The mariadb client, batch mode, reading `file`, in `database` (empty: none); `flags` as
  // mariadb takes them (-B, -N, ...).
  CommandResult Sql(const std::string& database, const std::filesystem::path& file,
                    const std::string& flags = "") const {
    return RunCommand(fmt::format("{} sql {} {} {} < {}", script_, dir_, database, flags, file.string()));
  }

 private:
  // A port the kernel hands out as free now (it could be taken before the server binds it; the
  // start then fails and says so).
  static int FreePort() {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    int port = 33271;
    if (fd >= 0 && ::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0 &&
        ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) == 0) {
      port = ntohs(a.sin_port);
    }
    if (fd >= 0) ::close(fd);
    return port;
  }

  std::string script_, dir_;
  CommandResult start_;
};

}  // namespace strata::testing
