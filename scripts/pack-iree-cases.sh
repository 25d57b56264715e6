#!/usr/bin/env bash
# Packs the IREE cases `harness fuzz --export-artifacts=DIR` wrote for a GPU
# host: one folder per pipeline (so scripts/gpu-run.sh --jobs=N runs them
# side by side and writes one CSV each), the cases of one target only, and
# without the .npy files of regenerable cases (sift-run draws their inputs
# from the seed again and the expected outputs from the reference: most of
# the bytes, and the GPU host's carry is small).
#
#   scripts/pack-iree-cases.sh DIR OUT.tar.xz [TARGET] [PREFIX]
#
# TARGET defaults to nvptx; PREFIX (default: DIR's name) starts each
# folder's name: PREFIX-iree, PREFIX-iree-tileandfuse, PREFIX-iree-distribute.
set -euo pipefail
dir="${1:?usage: pack-iree-cases.sh DIR OUT.tar.xz [TARGET] [PREFIX]}"
out="${2:?usage: pack-iree-cases.sh DIR OUT.tar.xz [TARGET] [PREFIX]}"
target="${3:-nvptx}"
prefix="${4:-$(basename "$dir")}"
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
count=0
for case in "$dir"/*-"$target".ireecase; do
  [ -d "$case" ] || continue
  name=$(basename "$case" .ireecase)
  pipeline=${name#*-}               # SEED-PIPELINE-TARGET
  pipeline=${pipeline%-"$target"}
  folder="$stage/$prefix-$pipeline"
  mkdir -p "$folder"
  cp -r "$case" "$folder/"
  if grep -q '"regenerable": true' "$case/case.json"; then
    rm -f "$folder/$name.ireecase/"*.npy
  fi
  count=$((count + 1))
done
if [ "$count" -eq 0 ]; then
  echo "pack-iree-cases: no $target .ireecase folders in $dir" >&2
  exit 2
fi
tar cf - -C "$stage" . | xz -T0 -6 > "$out.partial"
mv "$out.partial" "$out"
echo "packed $count $target cases from $dir into $out ($(du -h "$out" | cut -f1))"
