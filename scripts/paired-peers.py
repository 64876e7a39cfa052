#!/usr/bin/env python3
"""Solve-only throughput against the `sudoku` crate and tdoku, paired round by round.

    scripts/paired-peers.py [--rounds R] [--limit 1|2] [--tdoku BIN] [--isomorphs SEED] FILE...

The same measurements as ../shared/peers/compare.sh (our `bench --threads 1`, the crate's
`peer-sudoku bench FILE 1 LIMIT`, tdoku's `run_benchmark -r 0 ... -c 1` on exactly the same
puzzles), but each round runs the solvers one right after the other (the order rotating from
round to round) and takes the ratios within the round; it prints the medians of those
ratios and their range. On this shared VM the machine's speed drifts by 10-20% over minutes:
a ratio of two medians taken minutes apart moves with it, a ratio within a round much less.
compare.sh's medians of the rates stay the reference; this tells whether a cell near 1.0 is
above or below it.

Run from the repository root; builds our release binary from the working tree (so do not edit
the source while it runs) and the crate's peer (into $TMPDIR/peer-sudoku-target, as
compare.sh does).
"""
import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile


def build():
    subprocess.run(["cargo", "build", "--quiet", "--release"], check=True)
    meta = subprocess.run(["cargo", "metadata", "--format-version", "1", "--no-deps"],
                          check=True, capture_output=True, text=True).stdout
    ours = os.path.join(json.loads(meta)["target_directory"], "release", "sudoku-batch")
    peer_dir = os.path.join(tempfile.gettempdir(), "peer-sudoku-target")
    subprocess.run(["cargo", "build", "--quiet", "--release", "--locked", "--manifest-path",
                    "../shared/peers/peer-sudoku/Cargo.toml"],
                   check=True, env={**os.environ, "CARGO_TARGET_DIR": peer_dir})
    return ours, os.path.join(peer_dir, "release", "peer-sudoku")


def run(cmd):
    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--limit", type=int, default=1, choices=[1, 2])
    ap.add_argument("--tdoku")
    ap.add_argument("--isomorphs", type=int)
    ap.add_argument("files", nargs="+")
    args = ap.parse_args()
    ours, peer = build()
    work = tempfile.mkdtemp()  # the shuffled copies; removed at the end
    try:
        measure(args, ours, peer, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def measure(args, ours, peer, work):
    solvers = {
        "ours": lambda f, n: json.loads(run([ours, "bench", "--threads", "1", "--limit",
                                             str(args.limit), "--json", f]).splitlines()[0])
        ["puzzles_per_sec"],
        "crate": lambda f, n: float(re.search(r"puzzles_per_sec=([0-9.]+)",
                                              run([peer, "bench", f, "1", str(args.limit)]))[1]),
    }
    if args.tdoku:
        first = ["-f"] if args.limit == 1 else []

        def tdoku(f, n):
            out = run([args.tdoku, "-r", "0", "-n", str(n), "-t", "2", "-w", "1", *first,
                       "-c", "1", f])
            return float(next(l for l in out.splitlines() if ",tdoku," in l).split(",")[5])
        solvers["tdoku"] = tdoku
    cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo")
                if l.startswith("model name")), "?")
    print(f"# {run(['date', '-u', '+%F %H:%M']).strip()} UTC, {cpu}, {os.cpu_count()} cores; "
          f"limit {args.limit}, {args.rounds} rounds, 1 thread; "
          f"{run([ours, '--version']).splitlines()[0]}")
    peers = [s for s in solvers if s != "ours"]
    print(f"{'dataset':44s} {'ours p/s':>10s}" + "".join(
        f" {p + ' p/s':>11s} {'ours/' + p:>11s} {'(range)':>13s}" for p in peers))
    for f in args.files:
        name = os.path.basename(f)
        if args.isomorphs is not None:
            copy = os.path.join(work, name)
            with open(copy, "w") as out:
                subprocess.run([ours, "shuffle", "--quiet", "--seed", str(args.isomorphs), f],
                               check=True, stdout=out)
            name += f" (isomorphs, seed {args.isomorphs})"
            f = copy
        n = sum(1 for l in open(f) if not l.startswith("#"))
        rates = {s: [] for s in solvers}
        ratios = {p: [] for p in peers}
        order = list(solvers)
        for r in range(args.rounds):
            got = {}
            for s in order[r % len(order):] + order[:r % len(order)]:
                got[s] = solvers[s](f, n)
                rates[s].append(got[s])
            for p in peers:
                ratios[p].append(got["ours"] / got[p])
        line = f"{name:44s} {statistics.median(rates['ours']):10.0f}"
        for p in peers:
            lo, hi = min(ratios[p]), max(ratios[p])
            line += (f" {statistics.median(rates[p]):11.0f} {statistics.median(ratios[p]):11.3f}"
                     f" {f'{lo:.2f}-{hi:.2f}':>13s}")
        print(line, flush=True)


if __name__ == "__main__":
    sys.exit(main())
