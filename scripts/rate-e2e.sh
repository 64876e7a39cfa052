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
# the table).
#
# Then, against Sudoku Explainer 1.2.1.3 (the oracle, in $ORACLE, default ../oracle; skipped
# when absent): per-puzzle CPU time of `rate` (default ladder, no cap, RATE ARGS not applied)
# on the oracle's samples (easy, medium, hard and diabolical Sudoku Exchange puzzles, 17-clue,
# tdoku, top1465), beside SE's CPU time on the same puzzles, read from the oracle's se-rate
# output with its CPU column (raw/se-rate-rerun/, raw/se-rate/); with SE_RERUN=1, se-rate is
# run again on each sample first (ORACLE_CPU_COLUMN=1; minutes per hard sample). See
# scripts/rate-vs-se.py for the columns.
#
# Results are appended to scripts/results/rate-e2e.txt.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3}
shift || true
[ "${1:-}" = "--" ] && shift
extra=("$@")
. scripts/lib.sh
need_datasets
build_release
scratch_dir
out=scripts/results/rate-e2e.txt
# Exit code 1 (some records not rated: serg's puzzles have several solutions) is a result.
ok1() { "$@" || [ $? -eq 1 ]; }

{
results_header "1 thread, median of $rounds, rate ${extra[*]:-(defaults)}"
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
oracle=${ORACLE:-../oracle}
if [ -d "$oracle/raw" ]; then
  echo "# against SE 1.2.1.3 (rating thread's CPU, JVM start excluded), commit $(commit_label), $(cpu_label), 1 thread, rate (defaults)"
  raws=()
  for s in se-rate-rerun/ex_easy500 se-rate-rerun/ex_medium500 se-rate-rerun/ex_hard500 \
    se-rate/ex_hard_strat se-rate/ex_diab_strat se-rate-rerun/17clue_300 se-rate-rerun/kaggle9m_300 \
    se-rate/tdoku1000 se-rate/top1465_200; do
    raw=$oracle/raw/$s.txt
    if [ "${SE_RERUN:-0}" = 1 ] && [ -f "$oracle/samples/${s#*/}.txt" ]; then
      raw=$tmp/${s#*/}.txt
      ORACLE_CPU_COLUMN=1 "$oracle/bin/se-rate" "$oracle/samples/${s#*/}.txt" "$raw"
    fi
    [ -f "$raw" ] && raws+=("$raw")
  done
  python3 scripts/rate-vs-se.py "$ours" "${raws[@]}"
  echo
else
  echo "# SE 1.2.1.3 comparison skipped: no oracle in $oracle (set ORACLE)" >&2
fi
} | tee -a "$out"
