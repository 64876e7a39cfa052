#!/usr/bin/env python3
"""The Python module against the CLI's `bench` and `rate` and the other Python Sudoku packages,
side by side in one run: each round measures every contender in turn (the module's `solve`:
the median of CALLS calls; `bench`: its own rate over seconds of repeats; `sb.rate` and
`sudoku-batch rate`, `sb.hint` and `sudoku-batch hint`, `sb.steps` and `sudoku-batch rate
--steps`, `sb.explain` and `sudoku-batch explain`: a run each, file to results); the table gives medians over the rounds
and ratios taken within each round (so a busy machine slows both sides of a ratio alike).

Run it with an interpreter that has the module and the anchors, in a scratch venv outside the
repository (the anchors are never dependencies of the project):

    python3 -m venv /tmp/bench-venv
    /tmp/bench-venv/bin/pip install maturin numpy pandas pyarrow \\
        rustoku lib-sudoku fast-sudoku-solver py-sudoku
    /tmp/bench-venv/bin/pip install ./python            # the module, release build
    cargo build --release --locked                      # the CLI for `bench`
    /tmp/bench-venv/bin/python scripts/bench-python.py [--rounds 5] [--only solve|rate|explain] [--out FILE]

Inputs (made once in a temporary folder from ../shared/datasets, by the CLI's `shuffle`):
- "Kaggle 1M": 40 symmetry-shuffled copies of the 24,997-row Kaggle 1M sample, 999,880
  puzzles, as a `quizzes,solutions` CSV with `0` for empty cells like the Kaggle file;
- "top1465 x20": 20 shuffled copies of magictour's top1465, 29,300 hard puzzles.
The slow anchors are timed on a prefix of each input (their rate does not depend on n).
`rate` runs on the files as published: the 24,997-row Kaggle 1M sample and top1465, through
`sb.rate(sb.read(path), threads=T)` against `sudoku-batch rate --threads T --quiet path`
(stdout to /dev/null), both from the file to every record's rating (Kaggle: the median of 3
runs a round, alternating the two). `explain` runs on the first 100 Exchange diabolical
puzzles (a page's worth), `sb.explain(sb.read(path), threads=T)` against `sudoku-batch explain
--threads T --quiet path -o FILE`, both from the file to the whole page.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import datetime
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

import sudoku_batch as sb

ROOT = Path(__file__).resolve().parents[1]
DATASETS = ROOT.parent / "shared" / "datasets"
CLI = ROOT / "target" / "release" / "sudoku-batch"
# Calls per round of each module measurement, whose median stands for the round: `bench`
# reports a steady rate over seconds of repeated solving, one call of the module lasts
# under a second.
CALLS = 3


def cli(*args: str) -> str:
    return subprocess.run([str(CLI), *args], check=True, capture_output=True, text=True).stdout


def make_inputs(tmp: Path) -> tuple[Path, Path]:
    kaggle = tmp / "kaggle-1m.csv"
    out = cli(
        "shuffle", str(DATASETS / "kaggle1m_sample_first24997.csv"), "--seed", "1",
        "--copies", "40", "--with-solutions", "--quiet",
    )
    rows = out.splitlines()[1:]
    with open(kaggle, "w") as f:
        f.write("quizzes,solutions\n")
        for row in rows:
            f.write(row.replace(".", "0") + "\n")
    top = tmp / "top1465-x20.txt"
    top.write_text(
        cli("shuffle", str(DATASETS / "puzzles3_magictour_top1465"), "--seed", "2",
            "--copies", "20", "--quiet")
    )
    return kaggle, top


def timed(f, n: int, calls: int = 1) -> float:
    """Puzzles per second of f (which handles n puzzles): the median of `calls` calls, each
    timed from the call to the release of its result."""
    rates = []
    for _ in range(calls):
        start = time.perf_counter()
        result = f()
        del result
        rates.append(n / (time.perf_counter() - start))
    return statistics.median(rates)


def bench_cli(path: Path, threads: int) -> float:
    out = cli("bench", str(path), "--threads", str(threads), "--runs", "3", "--seconds", "3",
              "--json")
    return json.loads(out.splitlines()[0])["puzzles_per_sec"]


# Each input of `rate`, and the runs of each side a round takes the median of (alternating
# module and CLI): the Kaggle sample's run takes a tenth of a second, where a busy machine's
# noise is large.
RATE_INPUTS = {
    "Kaggle 25k": ("kaggle1m_sample_first24997.csv", 3),
    "top1465": ("puzzles3_magictour_top1465", 1),
}


def paired_round(m: dict, call: str, ours, cli_args: list[str], inputs: dict) -> None:
    """One round of a call against its command: on each input at 1 and 2 threads, in turn,
    puzzles per second, file to results (the CLI's written to a file in the temporary
    folder)."""
    out = Path(tempfile.gettempdir()) / f"bench-python-{os.getpid()}.out"
    for name, (file, runs) in inputs.items():
        path = DATASETS / file
        n = len(sb.read(path))
        for threads in (1, 2):
            mine, theirs = [], []
            for _ in range(runs):
                start = time.perf_counter()
                result = ours(sb.read(path), threads=threads)
                mine.append(n / (time.perf_counter() - start))
                assert len(result) == n
                del result
                start = time.perf_counter()
                subprocess.run([str(CLI), *cli_args, "--threads", str(threads), "--quiet",
                                str(path), "-o", str(out)], check=False)
                theirs.append(n / (time.perf_counter() - start))
            m[f"{call} {name} {threads}t"] = statistics.median(mine)
            m[f"{call} cli {name} {threads}t"] = statistics.median(theirs)
    out.unlink(missing_ok=True)


# explain's input: a page of hard puzzles, the first 100 of Exchange's diabolical bank, written
# once to the temporary folder (an absolute path: `DATASETS / path` is the path itself).
DIABOLICAL_100 = Path(tempfile.gettempdir()) / f"bench-python-diabolical-100-{os.getpid()}.txt"


def explain_page(batch, threads: int) -> list[str]:
    """sb.explain's page, cut into its records (so that the round checks their number)."""
    return sb.explain(batch, threads=threads).split('{"line":')[1:]


