#!/usr/bin/env bash
# End-to-end throughput (file in, solutions written to a file, --format line), side by side
# in one run, median of R rounds (default 3):
#   (a) --threads 2 vs --threads 1 on puzzles5_forum_hardest_1905_11+;
#   (b) our --threads 1 vs `peer-sudoku solve FILE 1` on each dataset (outputs compared too).
#
#   scripts/e2e-throughput.sh [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3}
D=../shared/datasets
peer_dir=../shared/peers/peer-sudoku
peer_target=${TMPDIR:-/tmp}/peer-sudoku-target
CARGO_TARGET_DIR=$peer_target cargo build --quiet --release --locked --manifest-path "$peer_dir/Cargo.toml"
. scripts/lib.sh
build_release
peer=$peer_target/release/peer-sudoku
scratch_dir

records() { grep -cv '^\(#\|\s*$\)' "$1" || true; }

echo "# $(date -u +%F) $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) cores, median of $rounds"
f=$D/puzzles5_forum_hardest_1905_11+
t1=() t2=()
for _ in $(seq "$rounds"); do
  t1+=("$(secs "$ours" solve -q --threads 1 "$f" -o "$tmp/o1")")
  t2+=("$(secs "$ours" solve -q --threads 2 "$f" -o "$tmp/o2")")
done
cmp -s "$tmp/o1" "$tmp/o2" || { echo "outputs differ between thread counts" >&2; exit 1; }
m1=$(printf '%s\n' "${t1[@]}" | median); m2=$(printf '%s\n' "${t2[@]}" | median)
printf '(a) %s: 1 thread %.3f s, 2 threads %.3f s, speed-up x%.2f\n' "$(basename "$f")" "$m1" "$m2" "$(echo "$m1 / $m2" | bc -l)"

printf '(b) %-40s %10s %10s %12s %12s %7s\n' dataset records "ours s" "ours p/s" "peer p/s" ratio
for name in puzzles2_17_clue puzzles3_magictour_top1465 puzzles5_forum_hardest_1905_11+ \
  puzzles6_forum_hardest_1106 puzzles7_serg_benchmark kaggle1m_sample_first24997.csv \
  kaggle3m_radcliffe_sample_7034.csv kaggle9m_vopani_first10000.csv sudoku_exchange_hard.txt; do
  f=$D/$name
  [ -f "$f" ] || continue
  # The peer reads 81-char line files; give it the puzzle column of CSV files.
  pin=$f
  case "$name" in *.csv) "$ours" solve -q --format csv --no-header "$f" | cut -d, -f3 > "$tmp/p.txt"; pin=$tmp/p.txt ;; esac
  case "$name" in sudoku_exchange_*) awk '{print $2}' "$f" > "$tmp/p.txt"; pin=$tmp/p.txt ;; esac
  o=() p=()
  for _ in $(seq "$rounds"); do
    p+=("$(secs sh -c "'$peer' solve '$pin' 1 > '$tmp/peer.out'")")
    o+=("$(secs "$ours" solve -q --threads 1 "$f" -o "$tmp/ours.out")")
  done
  n=$(wc -l < "$tmp/ours.out")
  [ "$n" = "$(wc -l < "$tmp/peer.out")" ] || { echo "$name: record counts differ" >&2; exit 1; }
  om=$(printf '%s\n' "${o[@]}" | median); pm=$(printf '%s\n' "${p[@]}" | median)
  printf '(b) %-40s %10d %10.3f %12.0f %12.0f %7.3f\n' "$name" "$n" "$om" "$(echo "$n / $om" | bc -l)" "$(echo "$n / $pm" | bc -l)" "$(echo "$pm / $om" | bc -l)"
done
