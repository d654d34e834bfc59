#!/usr/bin/env bash
# The whole API from the command line: health, formats, then one multipart and one raw upload.
# Usage: IMGAPI_URL=http://localhost:3000 bash curl.sh photo.jpg
#        (writes photo.webp, photo.avif, photo-50k.jpg and photo-sizes.zip)
set -euo pipefail

IMGAPI_URL=${IMGAPI_URL:-http://localhost:3000}
IMAGE=${1:-photo.jpg}
NAME=$(basename "$IMAGE")
NAME=${NAME%.*}

curl --fail-with-body -sS "$IMGAPI_URL/api/health"
echo
curl --fail-with-body -sS "$IMGAPI_URL/api/formats"
echo

# The response headers that describe the result: sizes, ratio, formats, dimensions, and what a
# byte target took (quality, similarity, the size it was scaled down to).
RESULT_HEADERS='^x-(original|compressed|compression|output|image|result|quality|similarity|resized|variants)'

# Saves the answer to $1 and prints its result headers. While imgapi answers 429 (rate limited)
# or 503 (busy), asks again after the seconds its Retry-After gives, up to 4 times (curl's own
# --retry would also repeat 408 and 5xx answers, which asking again does not change). On an
# error the problem+json was saved in place of the image: print it and stop.
compress() {
  local out=$1 headers status wait attempt
  shift
  headers=$(mktemp)
  for attempt in 1 2 3 4; do
    status=$(curl -sS -D "$headers" -o "$out" -w '%{http_code}' "$@") || status=000
    case $status in 429 | 503) [ "$attempt" -lt 4 ] || break ;; *) break ;; esac
    wait=$(tr -d '\r' < "$headers" | awk 'tolower($1) == "retry-after:" { print $2 }')
    case $wait in '' | *[!0-9]*) wait=$((1 << attempt)) ;; esac
    sleep "$wait"
  done
  if [ "$status" -lt 200 ] || [ "$status" -ge 400 ]; then
    cat "$out" >&2 2> /dev/null && echo >&2
    rm -f "$out" "$headers"
    exit 1
  fi
  grep -iE "$RESULT_HEADERS" "$headers"
  rm -f "$headers"
}

# Multipart: the image in field "file", options as form fields.
compress "$NAME.webp" -F file=@"$IMAGE" -F format=webp -F quality=75 -F width=1600 \
  "$IMGAPI_URL/api/compress"

# Raw body: the image is the whole request, options go in the query string. Any Content-Type
# but multipart works: the server detects the format from the bytes.
compress "$NAME.avif" --data-binary @"$IMAGE" -H 'Content-Type: image/jpeg' \
  "$IMGAPI_URL/api/compress?format=avif&width=800"

# A byte target: the best JPEG quality that fits in 50 kB, scaled down rather than fall below
# quality 50 (X-Quality, X-Similarity and X-Resized-To-Fit say what it took).
compress "$NAME-50k.jpg" --data-binary @"$IMAGE" \
  "$IMGAPI_URL/api/compress?format=jpeg&maxBytes=50000&allowResize=true"

# Several outputs from one upload: a responsive set as a ZIP, one image per entry of variants
# and a manifest.json describing each (X-Variants and X-Variants-Failed count them).
compress "$NAME-sizes.zip" -F file=@"$IMAGE" \
  -F 'variants=[{"width":240,"format":"webp"},{"width":480,"format":"webp"},{"width":480,"format":"avif"}]' \
  "$IMGAPI_URL/api/compress"