# The calls measured against the CLI: the call, the command it is measured against, inputs.
PAIRED = {
    "rate": (sb.rate, ["rate"], RATE_INPUTS),
    "hint": (sb.hint, ["hint"], RATE_INPUTS),
    "steps": (sb.steps, ["rate", "--steps"], {"Kaggle 25k": RATE_INPUTS["Kaggle 25k"]}),
    "explain": (explain_page, ["explain"], {"diabolical 100": (DIABOLICAL_100, 3)}),
}


def rate_round(m: dict, calls: list[str]) -> None:
    """One round of `calls` (`rate`, `hint`, `steps`, `explain`) against their commands."""
    if "explain" in calls and not DIABOLICAL_100.exists():
        lines = (DATASETS / "sudoku_exchange_diabolical.txt").read_text().splitlines()[:100]
        DIABOLICAL_100.write_text("".join(line.split()[1] + "\n" for line in lines))
    for call in calls:
        ours, cli_args, inputs = PAIRED[call]
        paired_round(m, call, ours, cli_args, inputs)


def rate_lines(med, ratio, lo_hi, calls: list[str]) -> list[str]:
    """The table rows of `calls`."""
    lines = []
    for call in calls:
        _, cli_args, inputs = PAIRED[call]
        command = " ".join(cli_args)
        for name in inputs:
            for threads in (1, 2):
                ours, cli = f"{call} {name} {threads}t", f"{call} cli {name} {threads}t"
                low, high = lo_hi(ours, cli)
                lines.append(
                    f"| `{call}` {name}, {threads} thread{'s' if threads > 1 else ''} | "
                    f">= 0.9x `{command} --threads {threads}` | {med(ours):,.0f}/s vs "
                    f"{med(cli):,.0f}/s: **{ratio(ours, cli):.2f}x** ({low:.2f}-{high:.2f}) |"
                )
    return lines


def in_threads(f, items: list, threads: int) -> None:
    """f over items split into `threads` contiguous parts, one Python thread each."""
    parts = [items[k::threads] for k in range(threads)]
    with concurrent.futures.ThreadPoolExecutor(threads) as pool:
        list(pool.map(lambda part: [f(x) for x in part], parts))


def anchors():
    """The anchors that import, each as (name, solve one puzzle from an 81-char str)."""
    found = {}
    try:
        import rustoku

        found["rustoku"] = rustoku.solve
    except ImportError:
        pass
    try:
        import lib_sudoku

        cells = bytes.maketrans(b".0123456789", bytes([0, *range(10)]))
        found["lib-sudoku"] = lambda s: lib_sudoku.solve(bytearray(s.encode().translate(cells)))
    except ImportError:
        pass
    return found


