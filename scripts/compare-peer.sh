#!/usr/bin/env bash
# Solve-only throughput against the `sudoku` crate (JCZSolve port), single thread, limits 1
# and 2, on tdoku's benchmark sets and the Kaggle sample. Wraps ../shared/peers/compare.sh and
# appends dated results to scripts/results/compare-peer.txt.
#
#   scripts/compare-peer.sh [--rounds R]
set -euo pipefail
cd "$(dirname "$0")/.."
D=../shared/datasets
peers=../shared/peers/compare.sh
[ -x "$peers" ] || { echo "needs $peers" >&2; exit 2; }
rounds=3
[ "${1:-}" = "--rounds" ] && rounds=$2
mkdir -p scripts/results
out=scripts/results/compare-peer.txt
{
  echo "# $(date -u +%F) $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs) $(nproc) cores; median of $rounds"
  for limit in 1 2; do
    echo "## limit $limit"
    "$peers" --threads 1 --limit "$limit" --rounds "$rounds" \
      $D/puzzles2_17_clue $D/puzzles3_magictour_top1465 $D/puzzles5_forum_hardest_1905_11+ \
      $D/puzzles6_forum_hardest_1106 $D/kaggle1m_sample_first24997.csv
  done
} | tee -a "$out"
