#!/usr/bin/env bash
# Agreement of the se ladder with Sudoku Explainer 1.2.1.3 on chain puzzles, by rating band,
# and per-puzzle time against SE and skfr.
#
#   scripts/se-agreement.sh SE_CLASSES [SKFR] [whole]
#
# SE_CLASSES: SE 1.2.1.3 compiled as ../shared/RATING-NOTES.md says (javac -d SE_CLASSES);
# SKFR: skfr 2.0.2's binary (optional: its times). Samples, seed 20261203:
# - mixed: from each of seven datasets (Kaggle 3M and 9M, 17-clue, Norvig's top95 and
#   hardest, tdoku unbiased, the Exchange diabolical 500), up to 50 puzzles we rate 6.5 or
#   more (capped at 9.4 to pick them fast), every second one as a symmetry-shuffled copy
#   (`shuffle --seed 5`);
# - top1465 >= 9.0 shuffled: every second top1465 puzzle we rate 9.0 or more, shuffled
#   (`shuffle --seed 11`);
# - diabolical 150: 150 random lines of sudoku_exchange_diabolical.txt (seed 7);
# - with `whole`, all of top1465 as given (SE takes about 20 min on one core).
# SE and ours (examples/rate_file, one thread, no cap) rate each sample; rate-agreement.py
# compares ER/EP/ED by band (a capped rating of ours counts as a miss), rate-speed.py the
# times. Work files in a temporary folder.
set -eu
se=$1
skfr=${2:-}
whole=${3:-}
. scripts/lib.sh
need_datasets
scratch_dir
build_release
cargo build --release --quiet --example rate_file
rf=target/release/examples/rate_file
serate() {
    java -Xrs -Xmx1g -cp "$se" diuf.sudoku.test.serate --format="%g ED=%r/%p/%d %e" \
        --input="$1" --output="$2" > /dev/null 2>&1
}
for f in kaggle3m_radcliffe_sample_7034.csv puzzles2_17_clue norvig_top95.txt norvig_hardest.txt \
        tdoku_puzzles1_unbiased_first1000 sudoku_exchange_diabolical_500_with_solutions.txt \
        kaggle9m_vopani_random_10000.csv; do
    "$ours" rate "$D/$f" -q -f csv --threads 1 --max-rating 9.4 -o "$tmp/r_$f.csv" || true
done
"$ours" rate "$D/puzzles3_magictour_top1465" -q -f csv --threads 1 -o "$tmp/top.csv" || true
python3 - "$tmp" <<'PY'
import csv, random, sys
tmp = sys.argv[1]
random.seed(20261203)
names = ["kaggle3m_radcliffe_sample_7034.csv", "puzzles2_17_clue", "norvig_top95.txt",
         "norvig_hardest.txt", "tdoku_puzzles1_unbiased_first1000",
         "sudoku_exchange_diabolical_500_with_solutions.txt", "kaggle9m_vopani_random_10000.csv"]
with open(f"{tmp}/mix_orig.txt", "w") as orig, open(f"{tmp}/mix_toshuf.txt", "w") as shuf:
    for n in names:
        rows = [r for r in csv.DictReader(open(f"{tmp}/r_{n}.csv"))
                if r["status"] == "rated" and float(r["er"]) >= 6.5]
        for i, r in enumerate(random.sample(rows, min(50, len(rows)))):
            (orig if i % 2 == 0 else shuf).write(r["puzzle"].replace("0", ".")[:81] + "\n")
top = [r for r in csv.DictReader(open(f"{tmp}/top.csv")) if float(r["er"]) >= 9.0]
with open(f"{tmp}/top_hi.txt", "w") as f:
    f.write("".join(r["puzzle"][:81] + "\n" for r in top))
random.seed(7)
lines = [l for l in open("../shared/datasets/sudoku_exchange_diabolical.txt") if len(l.split()) == 3]
with open(f"{tmp}/dia150.txt", "w") as f:
    f.write("".join(l.split()[1] + "\n" for l in random.sample(lines, 150)))
PY
"$ours" shuffle --seed 5 -q "$tmp/mix_toshuf.txt" -o "$tmp/mix_shuf.txt"
cat "$tmp/mix_orig.txt" "$tmp/mix_shuf.txt" > "$tmp/mixed.txt"
"$ours" shuffle --seed 11 -q "$tmp/top_hi.txt" | awk 'NR % 2 == 1' > "$tmp/top_shuffled.txt"
samples="mixed top_shuffled dia150"
[ "$whole" = whole ] && { grep -v '^#' "$D/puzzles3_magictour_top1465" | cut -c1-81 > "$tmp/top1465.txt"; samples="$samples top1465"; }
results_header "se-agreement.sh, SE 1.2.1.3 (1to9only/SudokuExplainer 729c00e), skfr 2.0.2"
for s in $samples; do
    serate "$tmp/$s.txt" "$tmp/$s.se"
    "$rf" "$tmp/$s.txt" > "$tmp/$s.ours" 2>/dev/null
    echo "== $s: $(wc -l < "$tmp/$s.txt") puzzles, ER/EP/ED against SE 1.2.1.3 (capped counts as a miss)"
    python3 scripts/rate-agreement.py --bands chains --cap-from 99 "$tmp/$s.se" "$tmp/$s.ours" --show 10
    if [ -n "$skfr" ]; then
        cp "$tmp/$s.txt" "$tmp/sk_$s.txt"
        (cd "$tmp" && "$skfr" --input="sk_$s" -e > /dev/null 2>&1) || true
        echo "== $s: per-puzzle time, one thread (ms)"
        python3 scripts/rate-speed.py "$tmp/$s.se" --skfr "$tmp/sk_${s}_rat.txt" --repeat 3
    fi
done
