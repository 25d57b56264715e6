#!/bin/sh
# Interrupts a reduction with SIGINT (Ctrl-C) once it has started: the test
# in progress finishes, the smallest case so far is written (marked as an
# interrupted reduction) and the command exits 0.
#   interrupt-reduce.sh OUTPUT_FOLDER
set -u
dir=$1
rm -rf "$dir" && mkdir -p "$dir"
# A hang (every test that reproduces it waits out its 1 s limit): slow to
# reduce, so there is time to interrupt it.
harness --pipeline=cpu --inject=hang-on-k1 --count=3 --seed=1 --case-timeout=1 \
  --out="$dir/fuzz" --progress=0 > /dev/null 2>&1
case=$(ls -d "$dir"/fuzz/cases/compile-timeout-* | head -1)
harness reduce "$case" -o "$dir/reduced" --case-timeout=1 --no-ir \
  > "$dir/log" 2>&1 &
pid=$!
i=0
while [ $i -lt 600 ]; do
  grep -q '\[1 tests\]\|\[2 tests\]\|\[3 tests\]' "$dir/log" 2> /dev/null && break
  sleep 0.1
  i=$((i + 1))
done
kill -INT $pid
wait $pid
echo "exit=$?"
cat "$dir/log"
