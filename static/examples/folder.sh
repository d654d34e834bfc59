#!/usr/bin/env bash
# Converts every JPEG and PNG in a folder to WebP next to the original, skipping done ones.
# Usage: IMGAPI_URL=http://localhost:3000 bash folder.sh ~/Pictures/holiday
set -euo pipefail

IMGAPI_URL=${IMGAPI_URL:-http://localhost:3000}
DIR=${1:?usage: folder.sh <folder>}
shopt -s nullglob nocaseglob

# Posts $1 as the raw body (-F would misread a name such as "Paris, 2023.jpg") and writes the
# answer to $2, printing the HTTP status. While imgapi answers 429 (rate limited) or 503 (busy),
# asks again after the seconds Retry-After gives, up to 4 times; any other answer is final.
to_webp() {
  local status wait attempt
  for attempt in 1 2 3 4; do
    status=$(curl -sS -D "$2.headers" -o "$2" -w '%{http_code}' --data-binary @"$1" \
      -H 'Content-Type: application/octet-stream' "$IMGAPI_URL/api/compress?format=webp") || status=000
    case $status in 429 | 503) [ "$attempt" -lt 4 ] || break ;; *) break ;; esac
    wait=$(tr -d '\r' < "$2.headers" | awk 'tolower($1) == "retry-after:" { print $2 }')
    case $wait in '' | *[!0-9]*) wait=$((1 << attempt)) ;; esac
    sleep "$wait"
  done
  rm -f "$2.headers"
  echo "$status"
}

before=0
after=0
for image in "$DIR"/*.jpg "$DIR"/*.jpeg "$DIR"/*.png; do
  webp="${image%.*}.webp"
  if [ -e "$webp" ]; then
    echo "skip $image ($webp exists)"
    continue
  fi
  # Written to a temporary name, so an interrupted run never leaves a half file to be skipped;
  # on an error the problem+json is saved there instead: print it and stop.
  status=$(to_webp "$image" "$webp.part")
  if [ "$status" -lt 200 ] || [ "$status" -ge 400 ]; then
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
