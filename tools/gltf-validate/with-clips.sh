#!/usr/bin/env bash
# Converts each model of a j3d-anim corpus folder with every animation file
# MANIFEST.tsv attaches to it (`--with`), one .glb per model, into OUT.
# Used by corpus.sh (validator) and tools/blender-import/run.sh.
#
# With --plain first among the convert arguments, the models are written
# without their clips (to tell a reader's refusal of the model from one of
# its clips).
#
#   tools/gltf-validate/with-clips.sh SCENEDEC J3D_ANIM_DIR OUT [--plain] [CONVERT_ARG...]
set -euo pipefail
bin="$1"; anim="$2"; out="$3"; shift 3
plain=0
if [ "${1:-}" = "--plain" ]; then plain=1; shift; fi
mkdir -p "$out"
status=0
models=$(awk -F'\t' 'NR > 1 && $7 != "-" { print $7 }' "$anim/MANIFEST.tsv" | sort -u)
count=0
for model in $models; do
  args=()
  while IFS= read -r file; do args+=(--with "$anim/$file"); done \
    < <(awk -F'\t' -v m="$model" -v p="$plain" 'NR > 1 && $7 == m && p == 0 { print $1 }' "$anim/MANIFEST.tsv")
  name="$(echo "$model" | tr '/' '_')"
  if "$bin" convert --force "$@" "$anim/$model" "${args[@]}" -o "$out/${name%.*}.glb" >/dev/null 2>"$out/${name%.*}.err"; then
    count=$((count + 1))
  else
    echo "  UNEXPECTED failure converting $model with its clips:"; cat "$out/${name%.*}.err"; status=1
  fi
  rm -f "$out/${name%.*}.err"
done
echo "convert with clips $*: $count models of j3d-anim written with their animation files"
exit "$status"
