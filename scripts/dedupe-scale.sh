#!/usr/bin/env bash
# Dedupe at scale: the Kaggle sample (24,997 puzzles) x COPIES `shuffle` copies (40: ~1M
# records; 400: ~10M), plus 5 planted exact duplicates at the end, through
# `verify --duplicates` and `verify --duplicates=canonical` with all cores. Reports time and
# peak RSS (/usr/bin/time -v) and checks the findings exactly:
# - exact: the 5 planted records, each naming the line it copies;
# - canonical: every copy after the first of its puzzle names the first copy's line (copies of
#   one puzzle are consecutive), and each planted record names the first copy of its block.
#
#   scripts/dedupe-scale.sh [COPIES] [WORKDIR]
set -euo pipefail
cd "$(dirname "$0")/.."
copies=${1:-40}
work=${2:-$(mktemp -d)}
mkdir -p "$work"
src=../shared/datasets/kaggle1m_sample_first24997.csv
[ -e "$src" ] || { echo "skipped: $src is absent"; exit 0; }
cargo build --quiet --release --locked
ours=$PWD/target/release/sudoku-batch
data=$work/kaggle-x$copies.csv
"$ours" shuffle -q --copies "$copies" --seed 1 --with-solutions "$src" -o "$data"
n=$(($(wc -l < "$data") - 1))
# Plant 5 exact duplicates of evenly spaced records (data line L+1 holds record L).
planted=()
for i in 1 2 3 4 5; do
  rec=$((i * n / 6))
  sed -n "$((rec + 1))p" "$data" >> "$data"
  planted+=("$rec")
done
total=$((n + 5))
echo "$total records in $data"
for mode in exact canonical; do
  arg=--duplicates; [ "$mode" = canonical ] && arg=--duplicates=canonical
  /usr/bin/time -v "$ours" verify -q --format csv "$arg" "$data" -o "$work/report-$mode.csv" \
    2> "$work/time-$mode.txt" || true
  secs=$(grep 'Elapsed (wall' "$work/time-$mode.txt" | awk '{print $NF}')
  rss=$(grep 'Maximum resident' "$work/time-$mode.txt" | awk '{print $NF}')
  printf '%s: %d records, wall %s, peak RSS %.0f MiB\n' "$mode" "$total" "$secs" "$(echo "$rss / 1024" | bc -l)"
done
# Records are numbered by their line in the CSV file (the header is line 1).
expected_exact=$(for k in 0 1 2 3 4; do echo "$((n + 2 + k)),duplicate,same puzzle as line $((planted[k] + 1))"; done)
got_exact=$(grep ',duplicate,' "$work/report-exact.csv" | cut -d, -f1,3,4)
[ "$got_exact" = "$expected_exact" ] && echo "exact: the 5 planted duplicates, exactly" \
  || { echo "exact: MISMATCH"; diff <(echo "$expected_exact") <(echo "$got_exact") | head; exit 1; }
# Canonical: record on line L (L >= 2) is copy (L-2) % copies of puzzle (L-2) / copies.
awk -F, -v c="$copies" -v n="$n" '
  $3 == "duplicate" {
    line = $1; first = $4; sub(/.* line /, "", first)
    src = line - 2
    if (src >= n) { src = int((src - n + 1) * n / 6) - 1; planted++ } else dups++
    if (first != int(src / c) * c + 2) { bad++; if (bad < 5) print "unexpected: " $0 }
  }
  $3 != "duplicate" && $3 != "problem" { other++ }
  END { printf "canonical: %d duplicates of earlier copies (expected %d), %d planted, %d other findings, %d wrong\n", dups, n - n / c, planted, other, bad; exit (bad > 0 || dups != n - n / c || planted != 5) }
' "$work/report-canonical.csv"
