#!/usr/bin/env bash
# Sets sift up on a Debian 12 machine: installs the Debian packages it needs
# (only those missing; needs root or sudo), then configures and builds into
# ./build. Safe to run again: it only does what is left to do.
#
# Environment:
#   SIFT_BUILD_DIR   build folder (default: build)
#   SIFT_JOBS        parallel build jobs (default: nproc)
#   SIFT_CMAKE_ARGS  extra CMake arguments, e.g. -DSIFT_BUILD_COMPILER=OFF
set -euo pipefail

cd "$(dirname "$0")/.."
BUILD_DIR="${SIFT_BUILD_DIR:-build}"
JOBS="${SIFT_JOBS:-$(nproc)}"

PACKAGES=(
  build-essential cmake ninja-build
  llvm-22-dev llvm-22-tools libmlir-22-dev mlir-22-tools
  clang-22 lld-22 liblld-22-dev libclang-rt-22-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  libcli11-dev nlohmann-json3-dev libsqlite3-dev sqlite3 libfccp-dev
  rocm-device-libs libamdhip64-dev libdlpack-dev
)

missing=()
for package in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "ok installed"; then
    missing+=("$package")
  fi
done

if ((${#missing[@]})); then
  echo "bootstrap: installing ${missing[*]}"
  SUDO=""
  if [[ $(id -u) -ne 0 ]]; then
    if command -v sudo >/dev/null; then SUDO="sudo"; else
      echo "bootstrap: missing packages (${missing[*]}) and not root; install them and run again" >&2
      exit 2
    fi
  fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

echo "bootstrap: configuring $BUILD_DIR"
# shellcheck disable=SC2086
cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release ${SIFT_CMAKE_ARGS:-} >/dev/null
echo "bootstrap: building with $JOBS jobs"
cmake --build "$BUILD_DIR" -j "$JOBS"
echo "bootstrap: done; tools are in $BUILD_DIR/harness (harness) and $BUILD_DIR/tools (sift-opt, sift-reduce, sift-run)"
