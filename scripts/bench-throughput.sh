#!/usr/bin/env bash
# Campaign throughput, before and after, on this machine in one run: each
# given harness binary runs the same campaigns (in turn, so that both see the
# same machine), and a Markdown table compares cases/s with the stage
# breakdown the summary records (compile and run seconds summed over the
# workers; "other" = wall x jobs - compile - run: generation, reference,
# comparison, isolation and idle workers).
#
#   scripts/bench-throughput.sh LABEL=HARNESS [LABEL=HARNESS...]
#   e.g. scripts/bench-throughput.sh before=/tmp/old/build/harness/harness \
#                                    after=build/harness/harness
#
# Environment: BENCH_CPU_COUNT (default 1000), BENCH_ALL_COUNT (default 300),
# BENCH_JOBS (default 2), BENCH_SEED (default 1).
set -euo pipefail

if (($# == 0)); then
  echo "usage: $0 LABEL=HARNESS [LABEL=HARNESS...]" >&2
  exit 2
fi
for spec in "$@"; do
  binary="${spec#*=}"
  if [[ "$spec" != *=* || ! -x "$binary" ]]; then
    echo "bench-throughput: '$spec' is not LABEL=HARNESS with an executable harness" >&2
    exit 2
  fi
done

CPU_COUNT="${BENCH_CPU_COUNT:-1000}"
ALL_COUNT="${BENCH_ALL_COUNT:-300}"
JOBS="${BENCH_JOBS:-2}"
SEED="${BENCH_SEED:-1}"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

campaigns=("cpu:--pipeline=cpu --count=$CPU_COUNT" "all:--pipeline=all --count=$ALL_COUNT")

echo "| campaign | harness | cases/s | wall s | compile s | run s | other s | findings |"
echo "|---|---|---:|---:|---:|---:|---:|---:|"
for campaign in "${campaigns[@]}"; do
  name="${campaign%%:*}"
  flags="${campaign#*:}"
  for spec in "$@"; do
    label="${spec%%=*}"
    binary="${spec#*=}"
    out="$WORK/$name-$label"
    # shellcheck disable=SC2086
    "$binary" $flags --seed="$SEED" --jobs="$JOBS" --out="$out" --progress=0 \
      >"$out.log" 2>&1 || { echo "bench-throughput: $label failed on $name:" >&2; tail -5 "$out.log" >&2; exit 1; }
    python3 - "$out/summary.json" "$name" "$label" "$JOBS" <<'EOF'
import json, sys
s = json.load(open(sys.argv[1]))
jobs = int(sys.argv[4])
other = s["seconds"] * jobs - s["compile_seconds"] - s["run_seconds"]
print(f"| {sys.argv[2]} | {sys.argv[3]} | {s['cases_per_second']:.1f} | {s['seconds']:.1f} "
      f"| {s['compile_seconds']:.1f} | {s['run_seconds']:.1f} | {other:.1f} | {s['findings']} |")
EOF
  done
done
