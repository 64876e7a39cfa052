#!/usr/bin/env bash
# Writes what every command prints, in every output format and with the options that change
# the output, into one folder: run it with two builds and `diff -r` the folders to show that a
# change left every output byte-identical (or exactly what it changed).
#
#   scripts/output-snapshot.sh BINARY DIR [DATASETS]
#   diff -r before/ after/
#
# DATASETS (default ../shared/datasets) adds samples of the public sets (rated with --steps in
# both ladders, shuffled copies included); without it only the repository's own fixtures run.
# Timings and the run's date are taken out of summaries (`--stats-json`) before they are kept.
set -uo pipefail
cd "$(dirname "$0")/.."

bin=${1:?usage: scripts/output-snapshot.sh BINARY DIR [DATASETS]}
out=${2:?usage: scripts/output-snapshot.sh BINARY DIR [DATASETS]}
data=${3:-../shared/datasets}
mkdir -p "$out"
out=$(cd "$out" && pwd)
# Inputs made here keep one relative path, and the binary one name, in whatever is printed.
tmp=target/snapshot-inputs
rm -rf "$tmp"
mkdir -p "$tmp"
cp "$bin" "$tmp/sudoku-batch"
bin=$tmp/sudoku-batch

# One output: NAME, then the command's arguments; stdout, stderr and the exit code are kept.
# stderr is kept only with -q (no progress bar, no timings).
run() {
  local name=$1
  shift
  "$bin" "$@" >"$out/$name.out" 2>"$tmp/err"
  echo "exit $?" >"$out/$name.code"
  if printf '%s\n' "$@" | grep -qx -- '-q\|--quiet'; then cp "$tmp/err" "$out/$name.err"; fi
}

# A --stats-json summary without what differs from run to run.
stats() {
  local name=$1
  shift
  "$bin" "$@" -q --stats-json "$tmp/stats.json" >/dev/null 2>&1
  python3 - "$tmp/stats.json" >"$out/$name.stats" <<'PY'
import json, sys
def strip(v):
    if isinstance(v, dict):
        return {k: strip(x) for k, x in v.items()
                if not any(w in k for w in ("seconds", "per_sec", "elapsed", "time", "date",
                                            "threads", "version", "commit", "cpu", "host", "started"))}
    if isinstance(v, list):
        return [strip(x) for x in v]
    return v
try:
    print(json.dumps(strip(json.load(open(sys.argv[1]))), indent=1, sort_keys=True))
except OSError:
    print("absent")
PY
}

fx=tests/fixtures
mixed="$fx/mixed.txt $fx/golden.txt $fx/bad/good-and-bad.txt $fx/bad/unsolvable.txt $fx/bad/duplicate-clues.txt"
kaggle="$fx/kaggle1m.csv $fx/kaggle3m.csv $fx/kaggle9m.csv"
hard=datasets/generated-hard-1k.txt
head -n 300 datasets/generated-easy-10k.csv >"$tmp/easy.csv"
head -n 60 $hard >"$tmp/hard60.txt"

for f in line csv jsonl; do
  for alg in fast jcz bands hybrid; do
    run "solve-$alg-$f" solve -q -j 2 -a "$alg" -f "$f" $mixed
  done
  # The baselines take seconds to minutes on an unsolvable puzzle: solvable ones only.
  for alg in naive mrv; do
    run "solve-$alg-$f" solve -q -a "$alg" -f "$f" "$fx/golden.txt" "$fx/bad/duplicate-clues.txt"
  done
  run "solve-limit3-$f" solve -q -j 2 --limit 3 -f "$f" $mixed
  run "solve-unique-$f" solve -q --unique -f "$f" "$tmp/easy.csv" "$tmp/hard60.txt"
  run "rate-$f" rate -q -j 2 -f "$f" $mixed "$tmp/hard60.txt"
  run "rate-sukaku-$f" rate -q -j 2 --ladder sukaku -f "$f" "$tmp/hard60.txt"
  run "rate-max-$f" rate -q --max-rating 4.0 -f "$f" "$tmp/hard60.txt"
  run "canon-$f" canon -q -f "$f" $mixed "$tmp/hard60.txt"
  for k in $kaggle; do
    b=$(basename "$k" .csv)
    run "solve-$b-$f" solve -q -f "$f" "$k"
    run "rate-$b-$f" rate -q -f "$f" "$k"
  done
