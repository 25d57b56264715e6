#!/usr/bin/env bash
# The GPU host's half of `harness bench`: builds sift-run (runtime only, no
# LLVM), writes every benchmark program's inputs, times the exported runs
# (sift-run --bench: sift's artifacts with CUDA events, IREE's cases with
# iree-benchmark-module), then the vendor baselines on the same inputs: CUB
# (scripts/bench/cub_bench.cu, built with nvcc here: DeviceSegmentedSort as
# "cub", DeviceRadixSort / DeviceSegmentedRadixSort as "cub-radix",
# DeviceTopK / DeviceBatchedTopK as "cub-topk") and
# PyTorch / torchvision (scripts/bench/torch_bench.py), JAX/XLA
# (scripts/bench/jax_bench.py) and CuPy (scripts/bench/cupy_bench.py), each
# checked against the reference's outputs before it is timed. Google
# Benchmark JSON files go to $OUT (default ./bench-out): sift.json,
# iree.json, cub.json, torch.json, jax.json, cupy.json.
#
#   scripts/bench-gpu.sh EXPORTS_DIR [RUNS] [WARMUP]
#
# sift-run needs CLI11's and nlohmann-json's headers (or copies in .deps/,
# as for scripts/gpu-run.sh); IREE cases need .deps/iree/iree-run-module and
# iree-benchmark-module (from the iree-base-runtime wheel), or
# $SIFT_IREE_RUN_MODULE. CUB's top-k primitives (CUB 3.5 and later) are in
# no CUDA 13.0 toolkit: the CUB baseline takes the headers of
# .deps/cuda_cccl-*.whl (`pip download --no-deps cuda-cccl` on a host with
# network, then copied to .deps/), unpacked into /tmp/sift-cccl and given to
# nvcc ahead of its own CCCL; without the wheel cub_bench builds with the
# toolkit's CCCL and fails (exit 1, after writing the other rows) when a
# top-k benchmark has no "cub-topk" row. SIFT_BENCH_PARTS (default
# "sift,iree,vendors") picks the parts, so a long job can be split over
# calls on one machine. SIFT_BENCH_FRESH=1 times sift's runs with
# --bench-fresh-buffers (each run allocating and uploading, the way before
# 2026-12-01), to compare. Every part runs even when an earlier one fails;
# then the last line names what failed and the exit code is 1 (a part not
# asked for is no failure; a baseline asked for whose tools are not
# installed is one).
set -euo pipefail
cd "$(dirname "$0")/.."
exports=$1
runs=${2:-20}
warmup=${3:-5}
out="${OUT:-bench-out}"
mkdir -p "$out"
build=/tmp/sift-runtime-build
cmake -S . -B "$build" -DSIFT_BUILD_COMPILER=OFF -DSIFT_BUILD_TESTS=OFF \
  -DSIFT_BUILD_BENCHMARKS=OFF -DCMAKE_BUILD_TYPE=Release > "$out/configure.log" 2>&1 \
  || { tail -20 "$out/configure.log"; exit 1; }
cmake --build "$build" -j "$(nproc)" --target sift-run > "$out/build.log" 2>&1 \
  || { tail -30 "$out/build.log"; exit 1; }
iree=()
runner="${SIFT_IREE_RUN_MODULE:-.deps/iree/iree-run-module}"
if [ -x "$runner" ]; then iree=(--iree-run-module="$runner"); fi
# sift's artifacts run in one process (a kernel that never ends would hold
# it: SIFT_BENCH_LIMIT bounds the whole), IREE's cases each under --timeout.
limit=${SIFT_BENCH_LIMIT:-1800}
parts=",${SIFT_BENCH_PARTS:-sift,iree,vendors},"
[[ $parts == *,sift,* ]] || sift_off=1
[[ $parts == *,iree,* ]] || iree_off=1
[[ $parts == *,vendors,* ]] || vendors_off=1
mapfile -t sift < <(find "$exports" -maxdepth 1 -name '*.siftart' | sort)
mapfile -t ireecases < <(find "$exports" -maxdepth 1 -name '*.ireecase' | sort)
# What failed, for the last line.
failed=()
# A failed part ($1: the part, $2: its exit code, $3: its log; $4 "timed":
# it ran under timeout, whose 124 is SIFT_BENCH_LIMIT running out).
part_failed() {
  local what="exit $2"
  [ "${4:-}" = timed ] && [ "$2" -eq 124 ] && what="over SIFT_BENCH_LIMIT=${limit}s"
  [ "${4:-}" = timed ] && [ "$2" -eq 1 ] && what="a run not a pass: wrong, crashed or hung"
  echo "bench-gpu: $1 failed ($what, see $3)" >&2
  failed+=("$1 ($what, see $3)")
}
# The inputs of every benchmark the runs time (a reduction's smaller shapes
# too), which the vendor baselines read.
inputs=/tmp/sift-bench-inputs
rm -rf "$inputs"
rc=0
"$build/tools/sift-run" --write-bench-inputs="$inputs" "${sift[@]}" "${ireecases[@]}" \
  > "$out/inputs.log" || rc=$?
