#!/usr/bin/env bash
# Packs the IREE cases `harness fuzz --export-artifacts=DIR` wrote for a GPU
# host: one folder per pipeline (so scripts/gpu-run.sh --jobs=N runs them
# side by side and writes one CSV each), the cases of one target only, and
# without the .npy files of regenerable cases (sift-run draws their inputs
# from the seed again and the expected outputs from the reference: most of
# the bytes, and the GPU host's carry is small).
#
#   scripts/pack-iree-cases.sh DIR OUT.tar.xz [TARGET] [PREFIX] [PARTS] [SKIP]
#
# TARGET defaults to nvptx; PREFIX (default: DIR's name) starts each
# folder's name: PREFIX-iree, PREFIX-iree-tileandfuse, PREFIX-iree-distribute.
# PARTS > 1 deals each pipeline's cases round-robin into that many folders
# (PREFIX-iree-p0, ...), so that more sift-runs work side by side. SKIP, a
# file of case folder names (one per line), leaves those cases out, and the
# names packed are appended to OUT.tar.xz.names (a second pack of a growing
# export then takes only what the first did not).
set -euo pipefail
dir="${1:?usage: pack-iree-cases.sh DIR OUT.tar.xz [TARGET] [PREFIX] [PARTS] [SKIP]}"
out="${2:?usage: pack-iree-cases.sh DIR OUT.tar.xz [TARGET] [PREFIX] [PARTS] [SKIP]}"
target="${3:-nvptx}"
prefix="${4:-$(basename "$dir")}"
parts="${5:-1}"
skip="${6:-}"
if ! [[ "$parts" =~ ^[1-9][0-9]*$ ]]; then
  echo "pack-iree-cases: PARTS must be a positive number, not '$parts'" >&2
  exit 2
fi
if [ -n "$skip" ] && [ ! -r "$skip" ]; then
  echo "pack-iree-cases: cannot read the SKIP list $skip" >&2
  exit 2
fi
stage=$(mktemp -d)
trap 'rm -rf "$stage" "$stage.names"' EXIT
count=0
for case in "$dir"/*-"$target".ireecase; do
  [ -d "$case" ] || continue
  name=$(basename "$case" .ireecase)
  if [ -n "$skip" ] && grep -qxF "$name.ireecase" "$skip"; then continue; fi
  pipeline=${name#*-}               # SEED-PIPELINE-TARGET
  pipeline=${pipeline%-"$target"}
  folder="$stage/$prefix-$pipeline"
  if [ "$parts" -gt 1 ]; then folder="$folder-p$((count % parts))"; fi
  mkdir -p "$folder"
  cp -r "$case" "$folder/"
  if grep -q '"regenerable": true' "$case/case.json"; then
    rm -f "$folder/$name.ireecase/"*.npy
  fi
  echo "$name.ireecase" >> "$stage.names"
  count=$((count + 1))
done
if [ "$count" -eq 0 ]; then
  echo "pack-iree-cases: no $target .ireecase folders in $dir" >&2
  exit 2
fi
tar cf - -C "$stage" . | xz -T0 -6 > "$out.partial"
mv "$out.partial" "$out"
cat "$stage.names" >> "$out.names"
echo "packed $count $target cases from $dir into $out ($(du -h "$out" | cut -f1))"
