#!/usr/bin/env bash
# The GPU half of a split campaign, on a GPU host without LLVM: build sift's
# runtime-only configuration (sift-run and, where GoogleTest is installed,
# the runtime tests), run the runtime tests on the GPU, then sift-run over
# every artifact folder given. CSVs and logs go to $OUT (default ./gpu-out).
#
#   scripts/gpu-run.sh [--device=cuda] DIR...
#
# sift-run's command line needs CLI11's headers (Debian's libcli11-dev). A
# GPU host without them and without network takes a copy carried in the
# repository's git-ignored .deps/: on a machine that has the package,
#   mkdir -p .deps/cli11 && cp -r /usr/include/CLI .deps/cli11/
# and carry .deps with the tree.
set -euo pipefail
cd "$(dirname "$0")/.."
device=cuda
dirs=()
for arg in "$@"; do
  case "$arg" in
    --device=*) device="${arg#--device=}" ;;
    *) dirs+=("$arg") ;;
  esac
done
out="${OUT:-gpu-out}"
mkdir -p "$out"
build=/tmp/sift-runtime-build
tests=OFF
if [ -f /usr/include/gtest/gtest.h ] || [ -d /usr/lib/cmake/GTest ]; then tests=ON; fi
if [ ! -f /usr/include/CLI/CLI.hpp ] && [ ! -f .deps/cli11/CLI/CLI.hpp ]; then
  echo "gpu-run: sift-run needs CLI11's headers: install libcli11-dev, or carry" \
    "a copy in .deps/cli11/CLI (see this script's header)" >&2
  exit 2
fi
cmake -S . -B "$build" -DSIFT_BUILD_COMPILER=OFF -DSIFT_BUILD_TESTS="$tests" \
  -DSIFT_BUILD_BENCHMARKS=OFF -DCMAKE_BUILD_TYPE=Release > "$out/configure.log" 2>&1 \
  || { tail -20 "$out/configure.log"; exit 1; }
cmake --build "$build" -j "$(nproc)" > "$out/build.log" 2>&1 \
  || { tail -30 "$out/build.log"; exit 1; }
if [ "$tests" = ON ]; then
  SIFT_TEST_CUDA=1 "$build/test/unittests/runtime/sift-runtime-tests" \
    > "$out/runtime-tests.log" 2>&1 || true
  tail -3 "$out/runtime-tests.log"
else
  echo "runtime tests: not built (no GoogleTest on this host)"
fi
status=0
for dir in "${dirs[@]}"; do
  name=$(basename "$dir")
  # --resume: run again after a preemption, it goes on where it stopped.
  "$build/tools/sift-run" "$dir" --device="$device" --out="$out/$name.csv" --resume \
    2> "$out/$name.log" || status=$?
done
exit $status
