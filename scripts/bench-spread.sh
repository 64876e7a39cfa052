#!/usr/bin/env bash
# Run-to-run spread of `bench`: σ / mean of puzzles/s over --runs timed runs (the table's
# `± σ` column), with bench's defaults otherwise (3 s per dataset, fast), at --threads 1 and
# 2, on the shipped datasets and tdoku's benchmark sets (when ../shared/datasets has them).
# Results: scripts/results/bench-spread.txt. Shared machines inflate the spread: say how
# loaded the machine was next to the figures.
#
#   scripts/bench-spread.sh [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-10}
cargo build --quiet --release --locked
bin=target/release/sudoku-batch
files=(datasets/generated-easy-10k.csv datasets/generated-hard-1k.txt)
for name in puzzles2_17_clue puzzles3_magictour_top1465 puzzles5_forum_hardest_1905_11+ \
  puzzles6_forum_hardest_1106; do
  if [ -f "../shared/datasets/$name" ]; then files+=("../shared/datasets/$name"); fi
done
echo "# $(date -u '+%F %H:%M') UTC, $("$bin" --version | head -1), $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) at the start"
for threads in 1 2; do
  echo
  echo "## bench --runs $runs --threads $threads"
  "$bin" bench --runs "$runs" --threads "$threads" "${files[@]}"
done
