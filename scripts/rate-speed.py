#!/usr/bin/env python3
"""Per-puzzle time of our rater against Sudoku Explainer (and skfr), by SE rating band.

    scripts/rate-speed.py SE_OUT [--skfr SKFR_OUT] [--repeat N] [--ladder se]

SE_OUT: serate's output with --format="%g ED=%r/%p/%d %e" (`PUZZLE ED=ER/EP/ED 1.23s`, or
`1m56s`); the older `PUZZLE ER/EP/ED HARDEST SECONDS [CPU_SECONDS]` lines are read too.
SKFR_OUT: skfr's `-e` output (`PUZZLE ED=ER/EP/ED;0.003s`, its own per-puzzle time, 1 ms
resolution). Ours: `target/release/examples/rate_file --each` (build it first: cargo build
--release --example rate_file), each puzzle's CPU time (its uniqueness solve and rating),
the mean of --repeat runs of it in a row. Per band: the puzzles, then the mean and median
of each rater's per-puzzle time, and SE's and skfr's over ours (means). The first SE puzzle
of a file (JIT warm-up) is left out.
"""
import argparse, os, re, statistics, subprocess, tempfile

BANDS = [(0.0, 6.45, "< 6.5"), (6.45, 7.45, "6.5-7.4"), (7.45, 8.45, "7.5-8.4"),
         (8.45, 8.95, "8.5-8.9"), (8.95, 99.0, ">= 9.0"), (0.0, 99.0, "all")]


def seconds(text):
    m = re.fullmatch(r"(?:(\d+)m)?([0-9.]+)s?", text)
    return int(m.group(1) or 0) * 60 + float(m.group(2))


def read(path):
    """{puzzle: (ER, seconds)}, the first line left out."""
    out = {}
    first = True
    for line in open(path):
        f = re.split(r"[ ;]+", line.strip())
        if len(f) < 3 or len(f[0]) < 81:
            continue
        rating = f[1][3:] if f[1].startswith("ED=") else f[1]
        try:
            er = float(rating.split("/")[0])
            t = seconds(f[-1] if len(f) <= 3 or f[1].startswith("ED=") else f[4 if len(f) > 4 else 3])
        except (ValueError, AttributeError):
            continue
        if not first and 0.0 < er < 20.0:
            out.setdefault(f[0][:81], (er, t))
        first = False
    return out


def ours_each(exe, ladder, repeat, puzzles):
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        f.write("\n".join(puzzles) + "\n")
        name = f.name
    res = subprocess.run([exe, "--each", "--ladder", ladder, "--repeat", str(repeat), name],
                         capture_output=True, text=True, check=True)
    os.unlink(name)
    out = {}
    for line in res.stdout.splitlines():
        p, us = line.split()
        out[p] = float(us) / 1e6
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("se")
    ap.add_argument("--skfr")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--ladder", default="se")
    args = ap.parse_args()
    se = read(args.se)
    skfr = read(args.skfr) if args.skfr else {}
    exe = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "target", "release", "examples", "rate_file")
    # Our line form of each puzzle (rate_file prints '.' for empty cells).
    key = {p: p.replace("0", ".") for p in se}
    ours = ours_each(exe, args.ladder, args.repeat, list(se))
    ms = lambda v: f"{1000 * v:.2f}"
    print(f"{'band':<9}{'n':>6}  {'SE mean':>9}{'median':>9}  {'skfr mean':>9}{'median':>9}  "
          f"{'ours mean':>9}{'median':>9}  {'skfr/ours':>9}{'SE/ours':>9}   (ms)")
    for lo, hi, label in BANDS:
        ps = [p for p, (er, _) in se.items() if lo <= er < hi and key[p] in ours]
        if not ps:
            continue
        s = [se[p][1] for p in ps]
        o = [ours[key[p]] for p in ps]
        k = [skfr[p][1] for p in ps if p in skfr]
        sk = f"{ms(statistics.mean(k)):>9}{ms(statistics.median(k)):>9}" if k else f"{'-':>9}{'-':>9}"
        ratio = f"{statistics.mean(k) / statistics.mean(o):>9.1f}" if k else f"{'-':>9}"
        print(f"{label:<9}{len(ps):>6}  {ms(statistics.mean(s)):>9}{ms(statistics.median(s)):>9}  {sk}  "
              f"{ms(statistics.mean(o)):>9}{ms(statistics.median(o)):>9}  {ratio}"
              f"{statistics.mean(s) / statistics.mean(o):>9.0f}")


if __name__ == "__main__":
    main()
