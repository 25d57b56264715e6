#!/usr/bin/env bash
# Each planted fault's catch rate in a default case mix on the emu device:
# for every compiler fault of `harness list faults`, one campaign of the
# same cases (same seed) with that fault injected; its rate is the share of
# the campaign's GPU runs whose verdict is not a pass. A campaign without a
# fault comes first and must find nothing, or every rate would count its
# findings too (the script then stops).
#
#   scripts/fault-rates.sh [--count=N] [--seed=S] [--jobs=J] [--out=FILE]
#                          [--target=T] [--harness=PATH] [FAULT...]
#
# The mix: N cases (default 150) of the default families, inputs and sizes,
# through tileandfuse and distribute on T (default nvptx; amdgpu for a
# fault that lives in the ROCDL lowering, warp-ballot-low-half) with
# --random-config, run on --device=emu. Writes FILE (default
# harness/data/fault-rates.json, which `harness list faults` prints beside
# each fault): per fault its runs, caught runs, rate and verdicts, its mix,
# date and the harness build that measured it ("sift"), with the machine. The faults FILE already holds and this run
# does not measure keep their entries (so one fault can be measured again,
# or on another target, alone).
# The runtime faults (sift-run --inject) are not compiler faults and are
# left out. hang-on-k1's campaign runs with a 30 s case timeout (each case
# it meets hangs until then); the others with 120 s.
set -euo pipefail
cd "$(dirname "$0")/.."
count=150
seed=1
jobs=2
out=harness/data/fault-rates.json
target=nvptx
harness=build/harness/harness
faults=()
for arg in "$@"; do
  case "$arg" in
    --count=*) count="${arg#--count=}" ;;
    --seed=*) seed="${arg#--seed=}" ;;
    --jobs=*) jobs="${arg#--jobs=}" ;;
    --out=*) out="${arg#--out=}" ;;
    --target=*) target="${arg#--target=}" ;;
    --harness=*) harness="${arg#--harness=}" ;;
    -*) echo "fault-rates.sh: unknown flag '$arg'" >&2; exit 2 ;;
    *) faults+=("$arg") ;;
  esac
done
[ -x "$harness" ] || { echo "fault-rates.sh: no harness at $harness (build first)" >&2; exit 2; }
runtime_faults=" export-device-local alloc-select-first "
if [ "${#faults[@]}" -eq 0 ]; then
  while read -r name _; do
    [[ $runtime_faults == *" $name "* ]] || faults+=("$name")
  done < <("$harness" list faults)
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
case "$target" in
  nvptx|amdgpu) ;;
  *) echo "fault-rates.sh: --target must be nvptx or amdgpu, not '$target'" >&2; exit 2 ;;
esac
mix=(--pipeline=tileandfuse,distribute --target="$target" --device=emu --random-config
     --count="$count" --seed="$seed" --jobs="$jobs" --progress=0)
campaign() { # NAME TIMEOUT [--inject=F]
  local name=$1 timeout=$2
  shift 2
  local start=$SECONDS rc=0
  "$harness" "${mix[@]}" --case-timeout="$timeout" --out="$work/$name" "$@" \
    > "$work/$name.log" 2>&1 || rc=$?
  # 0: nothing found, 1: findings; anything else is a broken campaign.
  if [ "$rc" -gt 1 ]; then
    echo "fault-rates.sh: the campaign '$name' failed (exit $rc):" >&2
    tail -5 "$work/$name.log" >&2
    exit 1
  fi
  echo "$name: $(grep -m1 '^verdicts:' "$work/$name.log") ($((SECONDS - start)) s)"
}
campaign none 120
if ! grep -q '^findings: 0 ' "$work/none.log"; then
  echo "fault-rates.sh: the mix finds something without a fault; rates would be wrong:" >&2
  grep -m1 '^verdicts:' "$work/none.log" >&2
  exit 1
fi
for fault in "${faults[@]}"; do
  timeout=120
  [ "$fault" = hang-on-k1 ] && timeout=30
  campaign "$fault" "$timeout" --inject="$fault"
done
mkdir -p "$(dirname "$out")"
python3 - "$work" "$out" "$count" "$seed" "$target" "${faults[@]}" <<'EOF'
import datetime, json, os, platform, sys
work, out, count, seed, target, faults = (sys.argv[1], sys.argv[2], int(sys.argv[3]),
                                          int(sys.argv[4]), sys.argv[5], sys.argv[6:])
mix = (f"harness --pipeline=tileandfuse,distribute --target={target} --device=emu "
       f"--random-config --count={count} --seed={seed}")
today = datetime.date.today().isoformat()
rates = {}
# The faults the file holds from other runs keep their entries (with the
# mix and date they were measured with).
try:
    old = json.load(open(out))
    if old.get("format") == "sift-fault-rates 1":
        for name, entry in old.get("faults", {}).items():
            entry.setdefault("mix", old.get("mix", ""))
            entry.setdefault("measured", old.get("measured", ""))
            rates[name] = entry
except (OSError, ValueError):
    pass
for fault in faults:
    summary = json.load(open(os.path.join(work, fault, "summary.json")))
    verdicts = summary["verdicts"]
    runs = sum(verdicts.values())
    caught = runs - verdicts.get("pass", 0)
    rates[fault] = {"runs": runs, "caught": caught,
                    "rate": round(caught / runs, 4) if runs else 0.0,
                    "verdicts": verdicts, "mix": mix, "measured": today,
                    "sift": summary.get("sift_version", "")}
doc = {"format": "sift-fault-rates 1",
       "mix": mix,
       "measured": today,
       "machine": f"{platform.node()}, {os.cpu_count()} cores",
       "faults": rates}
tmp = out + ".partial"
with open(tmp, "w") as f:
    json.dump(doc, f, indent=1, sort_keys=True)
    f.write("\n")
os.replace(tmp, out)
low = [f"{k} {v['rate']:.1%}" for k, v in sorted(rates.items()) if v["rate"] < 0.05]
print(f"wrote {out}: {len(faults)} faults measured, {len(rates)} in all; "
      f"under 5 %: {', '.join(low) or 'none'}")
EOF
