#!/usr/bin/env python3
"""Agreement of our ratings with a reference rater, by rating band.

    scripts/rate-agreement.py REFERENCE OURS [--show N] [--bands se|fine|chains|value]

REFERENCE lines, any of:
    PUZZLE ED=ER/EP/ED [SECONDS]          serate's output (--format="%g ED=%r/%p/%d %e")
    PUZZLE ER/EP/ED HARDEST SECONDS        reference files of the oracles
    HASH PUZZLE RATING                     the Sudoku Exchange bank (ER only)
With --bank, the LAST field of each reference line is taken as the reference ER (the oracles'
Sukaku files carry the bank's rating there), EP/ED are not compared.
OURS lines (examples/rate_file.rs):
    PUZZLE ER/EP/ED HARDEST STEPS [capped]

Puzzles are matched by their 81 characters (0 and . both mean empty); a puzzle rated
twice in REFERENCE keeps its first rating. A capped rating of ours counts as agreeing
when the reference ER is --cap-from or more (the ladder lacks
that technique); below that it is a miss ("capped"). Prints
per band: n, equal ER, equal ER/EP/ED (when the reference has EP/ED), capped, and wrong
(not capped and different); then up to N differing puzzles. With --bands value, one row per
reference rating value: puzzles, ER equal, capped, rated lower, rated higher (not capped).
"""

import argparse
import re
import sys

RATING = re.compile(r"^(?:ED=)?(\d+\.\d)/(\d+\.\d)/(\d+\.\d)$")
NUMBER = re.compile(r"^\d+\.\d$")


def norm(p):
    return p[:81].replace(".", "0")


def read_reference(path, bank=False):
    ref = {}
    with open(path) as f:
        for line in f:
            parts = line.split()
            if not parts:
                continue
            if bank:
                p = parts[1] if len(parts[0]) < 81 else parts[0]
                if len(p) >= 81 and NUMBER.match(parts[-1]):
                    ref.setdefault(norm(p), (parts[-1], None, None, None))
                continue
            if len(parts) >= 3 and len(parts[1]) == 81 and NUMBER.match(parts[2]):
                ref.setdefault(norm(parts[1]), (parts[2], None, None, None))
                continue
            if len(parts[0]) < 81 or len(parts) < 2:
                continue
            m = RATING.match(parts[1])
            if not m:
                continue
            hardest = parts[2] if len(parts) > 3 else None
            ref.setdefault(norm(parts[0]), (m.group(1), m.group(2), m.group(3), hardest))
    return ref


def read_ours(path):
    ours = {}
    with open(path) as f:
        for line in f:
            parts = line.split()
            if len(parts) < 2 or len(parts[0]) < 81:
                continue
            m = RATING.match(parts[1])
            if not m:
                continue
            capped = parts[-1] == "capped"
            hardest = parts[2] if len(parts) > 2 else "-"
            ours.setdefault(norm(parts[0]), (m.group(1), m.group(2), m.group(3), hardest, capped))
    return ours


BANDS_SE = [(0.0, 2.45, "< 2.5"), (2.45, 4.0, "2.5-3.9"), (4.0, 5.0, "4.0-4.9"),
            (5.0, 6.0, "5.0-5.9"), (6.0, 6.45, "6.0-6.4"), (6.45, 6.95, "6.5-6.9"),
            (6.95, 7.45, "7.0-7.4"), (7.45, 7.95, "7.5-7.9"), (7.95, 8.45, "8.0-8.4"),
            (8.45, 8.95, "8.5-8.9"), (8.95, 99.0, ">= 9.0")]

BANDS_CHAINS = [(0.0, 6.45, "< 6.5"), (6.45, 7.45, "6.5-7.4"), (7.45, 8.45, "7.5-8.4"),
                (8.45, 8.95, "8.5-8.9"), (8.95, 9.45, "9.0-9.4"), (9.45, 99.0, ">= 9.5")]


