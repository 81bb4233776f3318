#!/usr/bin/env bash
# The C API's checks, run by .ci/run from the repository root:
#  1. the committed header is what cbindgen generates now;
#  2. the C side of the layout test (capi/tests/layout.c) compiles;
#  3. inspect.c (C99), noalloc.c and walk.cpp build with warnings as errors,
#     and inspect.c again through capi/pkgconfig.sh's scenedec.pc;
#  4. noalloc decodes corpus models with every allocation function aborting
#     (and does abort when it allocates);
#  5. inspect's counts, error codes and texture hashes equal
#     `scenedec inspect --json` on every corpus model, and the J3D clips'
#     tracks on each j3d-anim model with its animations (needs python3);
#  6. every corpus model, and each j3d-anim model with its animations,
#     decodes the same on a thread of 24 KiB (--stack, the budgets below);
#  7. inspect runs clean under valgrind memcheck (no invalid access, no
#     leak), and walk with J3D clips sampled.
# Needs ../shared/corpus for 4-7 (skipped, saying so, when absent and CI is
# false). Set CAPI_VALGRIND=0 to skip 7.
set -euo pipefail
cd "$(dirname "$0")/.."
out=target/capi
mkdir -p "$out"

command -v cbindgen >/dev/null || cargo install cbindgen --locked
capi/gen-header.sh --check

cargo build -p scenedec-capi --release
cargo build --bin scenedec
lib="target/release/libscenedec.a -lpthread -ldl -lm"
cc -Wall -Werror -std=c11 -Icapi/include -Icapi/tests capi/tests/layout.c $lib -o "$out/layout"
"$out/layout"
cc -Wall -Werror -std=c99 -Icapi/include capi/examples/inspect.c $lib -o "$out/inspect"
cc -Wall -Werror -std=c99 -Icapi/include capi/examples/noalloc.c $lib -o "$out/noalloc"
c++ -Wall -Werror -std=c++17 -Icapi/include capi/examples/walk.cpp $lib -o "$out/walk"
"$out/walk" samples/pyramid.bmd.szs >/dev/null
# The pkg-config file for the build tree links an example too.
capi/pkgconfig.sh > "$out/scenedec.pc"
if command -v pkg-config >/dev/null; then
  pc="env PKG_CONFIG_PATH=$out pkg-config"
  cc -Wall -Werror -std=c99 $($pc --cflags scenedec) capi/examples/inspect.c \
    $($pc --libs --static scenedec) -o "$out/inspect-pc"
  LD_LIBRARY_PATH=target/release "$out/inspect-pc" samples/pyramid.bmd.szs >/dev/null
fi
echo "header, layout, examples, scenedec.pc: ok"

corpus=../shared/corpus
if [ ! -d "$corpus" ]; then
  if [ "${CI:-true}" = "false" ] || [ "${CI:-}" = "0" ]; then
    echo "corpus absent: C API corpus checks skipped (CI=${CI:-})"
    exit 0
  fi
  echo "corpus absent: the C API corpus checks cannot run" >&2
  exit 1
fi
# The stack budgets through the C API, KiB, glibc's share of the thread
# included (docs/c-api.md "Stack"): J3D, with or without its animation
# files, and .bbmodel: the issue's 24.
j3d_budget=24
bbmodel_budget=24
mapfile -t models < <(find "$corpus" -type f \( -name '*.bmd' -o -name '*.bdl' -o -name '*.bbmodel' \) | sort)
mapfile -t j3d_models < <(printf '%s\n' "${models[@]}" | grep -E '\.(bmd|bdl)$')
mapfile -t bbmodel_models < <(printf '%s\n' "${models[@]}" | grep -E '\.bbmodel$')

# The override must be the malloc in effect: allocating aborts (134).
set +e
# (through sh, whose own "Aborted" notice goes to /dev/null with the rest)
sh -c '"$1" --prove-abort; exit $?' sh "$out/noalloc" 2>/dev/null
rc=$?
set -e
[ "$rc" = 134 ] || { echo "noalloc --prove-abort exited $rc, expected an abort" >&2; exit 1; }
echo "noalloc --prove-abort: aborted on its one malloc, as it must"
"$out/noalloc" "$corpus/j3d/riistudio_smg_mario.bdl"
"$out/noalloc" "$corpus/bbmodel/figura_pony_kirin_free_v4_5_emissive.bbmodel"
"$out/noalloc" samples/pyramid.bmd.szs