def slow_anchor_rates(kaggle: list[str], top: list[str]) -> dict:
    """py-sudoku and fast-sudoku-solver, once (minutes per thousand puzzles)."""
    rates = {}
    try:
        from sudoku import Sudoku

        def py_sudoku(s):
            board = [[int(s[r * 9 + c]) if s[r * 9 + c] not in ".0" else None for c in range(9)]
                     for r in range(9)]
            return Sudoku(3, 3, board=board).solve()

        rates["py-sudoku"] = (
            timed(lambda: [py_sudoku(s) for s in kaggle[:300]], 300),
            timed(lambda: [py_sudoku(s) for s in top[:10]], 10),
        )
    except ImportError:
        pass
    try:
        from fast_sudoku_solver.sudoku_solver import SudokuSolver

        def fast(items):
            solved = 0
            for s in items:
                solved += SudokuSolver.solve(s.replace(".", "0")) is not None
            return solved

        try:
            k = timed(lambda: fast(kaggle[:300]), 300)
            t = timed(lambda: fast(top[:20]), 20)
            rates["fast-sudoku-solver"] = (k, t)
        except Exception as e:  # noqa: BLE001 - the anchor's failure is the finding
            rates["fast-sudoku-solver"] = f"fails: {type(e).__name__}: {e}"
    except ImportError:
        pass
    return rates


class SolveInputs:
    """The inputs of the `solve` measurements, made once in `tmp`."""

    def __init__(self, tmp: Path) -> None:
        import pandas as pd

        self.kaggle_csv, self.top_txt = make_inputs(tmp)
        self.k_array = sb.read(self.kaggle_csv).puzzles
        # dtype=str: without it pandas parses the 81-digit column into Python ints (leading
        # zeros, the empty cells, lost).
        self.k_series = pd.read_csv(self.kaggle_csv, dtype=str)["quizzes"]
        self.k_list = self.k_series.tolist()
        self.t_array = sb.read(self.top_txt).puzzles
        self.t_list = sb.to_strings(self.t_array)


def solve_round(m: dict, i: SolveInputs, found: dict) -> None:
    """One round of `solve`, `bench`, the anchors and `read`."""
    import pandas as pd

    n_k, n_t = len(i.k_array), len(i.t_array)
    m["array 2t"] = timed(lambda: sb.solve(i.k_array, threads=2), n_k, CALLS)
    m["list 2t"] = timed(lambda: sb.solve(i.k_list, threads=2), n_k, CALLS)
    m["series 2t"] = timed(lambda: sb.solve(i.k_series, threads=2), n_k, CALLS)
    m["bench 2t"] = bench_cli(i.kaggle_csv, 2)
    m["top 1t"] = timed(lambda: sb.solve(i.t_array, threads=1), n_t, CALLS)
    m["top 2t"] = timed(lambda: sb.solve(i.t_array, threads=2), n_t, CALLS)
    m["top bench 1t"] = bench_cli(i.top_txt, 1)
    m["top bench 2t"] = bench_cli(i.top_txt, 2)
    for name, solve in found.items():
        sub_k, sub_t = i.k_list[:100_000], i.t_list[: 2000 if name == "rustoku" else 100]
        m[f"{name} 1t"] = timed(lambda: [solve(s) for s in sub_k], len(sub_k))
        m[f"{name} top 1t"] = timed(lambda: [solve(s) for s in sub_t], len(sub_t))
        m[f"{name} top 2t"] = timed(lambda: in_threads(solve, sub_t, 2), len(sub_t))
    for key, read in [("read s", lambda: sb.read(i.kaggle_csv)),
                      ("pandas s", lambda: pd.read_csv(i.kaggle_csv, dtype=str)),
                      ("pandas plain s", lambda: pd.read_csv(i.kaggle_csv))]:
        start = time.perf_counter()
        read()
        m[key] = time.perf_counter() - start


