#!/bin/sh
# Agreement of the Sukaku ladders with the Sudoku Exchange bank's ratings and with Sukaku
# Explainer itself, on a stratified sample of the bank (scripts/bank-sample.py).
#
#   scripts/sukaku-agreement.sh [PER] [ORACLE_BIN] [MIN]
#
# PER puzzles per bank rating value (default 100) from sudoku_exchange_hard.txt and
# sudoku_exchange_diabolical.txt (seed 2027, values MIN-9.3; MIN 5.0 keeps the diabolical
# file alone, default 0: all values 2.5-9.3). Both ladders rate the whole sample
# (examples/rate_file.rs); their ER is compared with the bank's rating, one row per bank
# rating value (puzzles, equal, capped, lower, higher). Then, when ORACLE_BIN is given (a
# folder with the reference raters' wrappers `sukaku-bank` and `sukaku-rate`: Sukaku
# Explainer without UVWXYZ/TUVWXYZ-Wing, and its default set, each `IN OUT`), Sukaku rates
# the puzzles where a ladder's ER differs from the bank's, and ER/EP/ED and the hardest
# technique are compared there.
# Output: scripts/rate-agreement.py's tables; work files in a temporary folder.
set -eu
per=${1:-100}
oracle=${2:-}
min=${3:-0}
cargo build --release --quiet --example rate_file
bin=target/release/examples/rate_file
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 scripts/bank-sample.py --per "$per" --min "$min" --max 9.3 --seed 2027 > "$tmp/sample.txt"
echo "sample: $(wc -l < "$tmp/sample.txt") puzzles, up to $per per bank rating value from $min"
for ladder in sukaku sukaku-default; do
    "$bin" --ladder "$ladder" "$tmp/sample.txt" > "$tmp/$ladder.ours" 2>/dev/null
    echo "== ladder $ladder against the bank's rating"
    python3 scripts/rate-agreement.py --bank --bands value "$tmp/sample.txt" "$tmp/$ladder.ours" --show 20
done
[ -n "$oracle" ] || exit 0
for pair in sukaku:sukaku-bank sukaku-default:sukaku-rate; do
    ladder=${pair%%:*}
    rater=${pair#*:}
    paste -d' ' "$tmp/sample.txt" "$tmp/$ladder.ours" |
        awk '{split($4, r, "/"); if (r[1] != $2 || $NF == "capped") print $1}' > "$tmp/$ladder.differ"
    "$oracle/$rater" "$tmp/$ladder.differ" "$tmp/$ladder.ref"
    echo "== ladder $ladder against $rater on the $(wc -l < "$tmp/$ladder.differ") puzzles where it differs from the bank"
    python3 scripts/rate-agreement.py --bands fine --cap-from 9.0 "$tmp/$ladder.ref" "$tmp/$ladder.ours" --show 20
done
