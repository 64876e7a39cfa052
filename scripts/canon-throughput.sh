#!/usr/bin/env bash
# `canon --threads 1` vs `solve --threads 1` on the same files, side by side in one run,
# median of R rounds (default 5): puzzles/s of each and the time ratio canon/solve.
#
#   scripts/canon-throughput.sh [ROUNDS] [FILE...]
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-5}
shift || true
files=("$@")
if [ ${#files[@]} -eq 0 ]; then
  files=(../shared/datasets/puzzles2_17_clue ../shared/datasets/kaggle1m_sample_first24997.csv)
fi
. scripts/lib.sh
build_release
for f in "${files[@]}"; do
  [ -e "$f" ] || { echo "skipped: $f is absent"; continue; }
  read -r sm cm < <(pair_medians "$rounds" "'$ours' solve -q --threads 1 '$f'" "'$ours' canon -q --threads 1 '$f'")
  n=$("$ours" canon -q --threads 1 "$f" | wc -l)
  printf '%s: %d records, 1 thread; solve %.3f s (%.0f/s); canon %.3f s (%.0f/s); canon/solve time %.2f\n' \
    "$(basename "$f")" "$n" "$sm" "$(echo "$n / $sm" | bc -l)" "$cm" "$(echo "$n / $cm" | bc -l)" "$(echo "$cm / $sm" | bc -l)"
done
