#!/usr/bin/env python3
"""`hint`'s latency on mid-solve positions, beside `rate`'s time for the whole puzzle.

    scripts/hint-latency.py BINARY PUZZLES N [--at half|hardest]

For each of the first N puzzles of PUZZLES (81 characters a line, `#` comments skipped), the
position after a prefix of its `rate --steps` path (half the path, or every step before its
hardest one) is built as a 729-character candidate grid: a placement fixes its cell and
removes its digit from the cell's peers, an elimination removes its candidate. Then `hint`
runs on each position and `rate` on each puzzle, one process and one thread each: median and
maximum wall times, and the process floor (`hint` on no input).
"""
import argparse
import json
import statistics
import subprocess
import time


def peers(c: int) -> set:
    r, k = divmod(c, 9)
    return {i for i in range(81) if i != c and (i // 9 == r or i % 9 == k
                                                 or (i // 27 == c // 27 and i % 9 // 3 == k // 3))}


def cell(name: str) -> int:
    return (int(name[1]) - 1) * 9 + int(name[3]) - 1


def position(puzzle: str, steps: list) -> str:
    cands = [set(range(1, 10)) for _ in range(81)]

    def place(c: int, d: int) -> None:
        cands[c] = {d}
        for q in peers(c):
            cands[q].discard(d)

    for c, ch in enumerate(puzzle):
        if ch not in ".0":
            place(c, int(ch))
    for s in steps:
        for p in s["placements"]:
            place(cell(p[:4]), int(p[5]))
        for e in s["eliminations"]:
            cands[cell(e[:4])].discard(int(e[6]))
    return "".join("".join(str(d) if d in cands[c] else "." for d in range(1, 10))
                   for c in range(81))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("binary")
    ap.add_argument("puzzles")
    ap.add_argument("n", type=int)
    ap.add_argument("--at", choices=["half", "hardest"], default="hardest")
    a = ap.parse_args()
    with open(a.puzzles) as f:
        puzzles = [l[:81] for l in f if l.strip() and not l.startswith("#")][: a.n]
    out = subprocess.run([a.binary, "rate", "-q", "--steps", "-"], input="\n".join(puzzles) + "\n",
                         capture_output=True, text=True, check=True).stdout
    paths: dict = {}
    for line in out.splitlines():
        o = json.loads(line)
        if o["kind"] == "step":
            paths.setdefault(o["line"], []).append(o)
    grids = []
    for ln, p in enumerate(puzzles, 1):
        steps = paths.get(ln, [])
        k = len(steps) // 2
        if a.at == "hardest" and steps:
            top = max(s["difficulty"] for s in steps)
            k = next(i for i, s in enumerate(steps) if s["difficulty"] == top)
        grids.append(position(p, steps[:k]))

    def run(command: str, text: str) -> float:
        start = time.perf_counter()
        subprocess.run([a.binary, command, "-q", "--threads", "1", "-"], input=text + "\n",
                       text=True, capture_output=True, check=False)
        return time.perf_counter() - start

    floor = run("hint", "")
    hints = [run("hint", g) for g in grids]
    rates = [run("rate", p) for p in puzzles]
    ms = 1000
    print(f"{len(grids)} positions ({a.at}); process floor {floor * ms:.1f} ms; hint median "
          f"{statistics.median(hints) * ms:.1f} ms, max {max(hints) * ms:.1f} ms; rate of the whole "
          f"puzzle median {statistics.median(rates) * ms:.1f} ms, max {max(rates) * ms:.1f} ms")


if __name__ == "__main__":
    main()
