#!/usr/bin/env bash
# Converts every corpus model (../shared/corpus beside the repository) to
# .glb and to .gltf with scenedec, and runs the Khronos glTF-Validator on
# every file written. Fails when a model other than the zero-byte one fails
# to convert, or when any file has a validator error.
#
#   tools/gltf-validate/corpus.sh [path/to/scenedec]    (default: target/debug/scenedec)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
corpus="$root/../shared/corpus"
bin="${1:-$root/target/debug/scenedec}"
if [ ! -d "$corpus" ]; then
  echo "gltf-validate: $corpus absent, nothing to validate"
  exit 0
fi
if [ ! -d "$here/node_modules/gltf-validator" ]; then
  (cd "$here" && npm ci --no-audit --no-fund --silent)
fi
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
shopt -s nullglob
models=("$corpus"/j3d/*.bmd "$corpus"/j3d/*.bdl "$corpus"/bbmodel/*.bbmodel)
status=0
for format in glb gltf; do
  # The 32-vertex Figura face needs maxFaceVertices raised, as its user would.
  "$bin" convert --json --format "$format" --limit maxFaceVertices=32 \
    "${models[@]}" -o "$out/$format" >"$out/$format.jsonl" || true
  converted=$(grep -c '"ok": true' "$out/$format.jsonl" || true)
  echo "convert --format $format: ${#models[@]} models, $converted written"
  while IFS= read -r line; do
    case "$line" in
      *figura_empty_zero_byte*) echo "  expected load error: $line" ;;
      *) echo "  UNEXPECTED failure: $line"; status=1 ;;
    esac
  done < <(grep '"ok": false' "$out/$format.jsonl" || true)
done
node "$here/validate.mjs" "$out/glb" "$out/gltf" | tail -n 20 || status=1
exit "$status"
