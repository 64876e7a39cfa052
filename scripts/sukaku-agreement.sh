#!/bin/sh
# Agreement of the Sukaku ladders with the Sudoku Exchange bank's ratings and with Sukaku
# Explainer itself, on a stratified sample of the bank (scripts/bank-sample.py).
#
#   scripts/sukaku-agreement.sh [PER] [ORACLE_BIN]
#
# PER puzzles per bank rating value (default 100) from sudoku_exchange_hard.txt and
# sudoku_exchange_diabolical.txt (seed 2027, all values 2.5-9.3). Both ladders rate the whole
# sample (examples/rate_file.rs); their ER is compared with the bank's rating. Then, when
# ORACLE_BIN is given (a folder with the reference raters' wrappers `sukaku-bank` and
# `sukaku-rate`: Sukaku Explainer without UVWXYZ/TUVWXYZ-Wing, and its default set), Sukaku
# rates the puzzles each ladder did not cap, and ER/EP/ED and the hardest technique are
# compared (Sukaku on the capped ones, puzzles needing chains, would take hours).
# Output: scripts/rate-agreement.py's tables; work files in a temporary folder.
set -eu
per=${1:-100}
oracle=${2:-}
cargo build --release --quiet --example rate_file
bin=target/release/examples/rate_file
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 scripts/bank-sample.py --per "$per" --max 9.3 --seed 2027 > "$tmp/sample.txt"
echo "sample: $(wc -l < "$tmp/sample.txt") puzzles, up to $per per bank rating value"
for ladder in sukaku sukaku-default; do
    "$bin" --ladder "$ladder" "$tmp/sample.txt" > "$tmp/$ladder.ours" 2>/dev/null
    echo "== ladder $ladder against the bank's rating"
    python3 scripts/rate-agreement.py --bank --bands fine "$tmp/sample.txt" "$tmp/$ladder.ours" --show 20
done
[ -n "$oracle" ] || exit 0
for pair in sukaku:sukaku-bank sukaku-default:sukaku-rate; do
    ladder=${pair%%:*}
    rater=${pair#*:}
    awk '$NF != "capped" {print $1}' "$tmp/$ladder.ours" > "$tmp/$ladder.uncapped"
    "$oracle/$rater" "$tmp/$ladder.uncapped" "$tmp/$ladder.ref"
    echo "== ladder $ladder against $rater on the $(wc -l < "$tmp/$ladder.uncapped") puzzles it does not cap"
    python3 scripts/rate-agreement.py --bands fine "$tmp/$ladder.ref" "$tmp/$ladder.ours" --show 20
done
