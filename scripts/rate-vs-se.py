#!/usr/bin/env python3
"""Per-puzzle CPU time of `sudoku-batch rate` against Sudoku Explainer 1.2.1.3 on the same puzzles.

    scripts/rate-vs-se.py BINARY SE_RAW... [--ratings N]

SE_RAW: the oracle's se-rate output with the CPU column (`PUZZLE ER/EP/ED HARDEST WALL CPU`,
made with ORACLE_CPU_COLUMN=1): CPU seconds of SE's rating thread per puzzle, JVM start
excluded. The first puzzle of each file (SE's JIT warm-up, 20-100x its median) and puzzles SE
did not rate (0.0) are left out. Ours: `BINARY rate -q --threads 1` (default ladder, no cap)
over the same puzzles, repeated to about N ratings (default 10,000), CPU time (user + sys,
from wait4) of the whole process divided by the ratings: end to end, reading, the uniqueness
solve and writing included; median of 3 runs. `capped` puzzles need a technique the engine
lacks (chains, 6.5 and up): ours stops there, SE goes on, so the uncapped columns compare the
same work.
"""
import argparse, os, statistics, subprocess, sys, tempfile


def read_se(path):
    rows = []
    for i, line in enumerate(open(path)):
        f = line.split()
        if i == 0 or len(f) < 5 or "/" not in f[1]:
            continue
        er = f[1].split("/")[0]
        if er in ("0.0", "20.0"):
            continue
        rows.append((f[0][:81], er, float(f[4])))
    return rows


def cpu_of(binary, path):
    """CPU seconds of one `rate` run over `path` (median of 3)."""
    times = []
    for _ in range(3):
        with open(os.devnull, "wb") as null:
            p = subprocess.Popen([binary, "rate", "-q", "--threads", "1", path], stdout=null)
            _, status, usage = os.wait4(p.pid, 0)
        if os.waitstatus_to_exitcode(status) not in (0, 1):
            sys.exit(f"{binary} rate {path} failed")
        times.append(usage.ru_utime + usage.ru_stime)
    return statistics.median(times)


def ours_per_puzzle(binary, puzzles, target, tmp):
    """Our CPU microseconds per puzzle over `puzzles`, repeated to about `target` ratings."""
    copies = max(1, -(-target // len(puzzles)))
    path = os.path.join(tmp, "in.txt")
    with open(path, "w") as f:
        f.write(("\n".join(puzzles) + "\n") * copies)
    return 1e6 * cpu_of(binary, path) / (copies * len(puzzles))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("binary")
    ap.add_argument("se", nargs="+")
    ap.add_argument("--ratings", type=int, default=10000)
    args = ap.parse_args()
    print(f"{'sample':<16}{'puzzles':>8}{'capped':>8}{'ER=SE':>8}{'SE ms':>8}{'SE p50':>8}{'ours us':>9}{'SE/ours':>9}"
          f" | {'uncapped':>8}{'SE ms':>8}{'ours us':>9}{'SE/ours':>9}")
    with tempfile.TemporaryDirectory() as tmp:
        for raw in args.se:
            rows = read_se(raw)
            if not rows:
                continue
            path = os.path.join(tmp, "sample.txt")
            with open(path, "w") as f:
                f.write("".join(p + "\n" for p, _, _ in rows))
            out = subprocess.run([args.binary, "rate", "-q", "--threads", "1", path],
                                 capture_output=True, text=True).stdout.splitlines()
            assert len(out) == len(rows), (raw, len(out), len(rows))
            capped = [o.endswith(" capped") for o in out]
            free = [r for r, c in zip(rows, capped) if not c]
            equal = sum(o.split("/")[0] == r[1] for r, o, c in zip(rows, out, capped) if not c)
            se_all = [t for _, _, t in rows]
            all_us = ours_per_puzzle(args.binary, [p for p, _, _ in rows], args.ratings, tmp)
            se_ms = 1000 * statistics.mean(se_all)
            line = (f"{os.path.basename(raw)[:-4]:<16}{len(rows):>8}{100 * sum(capped) / len(rows):>7.1f}%"
                    f"{100 * equal / max(1, len(free)):>7.1f}%{se_ms:>8.2f}{1000 * statistics.median(se_all):>8.2f}"
                    f"{all_us:>9.1f}{1000 * se_ms / all_us:>9.0f}")
            if free:
                free_us = ours_per_puzzle(args.binary, [p for p, _, _ in free], args.ratings, tmp)
                free_ms = 1000 * statistics.mean(t for _, _, t in free)
                line += f" | {len(free):>8}{free_ms:>8.2f}{free_us:>9.1f}{1000 * free_ms / free_us:>9.0f}"
            print(line, flush=True)


if __name__ == "__main__":
    main()
