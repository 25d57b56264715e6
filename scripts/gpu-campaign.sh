#!/usr/bin/env bash
# A GPU campaign on a GPU host without LLVM, from artifacts exported on the
# compile host (`harness fuzz --export-artifacts=DIR`) and carried as
# tarballs (`tar cJf NAME.tar.xz -C PARENT NAME`):
#
#   scripts/gpu-campaign.sh [--memcheck=N] [--jobs=N] [--no-ahead|--ahead-first] NAME.tar.xz...
#
# For each tarball: unpack, run every artifact with sift-run on the GPU (via
# scripts/gpu-run.sh, which builds the runtime-only sift-run; --jobs=N: up
# to N folders at once, one sift-run each, a single folder split in N
# shards; --no-ahead: no ptxas ahead, the driver JIT-compiles;
# --ahead-first: ptxas before the runs rather than beside them), then a
# sample of N artifacts of each tarball's folder (default 40, each pipeline
# its share, evenly spaced among its artifacts; N in all, whatever --jobs)
# again under compute-sanitizer memcheck, split over --jobs sift-runs at
# once. Writes $OUT/<NAME>.csv (with --jobs=N and
# one folder: $OUT/<NAME>-<shard>.csv), $OUT/<NAME>-memcheck-<i>.csv and
# $OUT/summary.txt: the runs' throughput (artifacts/s, build excluded),
# verdicts per CSV and pipeline, kernel time per case (median, p90, p99,
# max) and the ten slowest kernels with their artifacts, then the same for
# each campaign split over shards as a whole ("NAME, all N shards").
set -euo pipefail
cd "$(dirname "$0")/.."
memcheck=40
jobs=1
ahead=()
tarballs=()
for arg in "$@"; do
  case "$arg" in
    --memcheck=*) memcheck="${arg#--memcheck=}" ;;
    --jobs=*) jobs="${arg#--jobs=}" ;;
    --no-ahead) ahead=(--no-ahead) ;;
    --ahead-first) ahead=(--ahead-first) ;;
    -*) echo "gpu-campaign.sh: unknown flag '$arg'" >&2; exit 2 ;;
    *) tarballs+=("$arg") ;;
  esac
done
[ "${#tarballs[@]}" -gt 0 ] || { echo "usage: gpu-campaign.sh [--memcheck=N] [--jobs=N] [--no-ahead|--ahead-first] NAME.tar.xz..." >&2; exit 2; }
out="${OUT:-gpu-out}"
mkdir -p "$out"
# SIFT_RUN, SIFT_GPU_RUN and SIFT_CAMPAIGN_WORK replace the runtime's
# sift-run, scripts/gpu-run.sh and the work folder (the tests' stand-ins).
work=${SIFT_CAMPAIGN_WORK:-/tmp/sift-campaign}
rm -rf "$work" && mkdir -p "$work"
dirs=()
for tarball in "${tarballs[@]}"; do
  [ -f "$tarball" ] || { echo "gpu-campaign.sh: no such tarball: $tarball" >&2; exit 2; }
  tar xJf "$tarball" -C "$work"
