#!/usr/bin/env bash
# Converts every corpus model (../shared/corpus beside the repository) to
# .glb and to .gltf with scenedec (and each j3d-anim/ model with its clips
# to .glb), and runs the Khronos glTF-Validator on every file written, then imports each .glb with assimp (an independent
# reader; tools/blender-import does the same with Blender's importer) when
# `assimp` is on PATH. Fails when a model other than the zero-byte one fails to convert,
# when any file has a validator error, or when assimp refuses a file.
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
# Every model of j3d-anim/ with its animation files (MANIFEST.tsv), so
# the clips' channels (joints, KHR_animation_pointer, extras) are validated too.
mkdir -p "$out/clips"
if [ -f "$corpus/j3d-anim/MANIFEST.tsv" ]; then
  "$here/with-clips.sh" "$bin" "$corpus/j3d-anim" "$out/clips" || status=1
  # assimp 5.2 reads a KHR_animation_pointer channel as a translation and
  # refuses the file: its import below takes the clips as data.
  "$here/with-clips.sh" "$bin" "$corpus/j3d-anim" "$out/clips-data" --material-clips data || status=1
  "$here/with-clips.sh" "$bin" "$corpus/j3d-anim" "$out/clips-plain" --plain >/dev/null || status=1
fi
node "$here/validate.mjs" "$out/glb" "$out/gltf" "$out/clips" "$out/clips-data" | tail -n 20 || status=1
if command -v assimp >/dev/null; then
  imported=0
  skipped=0
  for glb in "$out"/glb/*.glb "$out"/clips-data/*.glb; do
    # A file with nothing to draw has no mesh, and assimp refuses any scene
    # without one ("No materials remaining"), whatever else it holds.
    if grep -F "\"output\": \"$glb\"" "$out/glb.jsonl" | grep -q '"nothing_to_draw": true'; then
      skipped=$((skipped + 1))
      continue
    fi
    if assimp info "$glb" >"$out/assimp.log" 2>&1 && grep -q "^Nodes:" "$out/assimp.log"; then
      imported=$((imported + 1))
    elif [ "$(basename "$(dirname "$glb")")" = clips-data ] \
      && ! assimp info "$out/clips-plain/$(basename "$glb")" >/dev/null 2>&1; then
      # The model refused without its clips as well: not the clips' doing.
      echo "  assimp refuses $(basename "$glb") with or without its clips: $(tail -n 2 "$out/assimp.log" | head -n 1)"
    else
      echo "  assimp REFUSED $(basename "$glb"):"; tail -n 5 "$out/assimp.log"; status=1
    fi
  done
  echo "assimp info: $imported of $(ls "$out"/glb/*.glb "$out"/clips-data/*.glb | wc -l) .glb files imported; $skipped with nothing to draw not tried (assimp refuses a scene without meshes)"
else
  echo "assimp not installed: the assimp import check was skipped"
fi
exit "$status"
