#!/usr/bin/env bash
# Compresses every JPEG and PNG in a folder, skipping done ones: to WebP next to the originals,
# or with the options you give (a query string, as the web tools show it) into another folder.
# Usage: IMGAPI_URL=http://localhost:3000 bash folder.sh ~/Pictures/holiday
#        IMGAPI_URL=http://localhost:3000 bash folder.sh ~/Pictures/holiday 'format=avif&quality=auto' ~/Pictures/small
# With API keys on, set IMGAPI_KEY too. For files on the machine imgapi runs on, no server is
# needed: `imgapi compress <folder> --out <folder> --format webp` does this (see cli.sh).
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

# Posts $1 as the raw body (-F would misread a name such as "Paris, 2023.jpg"), writes the
# answer to $2 and its headers to $3, and prints the HTTP status. While imgapi answers 429 (rate
# limited) or 503 (busy), asks again after the seconds Retry-After gives, up to 4 times; any
# other answer is final.
compress() {
  local status wait attempt
  for attempt in 1 2 3 4; do
    status=$(curl -sS -D "$3" -o "$2" -w '%{http_code}' --data-binary @"$1" "${auth[@]}" \
      -H 'Content-Type: application/octet-stream' "$IMGAPI_URL/api/compress?$OPTIONS") || status=000
    case $status in 429 | 503) [ "$attempt" -lt 4 ] || break ;; *) break ;; esac
    wait=$(tr -d '\r' < "$3" | awk 'tolower($1) == "retry-after:" { print $2 }')
    case $wait in '' | *[!0-9]*) wait=$((1 << attempt)) ;; esac
    sleep "$wait"
  done
  echo "$status"
}

before=0
after=0
failed=0
for image in "$DIR"/*.jpg "$DIR"/*.jpeg "$DIR"/*.png; do
  name=$(basename "$image")
  base="$OUT/${name%.*}"
  done_file=$([ -n "$ext" ] && echo "$base.$ext" || compgen -G "$base.*" | head -n 1 || true)
  if [ -n "$done_file" ] && [ -e "$done_file" ]; then
    echo "skip $image ($done_file exists)"
    continue
  fi
  # Written to a temporary name, so an interrupted run never leaves a half file to be skipped;
  # on an error the problem+json is saved there instead: print it, and go on with the next file.
  status=$(compress "$image" "$base.part" "$base.head")
  if [ "$status" -lt 200 ] || [ "$status" -ge 400 ]; then
    echo "$image: failed with HTTP $status" >&2
    cat "$base.part" >&2 2> /dev/null && echo >&2
    rm -f "$base.part" "$base.head"
    failed=$((failed + 1))
    continue
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

summary="total: $before -> $after bytes"
if [ "$failed" -gt 0 ]; then summary="$summary, $failed failed"; fi
echo "$summary"
# Every good file was written; the exit code still says that some were not.
[ "$failed" -eq 0 ]
