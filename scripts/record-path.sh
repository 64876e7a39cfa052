#!/usr/bin/env bash
# The record path: end-to-end `solve FILE -o OUT` against solve-only `bench` on the
# same 1M-record file, side by side, median of R rounds (default 5). Files (made in a temp dir
# from ../shared/datasets): the Kaggle 25k sample × 40 `shuffle` copies as a line file and as
# a `puzzle,solution` CSV, puzzles2_17_clue repeated to 1M lines, and the line file gzipped.
# Prints per file: bench and end-to-end puzzles/s at 1 and 2 threads, e2e/bench at 2 threads,
# e2e 2 threads / 1 thread, .gz / plain (ratios taken within each round, see below), and the
# peak RSS of the 2-thread run.
#
#   scripts/record-path.sh [ROUNDS] [BINARY]
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-5}
D=../shared/datasets
. scripts/lib.sh
if [ -n "${2:-}" ]; then ours=$2; else build_release; fi
command -v /usr/bin/time >/dev/null || { echo "needs /usr/bin/time (apt-get install time)" >&2; exit 2; }
scratch_dir

"$ours" shuffle -q --copies 40 --seed 3 "$D/kaggle1m_sample_first24997.csv" -o "$tmp/kaggle1m.txt"
"$ours" shuffle -q --copies 40 --seed 3 --with-solutions "$D/kaggle1m_sample_first24997.csv" -o "$tmp/kaggle1m.csv"
grep -v '^#' "$D/puzzles2_17_clue" |
  awk '{ l[NR] = $0 } END { for (i = 0; i < 1000000; i++) print l[i % NR + 1] }' > "$tmp/17clue1m.txt"
gzip -k "$tmp/kaggle1m.txt"

bench() { # puzzles/s of one `bench --threads T FILE` run
  "$ours" bench --threads "$1" --seconds 1 --json "$2" | sed 's/.*"puzzles_per_sec":\([0-9.]*\).*/\1/'
}
e2e() { # seconds of one `solve --threads T FILE -o OUT` run
  # The previous run's output is removed first: renaming over an 82 MB file makes the kernel
  # free its pages inside the timed run (~20 ms here), a cost of the old file, not the path.
  rm -f "$tmp/out"
  secs "$ours" solve -q --threads "$1" "$2" -o "$tmp/out"
}
rss() { # peak RSS (MiB) of a 2-thread run
  rm -f "$tmp/out"
  /usr/bin/time -v "$ours" solve -q --threads 2 "$1" -o "$tmp/out" 2> "$tmp/time.txt"
  awk -F: '/Maximum resident/ {gsub(/ /,"",$2); printf "%.1f", $2 / 1024}' "$tmp/time.txt"
}
med() { printf '%s\n' "$@" | median; }

# Each round runs every measurement of a file once, one after the other, and the ratios are
# taken within the round: this machine's speed drifts by 10-20% over minutes, which moves a
# round's runs together. Printed: the medians of the rates and of the per-round ratios.
echo "# $(date -u +%F) $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) cores, median of $rounds rounds; $("$ours" --version | head -1)"
printf '%-14s %9s %9s %9s %9s %8s %8s %8s %7s\n' file bench1 bench2 e2e1 e2e2 e2e/b2 e2e2/1 gz/plain RSS_MiB
for name in kaggle1m.txt kaggle1m.csv 17clue1m.txt; do
  f=$tmp/$name
  n=$("$ours" solve -q --threads 2 "$f" | wc -l)
  b1=() b2=() r1=() r2=() share=() scale=() gz=()
  for _ in $(seq "$rounds"); do
    b1+=("$(bench 1 "$f")"); b2+=("$(bench 2 "$f")")
    s1=$(e2e 1 "$f"); s2=$(e2e 2 "$f")
    r1+=("$(echo "$n / $s1" | bc -l)"); r2+=("$(echo "$n / $s2" | bc -l)")
    share+=("$(echo "$n / $s2 / ${b2[-1]}" | bc -l)"); scale+=("$(echo "$s1 / $s2" | bc -l)")
    if [ -e "$f.gz" ]; then gz+=("$(echo "$s2 / $(e2e 2 "$f.gz")" | bc -l)"); fi
  done
  g=-
  if [ ${#gz[@]} -gt 0 ]; then g=$(printf '%.2f' "$(med "${gz[@]}")"); fi
  printf '%-14s %9.0f %9.0f %9.0f %9.0f %8.2f %8.2f %8s %7s\n' "$name" "$(med "${b1[@]}")" \
    "$(med "${b2[@]}")" "$(med "${r1[@]}")" "$(med "${r2[@]}")" "$(med "${share[@]}")" \
    "$(med "${scale[@]}")" "$g" "$(rss "$f")"
done
