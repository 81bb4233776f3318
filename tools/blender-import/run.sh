#!/usr/bin/env bash
# Converts every corpus model (../shared/corpus beside the repository) to
# .glb with scenedec, as tools/gltf-validate/corpus.sh does, and imports each
# file with Blender's glTF importer (import.py). Fails when Blender refuses
# a file or raises. Blender runs with the system Python on PATH, so a
# Python environment of the user's cannot shadow Blender's own modules.
#
#   tools/blender-import/run.sh [path/to/scenedec] [path/to/blender]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
corpus="$root/../shared/corpus"
bin="${1:-$root/target/debug/scenedec}"
blender="${2:-$(PATH=/usr/bin:/bin command -v blender || true)}"
if [ ! -d "$corpus" ]; then
  echo "blender-import: $corpus absent, nothing to import"
  exit 0
fi
[ -n "$blender" ] || { echo "blender-import: blender not installed"; exit 1; }
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
shopt -s nullglob
models=("$corpus"/j3d/*.bmd "$corpus"/j3d/*.bdl "$corpus"/bbmodel/*.bbmodel)
# The 32-vertex Figura face needs maxFaceVertices raised, as its user would.
"$bin" convert --json --format glb --limit maxFaceVertices=32 \
  "${models[@]}" -o "$out/glb" >"$out/glb.jsonl" || true
# Each j3d-anim model with its animation files (KHR_animation_pointer channels included).
if [ -f "$corpus/j3d-anim/MANIFEST.tsv" ]; then
  "$root/tools/gltf-validate/with-clips.sh" "$bin" "$corpus/j3d-anim" "$out/glb"
fi
files=("$out"/glb/*.glb)
echo "convert: ${#models[@]} models, ${#files[@]} .glb written"
env PATH=/usr/bin:/bin "$blender" -b --factory-startup --python-exit-code 1 \
  --python "$here/import.py" -- "${files[@]}" 2>&1 \
  | grep -E '^(imported|REFUSED|blender import)'
exit "${PIPESTATUS[0]}"
