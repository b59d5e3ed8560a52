#!/usr/bin/env bash
# Installs the Debian 12 packages Strata builds and tests with.
# Installs only what is missing; uses sudo when not root. Safe to run repeatedly.
#   scripts/install-deps.sh          build and test
#   scripts/install-deps.sh bench    also the peers benchmarks compare with
#   scripts/install-deps.sh mariadb  also a MariaDB server for regenerating fixtures
#   scripts/install-deps.sh review   also what the review scripts use (scripts/long_functions.sh)
set -euo pipefail

packages=(
  g++ cmake ninja-build make pkg-config
  libgtest-dev libgmock-dev libbenchmark-dev
  libsqlite3-dev                        # the peer engine_bench measures against (built in CI)
  libboost-program-options-dev libfmt-dev nlohmann-json3-dev
  zlib1g-dev libpng-dev libstb-dev fonts-dejavu-core
  libssl-dev                            # AES for encrypted tablespaces read with a key
  libdeflate-dev                        # inflates ROW_FORMAT=COMPRESSED pages at twice zlib's speed
  liblz4-dev liblzo2-dev liblzma-dev libbz2-dev libsnappy-dev  # MariaDB's PAGE_COMPRESSED algorithms
  libedit-dev                           # line editing and history in `strata sql`
  libicu-dev                            # collations: Unicode character data (case, decompositions; engine/collation.h)
  libimgui-dev libglfw3-dev libgl-dev   # strata-viz
  xvfb xauth libgl1-mesa-dri            # its screenshot test: X without a display, software OpenGL
  chromium                              # draws report.html headless for its screenshot test
  mariadb-server-core                   # innochecksum, run on the engine's files by the tests; mariadbd
  mariadb-client                        # mariadb and mariadb-dump: a private server loads and dumps `strata gen dump` files in a test
  clang libclang-rt-14-dev   # libFuzzer and the sanitizer runtimes for the fuzz targets
  clang-format                          # `make format-check`: layout as .clang-format says
)
for group in "$@"; do
  case "$group" in
    bench) packages+=(time sqlite3 python3 jq) ;;  # GNU time for peak memory; the SQLite CLI for import_bench; python3 for redo_bench and cli_ab; jq for hotrow_bench
    mariadb) packages+=(mariadb-server mariadb-client python3
                        # every PAGE_COMPRESSED algorithm, for its fixture script
                        mariadb-plugin-provider-lz4 mariadb-plugin-provider-lzo mariadb-plugin-provider-lzma
                        mariadb-plugin-provider-bzip2 mariadb-plugin-provider-snappy) ;;
    review) packages+=(universal-ctags) ;;  # scripts/long_functions.sh
    *) echo "install-deps: unknown group '$group' (bench, mariadb, review)" >&2; exit 2 ;;
  esac
done

missing=()
for p in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)
  [ "$status" = installed ] || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

sudo=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "install-deps: not root and no sudo; install: ${missing[*]}" >&2; exit 1; }
  sudo=sudo
fi

echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
# A fresh machine has no package lists; refresh them once before installing.
$sudo apt-get -o DPkg::Lock::Timeout=600 update -qq
$sudo apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends "${missing[@]}"
