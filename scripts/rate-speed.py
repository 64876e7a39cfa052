#!/usr/bin/env python3
"""Per-puzzle time of our rater against Sudoku Explainer (and skfr) by SE rating band.

    scripts/rate-speed.py SE_RAW [--skfr SKFR_RAW] [--repeat N] [--ladder se]

SE_RAW: lines `PUZZLE ER/EP/ED HARDEST WALL_SECONDS [CPU_SECONDS]` (the oracle's raw se-rate
output; CPU seconds of the rating thread when present, else wall). SKFR_RAW: `PUZZLE ER/EP/ED
- SECONDS` with skfr's own per-puzzle seconds (1 ms resolution). Puzzles are grouped by SE's ER; each band is rated by
`target/release/examples/rate_file` (build it first: cargo build --release --example
rate_file), whose CPU time per puzzle (solve included) is compared with SE's mean. The first
SE puzzle of a file (JIT warm-up) is left out of SE's mean.
"""
import argparse, os, re, subprocess, sys, tempfile

BANDS = [(0.0, 2.45, "< 2.5"), (2.45, 4.0, "2.5-3.9"), (4.0, 5.0, "4.0-4.9"),
         (5.0, 6.0, "5.0-5.9"), (6.0, 6.45, "6.0-6.4"), (6.45, 99.0, ">= 6.5 (capped)")]


def read(path):
    out = {}
    first = True
    for line in open(path):
        f = line.split()
        if len(f) < 4 or len(f[0]) < 81 or "/" not in f[1]:
            continue
        try:
            er = float(f[1].split("/")[0])
            t = float(f[4] if len(f) > 4 else f[3])
        except ValueError:
            continue
        if er <= 0.0 or er >= 20.0:
            continue
        if not first:
            out.setdefault(f[0][:81], (er, t))
        first = False
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("se")
    ap.add_argument("--skfr")
    ap.add_argument("--repeat", type=int, default=20)
    ap.add_argument("--ladder", default="se")
    args = ap.parse_args()
    se = read(args.se)
    skfr = read(args.skfr) if args.skfr else {}
    exe = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "target", "release", "examples", "rate_file")
    print(f"{'band':<18}{'n':>6}{'SE ms':>10}{'skfr ms':>10}{'ours us':>10}{'SE/ours':>10}")
    for lo, hi, label in BANDS:
        ps = [p for p, (er, _) in se.items() if lo <= er < hi]
        if not ps:
            continue
        with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
            f.write("\n".join(ps) + "\n")
            name = f.name
        # Enough work for the thread's CPU clock (updated at scheduling points) to see it.
        repeat = max(args.repeat, 3000 // len(ps))
        res = subprocess.run([exe, "--quiet", "--ladder", args.ladder, "--repeat", str(repeat), name],
                             capture_output=True, text=True)
        os.unlink(name)
        m = re.search(r"([0-9.]+) us/puzzle CPU", res.stderr)
        ours = float(m.group(1)) if m and float(m.group(1)) > 0 else float("nan")
        se_ms = 1000 * sum(se[p][1] for p in ps) / len(ps)
        sk = [skfr[p][1] for p in ps if p in skfr]
        sk_ms = f"{1000 * sum(sk) / len(sk):.2f}" if sk else "-"
        print(f"{label:<18}{len(ps):>6}{se_ms:>10.2f}{sk_ms:>10}{ours:>10.1f}{1000 * se_ms / ours:>10.0f}")


if __name__ == "__main__":
    main()
