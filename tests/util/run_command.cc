#include "tests/util/run_command.h"

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <iterator>

#include "tests/util/tsv.h"

namespace strata::testing {

CommandResult RunCommand(const std::string& command) {
  TempDir tmp;
  const std::string err_path = (tmp.path() / "stderr").string();
  FILE* p = popen((command + " 2>" + err_path).c_str(), "r");
  CommandResult r;
  if (!p) return r;
  std::array<char, 65536> buf;
  while (std::size_t n = fread(buf.data(), 1, buf.size(), p)) r.out.append(buf.data(), n);
  const int status = pclose(p);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::ifstream e(err_path);
  r.err.assign(std::istreambuf_iterator<char>(e), std::istreambuf_iterator<char>());
  return r;
}

}  // namespace strata::testing
