#!/bin/sh
# Agreement of both ladders with the reference raters on every sample that has a reference,
# by SE rating band (see scripts/rate-agreement.py for the columns).
#   scripts/rate-agreement-all.sh ORACLE_DIR [SHOW]
# ORACLE_DIR holds samples/NAME.txt (puzzle lines, first 81 characters) and ref/NAME.se.txt
# (SE 1.2.1.3), ref/NAME.sukaku.txt (Sukaku Explainer default set, the bank's rating as the last
# field) in the layout PUZZLE ER/EP/ED HARDEST SECONDS [BANK].
set -eu
oracle=${1:?usage: rate-agreement-all.sh ORACLE_DIR [SHOW]}
show=${2:-0}
cargo build --release --quiet --example rate_file
bin=target/release/examples/rate_file
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for ref in "$oracle"/ref/*.se.txt "$oracle"/ref/*.sukaku.txt; do
    [ -e "$ref" ] || continue
    base=$(basename "$ref" .txt)
    name=${base%.*}
    ladder=${base##*.}
    sample="$oracle/samples/$name.txt"
    [ -e "$sample" ] || continue
    cut -c1-81 "$sample" > "$tmp/in.txt"
    "$bin" --ladder "$ladder" "$tmp/in.txt" > "$tmp/ours.txt" 2>/dev/null
    echo "== $name, ladder $ladder, against $(basename "$ref")"
    cap=6.5
    [ "$ladder" = se ] && cap=9.0
    python3 scripts/rate-agreement.py --cap-from "$cap" "$ref" "$tmp/ours.txt" --show "$show"
    if [ "$ladder" = sukaku ]; then
        echo "== $name, ladder sukaku, against the bank's rating"
        python3 scripts/rate-agreement.py --bank --bands fine "$ref" "$tmp/ours.txt" --show "$show"
    fi
done
