#!/usr/bin/env bash
# Solve-only throughput of two or more binaries, alternating: R rounds of
# `BIN bench --threads 1 --seconds SECS --json --limit L FILE` for each binary in turn; prints
# each binary's median puzzles/s and the median (and sorted list) of its per-round ratio to the
# first binary. On a noisy VM, alternating and taking pairwise ratios is what makes a few
# percent visible at all.
#
#   SECS=0.5 scripts/ab-bench.sh ROUNDS FILE LIMIT BIN_A BIN_B [BIN_C ...]
set -euo pipefail
rounds=$1 file=$2 limit=$3
shift 3
for i in $(seq "$rounds"); do
  for b in "$@"; do
    v=$("$b" bench --threads 1 --seconds "${SECS:-1}" --json --limit "$limit" "$file" |
      grep -o '"puzzles_per_sec":[0-9.]*' | cut -d: -f2)
    echo "$b $i $v"
  done
done | python3 -c '
import collections, statistics, sys
runs, order = collections.defaultdict(dict), []
for line in sys.stdin:
    b, i, v = line.split()
    runs[b][i] = float(v)
    if b not in order:
        order.append(b)
for b in order:
    r = [runs[b][i] / runs[order[0]][i] for i in runs[b]]
    print("%-32s median %10.0f/s  ratio to first: median %.3f  %s" % (
        b, statistics.median(runs[b].values()), statistics.median(r), sorted(round(x, 3) for x in r)))
'