def solve_lines(med, ratio, rounds: list, found: dict, slow: dict) -> list[str]:
    """The table rows of `solve` and `read`, and the anchors."""
    lines = [
        f"| `solve` (n, 81) uint8, Kaggle 1M, 2 threads | >= 0.9x `bench --threads 2` | "
        f"{med('array 2t'):,.0f}/s vs {med('bench 2t'):,.0f}/s: **{ratio('array 2t', 'bench 2t'):.2f}x** |",
    ]
    if "lib-sudoku 1t" in rounds[0]:
        lines.append(
            f"| same, against lib-sudoku (1 thread, 100k) | >= 10x | "
            f"lib-sudoku {med('lib-sudoku 1t'):,.0f}/s: **{ratio('array 2t', 'lib-sudoku 1t'):.1f}x** |"
        )
    lines += [
        f"| `solve` list[str], Kaggle 1M, 2 threads | >= 0.7x bench 2t | "
        f"{med('list 2t'):,.0f}/s: **{ratio('list 2t', 'bench 2t'):.2f}x** |",
        f"| `solve` pandas Series (read_csv), 2 threads | >= 0.7x bench 2t | "
        f"{med('series 2t'):,.0f}/s: **{ratio('series 2t', 'bench 2t'):.2f}x** |",
        f"| `solve` top1465 x20 shuffled, 1 thread | >= 0.9x `bench --threads 1` | "
        f"{med('top 1t'):,.0f}/s vs {med('top bench 1t'):,.0f}/s: **{ratio('top 1t', 'top bench 1t'):.2f}x** |",
    ]
    if "rustoku top 1t" in rounds[0]:
        lines.append(
            f"| same, against rustoku (1 thread, 2000) | >= 100x | rustoku "
            f"{med('rustoku top 1t'):,.0f}/s: **{ratio('top 1t', 'rustoku top 1t'):.0f}x** |"
        )
    lines.append(
        f"| 2 threads / 1 thread, top1465 x20 | >= 1.8x | **{ratio('top 2t', 'top 1t'):.2f}x** "
        f"(bench: {ratio('top bench 2t', 'top bench 1t'):.2f}x"
        + "".join(f"; {a}: {ratio(a + ' top 2t', a + ' top 1t'):.2f}x" for a in found)
        + ") |"
    )
    lines.append(
        f"| `read` of the Kaggle 1M CSV | faster than `pandas.read_csv` | "
        f"{med('read s'):.3f} s vs {med('pandas s'):.3f} s (`dtype=str`; "
        f"{med('pandas plain s'):.3f} s without, which turns the puzzles into ints): "
        f"**{ratio('pandas s', 'read s'):.2f}x faster** |"
    )
    lines += ["", "Anchors (puzzles/s, one thread, conversion from str included):", ""]
    for name in found:
        lines.append(f"- {name}: Kaggle {med(name + ' 1t'):,.0f}/s, top1465 {med(name + ' top 1t'):,.0f}/s")
    for name, rate in slow.items():
        if isinstance(rate, str):
            lines.append(f"- {name}: {rate}")
        else:
            lines.append(f"- {name}: Kaggle {rate[0]:,.0f}/s, top1465 {rate[1]:,.1f}/s (one run)")
    return lines


def paired_calls(args) -> list[str]:
    """The calls measured against the CLI: `explain` alone, or all of them."""
    return ["explain"] if args.only == "explain" else list(PAIRED)


def measure(args, tmp: Path) -> tuple[list, dict, dict]:
    """Every round: the measurements of each, the anchors found, the slow anchors' rates."""
    inputs = SolveInputs(tmp) if args.only in (None, "solve") else None
    found = anchors() if inputs else {}
    rounds: list[dict] = []
    for r in range(args.rounds):
        m: dict = {}
        if args.only != "solve":
            rate_round(m, paired_calls(args))
        if inputs:
            solve_round(m, inputs, found)
        rounds.append(m)
        print(f"round {r + 1}/{args.rounds}: " + ", ".join(f"{k} {v:,.0f}" if v > 10 else
              f"{k} {v:.3f}" for k, v in m.items()), file=sys.stderr)
    slow = slow_anchor_rates(inputs.k_list, inputs.t_list) if args.only is None else {}
    return rounds, found, slow


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--only", choices=["solve", "rate", "explain"],
                    help="measure only these calls (rate: rate, hint, steps and explain)")
    ap.add_argument("--out", type=Path, help="also write the report here")
    args = ap.parse_args()
    if not CLI.exists():
        sys.exit(f"{CLI} is missing: cargo build --release --locked")
    import pandas as pd

    tmp = Path(tempfile.mkdtemp(prefix="bench-python-"))
    try:
        rounds, found, slow = measure(args, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
        DIABOLICAL_100.unlink(missing_ok=True)

    def med(key):
        return statistics.median(m[key] for m in rounds)

    def ratio(a, b):
        return statistics.median(m[a] / m[b] for m in rounds)

    def lo_hi(a, b):
        ratios = [m[a] / m[b] for m in rounds]
        return min(ratios), max(ratios)

    commit = subprocess.run(["git", "rev-parse", "--short=12", "HEAD"], cwd=ROOT,
                            capture_output=True, text=True).stdout.strip()
    cpu = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo")
                if line.startswith("model name")), platform.processor())
    lines = [
        f"# scripts/bench-python.py, {datetime.date.today()}, commit {commit}, {cpu}, "
        f"{os.cpu_count()} cores, CPython {platform.python_version()}, numpy {np.__version__}, "
        f"pandas {pd.__version__}; {args.rounds} rounds, medians; ratios within each round "
        f"(lowest-highest in brackets)",
        "",
        "| measure | target | measured |",
        "|---|---|---|",
    ]
    if args.only != "solve":
        lines += rate_lines(med, ratio, lo_hi, paired_calls(args))
    if args.only in (None, "solve"):
        lines += solve_lines(med, ratio, rounds, found, slow)
    report = "\n".join(lines) + "\n"
    print(report)
    if args.out:
        args.out.write_text(report)


if __name__ == "__main__":
    main()
