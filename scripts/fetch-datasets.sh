#!/usr/bin/env bash
# Download the openly downloadable public puzzle sets into datasets/public/ and check their
# sha256. Kaggle sets need a login: the script prints how to get them.
#
#   scripts/fetch-datasets.sh [--dry-run]
set -euo pipefail
cd "$(dirname "$0")/.."
dry=0
[ "${1:-}" = "--dry-run" ] && dry=1
out=datasets/public

# name | URL | sha256 of the file (of each extracted file for archives: see below)
downloads=(
  "sudoku_exchange_hard.txt|https://raw.githubusercontent.com/grantm/sudoku-exchange-puzzle-bank/master/hard.txt|abcff1512411e601abd5e861c60add5be5d877739b6faa249ee86960f5ad85e9"
  "sudoku_exchange_diabolical.txt|https://raw.githubusercontent.com/grantm/sudoku-exchange-puzzle-bank/master/diabolical.txt|08553d0c1145ea4d7c13008040f47ea8205d21fe1eaf8f4ab17a1a6981928b35"
  "sudoku_exchange_easy.txt|https://raw.githubusercontent.com/grantm/sudoku-exchange-puzzle-bank/master/easy.txt|-"
  "sudoku_exchange_medium.txt|https://raw.githubusercontent.com/grantm/sudoku-exchange-puzzle-bank/master/medium.txt|-"
  "tdoku-data.zip|https://github.com/t-dillon/tdoku/raw/master/data.zip|-"
)
# Files inside tdoku's data.zip and their sha256 (checked after extraction).
tdoku_files=(
  "puzzles2_17_clue|2cf268735dfd40d32269b5f20ebbea067037e5976b4d016ce0b4d3c0a50deb30"
  "puzzles3_magictour_top1465|ca0369f516dac7dfdd987d2c310ac33dcfc7478db5171bea5bca1f3878758bce"
  "puzzles5_forum_hardest_1905_11+|56236eaf6c7445ea244db3423ec44a102349dbedf6e457af0fcdd3d07cf39996"
  "puzzles6_forum_hardest_1106|45d0afc5892d6797621d7c00f518df8f1483eceb921416984b8687e16128eb06"
  "puzzles7_serg_benchmark|5468125857f02cb1e9b1fc6ba36ac88dc8d75afa47bc030c507cdfefbfe0eeaa"
)

check() { # check FILE SHA256 ('-' = no published checksum)
  if [ "$2" = "-" ]; then
    echo "  $1: no published checksum; sha256 $(sha256sum "$1" | cut -d' ' -f1)"
  elif echo "$2  $1" | sha256sum --check --status; then
    echo "  $1: sha256 ok"
  else
    echo "  $1: sha256 MISMATCH (expected $2)" >&2
    return 1
  fi
}

echo "Into $out/:"
for d in "${downloads[@]}"; do
  IFS='|' read -r name url sum <<< "$d"
  echo "- $name  <-  $url  (sha256 ${sum})"
done
for t in "${tdoku_files[@]}"; do
  IFS='|' read -r name sum <<< "$t"
  echo "- $name (from tdoku-data.zip)  (sha256 $sum)"
done
cat <<'MSG'
Not fetched (a Kaggle login is needed): Kaggle 1M (bryanpark/sudoku), 3M
(radcliffe/3-million-sudoku-puzzles-with-ratings), 9M (rohanrao/sudoku). With the kaggle CLI
and a token in ~/.kaggle/kaggle.json:
  kaggle datasets download -d rohanrao/sudoku -p datasets/public --unzip
MSG
[ "$dry" = 1 ] && exit 0

mkdir -p "$out"
status=0
for d in "${downloads[@]}"; do
  IFS='|' read -r name url sum <<< "$d"
  curl -fL --retry 3 -o "$out/$name" "$url"
  check "$out/$name" "$sum" || status=1
done
(cd "$out" && unzip -o -q tdoku-data.zip)
for t in "${tdoku_files[@]}"; do
  IFS='|' read -r name sum <<< "$t"
  f=$(find "$out" -name "$name" -type f | head -1)
  if [ -z "$f" ]; then echo "  $name: not found in data.zip" >&2; status=1; continue; fi
  check "$f" "$sum" || status=1
done
exit $status