done
for dir in "$work"/*/; do dirs+=("${dir%/}"); done
given=("${dirs[@]}")
# One folder and --jobs=N: N shards of it (links, every N-th artifact), so
# that N sift-runs share the work.
if [ "${#dirs[@]}" -eq 1 ] && [ "$jobs" -gt 1 ]; then
  whole=${dirs[0]}
  dirs=()
  for ((i = 0; i < jobs; i++)); do
    shard="$work/shards/$(basename "$whole")-$i"
    mkdir -p "$shard"
    find "$whole" -maxdepth 1 -name '*.siftart' | sort |
      awk -v n="$jobs" -v i="$i" 'NR % n == i' |
      while read -r f; do ln -s "$f" "$shard/"; done
    dirs+=("$shard")
  done
fi
status=0
OUT="$out" "${SIFT_GPU_RUN:-scripts/gpu-run.sh}" --device=cuda --jobs="$jobs" ${ahead[@]+"${ahead[@]}"} "${dirs[@]}" || status=$?
sift_run=${SIFT_RUN:-/tmp/sift-runtime-build/tools/sift-run}
# The memcheck sample: N artifacts of each folder given, however
# many shards split it, run by --jobs sift-runs at once (a shard each);
# <NAME>-memcheck-<i>.csv.
if [ "$memcheck" -gt 0 ]; then
  for dir in "${given[@]}"; do
    name=$(basename "$dir")
    # Spread over the pipelines: each pipeline's artifacts (named
    # <case>-<pipeline>-<target>.siftart) get their share of the N, evenly
    # spaced among them (every k-th of the whole sorted list took a single
    # pipeline whenever k was even, since names alternate by pipeline).
    mapfile -t sample < <(find "$dir" -maxdepth 1 -name '*.siftart' | sort |
      python3 -c '
import sys
n = int(sys.argv[1])
groups = {}
for line in sys.stdin:
    path = line.rstrip("\n")
    parts = path.rsplit("/", 1)[-1][: -len(".siftart")].split("-")
    groups.setdefault(parts[-2] if len(parts) >= 3 else "", []).append(path)
total = sum(len(g) for g in groups.values())
keys = sorted(groups)
quota = {k: n * len(groups[k]) // total for k in keys}
for k in sorted(keys, key=lambda k: -(n * len(groups[k]) % total)):
    if sum(quota.values()) >= min(n, total):
        break
    quota[k] += 1
picks = {k: [groups[k][(2 * j + 1) * len(groups[k]) // (2 * quota[k])]
             for j in range(min(quota[k], len(groups[k])))] for k in keys}
for j in range(max([len(p) for p in picks.values()] + [0])):
    for k in keys:
        if j < len(picks[k]):
            print(picks[k][j])
' "$memcheck")
    pids=()
    for ((i = 0; i < jobs && i < ${#sample[@]}; i++)); do
      part="$work/memcheck-$name-$i"
      mkdir -p "$part"
      for ((j = i; j < ${#sample[@]}; j += jobs)); do
        ln -s "$(readlink -f "${sample[j]}")" "$part/"
      done
      "$sift_run" "$part" --device=cuda --sanitize=memcheck --timeout=300 \
        --out="$out/$name-memcheck-$i.csv" 2> "$out/$name-memcheck-$i.log" &
      pids+=($!)
    done
    for pid in ${pids[@]+"${pids[@]}"}; do wait "$pid" || status=$?; done
  done
fi
cat "$out/throughput.txt" > "$out/summary.txt" 2>/dev/null || true
python3 - "$out" >> "$out/summary.txt" <<'EOF'
import csv, glob, os, re, sys, statistics
out = sys.argv[1]


def summarize(label, rows):
    verdicts = {}
    for r in rows:
        key = (r["pipeline"], r["verdict"])
        verdicts[key] = verdicts.get(key, 0) + 1
    print(f"== {label}: {len(rows)} artifacts")
    for (pipeline, verdict), n in sorted(verdicts.items()):
        print(f"   {pipeline:12s} {verdict:18s} {n}")
    times = [(float(r["kernel_ms"]), r["file"], r["pipeline"]) for r in rows
             if r["kernel_ms"] not in ("", "nan")]
    if times:
        for pipeline in sorted({t[2] for t in times}):
            ms = sorted(t[0] for t in times if t[2] == pipeline)
            p90 = ms[min(len(ms) - 1, int(0.9 * len(ms)))]
            p99 = ms[min(len(ms) - 1, int(0.99 * len(ms)))]
            print(f"   kernel ms per case, {pipeline}: median {statistics.median(ms):.3f}"
                  f" p90 {p90:.3f} p99 {p99:.3f} max {ms[-1]:.1f} (n={len(ms)})")
        ms = sorted(t[0] for t in times)
        print(f"   kernel ms per case, all: p99 {ms[min(len(ms) - 1, int(0.99 * len(ms)))]:.3f}")
        for ms, f, pipeline in sorted(times, reverse=True)[:10]:
            print(f"   slow: {ms:10.1f} ms {pipeline} {os.path.basename(f)}")
    for r in rows:
        if r["verdict"] != "pass":
            print(f"   FINDING {r['verdict']} {os.path.basename(r['file'])}: {r['detail'][:300]}")


# Each CSV, then each campaign split over shards (NAME-<i>.csv, or the
# memcheck sample's NAME-memcheck-<i>.csv) as a whole.
groups = {}
for path in sorted(glob.glob(os.path.join(out, "*.csv"))):
    rows = list(csv.DictReader(open(path)))
    name = os.path.basename(path)
    summarize(name, rows)
    shard = re.fullmatch(r"(.+)-([0-9]+)\.csv", name)
    if shard:
        groups.setdefault(shard.group(1), []).append(rows)
for name, parts in sorted(groups.items()):
    if len(parts) > 1:
        summarize(f"{name}, all {len(parts)} shards", [r for p in parts for r in p])
EOF
cat "$out/summary.txt"
exit $status
