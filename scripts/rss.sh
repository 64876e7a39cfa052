#!/usr/bin/env bash
# Peak memory of `solve` on a 10-million-line input vs a 100-thousand-line input (the 17-clue
# and Kaggle files repeated), with /usr/bin/time -v. Memory must stay flat: the 10M run's peak
# RSS under 64 MiB and within 10% of the 100k run's.
#
#   scripts/rss.sh [THREADS]
set -euo pipefail
cd "$(dirname "$0")/.."
threads=${1:-2}
D=../shared/datasets
cargo build --quiet --release --locked
ours=target/release/sudoku-batch
command -v /usr/bin/time >/dev/null || { echo "needs /usr/bin/time (apt-get install time)" >&2; exit 2; }
. scripts/lib.sh
scratch_dir
# One line file of puzzles: 17-clue puzzles and the Kaggle 1M sample's puzzle column.
{ grep -v '^#' "$D/puzzles2_17_clue" | tr -d '\r'; tail -n +2 "$D/kaggle1m_sample_first24997.csv" | cut -d, -f1 | grep .; } > "$tmp/base.txt"
base=$(wc -l < "$tmp/base.txt")
repeat_to() { # repeat_to N FILE: the base repeated to N lines
  awk -v n="$1" '{ line[NR] = $0 } END { for (i = 0; i < n; i++) print line[i % NR + 1] }' "$tmp/base.txt" > "$2"
}
repeat_to 100000 "$tmp/small.txt"
repeat_to 10000000 "$tmp/big.txt"
peak() { # peak KiB and seconds of solving FILE
  /usr/bin/time -v "$ours" solve -q --threads "$threads" "$1" -o "$tmp/out.txt" 2> "$tmp/time.txt" || true
  local kib wall
  kib=$(awk -F: '/Maximum resident/ {gsub(/ /,"",$2); print $2}' "$tmp/time.txt")
  wall=$(awk '/Elapsed \(wall clock\)/ {print $NF}' "$tmp/time.txt")
  echo "$kib $wall $(wc -l < "$tmp/out.txt")"
}
read -r small_kib small_wall small_out < <(peak "$tmp/small.txt")
read -r big_kib big_wall big_out < <(peak "$tmp/big.txt")
echo "# $(date -u +%F), --threads $threads"
printf '100k lines: %d records out, peak RSS %.1f MiB, wall %s\n' "$small_out" "$(echo "$small_kib / 1024" | bc -l)" "$small_wall"
printf '10M lines:  %d records out, peak RSS %.1f MiB, wall %s\n' "$big_out" "$(echo "$big_kib / 1024" | bc -l)" "$big_wall"
printf 'ratio 10M/100k peak RSS: %.3f\n' "$(echo "$big_kib / $small_kib" | bc -l)"
ok=1
[ "$big_out" = 10000000 ] || { echo "FAIL: 10M input gave $big_out records" >&2; ok=0; }
[ "$big_kib" -lt $((64 * 1024)) ] || { echo "FAIL: peak RSS over 64 MiB" >&2; ok=0; }
awk -v a="$big_kib" -v b="$small_kib" 'BEGIN { exit !(a <= 1.10 * b) }' || { echo "FAIL: 10M peak more than 10% above 100k peak" >&2; ok=0; }
[ "$ok" = 1 ] && echo PASS
