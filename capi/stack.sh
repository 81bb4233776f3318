#!/usr/bin/env bash
# Measures the stack a decode through the C API needs, per file: the
# smallest --stack KIB with which capi/examples/inspect (built by
# capi/check.sh into target/capi/) still decodes the file to the same
# report, by bisection between 16 KiB (the smallest thread stack glibc
# allows) and 8192 KiB. Prints "KIB FILE" lines; docs/c-api.md quotes them.
# Leading `--with ANIMATION` pairs are passed to inspect for every file (J3D
# animations offered, as `capi/stack.sh --with a.bck model.bdl`).
set -uo pipefail
cd "$(dirname "$0")/.."
inspect=target/capi/inspect
with=()
while [ "$#" -ge 2 ] && [ "$1" = --with ]; do
  with+=(--with "$2")
  shift 2
done
for file in "$@"; do
  want=$("$inspect" "${with[@]}" "$file")
  lo=15 hi=8192
  while [ $((hi - lo)) -gt 1 ]; do
    mid=$(((lo + hi) / 2))
    if [ "$("$inspect" --stack "$mid" "${with[@]}" "$file" 2>/dev/null)" = "$want" ]; then
      hi=$mid
    else
      lo=$mid
    fi
  done
  echo "$hi $file"
done
