#!/usr/bin/env bash
# The GNU parallel recipe of docs/scale-out.md gives the same bytes as a plain run, and so do
# concatenated --shard outputs. Installs Debian's `parallel` when it is missing.
#
#   scripts/test-parallel.sh [FILE]
set -euo pipefail
cd "$(dirname "$0")/.."
f=${1:-../shared/datasets/puzzles2_17_clue}
[ -f "$f" ] || f=datasets/generated-hard-1k.txt
if ! command -v parallel >/dev/null; then
  apt-get update -qq && apt-get install -y -qq parallel >/dev/null
fi
cargo build --quiet --release --locked
bin=$PWD/target/release/sudoku-batch
. scripts/lib.sh
scratch_dir

"$bin" solve -q "$f" > "$tmp/plain.txt"
# The recipe: split the file into ~1 MB blocks at line boundaries, solve each with one
# thread, keep the input order (-k).
parallel --will-cite --pipepart -a "$f" -k --block 1M "$bin" solve -q --threads 1 > "$tmp/parallel.txt"
cmp "$tmp/plain.txt" "$tmp/parallel.txt"
echo "GNU parallel --pipepart -k: $(wc -l < "$tmp/parallel.txt") lines, identical to the plain run"

# The Slurm-array recipe: shards 1..N concatenated.
for n in 1 3 8; do
  for k in $(seq "$n"); do "$bin" solve -q --shard "$k/$n" "$f"; done > "$tmp/shards.txt"
  cmp "$tmp/plain.txt" "$tmp/shards.txt"
  echo "--shard K/$n for K = 1..$n, concatenated: identical to the plain run"
done
