#!/usr/bin/env bash
# Does the emu device say what the GPU says? On a GPU host: the artifacts of
# a tarball (exported with `harness fuzz --export-artifacts=DIR
# --emu-kernels`, carried as `tar cJf NAME.tar.xz -C PARENT NAME`) run on
# the GPU (scripts/gpu-campaign.sh, no memcheck) and then on the emu device
# (sift-run --device=emu, the same shards, N at a time), and every
# artifact's two verdicts are compared:
#
#   scripts/emu-agreement.sh [--jobs=N] NAME.tar.xz
#
# Writes $OUT (default ./gpu-out): the GPU's CSVs (gpu-campaign.sh's),
# emu-<shard>.csv, agreement.txt (the count of artifacts whose verdicts
# agree, every one that differs with both details, the emu runs' wall time
# and artifacts/s) and agreement.csv (file, GPU verdict, emu verdict).
# Exit 0 when every artifact ran on both and the verdicts agree, 1 when
# some differ or are missing, 2 on bad usage.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=8
tarball=
for arg in "$@"; do
  case "$arg" in
    --jobs=*) jobs="${arg#--jobs=}" ;;
    -*) echo "emu-agreement.sh: unknown flag '$arg'" >&2; exit 2 ;;
    *) [ -z "$tarball" ] || { echo "emu-agreement.sh: one tarball" >&2; exit 2; }
       tarball="$arg" ;;
  esac
done
[ -n "$tarball" ] || { echo "usage: emu-agreement.sh [--jobs=N] NAME.tar.xz" >&2; exit 2; }
out="${OUT:-gpu-out}"
mkdir -p "$out"
# The GPU's verdicts (the campaign also builds the runtime-only sift-run).
gpu_status=0
OUT="$out" scripts/gpu-campaign.sh --memcheck=0 --jobs="$jobs" "$tarball" || gpu_status=$?
echo "gpu-campaign.sh exit $gpu_status"
sift_run=/tmp/sift-runtime-build/tools/sift-run
work=/tmp/sift-campaign
shards=()
if [ -d "$work/shards" ]; then
  for dir in "$work"/shards/*/; do shards+=("${dir%/}"); done
else
  for dir in "$work"/*/; do shards+=("${dir%/}"); done
fi
# The emu device's, the same shards, N sift-runs at a time.
start=$(date +%s.%N)
pids=()
for dir in "${shards[@]}"; do
  name=$(basename "$dir")
  "$sift_run" "$dir" --device=emu --timeout=600 --out="$out/emu-$name.csv" \
    > "$out/emu-$name.log" 2>&1 &
  pids+=($!)
  if [ "${#pids[@]}" -ge "$jobs" ]; then
    wait "${pids[0]}" || true
    pids=("${pids[@]:1}")
  fi
done
for pid in "${pids[@]}"; do wait "$pid" || true; done
end=$(date +%s.%N)
python3 - "$out" "$start" "$end" "${shards[@]}" <<'EOF'
import csv, os, sys
out, start, end = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
shards = [os.path.basename(s) for s in sys.argv[4:]]
def verdicts(paths):
    seen = {}
    for path in paths:
        if not os.path.exists(path):
            continue
        for row in csv.DictReader(open(path)):
            seen[os.path.basename(row["file"])] = row
    return seen
gpu = verdicts([os.path.join(out, s + ".csv") for s in shards])
emu = verdicts([os.path.join(out, "emu-" + s + ".csv") for s in shards])
files = sorted(set(gpu) | set(emu))
agree = [f for f in files if f in gpu and f in emu
         and gpu[f]["verdict"] == emu[f]["verdict"]]
lines = [f"artifacts: {len(files)} (GPU {len(gpu)}, emu {len(emu)}); "
         f"verdicts agree on {len(agree)}"]
counts = {}
for f in agree:
    counts[gpu[f]["verdict"]] = counts.get(gpu[f]["verdict"], 0) + 1
lines.append("agreeing verdicts: " + ", ".join(
    f"{v}={n}" for v, n in sorted(counts.items())))
seconds = end - start
lines.append(f"emu runs: {len(emu)} artifacts in {seconds:.1f} s, "
             f"{len(emu) / seconds if seconds > 0 else 0:.1f} artifacts/s")
with open(os.path.join(out, "agreement.csv"), "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["file", "gpu", "emu"])
    for name in files:
        w.writerow([name, gpu.get(name, {}).get("verdict", "missing"),
                    emu.get(name, {}).get("verdict", "missing")])
        if name not in agree:
            lines.append(f"DIFFERS {name}: GPU "
                         f"{gpu.get(name, {}).get('verdict', 'missing')} "
                         f"({gpu.get(name, {}).get('detail', '')[:200]}); emu "
                         f"{emu.get(name, {}).get('verdict', 'missing')} "
                         f"({emu.get(name, {}).get('detail', '')[:200]})")
open(os.path.join(out, "agreement.txt"), "w").write("\n".join(lines) + "\n")
print("\n".join(lines))
sys.exit(0 if len(agree) == len(files) and files else 1)
EOF
