#!/usr/bin/env bash
# The GPU half of a split campaign, on a GPU host without LLVM: build sift's
# runtime-only configuration (sift-run and, where GoogleTest is installed,
# the runtime tests), run the runtime tests on the GPU, then sift-run over
# every artifact folder given. CSVs and logs go to $OUT (default ./gpu-out).
#
#   scripts/gpu-run.sh [--device=cuda] [--jobs=N] [--no-ahead|--ahead-first] DIR...
#
# --jobs=N runs up to N folders at once (one sift-run each, one GPU).
# On cuda, the PTX is compiled ahead: every distinct module (sift-run
# --write-ptx) goes through ptxas on all cores to a cubin that sift-run loads
# instead of JIT-compiling the PTX (SIFT_CUBIN_CACHE; a module ptxas fails on
# is JIT-compiled as before). ptxas takes the modules in the order the runs
# first need them (--write-ptx's order.txt) and the runs start at once,
# each waiting for a cubin still to come (SIFT_CUBIN_WAIT, 20 s, under
# sift-run's 30 s a case). --ahead-first waits for every cubin before the
# runs start (the way of before, for comparisons); --no-ahead leaves it all
# to the driver's JIT.
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
    --ahead-first) ahead=first ;;
    -*) echo "gpu-run: unknown flag '$arg'" >&2; exit 2 ;;
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
ahead_pid=
beside=
ptxas=$(command -v ptxas || true)
[ -n "$ptxas" ] || [ ! -x /usr/local/cuda/bin/ptxas ] || ptxas=/usr/local/cuda/bin/ptxas
ahead_started=$(date +%s.%N)
if [ "$device" = cuda ] && [ "$ahead" != 0 ] && [ -n "$ptxas" ]; then
  arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d .) || arch=
  cache=/tmp/sift-cubin-cache
  rm -rf "$cache"
  # An unreadable artifact is the runs' to report (unreadable, exit 2).
  "$build/tools/sift-run" --write-ptx="$cache" "${dirs[@]}" > "$out/ahead.log" 2>&1 || true
  mkdir -p "$cache" # Even when --write-ptx failed before making it.
  # Each module: ptxas to <key>.cubin.partial, renamed when whole; a
  # failure leaves <key>.failed, so a run waiting for it loads the PTX.
  # The modules in the order the runs need them (order.txt), or, when
  # --write-ptx stopped before writing it, every module it wrote: a module
  # left out would hold each run that needs it for SIFT_CUBIN_WAIT.
  ahead_keys() {
    if [ -f "$cache/order.txt" ]; then
      cat "$cache/order.txt"
    elif [ -d "$cache" ]; then
      echo "gpu-run: no $cache/order.txt (see $out/ahead.log): ptxas takes the modules by name" >&2
      find "$cache" -maxdepth 1 -name '*.ptx' -printf '%f\n' | sed 's/\.ptx$//' | sort
    fi
  }
  compile_ahead() {
    ahead_keys | sed '/^$/d' | tr '\n' '\0' | xargs -0 -r -P "$(nproc)" -I{} \
      sh -c 'p="$2/$3"; if "$0" -arch="sm_$1" "$p.ptx" -o "$p.cubin.partial" 2>> "$p.ptx.err"; then mv "$p.cubin.partial" "$p.cubin"; else rm -f "$p.cubin.partial"; : > "$p.failed"; fi' \
      "$ptxas" "${arch:-90}" "$cache" {}
    modules=$(find "$cache" -name '*.ptx' | wc -l)
    cubins=$(find "$cache" -name '*.cubin' | wc -l)
    seconds=$(python3 -c 'import sys; print(f"{float(sys.argv[2]) - float(sys.argv[1]):.1f}")' \
      "$ahead_started" "$(date +%s.%N)")
    echo "$seconds" > "$cache/seconds"
    echo "ptxas ahead: $cubins cubins of $modules distinct PTX modules in $seconds s ($(nproc) at a time)" \
      | tee -a "$out/ahead.log"
  }
  export SIFT_CUBIN_CACHE="$cache"
  # A stopped gpu-run (gpu-systems.sh's time limit, Ctrl-C) stops its ptxas
  # too: every process whose arguments name the cache.
  stop_ahead() { [ -z "$ahead_pid" ] || pkill -TERM -f "$cache" 2>/dev/null || true; }
  trap stop_ahead EXIT
  trap 'stop_ahead; exit 143' TERM
  trap 'stop_ahead; exit 130' INT
  if [ "$ahead" = first ]; then
    compile_ahead
    ahead_seconds=$(cat "$cache/seconds")
  else
    compile_ahead &
    ahead_pid=$!
    beside=1
    export SIFT_CUBIN_WAIT="${SIFT_CUBIN_WAIT:-20}"
  fi
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
finished=$(date +%s.%N)
if [ -n "$ahead_pid" ]; then
  wait "$ahead_pid" || true
  ahead_pid=
fi
all_finished=$(date +%s.%N)
cat "$out"/*.summary 2>/dev/null || true
# Throughput of the runs (not the build or the runtime tests): ptxas ahead
# adds its seconds; ptxas beside the runs is inside them, and the whole
# (from --write-ptx to the last run or the last ptxas) is given too.
python3 -c 'import sys; n, s, a, w = int(sys.argv[1]), float(sys.argv[3]) - float(sys.argv[2]), float(sys.argv[5]), float(sys.argv[8]) - float(sys.argv[6]); beside = sys.argv[7] != ""; print(f"sift-run phase: {n} artifacts in {s:.1f} s, {n / s if s > 0 else 0:.1f} artifacts/s (up to {sys.argv[4]} sift-run at a time)" + (f"; with ptxas ahead ({a:.1f} s): {n / (s + a):.1f} artifacts/s" if a > 0 else "") + (f"; with ptxas beside the runs, from --write-ptx to the end: {w:.1f} s, {n / w if w > 0 else 0:.1f} artifacts/s" if beside else ""))' \
  "$artifacts" "$started" "$finished" "$jobs" "$ahead_seconds" "$ahead_started" "$beside" "$all_finished" | tee "$out/throughput.txt"
if [ "${#failed[@]}" -gt 0 ]; then
  printf -v list '%s; ' "${failed[@]}"
  echo "gpu-run: not everything passed (exit $status): ${list%; }" >&2
fi
exit "$status"
