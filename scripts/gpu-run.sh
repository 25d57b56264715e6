#!/usr/bin/env bash
# The GPU half of a split campaign, on a GPU host without LLVM: build sift's
# runtime-only configuration (sift-run and, where GoogleTest is installed,
# the runtime tests), run the runtime tests on the GPU, then sift-run over
# every artifact folder given. CSVs and logs go to $OUT (default ./gpu-out).
#
#   scripts/gpu-run.sh [--device=cuda] [--jobs=N] [--no-ahead] DIR...
#
# --jobs=N runs up to N folders at once (one sift-run each, one GPU).
# On cuda, the PTX is compiled ahead: every distinct module (sift-run
# --write-ptx) goes through ptxas on all cores to a cubin that sift-run loads
# instead of JIT-compiling the PTX (SIFT_CUBIN_CACHE; a module ptxas fails on
# is JIT-compiled as before). --no-ahead leaves it to the driver's JIT.
# $SIFT_RUN_FLAGS goes to every sift-run (e.g. "--repeat=1 --timeout=60").
# sift-run needs CLI11's and nlohmann-json's headers (Debian's libcli11-dev,
# nlohmann-json3-dev). A GPU host without them and without network takes
# copies carried in the repository's git-ignored .deps/: on a machine that
# has the packages,
#   mkdir -p .deps/cli11 .deps/nlohmann
#   cp -r /usr/include/CLI .deps/cli11/ && cp -r /usr/include/nlohmann .deps/nlohmann/
# and carry .deps with the tree. IREE cases (.ireecase folders) run with
# IREE's iree-run-module: $SIFT_IREE_RUN_MODULE, else .deps/iree/iree-run-module
# (the native program of the iree-base-runtime wheel,
# site-packages/iree/_runtime_libs/iree-run-module), else PATH's.
#
# Every part runs even when an earlier one fails; the exit code then says
# so, after a last line naming what failed: 0 the runtime tests and every
# sift-run passed, 1 a sift-run has findings, 3 a runtime test failed (the
# runtime is broken on this GPU: a caller that takes 1 as "findings", as
# scripts/gpu-systems.sh does, must not take this for one), another code a
# sift-run's own (2 bad input, 130/143 stopped).
set -euo pipefail
cd "$(dirname "$0")/.."
device=cuda
jobs=1
ahead=1
dirs=()
for arg in "$@"; do
  case "$arg" in
    --device=*) device="${arg#--device=}" ;;
    --jobs=*) jobs="${arg#--jobs=}" ;;
    --no-ahead) ahead=0 ;;
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
if [ ! -f /usr/include/nlohmann/json.hpp ] && [ ! -f .deps/nlohmann/nlohmann/json.hpp ]; then
  echo "gpu-run: sift-run needs nlohmann-json's header: install nlohmann-json3-dev," \
    "or carry a copy in .deps/nlohmann/nlohmann (see this script's header)" >&2
  exit 2
fi
iree=()
runner="${SIFT_IREE_RUN_MODULE:-.deps/iree/iree-run-module}"
if [ -x "$runner" ]; then iree=(--iree-run-module="$runner"); fi
# A GPU host has IREE's runtime, not its compiler: the tests that compile
# with IREE skip there (SIFT_REQUIRE_IREE is for the compile host's CI).
cmake -S . -B "$build" -DSIFT_BUILD_COMPILER=OFF -DSIFT_BUILD_TESTS="$tests" -DSIFT_REQUIRE_IREE=OFF \
  -DSIFT_BUILD_BENCHMARKS=OFF -DCMAKE_BUILD_TYPE=Release > "$out/configure.log" 2>&1 \
  || { tail -20 "$out/configure.log"; exit 1; }
cmake --build "$build" -j "$(nproc)" > "$out/build.log" 2>&1 \
  || { tail -30 "$out/build.log"; exit 1; }
# What failed, for the last line; the sift-runs go on after a failed test.
failed=()
status=0
if [ "$tests" = ON ]; then
  rc=0
  SIFT_TEST_CUDA=1 "$build/test/unittests/runtime/sift-runtime-tests" \
    > "$out/runtime-tests.log" 2>&1 || rc=$?
  tail -3 "$out/runtime-tests.log"
  if [ "$rc" -ne 0 ]; then
    failed+=("runtime tests (exit $rc, see $out/runtime-tests.log)")
    status=3
  fi
else
  echo "runtime tests: not built (no GoogleTest on this host)"
