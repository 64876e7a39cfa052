#!/usr/bin/env bash
# `rate` throughput per dataset, end to end (file in, ratings written to /dev/null, --format
# line), one worker thread, beside `solve --unique` on the same file in the same round (the
# solve every rated record starts with): median seconds of ROUNDS alternating rounds (default
# 3), puzzles/s of each, their ratio, and what the ratings were (rated, capped, mean ER).
# `rate CPU p/s` is records per second of the rate run's user+sys time: on a shared machine
# whose other work takes the cores, wall-clock rates fall and this one holds.
#
#   scripts/rate-e2e.sh [ROUNDS] [-- RATE ARGS...]      e.g. scripts/rate-e2e.sh 5 -- --max-rating 6.2
#
# Files of more than 50,000 records are measured on their first eighth (--shard 1/8, said in
# the table). Results are appended to scripts/results/rate-e2e.txt.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3}
shift || true
[ "${1:-}" = "--" ] && shift
extra=("$@")
D=../shared/datasets
[ -d "$D" ] || { echo "skipped: $D is absent" >&2; exit 0; }
. scripts/lib.sh
build_release
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
out=scripts/results/rate-e2e.txt
# Exit code 1 (some records not rated: serg's puzzles have several solutions) is a result.
ok1() { "$@" || [ $? -eq 1 ]; }

{
echo "# $(date -u '+%F %H:%M') UTC, load $(cut -d' ' -f1 /proc/loadavg), commit $(git rev-parse --short HEAD)$(git diff --quiet || echo '+changes'), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) cores, 1 thread, median of $rounds, rate ${extra[*]:-(defaults)}"
printf '%-44s %8s %6s %10s %10s %10s %10s %8s %7s %6s\n' dataset records slice "rate p/s" "solve p/s" rate/solve "rate CPU" rated capped "ER mean"
for name in kaggle1m_sample_first24997.csv kaggle3m_radcliffe_sample_7034.csv \
  kaggle9m_vopani_first10000.csv puzzles2_17_clue puzzles3_magictour_top1465 \
  puzzles6_forum_hardest_1106 puzzles7_serg_benchmark tdoku_puzzles1_unbiased_first1000 \
  sudoku_exchange_easy_500_with_solutions.txt sudoku_exchange_medium_500_with_solutions.txt \
  sudoku_exchange_hard.txt sudoku_exchange_diabolical.txt; do
  f=$D/$name
  [ -f "$f" ] || continue
  slice=() label=whole
  if [ "$(grep -cv '^\(#\|\s*$\)' "$f")" -gt 50000 ]; then slice=(--shard 1/8) label=1/8; fi
  r=() s=() c=()
  for _ in $(seq "$rounds"); do
    r+=("$(secs ok1 "$ours" rate -q --threads 1 "${slice[@]}" "${extra[@]}" --stats-json "$tmp/stats.json" -o /dev/null "$f")")
    /usr/bin/time -f '%U %S' -o "$tmp/cpu" "$ours" rate -q --threads 1 "${slice[@]}" "${extra[@]}" -o /dev/null "$f" || true
    c+=("$(tail -1 "$tmp/cpu" | awk '{print $1 + $2}')")
    s+=("$(secs ok1 "$ours" solve -q --unique --threads 1 "${slice[@]}" -o /dev/null "$f")")
  done
  rm_=$(printf '%s\n' "${r[@]}" | median); sm=$(printf '%s\n' "${s[@]}" | median)
  cm=$(printf '%s\n' "${c[@]}" | median)
  read -r n rated capped mean < <(python3 -c 'import json,sys; s=json.load(open(sys.argv[1])); print(s["records"], s["rated"], s["capped"], "%.2f" % (s["er_mean"] or 0))' "$tmp/stats.json")
  cpu_rate=$(awk -v n="$n" -v c="$cm" 'BEGIN { if (c > 0) printf "%.0f", n / c; else print "-" }')
  printf '%-44s %8d %6s %10.0f %10.0f %10.2f %10s %8d %7d %6s\n' "$name" "$n" "$label" \
    "$(echo "$n / $rm_" | bc -l)" "$(echo "$n / $sm" | bc -l)" "$(echo "$sm / $rm_" | bc -l)" \
    "$cpu_rate" "$rated" "$capped" "$mean"
done
echo
} | tee -a "$out"
