#!/usr/bin/env bash
# Compresses every JPEG and PNG in a folder, skipping done ones: to WebP next to the originals,
# or with the options you give (a query string, as the web tools show it) into another folder.
# Usage: IMGAPI_URL=http://localhost:3000 bash folder.sh ~/Pictures/holiday
#        IMGAPI_URL=http://localhost:3000 bash folder.sh ~/Pictures/holiday 'format=avif&quality=auto' ~/Pictures/small
# With API keys on, set IMGAPI_KEY too.
set -euo pipefail

IMGAPI_URL=${IMGAPI_URL:-http://localhost:3000}
DIR=${1:?usage: folder.sh <folder> [options] [output folder]}
OPTIONS=${2:-format=webp}
OUT=${3:-$DIR}
shopt -s nullglob nocaseglob

# The results' extension, when the options name a format; otherwise the answer says it.
format=$(tr '&' '\n' <<< "$OPTIONS" | sed -n 's/^format=//p' | tr '[:upper:]' '[:lower:]')
case "$format" in
  jpeg | jpg) ext=jpg ;;
  tiff | tif) ext=tif ;;
  png | webp | avif | gif) ext=$format ;;
  *) ext= ;;
esac
if [ -z "$ext" ] && [ "$OUT" -ef "$DIR" ]; then
  echo "format=${format:-original} keeps or picks the format per file: give an output folder" >&2
  exit 2
fi
mkdir -p "$OUT"
auth=()
if [ -n "${IMGAPI_KEY:-}" ]; then auth=(-H "Authorization: Bearer $IMGAPI_KEY"); fi

before=0
after=0
for image in "$DIR"/*.jpg "$DIR"/*.jpeg "$DIR"/*.png; do
  name=$(basename "$image")
  base="$OUT/${name%.*}"
  done_file=$([ -n "$ext" ] && echo "$base.$ext" || compgen -G "$base.*" | head -n 1 || true)
  if [ -n "$done_file" ] && [ -e "$done_file" ]; then
    echo "skip $image ($done_file exists)"
    continue
  fi
  # The image goes as the raw body, as -F would misread a name such as "Paris, 2023.jpg".
  # Written to a temporary name, so an interrupted run never leaves a half file to be skipped;
  # on an error --fail-with-body saves the problem+json there instead: print it and stop.
  if ! curl --fail-with-body -sS -o "$base.part" -D "$base.head" --data-binary @"$image" "${auth[@]}" \
    -H 'Content-Type: application/octet-stream' "$IMGAPI_URL/api/compress?$OPTIONS"; then
    cat "$base.part" >&2 2> /dev/null && echo >&2
    rm -f "$base.part" "$base.head"
    exit 1
  fi
  if [ -z "$ext" ]; then
    got=$(tr -d '\r' < "$base.head" | sed -n 's/^x-output-format: *//Ip')
    case "$got" in jpeg) got=jpg ;; tiff) got=tif ;; esac
  fi
  result="$base.${ext:-$got}"
  mv "$base.part" "$result"
  rm -f "$base.head"
  in=$(wc -c < "$image")
  out=$(wc -c < "$result")
  before=$((before + in))
  after=$((after + out))
  echo "$image: $in -> $out bytes"
done

echo "total: $before -> $after bytes"
