#!/bin/sh
# Puzzles per second of the rating engine on each public dataset, one thread, the uniqueness
# solve included (CPU time of the thread), with examples/rate_file.rs.
#   scripts/rate-bench.sh [DATASET_DIR] [REPEAT]
set -eu
dir=${1:-../shared/datasets}
repeat=${2:-3}
cargo build --release --quiet --example rate_file
bin=target/release/examples/rate_file
for f in kaggle1m_sample_first24997.csv kaggle9m_vopani_random_10000.csv sudoku_exchange_easy_500_with_solutions.txt \
    sudoku_exchange_medium_500_with_solutions.txt sudoku_exchange_hard_500_with_solutions.txt \
    sudoku_exchange_diabolical_500_with_solutions.txt tdoku_puzzles1_unbiased_first1000 puzzles2_17_clue; do
    [ -e "$dir/$f" ] || { echo "skipped: $dir/$f is absent" >&2; continue; }
    for ladder in se sukaku; do
        printf '%-50s %-7s ' "$f" "$ladder"
        "$bin" --quiet --ladder "$ladder" --repeat "$repeat" "$dir/$f" 2>&1 | sed 's/.*CPU: //'
    done
done