[ "$rc" -eq 0 ] || part_failed "the benchmark inputs (sift-run --write-bench-inputs)" "$rc" "$out/inputs.log and above"
if ((${#sift[@]})) && [ -z "${sift_off:-}" ]; then
  rc=0
  fresh=()
  [ "${SIFT_BENCH_FRESH:-0}" = 1 ] && fresh=(--bench-fresh-buffers)
  timeout "$limit" "$build/tools/sift-run" "${sift[@]}" --device=cuda --bench="$runs" ${fresh[@]+"${fresh[@]}"} \
    --warmup="$warmup" --bench-budget="${SIFT_BENCH_BUDGET:-10}" \
    --timeout="${SIFT_BENCH_TIMEOUT:-60}" --bench-out="$out/sift.json" 2>&1 | tee "$out/sift.log" || rc=$?
  [ "$rc" -eq 0 ] || part_failed "sift's runs (sift-run --bench)" "$rc" "$out/sift.log" timed
fi
if ((${#ireecases[@]})) && [ -z "${iree_off:-}" ]; then
  rc=0
  timeout "$limit" "$build/tools/sift-run" "${ireecases[@]}" --device=cuda --bench="$runs" \
    --warmup="$warmup" --bench-budget="${SIFT_BENCH_BUDGET:-10}" \
    --timeout="${SIFT_BENCH_TIMEOUT:-60}" --bench-out="$out/iree.json" \
    ${iree[@]+"${iree[@]}"} 2>&1 | tee "$out/iree.log" || rc=$?
  [ "$rc" -eq 0 ] || part_failed "IREE's cases (sift-run --bench)" "$rc" "$out/iree.log" timed
fi
if [ -n "${vendors_off:-}" ]; then
  echo "bench-gpu: vendor baselines not asked for (SIFT_BENCH_PARTS)"
elif command -v nvcc > /dev/null; then
  arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d .) || arch=
  # The cuda-cccl wheel's headers (CUB's top-k), ahead of nvcc's own CCCL.
  cccl=()
  wheel=$(find .deps -maxdepth 1 -name 'cuda_cccl-*.whl' 2> /dev/null | sort -V | tail -1) || wheel=
  if [ -n "$wheel" ]; then
    rm -rf /tmp/sift-cccl
    mkdir -p /tmp/sift-cccl
    rc=0
    if command -v unzip > /dev/null; then
      unzip -q -o "$wheel" 'cuda/cccl/headers/include/*' -d /tmp/sift-cccl || rc=$?
    else
      python3 -m zipfile -e "$wheel" /tmp/sift-cccl || rc=$?
    fi
    if [ "$rc" -eq 0 ] && [ -d /tmp/sift-cccl/cuda/cccl/headers/include ]; then
      cccl=(-I/tmp/sift-cccl/cuda/cccl/headers/include)
      echo "bench-gpu: CUB from $wheel"
    else
      echo "bench-gpu: $wheel did not unpack: CUB from nvcc's CCCL, which has no top-k (cub-topk fails)" >&2
    fi
  else
    echo "bench-gpu: no .deps/cuda_cccl-*.whl: CUB from nvcc's CCCL, which has no top-k (cub-topk fails)" >&2
  fi
  if ! nvcc -O3 -std=c++17 -arch="sm_${arch:-90}" ${cccl[@]+"${cccl[@]}"} scripts/bench/cub_bench.cu \
    -o /tmp/cub_bench > "$out/cub-build.log" 2>&1; then
    echo "bench-gpu: CUB baseline failed to build (see $out/cub-build.log)" >&2
    failed+=("the CUB baseline's build (see $out/cub-build.log)")
  else
    rc=0
    /tmp/cub_bench "$inputs" "$out/cub.json" "$runs" "$warmup" 2>&1 | tee "$out/cub.log" || rc=$?
    [ "$rc" -eq 0 ] || part_failed "the CUB baseline" "$rc" "$out/cub.log"
  fi
else
  # A baseline asked for and missing fails the job: a table without it
  # would compare sift with less than the strongest kernels.
  echo "bench-gpu: no nvcc: no CUB baseline" >&2
  failed+=("the CUB baseline (no nvcc on this host)")
fi
if [ -n "${vendors_off:-}" ]; then
  :
elif python3 -c "import torch, torchvision" 2> /dev/null; then
  rc=0
  python3 scripts/bench/torch_bench.py "$inputs" "$out/torch.json" --runs="$runs" \
    --warmup="$warmup" 2>&1 | tee "$out/torch.log" || rc=$?
  [ "$rc" -eq 0 ] || part_failed "the PyTorch baseline" "$rc" "$out/torch.log"
else
  echo "bench-gpu: no torch/torchvision: no PyTorch baseline" >&2
  failed+=("the PyTorch baseline (no torch/torchvision on this host)")
fi
# JAX/XLA and CuPy (scripts/bench/jax_bench.py, cupy_bench.py): each a
# baseline of its own, required like the others.
for baseline in jax cupy; do
  [ -n "${vendors_off:-}" ] && break
  if python3 -c "import $baseline" 2> /dev/null; then
    rc=0
    python3 "scripts/bench/${baseline}_bench.py" "$inputs" "$out/$baseline.json" \
      --runs="$runs" --warmup="$warmup" 2>&1 | tee "$out/$baseline.log" || rc=$?
    [ "$rc" -eq 0 ] || part_failed "the $baseline baseline" "$rc" "$out/$baseline.log"
  else
    echo "bench-gpu: no $baseline: no $baseline baseline" >&2
    failed+=("the $baseline baseline (no $baseline on this host)")
  fi
done
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > "$out/gpu.csv" || true
if [ "${#failed[@]}" -gt 0 ]; then
  printf -v list '%s; ' "${failed[@]}"
  echo "bench-gpu: failed: ${list%; }" >&2
  exit 1
fi