done
for f in csv jsonl; do
  for k in $kaggle; do
    b=$(basename "$k" .csv)
    run "solve-pass-$b-$f" solve -q --passthrough -f "$f" "$k"
    run "rate-pass-$b-$f" rate -q --passthrough -f "$f" "$k"
    run "solve-empty-$b-$f" solve -q --empty . -f "$f" "$k"
  done
  run "solve-noheader-$f" solve -q --no-header -f "$f" $mixed
done
run rate-steps rate -q -j 2 --steps $mixed "$tmp/hard60.txt"
run rate-steps-sukaku rate -q -j 2 --steps --ladder sukaku "$tmp/hard60.txt"
run solve-blocks solve -q --input-format block "$fx/blocks.txt"
run solve-board solve -q --input-format board "$fx/leetcode_board.txt"
run solve-shard solve -q --shard 2/3 "$tmp/hard60.txt"
for bad in "$fx"/bad/*; do
  b=$(basename "$bad")
  run "solve-bad-$b" solve -q -f csv "$bad"
  run "rate-bad-$b" rate -q -f csv "$bad"
  run "verify-bad-$b" verify -q "$bad"
done
for f in text csv jsonl; do
  for k in $kaggle; do
    b=$(basename "$k" .csv)
    run "verify-$b-$f" verify -q -f "$f" "$k"
  done
  run "verify-dup-$f" verify -q -f "$f" --duplicates=canonical --no-unique $mixed "$tmp/hard60.txt" "$tmp/hard60.txt"
  run "verify-against-$f" verify -q -f "$f" --against "$tmp/hard60.txt" "$fx/golden.txt" "$tmp/hard60.txt"
done
run shuffle shuffle -q --seed 7 --copies 3 "$tmp/hard60.txt"
run shuffle-solutions shuffle -q --seed 7 --with-solutions "$fx/kaggle1m.csv"
run generate generate -q --seed 7 --count 40
run generate-solutions generate -q --seed 7 --count 10 --with-solutions --clues 24..30
run generate-minimal generate -q --seed 2 --count 10 --minimal
run generate-rated generate -q --seed 3 --count 5 --rating 2.0..4.0
run generate-rated-sukaku generate -q --seed 3 --count 3 --rating 4.0..6.0 --ladder sukaku
run generate-guesses generate -q --seed 5 --count 20 --min-guesses 3
run man man
run completions-bash completions bash
for c in "" solve verify rate generate shuffle canon bench plot man completions; do
  run "help-${c:-main}" $c --help
done
stats stats-solve solve $mixed "$tmp/hard60.txt"
stats stats-rate rate $mixed "$tmp/hard60.txt"
stats stats-verify verify $kaggle
stats stats-canon canon "$tmp/hard60.txt"

if [ -d "$data" ]; then
  top="$data/puzzles3_magictour_top1465"
  awk 'NR % 9 == 1' "$top" >"$tmp/top.txt"
  "$bin" shuffle -q --seed 5 "$tmp/top.txt" >"$tmp/top-shuffled.txt"
  awk 'NR % 600 == 1' "$data/sudoku_exchange_diabolical.txt" | cut -c14-94 >"$tmp/dia.txt"
  head -n 2000 "$data/kaggle1m_sample_first24997.csv" >"$tmp/k1m.csv"
  head -n 2000 "$data/kaggle9m_vopani_random_10000.csv" >"$tmp/k9m.csv"
  run data-rate-steps-top rate -q -j 2 --steps "$tmp/top.txt"
  run data-rate-steps-top-shuffled rate -q -j 2 --steps "$tmp/top-shuffled.txt"
  run data-rate-steps-dia-sukaku rate -q -j 2 --steps --ladder sukaku "$tmp/dia.txt"
  run data-rate-steps-dia rate -q -j 2 --steps "$tmp/dia.txt"
  run data-rate-k1m rate -q -j 2 -f csv --passthrough "$tmp/k1m.csv"
  run data-solve-k9m solve -q -j 2 -f jsonl --passthrough "$tmp/k9m.csv"
  run data-verify-k9m verify -q -f csv "$tmp/k9m.csv"
  run data-canon-top canon -q -f csv "$tmp/top-shuffled.txt"
  stats data-stats-rate rate "$tmp/top.txt"
fi
echo "$(ls "$out" | wc -l) files in $out"
