#!/bin/sh
# Interrupts a parallel campaign with SIGINT (Ctrl-C) once it has run some
# cases: the harness stops after the cases in flight with a summary, exit
# 0, and no case reads as a crash (the children ignore the signal).
#   interrupt.sh OUTPUT_FOLDER
set -u
dir=$1
rm -rf "$dir" && mkdir -p "$dir"
harness --pipeline=cpu --count=100000 --seed=5 --jobs=2 --out="$dir/out" \
  --progress=0.2 > "$dir/summary" 2> "$dir/log" &
pid=$!
i=0
while [ $i -lt 600 ]; do
  grep -q ' cases/' "$dir/log" 2> /dev/null && break
  sleep 0.1
  i=$((i + 1))
done
kill -INT $pid
wait $pid
echo "exit=$?"
grep 'interrupted' "$dir/log"
grep 'verdicts' "$dir/summary"
echo "findings=$(sqlite3 "$dir/out/findings.db" 'select count(*) from findings')"
