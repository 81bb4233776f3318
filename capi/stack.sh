#!/usr/bin/env bash
# Measures the stack a decode through the C API needs, per file: the
# smallest --stack KIB with which capi/examples/inspect (built by
# capi/check.sh into target/capi/) still decodes the file to the same
# report, by bisection between 16 KiB (the smallest thread stack glibc
# allows) and 8192 KiB. Prints "KIB FILE" lines; docs/c-api.md quotes them.
set -uo pipefail
cd "$(dirname "$0")/.."
inspect=target/capi/inspect
for file in "$@"; do
  want=$("$inspect" "$file")
  lo=15 hi=8192
  while [ $((hi - lo)) -gt 1 ]; do
    mid=$(((lo + hi) / 2))
    if [ "$("$inspect" --stack "$mid" "$file" 2>/dev/null)" = "$want" ]; then
      hi=$mid
    else
      lo=$mid
    fi
  done
  echo "$hi $file"
done
