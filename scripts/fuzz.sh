#!/usr/bin/env bash
# Fuzz the parsers, the record readers, the solver and the rating engine with cargo-fuzz
# (libFuzzer).
#
#   scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]     default: 600 s each, every target
#
# Works on the stable toolchain: the sanitizer is off (`-s none`; safe Rust except the
# solver's SIMD path dispatch and BMI2 intrinsics), coverage instrumentation and debug
# assertions (`-a`: overflow checks) stay on. Before fuzzing, every input kept in fuzz/regressions/
# is replayed, so old findings stay fixed. Inputs a run finds land in fuzz/artifacts/.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-600}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(grid_parse records solver rate)

command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz --locked
export RUSTFLAGS="-C target-cpu=native"
flags=(-s none -O -a)
cd fuzz
cargo fuzz build "${flags[@]}"

for t in "${targets[@]}"; do
  # Seeds: the repository's fixtures (every format, good and bad records).
  mkdir -p "corpus/$t"
  if [ "$t" != solver ] && [ "$t" != rate ]; then
    cp -n ../tests/fixtures/*.txt ../tests/fixtures/*.csv ../tests/fixtures/bad/* "corpus/$t/" 2>/dev/null || true
  fi
  if [ -d "regressions/$t" ]; then
    echo "== $t: replaying fuzz/regressions/$t"
    cargo fuzz run "${flags[@]}" "$t" regressions/"$t"/* -- -timeout=10
  fi
  echo "== $t: fuzzing for $seconds s"
  cargo fuzz run "${flags[@]}" "$t" -- -max_total_time="$seconds" -timeout=10 \
    -rss_limit_mb=2048 -print_final_stats=1 2>&1 | tee "/tmp/fuzz-$t.log" |
    grep -E '^(#[0-9]+ +(pulse|DONE)|stat::|==|SUMMARY|Done)' || true
  if grep -qE 'SUMMARY|ERROR: libFuzzer' "/tmp/fuzz-$t.log"; then
    echo "== $t: FINDING (see /tmp/fuzz-$t.log and fuzz/artifacts/$t/)"
    exit 1
  fi
  echo "== $t: no findings"
done
