#!/usr/bin/env bash
# Regenerates capi/include/scenedec.h from capi/src with cbindgen
# (`cargo install cbindgen --locked`). With --check, writes nothing and
# fails when the committed header differs from what cbindgen makes now.
set -euo pipefail
cd "$(dirname "$0")"
out=include/scenedec.h
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
cbindgen --quiet --config cbindgen.toml --crate scenedec-capi --output "$tmp" .
if [ "${1:-}" = "--check" ]; then
  if ! diff -u "$out" "$tmp"; then
    echo "capi/include/scenedec.h is stale: run capi/gen-header.sh" >&2
    exit 1
  fi
  echo "capi/include/scenedec.h is up to date"
else
  cp "$tmp" "$out"
fi
