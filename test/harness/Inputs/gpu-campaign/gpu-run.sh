#!/usr/bin/env bash
# A stand-in for scripts/gpu-run.sh in gpu-campaign.test: the stand-in
# sift-run over each folder, $OUT/<folder>.csv.
for arg in "$@"; do
  case $arg in
    -*) ;;
    *) "$SIFT_RUN" "$arg" --device=cuda --out="$OUT/$(basename "$arg").csv" ;;
  esac
done
echo "gpu-run stand-in: $# arguments" > "$OUT/throughput.txt"