fi
# A sift-run's exit code, with its folder's name in the list of failures:
# 1 (findings) keeps a worse code, anything else (2, 130, 143) replaces 1.
sift_run_failed() {
  local name=$1 rc=$2 what="exit $rc"
  [ "$rc" -eq 1 ] && what="findings"
  failed+=("sift-run $name ($what, see $out/$name.summary and $out/$name.log)")
  if [ "$rc" -ne 1 ] || [ "$status" -eq 0 ]; then status=$rc; fi
}
pids=()
names=()
artifacts=0
for dir in "${dirs[@]}"; do
  artifacts=$((artifacts + $(find "$dir" -maxdepth 1 \( -name '*.siftart' -o -name '*.ireecase' -o -name '*.syscase' \) | wc -l)))
done
# The PTX compiled ahead, on every core (see the header).
ahead_seconds=0
ptxas=$(command -v ptxas || true)
[ -n "$ptxas" ] || [ ! -x /usr/local/cuda/bin/ptxas ] || ptxas=/usr/local/cuda/bin/ptxas
if [ "$device" = cuda ] && [ "$ahead" = 1 ] && [ -n "$ptxas" ]; then
  arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d .) || arch=
  cache=/tmp/sift-cubin-cache
  rm -rf "$cache"
  ahead_started=$(date +%s.%N)
  # An unreadable artifact is the runs' to report (unreadable, exit 2).
  "$build/tools/sift-run" --write-ptx="$cache" "${dirs[@]}" > "$out/ahead.log" 2>&1 || true
  find "$cache" -name '*.ptx' -print0 | xargs -0 -r -P "$(nproc)" -I{} \
    sh -c '"$0" -arch="sm_$1" "$2" -o "${2%.ptx}.cubin" 2>> "$2.err" || rm -f "${2%.ptx}.cubin"' \
    "$ptxas" "${arch:-90}" {}
  modules=$(find "$cache" -name '*.ptx' | wc -l)
  cubins=$(find "$cache" -name '*.cubin' | wc -l)
  ahead_seconds=$(python3 -c 'import sys; print(f"{float(sys.argv[2]) - float(sys.argv[1]):.1f}")' \
    "$ahead_started" "$(date +%s.%N)")
  echo "ptxas ahead: $cubins cubins of $modules distinct PTX modules in $ahead_seconds s ($(nproc) at a time)" \
    | tee -a "$out/ahead.log"
  export SIFT_CUBIN_CACHE="$cache"
fi
started=$(date +%s.%N)
for dir in "${dirs[@]}"; do
  name=$(basename "$dir")
  # --resume: run again after a preemption, it goes on where it stopped.
  "$build/tools/sift-run" "$dir" --device="$device" --out="$out/$name.csv" --resume \
    ${iree[@]+"${iree[@]}"} ${SIFT_RUN_FLAGS:-} > "$out/$name.summary" 2> "$out/$name.log" &
  pids+=($!)
  names+=("$name")
  if [ "${#pids[@]}" -ge "$jobs" ]; then
    rc=0
    wait "${pids[0]}" || rc=$?
    [ "$rc" -eq 0 ] || sift_run_failed "${names[0]}" "$rc"
    pids=("${pids[@]:1}")
    names=("${names[@]:1}")
  fi
done
for i in "${!pids[@]}"; do
  rc=0
  wait "${pids[$i]}" || rc=$?
  [ "$rc" -eq 0 ] || sift_run_failed "${names[$i]}" "$rc"
done
cat "$out"/*.summary 2>/dev/null || true
# Throughput of the runs alone (not the build or the runtime tests).
python3 -c 'import sys; n, s, a = int(sys.argv[1]), float(sys.argv[3]) - float(sys.argv[2]), float(sys.argv[5]); print(f"sift-run phase: {n} artifacts in {s:.1f} s, {n / s if s > 0 else 0:.1f} artifacts/s (up to {sys.argv[4]} sift-run at a time)" + (f"; with ptxas ahead ({a:.1f} s): {n / (s + a):.1f} artifacts/s" if a > 0 else ""))' \
  "$artifacts" "$started" "$(date +%s.%N)" "$jobs" "$ahead_seconds" | tee "$out/throughput.txt"
if [ "${#failed[@]}" -gt 0 ]; then
  printf -v list '%s; ' "${failed[@]}"
  echo "gpu-run: not everything passed (exit $status): ${list%; }" >&2
fi
exit "$status"