"$out/inspect" "${models[@]}" > "$out/inspect.jsonl"
target/debug/scenedec inspect --json "${models[@]}" > "$out/cli.jsonl" || true
python3 capi/compare.py "$out/inspect.jsonl" "$out/cli.jsonl"

# J3D clips: each j3d-anim folder's model with every animation file beside
# it offered (`--with`, as the command line offers them): the same clips and
# tracks per clip.
: > "$out/inspect-with.jsonl"
: > "$out/cli-with.jsonl"
for dir in "$corpus"/j3d-anim/*/; do
  mapfile -t model < <(find "$dir" -maxdepth 1 -type f \( -name '*.bmd' -o -name '*.bdl' \) | sort)
  [ "${#model[@]}" = 1 ] || continue
  with=()
  while IFS= read -r f; do with+=(--with "$f"); done < <(find "$dir" -maxdepth 1 -type f \
    \( -name '*.bck' -o -name '*.bca' -o -name '*.btk' -o -name '*.brk' -o -name '*.bpk' \
    -o -name '*.btp' -o -name '*.bva' \) | sort)
  report=$("$out/inspect" "${with[@]}" "${model[0]}")
  echo "$report" >> "$out/inspect-with.jsonl"
  [ "$("$out/inspect" --stack "$j3d_budget" "${with[@]}" "${model[0]}")" = "$report" ] ||
    { echo "${model[0]} with its animations: not the same on $j3d_budget KiB of stack" >&2; exit 1; }
  target/debug/scenedec inspect --json "${with[@]}" "${model[0]}" >> "$out/cli-with.jsonl"
done
python3 capi/compare.py "$out/inspect-with.jsonl" "$out/cli-with.jsonl"
# The clip sampling functions from C++: every kind of track but texture
# matrices and swaps (BCK, BRK, BVA), then those (BTK, BTP).
fish=("$corpus"/j3d-anim/smg2_skeletalfishbossheada/{SkeletalFishBossHeadA.bdl,Bite.bck,Crack.bva,Down.brk})
mario=("$corpus"/j3d-anim/smg_mario/{Mario.bdl,ghostmario.btk,grandstarget.btp})
# (the whole output first: grep -q stopping early would end walk by SIGPIPE)
walked=$("$out/walk" "${fish[@]}")
grep -q "clip Crack.bva: BVA, 2 frames, 7 tracks; at frame 1: 0 materials set, 4 meshes shown, 3 hidden" <<< "$walked"
walked=$("$out/walk" "${mario[@]}")
grep -q "clip ghostmario.btk: BTK, 4000 frames, 18 tracks; at frame 2000: 9 materials set" <<< "$walked"
echo "walk: J3D clips sampled from C++"

# The stack budgets: every model decodes on a thread of its format's
# budget to the same report (the j3d-anim models with their animations did
# above, on the J3D budget).
for format in j3d bbmodel; do
  declare -n files=${format}_models budget=${format}_budget
  "$out/inspect" "${files[@]}" > "$out/inspect-$format.jsonl"
  "$out/inspect" --stack "$budget" "${files[@]}" > "$out/inspect-$format-stack.jsonl"
  cmp "$out/inspect-$format.jsonl" "$out/inspect-$format-stack.jsonl"
  echo "inspect --stack $budget: every corpus $format model, same report"
done

if [ "${CAPI_VALGRIND:-1}" != "0" ]; then
  if command -v valgrind >/dev/null; then
    valgrind --quiet --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=all \
      "$out/inspect" "${models[@]}" > /dev/null
    valgrind --quiet --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=all \
      "$out/walk" "$corpus/j3d/riistudio_smg_mario.bdl" > /dev/null
    for clips in fish mario; do
      declare -n files=$clips
      valgrind --quiet --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=all \
        "$out/walk" "${files[@]}" > /dev/null
    done
    echo "valgrind memcheck: no errors, no leaks (${#models[@]} models, and walk with and without clips)"
  else
    echo "valgrind absent: memcheck skipped"
  fi
fi
