#!/bin/sh
# Interrupts a long command with SIGINT (Ctrl-C) once its log shows it has
# started, and prints its exit code and log.
#   interrupt.sh fuzz OUTPUT_FOLDER    a parallel campaign: it stops after the
#     cases in flight with a summary, exit 0, and no case reads as a crash
#     (the children ignore the signal)
#   interrupt.sh reduce OUTPUT_FOLDER  a reduction: the test in progress
#     finishes and the smallest case so far is written, exit 0
set -u
mode=$1
dir=$2
rm -rf "$dir" && mkdir -p "$dir"

# interrupt PID LOG PATTERN: SIGINT to PID once LOG matches PATTERN (or after
# 60 s), then wait for it.
interrupt() {
  i=0
  while [ $i -lt 600 ]; do
    grep -q "$3" "$2" 2> /dev/null && break
    sleep 0.1
    i=$((i + 1))
  done
  kill -INT "$1"
  wait "$1"
  echo "exit=$?"
}

case $mode in
fuzz)
  harness --pipeline=cpu --count=100000 --seed=5 --jobs=2 --out="$dir/out" \
    --progress=0.2 > "$dir/summary" 2> "$dir/log" &
  interrupt $! "$dir/log" ' cases/'
  grep 'interrupted' "$dir/log"
  grep 'verdicts' "$dir/summary"
  echo "findings=$(sqlite3 "$dir/out/findings.db" 'select count(*) from findings')"
  ;;
reduce)
  # A hang (every test that reproduces it waits out its 2 s limit): slow to
  # reduce, so there is time to interrupt it.
  harness --family=sort,topk --pipeline=cpu --inject=hang-on-k1 --count=3 --seed=1 \
    --case-timeout=3 --out="$dir/fuzz" --progress=0 > /dev/null 2>&1
  case=$(ls -d "$dir"/fuzz/cases/compile-timeout-* | head -1)
  harness reduce "$case" -o "$dir/reduced" --case-timeout=2 --no-ir \
    > "$dir/log" 2>&1 &
  interrupt $! "$dir/log" '\[[0-9]* tests\]'
  cat "$dir/log"
  ;;
esac
