#!/bin/sh
# Interrupts a long command with SIGINT (Ctrl-C) once its log shows it has
# started, and prints its exit code and log.
#   interrupt.sh fuzz OUTPUT_FOLDER [INT|TERM]   a parallel campaign: it stops
#     after the cases in flight with a summary, exit 128 + the signal, no case
#     reads as a crash (the children ignore the signal), and --resume goes on
#     at the case it stopped before, with a summary of the whole campaign
#   interrupt.sh reduce OUTPUT_FOLDER  a reduction: the test in progress
#     finishes and the smallest case so far is written, exit 0
set -u
mode=$1
dir=$2
rm -rf "$dir" && mkdir -p "$dir"

# interrupt PID LOG PATTERN [SIGNAL]: SIGINT (or SIGNAL) to PID once LOG
# matches PATTERN (or after 60 s), then wait for it.
interrupt() {
  i=0
  while [ $i -lt 600 ]; do
    grep -q "$3" "$2" 2> /dev/null && break
    sleep 0.1
    i=$((i + 1))
  done
  kill -"${4:-INT}" "$1"
  wait "$1"
  echo "exit=$?"
}

case $mode in
fuzz)
  db=$dir/out/findings.db
  campaign="--pipeline=cpu --count=300 --seed=5 --jobs=2 --out=$dir/out"
  harness $campaign --progress=0.2 > "$dir/summary" 2> "$dir/log" &
  interrupt $! "$dir/log" ' cases/' "${3:-INT}"
  grep 'stopped by' "$dir/log"
  grep 'verdicts' "$dir/summary"
  echo "findings=$(sqlite3 "$db" 'select count(*) from findings')"
  next=$(sqlite3 "$db" 'select next_case from progress where run = 1')
  echo "unfinished runs: $(sqlite3 "$db" 'select count(*) from runs where finished is null')"
  grep -o '"complete": [a-z]*' "$dir/out/summary.json"
  [ "$next" -gt 0 ] && [ "$next" -lt 300 ] || echo "FAIL: stopped at case $next"
  # The same command with --resume goes on at the case it stopped before.
  harness $campaign --resume --progress=0 > "$dir/summary2" 2> "$dir/log2"
  echo "resume exit=$?"
  grep -q "resuming run 1 at case $next\$" "$dir/log2" &&
    echo "resumed at the case it stopped before" || cat "$dir/log2"
  # The summary is the whole campaign's: 300 cases, each passed once.
  grep '^cases:\|^verdicts:\|this run' "$dir/summary2"
  grep -o '"complete": [a-z]*' "$dir/out/summary.json"
  grep -o '"cases": [0-9]*' "$dir/out/summary.json" | head -1
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
