#!/usr/bin/env bash
# Converts every JPEG and PNG in a folder to WebP next to the original, skipping done ones.
# Usage: IMGAPI_URL=http://localhost:3000 bash folder.sh ~/Pictures/holiday
set -euo pipefail

IMGAPI_URL=${IMGAPI_URL:-http://localhost:3000}
DIR=${1:?usage: folder.sh <folder>}
shopt -s nullglob nocaseglob

before=0
after=0
for image in "$DIR"/*.jpg "$DIR"/*.jpeg "$DIR"/*.png; do
  webp="${image%.*}.webp"
  if [ -e "$webp" ]; then
    echo "skip $image ($webp exists)"
    continue
  fi
  # The image goes as the raw body, as -F would misread a name such as "Paris, 2023.jpg".
  # Written to a temporary name, so an interrupted run never leaves a half file to be skipped;
  # on an error --fail-with-body saves the problem+json there instead: print it and stop.
  if ! curl --fail-with-body -sS -o "$webp.part" --data-binary @"$image" \
    -H 'Content-Type: application/octet-stream' "$IMGAPI_URL/api/compress?format=webp"; then
    cat "$webp.part" >&2 2> /dev/null && echo >&2
    rm -f "$webp.part"
    exit 1
  fi
  mv "$webp.part" "$webp"
  in=$(wc -c < "$image")
  out=$(wc -c < "$webp")
  before=$((before + in))
  after=$((after + out))
  echo "$image: $in -> $out bytes"
done

echo "total: $before -> $after bytes"
