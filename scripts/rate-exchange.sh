#!/usr/bin/env bash
# A whole Sudoku Exchange bank file through `rate` with 2 threads, for each ladder: wall time
# and peak RSS (/usr/bin/time -v), then agreement of ER with the bank's own rating (the last
# field of each line; the bank was rated with Sukaku Explainer's default set, so `sukaku` is
# the ladder it should match and `se` shows how far SE 1.2.1.3 is from it), by bank rating:
# puzzles, ER equal, capped (ER a lower bound), rated lower, rated higher.
#
#   scripts/rate-exchange.sh [FILE] [-- RATE ARGS...]    default FILE: sudoku_exchange_hard.txt
#   LADDERS=sukaku scripts/rate-exchange.sh              one ladder only (default: sukaku se)
#
# Results are appended to scripts/results/rate-exchange.txt.
set -euo pipefail
cd "$(dirname "$0")/.."
file=${1:-../shared/datasets/sudoku_exchange_hard.txt}
shift || true
[ "${1:-}" = "--" ] && shift
extra=("$@")
[ -f "$file" ] || { echo "skipped: $file is absent" >&2; exit 0; }
. scripts/lib.sh
build_release
scratch_dir
out=scripts/results/rate-exchange.txt

{
results_header "$(basename "$file"), rate --threads 2 ${extra[*]:-}"
for ladder in ${LADDERS:-sukaku se}; do
  /usr/bin/time -v "$ours" rate -q --threads 2 --ladder "$ladder" "${extra[@]}" -o "$tmp/$ladder.txt" "$file" 2> "$tmp/time.txt" || true
  wall=$(grep 'Elapsed (wall clock)' "$tmp/time.txt" | awk '{print $NF}')
  rss=$(grep 'Maximum resident set size' "$tmp/time.txt" | awk '{print $NF}')
  user=$(grep 'User time' "$tmp/time.txt" | awk '{print $NF}')
  sys=$(grep 'System time' "$tmp/time.txt" | awk '{print $NF}')
  cpu=$(echo "$user + $sys" | bc -l)
  echo "## ladder $ladder: wall $wall, CPU $cpu s (user $user, sys $sys), peak RSS $((rss / 1024)) MiB"
  python3 - "$file" "$tmp/$ladder.txt" <<'EOF'
import sys
from collections import defaultdict
bank_lines = open(sys.argv[1]).read().split("\n")
ours = open(sys.argv[2]).read().split("\n")
bank_lines = [l for l in bank_lines if l.strip()]
ours = [l for l in ours if l]
assert len(bank_lines) == len(ours), (len(bank_lines), len(ours))
t = lambda s: round(float(s) * 10)
rows = defaultdict(lambda: [0, 0, 0, 0, 0])  # puzzles, equal, capped, lower, higher
for line, rated in zip(bank_lines, ours):
    bank = t(line.split()[-1])
    r = rows[bank]
    r[0] += 1
    if "/" not in rated:
        continue  # not rated: counted in no column (none expected)
    er = t(rated.split("/")[0])
    if rated.endswith(" capped"):
        r[2] += 1
    elif er == bank:
        r[1] += 1
    elif er < bank:
        r[3] += 1
    else:
        r[4] += 1
print(f"{'bank':>5} {'puzzles':>8} {'equal':>8} {'%':>6} {'capped':>8} {'lower':>7} {'higher':>7}")
tot = [0] * 5
for bank in sorted(rows):
    r = rows[bank]
    tot = [a + b for a, b in zip(tot, r)]
    print(f"{bank / 10:>5.1f} {r[0]:>8} {r[1]:>8} {100 * r[1] / r[0]:>6.1f} {r[2]:>8} {r[3]:>7} {r[4]:>7}")
print(f"{'all':>5} {tot[0]:>8} {tot[1]:>8} {100 * tot[1] / tot[0]:>6.1f} {tot[2]:>8} {tot[3]:>7} {tot[4]:>7}")
uncapped = tot[0] - tot[2]
print(f"capped: {tot[2]} of {tot[0]} ({100 * tot[2] / tot[0]:.1f}%)")
if uncapped:
    print(f"of the {uncapped} not capped: {tot[1]} equal to the bank ({100 * tot[1] / uncapped:.1f}%), {tot[3]} lower, {tot[4]} higher")
EOF
done
echo
} | tee -a "$out"
