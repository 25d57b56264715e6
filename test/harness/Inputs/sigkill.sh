#!/bin/sh
# Kills a campaign with SIGKILL once it has reported a few findings, then
# checks that every finding it printed is in the database with its case
# folder, and that --resume goes on after the last finished case.
#   sigkill.sh OUTPUT_FOLDER [MORE HARNESS FLAGS]
set -u
dir=$1
extra=${2:-}
out=$dir/out
rm -rf "$dir" && mkdir -p "$dir"
campaign="--pipeline=cpu --inject=crash-on-prime --seed=1 --out=$out --progress=0 $extra"
: > "$dir/log1"
harness $campaign --count=100000 2>> "$dir/log1" > /dev/null &
pid=$!
i=0
# The log prints one line per signature (crash-on-prime's findings share
# one): wait for the database to hold a few findings.
while [ $i -lt 1200 ]; do
  n=$(grep -c '^finding:' "$dir/log1" 2> /dev/null)
  s=$(sqlite3 "$out/findings.db" 'select count(*) from findings' 2> /dev/null)
  [ "${n:-0}" -ge 1 ] && [ "${s:-0}" -ge 3 ] && break
  sleep 0.1
  i=$((i + 1))
done
kill -9 $pid
wait $pid 2> /dev/null
printed=$(grep -c '^finding:' "$dir/log1")
stored=$(sqlite3 "$out/findings.db" 'select count(*) from findings')
echo "killed after printing $printed findings; the database holds $stored"
[ "$printed" -ge 1 ] && [ "$stored" -ge 3 ] ||
  { echo "FAIL: no findings before the kill"; exit 1; }
# Every printed finding is stored (a finding is stored before it is printed,
# so the database may hold one more).
for seed in $(sed -n 's/^finding: case [0-9]* (seed 0x\([0-9a-f]*\)).*/\1/p' "$dir/log1"); do
  n=$(sqlite3 "$out/findings.db" "select count(*) from findings where printf('%016x', seed) = '$seed'")
  [ "$n" -ge 1 ] || { echo "FAIL: finding with seed $seed lost"; exit 1; }
done
# No half-written case folder.
if ls -a "$out/cases" | grep -q '^\.tmp-'; then echo "FAIL: temporary folder left"; exit 1; fi
next=$(sqlite3 "$out/findings.db" 'select next_case from progress where run = 1')
echo "run 1 finished every case before $next"
# Resume: the new run starts exactly there and ends the campaign at 300.
harness $campaign --count=300 --resume 2> "$dir/log2" > "$dir/summary2"
status=$?
grep "resuming run 1 at case $next" "$dir/log2" > /dev/null ||
  { echo "FAIL: did not resume at $next"; cat "$dir/log2"; exit 1; }
first=$(sed -n 's/^finding: case \([0-9]*\).*/\1/p' "$dir/log2" | head -1)
[ -z "$first" ] || [ "$first" -ge "$next" ] ||
  { echo "FAIL: the resumed run redid case $first"; exit 1; }
cases=$(sed -n 's/^  this run: \([0-9]*\) cases from case.*/\1/p' "$dir/summary2")
[ "$cases" -eq $((300 - next)) ] ||
  { echo "FAIL: resumed run ran $cases cases, expected $((300 - next))"; exit 1; }
# The summary counts the whole campaign, the killed run's cases too.
total=$(sed -n 's/^cases: \([0-9]*\) in.*/\1/p' "$dir/summary2")
[ "$total" -eq 300 ] ||
  { echo "FAIL: the summary counts $total cases, not the campaign's 300"; exit 1; }
resumed=$(sqlite3 "$out/findings.db" 'select resumed_by from progress where run = 1')
echo "resumed by run $resumed with $cases cases (exit $status)"
# A second --resume finds nothing left to resume.
harness $campaign --count=300 --resume 2>&1 > /dev/null | grep -q "no unfinished campaign like this one" ||
  { echo "FAIL: a finished campaign was resumed"; exit 1; }
echo PASS
