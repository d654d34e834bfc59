#!/usr/bin/env bash
# imgapi compress: the server's engine on this machine's files, with no server running. The
# API's options are its flags (--format webp, --max-bytes 200k, --quality auto-high); the
# bytes are the ones the API would answer. imgapi compress --help lists them all.
# Usage: bash cli.sh ~/Pictures/holiday ~/Pictures/holiday-small
# From a checkout, set IMGAPI='npm start -s --' (the executable alone needs nothing else).
set -euo pipefail

IMGAPI=${IMGAPI:-imgapi}
DIR=${1:?usage: cli.sh <folder> <output folder>}
OUT=${2:?usage: cli.sh <folder> <output folder>}

# Every image of the folder and its sub-folders (told by their bytes, not their names) to WebP
# at most 1600 pixels wide, into OUT with the same folders and names. Outputs that exist are
# kept (--overwrite replaces them); a file that would come out larger is copied as it was.
$IMGAPI compress "$DIR" --out "$OUT" --format webp --width 1600

# The smallest of AVIF and WebP under 200 kB each, one JSON line per file for a script: here,
# the names of the files that could not be done and why (exit code 1 when any failed).
$IMGAPI compress "$DIR" --out "$OUT/avif" --format auto --formats avif,webp --max-bytes 200k --json \
  | grep '"status":"failed"' || true

# One image through a pipe: standard input to standard output.
first=$(find "$DIR" -maxdepth 1 -type f | head -n 1)
$IMGAPI compress - --format avif --quality auto < "$first" > "$OUT/first.avif"
