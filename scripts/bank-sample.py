#!/usr/bin/env python3
"""A stratified sample of the Sudoku Exchange bank: up to N puzzles per rating value.

    scripts/bank-sample.py [--per 100] [--min 0] [--max 6.4] [--seed 2027] [--datasets DIR] > SAMPLE

Reads sudoku_exchange_hard.txt and sudoku_exchange_diabolical.txt (`HASH PUZZLE RATING`
lines) from DIR (default ../shared/datasets), keeps ratings from --min up to --max (the
diabolical file alone holds 5.0 and up), and draws up to
--per puzzles per rating value with one random generator per value, seeded "SEED:VALUE" (so
adding a value never moves the others). Prints `PUZZLE RATING` lines, by rating then file
order: the puzzle first, as rate_file and the reference raters read it, the bank's rating
last, as scripts/rate-agreement.py --bank reads it.
"""
import argparse
import os
import random
import sys


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--per", type=int, default=100)
    ap.add_argument("--min", type=float, default=0.0)
    ap.add_argument("--max", type=float, default=6.4)
    ap.add_argument("--seed", default="2027")
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--datasets", default=os.path.join(here, "..", "..", "shared", "datasets"))
    args = ap.parse_args()
    by_value = {}
    for name in ("sudoku_exchange_hard.txt", "sudoku_exchange_diabolical.txt"):
        path = os.path.join(args.datasets, name)
        if not os.path.exists(path):
            sys.exit(f"bank-sample: {path}: not found")
        with open(path) as f:
            for line in f:
                parts = line.split()
                if len(parts) != 3 or len(parts[1]) != 81:
                    continue
                if args.min - 1e-9 <= float(parts[2]) <= args.max + 1e-9:
                    by_value.setdefault(parts[2], []).append(parts[1])
    for value in sorted(by_value, key=float):
        puzzles = by_value[value]
        rng = random.Random(f"{args.seed}:{value}")
        picked = sorted(rng.sample(range(len(puzzles)), min(args.per, len(puzzles))))
        for i in picked:
            print(puzzles[i], value)


if __name__ == "__main__":
    main()
