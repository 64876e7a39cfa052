#!/usr/bin/env bash
# verify vs `solve --limit 2` on the same file, side by side, median of R rounds (default 5).
#
#   scripts/verify-throughput.sh [FILE] [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/.."
f=${1:-../shared/datasets/kaggle1m_sample_first24997.csv}
rounds=${2:-5}
cargo build --quiet --release --locked
ours=target/release/sudoku-batch
secs() { local t0 t1; t0=$(date +%s.%N); "$@" > /dev/null; t1=$(date +%s.%N); echo "$t1 - $t0" | bc -l; }
median() { sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
s=() v=()
for _ in $(seq "$rounds"); do
  s+=("$(secs "$ours" solve -q --limit 2 "$f")")
  v+=("$(secs "$ours" verify -q "$f")")
done
sm=$(printf '%s\n' "${s[@]}" | median); vm=$(printf '%s\n' "${v[@]}" | median)
n=$("$ours" solve -q "$f" | wc -l)
printf '%s: %d records; solve --limit 2 %.3f s (%.0f/s); verify %.3f s (%.0f/s); verify/solve throughput %.3f\n' \
  "$(basename "$f")" "$n" "$sm" "$(echo "$n / $sm" | bc -l)" "$vm" "$(echo "$n / $vm" | bc -l)" "$(echo "$sm / $vm" | bc -l)"
