#!/usr/bin/env bash
# Runs every fuzz target (or the TARGETs named) for SECONDS (default 600)
# each, one after another (`.ci/run` runs it for a short smoke when nightly
# and cargo-fuzz are present). Targets are built with debug assertions and
# overflow checks (`-a`), so an overflow the library's arithmetic reasons
# rule out is a finding rather than a silent wrap.
# Usage: fuzz/run.sh [SECONDS [TARGET...]]
# Installs cargo-fuzz when missing; needs the nightly toolchain.
# Findings land in fuzz/artifacts/<target>/; copy each into
# fuzz/regressions/<target>/ once fixed so `cargo test` replays it.
set -euo pipefail
cd "$(dirname "$0")"
SECONDS_PER_TARGET="${1:-600}"
shift || true
command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz --locked
targets="${*:-$(cargo +nightly fuzz list)}"
for target in $targets; do
  mkdir -p "corpus/$target"
  # Seed from the regression inputs and, for the JSON targets, the real corpus.
  cp -n regressions/"$target"/* "corpus/$target/" 2>/dev/null || true
  if [ "$target" = j3d_anim ] && [ -d ../../shared/corpus/j3d-anim ]; then
    find ../../shared/corpus/j3d-anim -mindepth 2 -maxdepth 2 -size -64k \( -name '*.bck' -o -name '*.bca' -o -name '*.btk' \
      -o -name '*.brk' -o -name '*.bpk' -o -name '*.btp' -o -name '*.bva' \) -exec cp -n {} "corpus/$target/" \;
  fi
  if { [ "$target" = json_tokenizer ] || [ "$target" = json_differential ] || [ "$target" = load ] || [ "$target" = bbmodel ] || [ "$target" = pose ]; } && [ -d ../../shared/corpus/bbmodel ]; then
    find ../../shared/corpus/bbmodel -name '*.bbmodel' -size -64k -exec cp -n {} "corpus/$target/" \;
  fi
  if { [ "$target" = load ] || [ "$target" = j3d ] || [ "$target" = j3d_textures ]; } && [ -d ../../shared/corpus/j3d ]; then
    find ../../shared/corpus/j3d -maxdepth 1 -name '*.b[md][dl]' -size -100k -exec cp -n {} "corpus/$target/" \;
  fi
  if [ "$target" = rarc ] && [ -d ../../shared/corpus/rarc ]; then
    find ../../shared/corpus/rarc -maxdepth 1 \( -name "*.arc" -o -name "*.szs" \) -size -64k -exec cp -n {} "corpus/$target/" \;
  fi
  # `inflate` is seeded by its regressions: zlib streams of several levels
  # and PngSuite image data.
  if [ "$target" = png ] && [ -d ../../shared/corpus/pngsuite ]; then
    cp -n ../../shared/corpus/pngsuite/*.png "corpus/$target/"
  fi
  echo "== fuzzing $target for ${SECONDS_PER_TARGET}s =="
  cargo +nightly fuzz run -a "$target" "corpus/$target" -- \
    -max_total_time="$SECONDS_PER_TARGET" -max_len=65536 -rss_limit_mb=512 -timeout=2 -print_final_stats=1
done
