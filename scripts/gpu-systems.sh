#!/usr/bin/env bash
# The GPU half of a campaign over compilers described by system files (XLA
# through jax.jit, TorchInductor...), on a GPU host without LLVM. On the
# compile host:
#
#   harness --pipeline=xla --target=nvptx --count=600 --export-artifacts=DIR
#   (split DIR's NAME.syscase folders over N subfolders, so that N run at once)
#   tar cJf xla-gpu.tar.xz -C DIR .
#
# and on the GPU host:
#
#   scripts/gpu-systems.sh [--jobs=N] [--seconds=S] xla-gpu.tar.xz...
#
# For each tarball: unpack, run every case with sift-run (scripts/gpu-run.sh,
# which builds the runtime-only sift-run; up to N subfolders at once, one
# sift-run each; $SIFT_RUN_FLAGS goes to each), stop after S seconds
# (default 540; the rows written by then are kept), then write
# $OUT/NAME.csv (every row of the tarball) and $OUT/NAME-summary.txt
# (verdicts per pipeline, cases per second, every row that did not pass).
# The systems' own Python is $SIFT_PYTHON (default python3).
set -uo pipefail
cd "$(dirname "$0")/.."
jobs=8
seconds=540
tarballs=()
for arg in "$@"; do
  case "$arg" in
    --jobs=*) jobs="${arg#--jobs=}" ;;
    --seconds=*) seconds="${arg#--seconds=}" ;;
    -*) echo "gpu-systems.sh: unknown flag '$arg'" >&2; exit 2 ;;
    *) tarballs+=("$arg") ;;
  esac
done
[ "${#tarballs[@]}" -gt 0 ] ||
  { echo "usage: gpu-systems.sh [--jobs=N] [--seconds=S] NAME.tar.xz..." >&2; exit 2; }
out="${OUT:-gpu-out}"
mkdir -p "$out"
export SIFT_PYTHON="${SIFT_PYTHON:-python3}"
status=0
for tarball in "${tarballs[@]}"; do
  [ -f "$tarball" ] || { echo "gpu-systems.sh: no such tarball: $tarball" >&2; exit 2; }
  name=$(basename "$tarball" .tar.xz)
  work="/tmp/sift-systems/$name"
  rm -rf "$work" && mkdir -p "$work"
  tar xJf "$tarball" -C "$work" || { echo "gpu-systems.sh: cannot unpack $tarball" >&2; exit 2; }
  dirs=()
  for dir in "$work"/*/; do dirs+=("${dir%/}"); done
  started=$(date +%s)
  OUT="$work.out" timeout -s TERM "$seconds" scripts/gpu-run.sh --device=cuda \
    --jobs="$jobs" "${dirs[@]}" > "$work.log" 2>&1
  rc=$?
  # A stop at the limit leaves the sift-runs of the folders in flight.
  pkill -TERM -f "$work" 2>/dev/null || true
  sleep 2
  elapsed=$(( $(date +%s) - started ))
  [ "$rc" -eq 0 ] || [ "$rc" -eq 1 ] || status=$rc
  python3 - "$work.out" "$out/$name.csv" "$elapsed" "$rc" > "$out/$name-summary.txt" <<'EOF'
import collections, csv, glob, os, sys
folder, merged, elapsed, rc = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
rows = []
# A folder stopped at the limit left its rows in NAME.csv.partial.
for path in sorted(glob.glob(os.path.join(folder, "*.csv")) +
                   glob.glob(os.path.join(folder, "*.csv.partial"))):
    with open(path, newline="") as f:
        rows += list(csv.DictReader(f))
fields = ["case", "pipeline", "target", "device", "verdict", "kernel_ms",
          "module_load_ms", "file", "detail"]
with open(merged, "w", newline="") as f:
    w = csv.DictWriter(f, fieldnames=fields, extrasaction="ignore")
    w.writeheader()
    w.writerows(rows)
print(f"{len(rows)} cases in {elapsed} s (build included; "
      f"{len(rows) / max(elapsed, 1):.2f} cases/s); gpu-run exit {rc}"
      + (" (stopped at the time limit)" if rc == 124 else ""))
tally = collections.Counter((r["pipeline"], r["verdict"]) for r in rows)
for (pipeline, verdict), n in sorted(tally.items()):
    print(f"  {pipeline}: {verdict} {n}")
for r in rows:
    if r["verdict"] != "pass":
        print(f"{r['case']} {r['verdict']}: {r['detail'][:600]}")
EOF
  cat "$out/$name-summary.txt" | head -40
done
tar cJf "$out/logs.tar.xz" -C /tmp/sift-systems --exclude='*.syscase' . 2>/dev/null || true
exit $status
