#!/usr/bin/env bash
# `canon --threads 1` vs `solve --threads 1` on the same files, side by side in one run,
# median of R rounds (default 5): puzzles/s of each and the time ratio canon/solve.
#
#   scripts/canon-throughput.sh [ROUNDS] [FILE...]
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-5}
shift || true
files=("$@")
if [ ${#files[@]} -eq 0 ]; then
  files=(../shared/datasets/puzzles2_17_clue ../shared/datasets/kaggle1m_sample_first24997.csv)
fi
cargo build --quiet --release --locked
ours=target/release/sudoku-batch
secs() { local t0 t1; t0=$(date +%s.%N); "$@" > /dev/null; t1=$(date +%s.%N); echo "$t1 - $t0" | bc -l; }
median() { sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
for f in "${files[@]}"; do
  [ -e "$f" ] || { echo "skipped: $f is absent"; continue; }
  s=() c=()
  for _ in $(seq "$rounds"); do
    s+=("$(secs "$ours" solve -q --threads 1 "$f")")
    c+=("$(secs "$ours" canon -q --threads 1 "$f")")
  done
  sm=$(printf '%s\n' "${s[@]}" | median); cm=$(printf '%s\n' "${c[@]}" | median)
  n=$("$ours" canon -q --threads 1 "$f" | wc -l)
  printf '%s: %d records, 1 thread; solve %.3f s (%.0f/s); canon %.3f s (%.0f/s); canon/solve time %.2f\n' \
    "$(basename "$f")" "$n" "$sm" "$(echo "$n / $sm" | bc -l)" "$cm" "$(echo "$n / $cm" | bc -l)" "$(echo "$cm / $sm" | bc -l)"
done
