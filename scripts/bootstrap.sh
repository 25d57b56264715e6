#!/usr/bin/env bash
# Sets sift up on a Debian 12 machine: installs the Debian packages it needs
# (only those missing; needs root or sudo) and IREE, then configures and
# builds into ./build. Safe to run again: it only does what is left to do.
# It fails (exit 1, before building) when IREE or Chromium cannot be
# installed: CI must not go green without the tests that need them.
#
# Environment:
#   SIFT_BUILD_DIR   build folder (default: build)
#   SIFT_JOBS        parallel build jobs (default: nproc)
#   SIFT_CMAKE_ARGS  extra CMake arguments, e.g. -DSIFT_BUILD_COMPILER=OFF
#   SIFT_WITH_IREE   0: do not install IREE (the IREE pipelines are then
#                    unavailable and their tests skip: -DSIFT_REQUIRE_IREE=OFF);
#                    otherwise the pinned IREE_PACKAGES go into BUILD_DIR/venv
#                    from the Python package index (pip's PIP_* variables
#                    apply), and a failed install fails the bootstrap
#   The shipped systems described by files (systems/*.toml: XLA through JAX,
#   ONNX Runtime) always go into BUILD_DIR/venv, pinned (SYSTEM_PACKAGES);
#   a failed install fails the bootstrap.
#   SIFT_WITH_TORCH  0: do not install PyTorch (2.6 GB of wheels, with the
#                    CUDA libraries torch links even on a CPU: the index has
#                    no CPU-only wheel); the inductor system's tests then
#                    skip. Otherwise TORCH_PACKAGES go into the venv too and a
#                    failed install fails the bootstrap.
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
  libtomlplusplus-dev
  rocm-device-libs libamdhip64-dev libdlpack-dev
  python3-venv
  chromium
)

# IREE, the second system under test, and the ONNX importer's dependency:
# pinned, so every machine tests the same IREE.
IREE_PACKAGES=(iree-base-compiler==3.13.0 iree-base-runtime==3.13.0 onnx==1.17.0)

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

if ! command -v chromium >/dev/null; then
  echo "bootstrap: Chromium is not installed (package chromium): the report tests need it" >&2
  exit 1
fi

REQUIRE_IREE=ON
if [[ "${SIFT_WITH_IREE:-1}" != 0 ]]; then
  VENV="$BUILD_DIR/venv"
  if "$VENV/bin/iree-compile" --version 2>/dev/null | grep -q "version 3.13.0" &&
     "$VENV/bin/python" -c "import onnx" 2>/dev/null; then
    echo "bootstrap: IREE 3.13.0 is in $VENV"
  else
    echo "bootstrap: installing ${IREE_PACKAGES[*]} into $VENV"
    mkdir -p "$BUILD_DIR"
    if ! { { [[ -x "$VENV/bin/pip" ]] || python3 -m venv "$VENV"; } &&
           "$VENV/bin/pip" install -q --disable-pip-version-check "${IREE_PACKAGES[@]}"; }; then
      echo "bootstrap: could not install IREE into $VENV: the IREE tests cannot run, so this fails; SIFT_WITH_IREE=0 builds without IREE (its tests then skip)" >&2
      exit 1
    fi
  fi
else
  echo "bootstrap: SIFT_WITH_IREE=0: no IREE; its pipelines are unavailable and its tests skip"
  REQUIRE_IREE=OFF
fi

# The compilers the shipped system files (systems/) describe, and numpy for
# the test systems: pinned, so every machine tests the same versions.
SYSTEM_PACKAGES=(jax==0.10.2 jaxlib==0.10.2 onnxruntime==1.32.0 numpy==2.4.6)
TORCH_PACKAGES=(torch==2.11.0 torchvision==0.26.0)
REQUIRE_TORCH=ON
if [[ "${SIFT_WITH_TORCH:-1}" != 0 ]]; then
  SYSTEM_PACKAGES+=("${TORCH_PACKAGES[@]}")
else
  echo "bootstrap: SIFT_WITH_TORCH=0: no PyTorch; the inductor system is unavailable and its tests skip"
  REQUIRE_TORCH=OFF
fi
VENV="$BUILD_DIR/venv"
if "$VENV/bin/python" - "${SYSTEM_PACKAGES[@]}" 2>/dev/null <<'PY'
import sys
from importlib.metadata import version
sys.exit(any(version(p.split("==")[0]) != p.split("==")[1] for p in sys.argv[1:]))
PY
then
  echo "bootstrap: the shipped systems' packages are in $VENV"
else
  echo "bootstrap: installing ${SYSTEM_PACKAGES[*]} into $VENV"
  mkdir -p "$BUILD_DIR"
  if ! { { [[ -x "$VENV/bin/pip" ]] || python3 -m venv "$VENV"; } &&
         "$VENV/bin/pip" install -q --no-cache-dir --disable-pip-version-check "${SYSTEM_PACKAGES[@]}"; }; then
    echo "bootstrap: could not install ${SYSTEM_PACKAGES[*]} into $VENV: the shipped systems (systems/*.toml) and their tests need them, so this fails" >&2
    exit 1
  fi
fi

echo "bootstrap: configuring $BUILD_DIR"
# shellcheck disable=SC2086
cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DSIFT_REQUIRE_IREE="$REQUIRE_IREE" -DSIFT_REQUIRE_TORCH="$REQUIRE_TORCH" \
  ${SIFT_CMAKE_ARGS:-} >/dev/null
echo "bootstrap: building with $JOBS jobs"
cmake --build "$BUILD_DIR" -j "$JOBS"
echo "bootstrap: done; tools are in $BUILD_DIR/harness (harness) and $BUILD_DIR/tools (sift-opt, sift-reduce, sift-run)"
