#!/usr/bin/env bash
# Redraw the charts in docs/ (SVG, with the JSON and markdown they come from):
#   bench-shipped   fast, mrv and naive on the datasets shipped in datasets/ (log scale)
#   bench-public    fast, bands and mrv on the tdoku benchmark sets, when ../shared/datasets (or
#                   datasets/public from scripts/fetch-datasets.sh) has them
#   compare-threads the same bench saved twice, --threads 1 and --threads 2, drawn side by
#                   side by `plot` (how saved runs from two commits or machines compare)
#   guesses-*       the datasets' guesses histograms (`solve --stats-json`, then `plot`)
# Short on purpose (SECONDS per dataset × algorithm, default 0.5, in --runs 5): the charts
# show shapes and orders of magnitude; for figures to quote, run bench with its defaults.
#
#   scripts/charts.sh [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-0.5}
cargo build --quiet --release --locked
bin=target/release/sudoku-batch
out=docs
mkdir -p "$out"

shipped=(datasets/generated-easy-10k.csv datasets/generated-hard-1k.txt)
public=()
for name in puzzles2_17_clue puzzles3_magictour_top1465 puzzles5_forum_hardest_1905_11+ \
  puzzles6_forum_hardest_1106; do
  for dir in ../shared/datasets datasets/public; do
    if [ -f "$dir/$name" ]; then public+=("$dir/$name"); break; fi
  done
done

bench() { "$bin" bench --seconds "$secs" --runs 5 "$@"; }

echo "== bench-shipped"
bench --threads 1 --algorithm fast,mrv,naive "${shipped[@]}" \
  --export-json "$out/bench-shipped.json" --export-markdown "$out/bench-shipped.md" \
  --plot "$out/bench-shipped.svg"

if [ ${#public[@]} -gt 0 ]; then
  echo "== bench-public"
  bench --threads 1 --algorithm fast,bands,mrv "${public[@]}" \
    --export-json "$out/bench-public.json" --export-markdown "$out/bench-public.md" \
    --plot "$out/bench-public.svg"
  echo "== compare-threads"
  bench --threads 2 --algorithm fast "${public[@]}" --export-json "$out/bench-public-2threads.json" >/dev/null
  bench --threads 1 --algorithm fast "${public[@]}" --export-json "$out/bench-public-1thread.json" >/dev/null
  "$bin" plot "$out/bench-public-1thread.json" "$out/bench-public-2threads.json" \
    --title "Solve throughput of fast: 1 thread vs 2 threads" -o "$out/compare-threads.svg"
else
  echo "(no public datasets found: bench-public and compare-threads skipped)"
fi

echo "== guesses"
# The summary of `solve --stats-json` for each dataset, then one chart per group of datasets.
summaries() {
  for f in "$@"; do
    s="$out/stats-$(basename "$f" | sed 's/\.[a-z]*$//; s/[^A-Za-z0-9_-]/_/g').json"
    "$bin" solve -q --threads 2 -o /dev/null --stats-json "$s" "$f"
    echo "$s"
  done
}
mapfile -t stats < <(summaries "${shipped[@]}")
"$bin" plot "${stats[@]}" --title "Guesses per puzzle: the shipped datasets" -o "$out/guesses-shipped.svg"
if [ ${#public[@]} -gt 0 ]; then
  mapfile -t stats < <(summaries "${public[@]}")
  "$bin" plot "${stats[@]}" --title "Guesses per puzzle: tdoku's benchmark sets" -o "$out/guesses-public.svg"
fi
ls -l "$out"