def bands_fine():
    out = [(0.0, 2.45, "< 2.5")]
    v = 2.5
    while v < 6.45:
        out.append((v - 0.05, v + 0.05, f"{v:.1f}"))
        v = round(v + 0.1, 1)
    out.append((6.45, 99.0, ">= 6.5 (chains)"))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("reference")
    ap.add_argument("ours")
    ap.add_argument("--show", type=int, default=20, help="differing puzzles to list")
    ap.add_argument("--bands", choices=["se", "fine", "chains", "value"], default="se")
    ap.add_argument("--bank", action="store_true", help="the last field is the reference ER")
    ap.add_argument("--cap-from", type=float, default=6.5,
                    help="reference ER from which a capped rating counts as agreeing (the least "
                         "difficulty of the first technique the ladder lacks: 6.5 for the Sukaku "
                         "ladders, 9.0 for se)")
    args = ap.parse_args()
    ref = read_reference(args.reference, args.bank)
    ours = read_ours(args.ours)
    if args.bands == "value":
        by_value(ref, ours, args.show)
        return
    bands = {"se": BANDS_SE, "chains": BANDS_CHAINS}.get(args.bands) or bands_fine()
    rows = {label: [0, 0, 0, 0, 0, 0] for _, _, label in bands}
    diffs = []
    missing = 0
    for p, r in ref.items():
        o = ours.get(p)
        if o is None:
            missing += 1
            continue
        er = float(r[0])
        label = next(l for lo, hi, l in bands if lo <= er < hi)
        row = rows[label]
        row[0] += 1
        chains = er >= args.cap_from - 0.05
        capped = o[4]
        if capped:
            row[3] += 1
            ok = chains and float(o[0]) <= er
            if ok:
                row[1] += 1
                row[2] += 1
            else:
                diffs.append((p, r, o))
            continue
        same_er = o[0] == r[0]
        full = r[1] is not None
        same_all = same_er and (not full or (o[1] == r[1] and o[2] == r[2]))
        row[1] += same_er
        row[2] += same_all
        if not same_all:
            if not same_er:
                row[4] += 1
            else:
                row[5] += 1
            diffs.append((p, r, o))
    print(f"{'band':<18}{'n':>7}{'equal ER':>16}{'equal ER/EP/ED':>20}{'capped':>8}{'wrong ER':>10}{'EP/ED only':>11}")
    total = [0] * 6
    for _, _, label in bands:
        n, e, a, c, w, pe = rows[label]
        if n == 0:
            continue
        total = [x + y for x, y in zip(total, rows[label])]
        print(f"{label:<18}{n:>7}{e:>8} {100 * e / n:6.2f}%{a:>12} {100 * a / n:6.2f}%{c:>8}{w:>10}{pe:>11}")
    n, e, a, c, w, pe = total
    if n:
        print(f"{'all':<18}{n:>7}{e:>8} {100 * e / n:6.2f}%{a:>12} {100 * a / n:6.2f}%{c:>8}{w:>10}{pe:>11}")
    if missing:
        print(f"{missing} reference puzzles have no rating of ours", file=sys.stderr)
    for p, r, o in diffs[: args.show]:
        ref_text = r[0] if r[1] is None else f"{r[0]}/{r[1]}/{r[2]}"
        flag = " capped" if o[4] else ""
        print(f"{p} ref {ref_text} {r[3] or ''} ours {o[0]}/{o[1]}/{o[2]} {o[3]}{flag}")


def by_value(ref, ours, show):
    """One row per reference ER: puzzles, ER equal, capped, lower, higher."""
    rows = {}
    diffs = []
    for p, r in ref.items():
        o = ours.get(p)
        if o is None:
            continue
        row = rows.setdefault(float(r[0]), [0, 0, 0, 0, 0])
        row[0] += 1
        if o[4]:
            row[2] += 1
        elif o[0] == r[0]:
            row[1] += 1
        else:
            row[3 if float(o[0]) < float(r[0]) else 4] += 1
        if o[4] or o[0] != r[0]:
            diffs.append((p, r, o))
    print(f"{'rating':>6}{'puzzles':>9}{'equal':>8}{'%':>8}{'capped':>8}{'lower':>7}{'higher':>8}")
    total = [0] * 5
    for value in sorted(rows):
        n, e, c, lo, hi = rows[value]
        total = [x + y for x, y in zip(total, rows[value])]
        print(f"{value:>6.1f}{n:>9}{e:>8}{100 * e / n:>7.1f}%{c:>8}{lo:>7}{hi:>8}")
    n, e, c, lo, hi = total
    if n:
        print(f"{'all':>6}{n:>9}{e:>8}{100 * e / n:>7.1f}%{c:>8}{lo:>7}{hi:>8}")
    for p, r, o in diffs[:show]:
        flag = " capped" if o[4] else ""
        print(f"{p} ref {r[0]} ours {o[0]}/{o[1]}/{o[2]} {o[3]}{flag}")


if __name__ == "__main__":
    main()
