#!/usr/bin/env bash
# verify vs `solve --limit 2` on the same file, side by side, median of R rounds (default 5).
#
#   scripts/verify-throughput.sh [FILE] [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/.."
f=${1:-../shared/datasets/kaggle1m_sample_first24997.csv}
rounds=${2:-5}
. scripts/lib.sh
build_release
read -r sm vm < <(pair_medians "$rounds" "'$ours' solve -q --limit 2 '$f'" "'$ours' verify -q '$f'")
n=$("$ours" solve -q "$f" | wc -l)
printf '%s: %d records; solve --limit 2 %.3f s (%.0f/s); verify %.3f s (%.0f/s); verify/solve throughput %.3f\n' \
  "$(basename "$f")" "$n" "$sm" "$(echo "$n / $sm" | bc -l)" "$vm" "$(echo "$n / $vm" | bc -l)" "$(echo "$sm / $vm" | bc -l)"
