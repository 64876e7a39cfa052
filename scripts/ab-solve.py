#!/usr/bin/env python3
"""End-to-end wall and CPU time of `solve FILE -o OUT` for two binaries, alternating.

    scripts/ab-solve.py ROUNDS THREADS FILE BIN_A BIN_B [SOLVE_ARGS...]

Each round runs A then B (the output file is removed before each run: renaming over the
previous output makes the kernel free its pages inside the timed run). Prints per binary the
median wall time, the median CPU time (user + system of the child) and how many cores were
busy (CPU / wall), then the median of the per-round wall ratios A/B (> 1: B is faster).
"""
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

rounds, threads, path = int(sys.argv[1]), sys.argv[2], sys.argv[3]
binaries = sys.argv[4:6]
extra = sys.argv[6:]  # more `solve` arguments, e.g. --format csv
out = os.path.join(tempfile.mkdtemp(), "out")
times = {b: [] for b in binaries}
for _ in range(rounds):
    for b in binaries:
        if os.path.exists(out):
            os.remove(out)
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run([b, "solve", "-q", "--threads", threads, *extra, path, "-o", out], check=True)
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        times[b].append((wall, cpu))
os.remove(out)
for b in binaries:
    wall = statistics.median(w for w, _ in times[b])
    cpu = statistics.median(c for _, c in times[b])
    print(f"{b}: wall {wall:.4f} s, cpu {cpu:.3f} s, cores busy {cpu / wall:.2f}")
ratios = sorted(a[0] / b[0] for a, b in zip(*(times[b] for b in binaries)))
print(f"wall A/B median {statistics.median(ratios):.3f} {[round(r, 3) for r in ratios]}")
