#!/usr/bin/env bash
# Runs artifacts of hand-written programs on a GPU host without LLVM and
# prints what they computed. On the host with LLVM, compile the program with
# its inputs (the artifact carries them and, where the reference reaches the
# program, its expected outputs):
#
#   harness compile nms.mlir --pipeline=distribute --emit=artifact \
#     --input=boxes.npy --input=scores.npy -o nms.siftart
#
# then, on the GPU host, from the repository root:
#
#   scripts/run-handwritten-nms.sh nms.siftart...
#
# Each artifact runs twice with `sift-run --device=cuda --output-dir` (and,
# with SANITIZE=memcheck or racecheck, once more under compute-sanitizer);
# its CSV row (pass: the reference's outputs and both runs agree, or, for a
# program outside the reference's reach, the runs agree) and every output
# (decoded by test/harness/Inputs/npy.py, plain python) are printed. Results
# go to $OUT (default ./handwritten-out): <stem>.csv and <stem>/result<i>.npy.
#
# SIFT_RUN=PATH uses that sift-run; otherwise the runtime-only configuration
# (-DSIFT_BUILD_COMPILER=OFF: a C++ compiler and CMake, no LLVM) is built in
# /tmp/sift-runtime-build. DEVICE=hip runs on an AMD GPU instead (amdgpu
# artifacts). Exit: 0 every artifact passed, 1 findings, 2 bad usage.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "$#" -eq 0 ]; then
  sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
  exit 2
fi
device="${DEVICE:-cuda}"
out="${OUT:-handwritten-out}"
mkdir -p "$out"
sift_run="${SIFT_RUN:-}"
if [ -z "$sift_run" ]; then
  build=/tmp/sift-runtime-build
  cmake -S . -B "$build" -DSIFT_BUILD_COMPILER=OFF -DSIFT_BUILD_TESTS=OFF \
    -DSIFT_BUILD_BENCHMARKS=OFF -DCMAKE_BUILD_TYPE=Release \
    > "$out/configure.log" 2>&1 || { tail -20 "$out/configure.log"; exit 2; }
  cmake --build "$build" -j "$(nproc)" --target sift-run \
    > "$out/build.log" 2>&1 || { tail -30 "$out/build.log"; exit 2; }
  sift_run="$build/tools/sift-run"
fi
status=0
for artifact in "$@"; do
  stem=$(basename "$artifact" .siftart)
  echo "== $artifact on $device"
  code=0
  "$sift_run" "$artifact" --device="$device" --output-dir="$out/$stem" \
    --out="$out/$stem.csv" || code=$?
  [ "$code" -gt "$status" ] && status=$code
  sed -n '2p' "$out/$stem.csv" 2>/dev/null || true
  for result in "$out/$stem"/result*.npy; do
    [ -e "$result" ] || continue
    echo "-- $result"
    python3 test/harness/Inputs/npy.py rows "$result"
  done
  if [ -n "${SANITIZE:-}" ]; then
    code=0
    "$sift_run" "$artifact" --device="$device" --sanitize="$SANITIZE" \
      --out="$out/$stem.$SANITIZE.csv" || code=$?
    [ "$code" -gt "$status" ] && status=$code
    sed -n '2p' "$out/$stem.$SANITIZE.csv" 2>/dev/null || true
  fi
done
exit "$status"
