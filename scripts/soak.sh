#!/usr/bin/env bash
# Soak run: stream N records (default 20,000,000; generated, every status mixed in) through
# `solve --threads 2 --limit 2 --format csv` and straight on into `verify --threads 2`, in
# one pipeline with no file in between. Checks:
#   - records in == records out of solve == records verified;
#   - every solution is right: verify finds no wrong-solution, bad-grid or clue-mismatch;
#   - the two agree record for record: passed == solved, not-unique == multiple,
#     unsolvable == unsolvable, invalid-givens == invalid, malformed == malformed;
#   - every status occurs.
# Reports wall time, throughput and peak RSS of each stage (/usr/bin/time -v).
# Not part of `cargo test`: about 5 minutes on 2 cores.
#
#   scripts/soak.sh [RECORDS]        results also in scripts/results/soak.txt
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-20000000}
command -v /usr/bin/time >/dev/null || { echo "needs /usr/bin/time (apt-get install time)" >&2; exit 2; }
cargo build --quiet --release --locked
B=$PWD/target/release/sudoku-batch
. scripts/lib.sh
scratch_dir

# 1. A base of 7,000 records with known make-up (seeded, so every run streams the same):
#    unique puzzles, puzzles with clues removed (mostly multiple), clashing givens (invalid),
#    a wrong extra clue (unsolvable: the only solution no longer fits), and junk lines.
"$B" generate --count 7000 --seed 20261129 --with-solutions --quiet > "$tmp/gen.csv"
python3 - "$tmp/gen.csv" "$tmp/base.txt" <<'PY'
import random, sys
rows = [l.strip().split(",") for l in open(sys.argv[1]).read().splitlines()[1:]]
rng = random.Random(7)
out = []
def units_ok(p, cell, d):
    r, c = divmod(cell, 9)
    peers = {r * 9 + i for i in range(9)} | {i * 9 + c for i in range(9)}
    br, bc = r // 3 * 3, c // 3 * 3
    peers |= {(br + i) * 9 + bc + j for i in range(3) for j in range(3)}
    return all(p[q] != d for q in peers if q != cell)
for i, (p, s) in enumerate(rows):
    kind = i % 7
    if kind < 3:                      # unique, as generated
        out.append(p)
    elif kind == 3:                   # remove 5 clues: usually 2+ solutions
        b = list(p); clues = [k for k in range(81) if b[k] != "."]
        for k in rng.sample(clues, 5): b[k] = "."
        out.append("".join(b))
    elif kind == 4:                   # copy a clue into an empty cell of its row: invalid
        b = list(p); clues = [k for k in range(81) if b[k] != "."]
        k = rng.choice(clues); r = k // 9
        e = [j for j in range(r * 9, r * 9 + 9) if b[j] == "."]
        if e: b[rng.choice(e)] = b[k]
        out.append("".join(b))
    elif kind == 5:                   # a wrong clue that clashes with nothing: unsolvable
        b = list(p)
        empty = [k for k in range(81) if b[k] == "."]
        for k in rng.sample(empty, len(empty)):
            ds = [d for d in "123456789" if d != s[k] and units_ok(b, k, d)]
            if ds: b[k] = rng.choice(ds); break
        out.append("".join(b))
    else:                             # junk: short, long, bad characters
        j = rng.randrange(3)
        out.append(p[:80] if j == 0 else p + "1" if j == 1 else p[:40] + "x" + p[41:])
open(sys.argv[2], "w").write("\n".join(out) + "\n")
PY
base=$(wc -l < "$tmp/base.txt")
puzzles=$(( base - base / 7 ))
copies=$(( (n + puzzles - 1) / puzzles ))

# 2. The stream: random symmetries of the base (same status, new text; shuffle writes the
#    word "malformed" for a junk line), plus a truncated copy of every 50th line (malformed
#    too), cut to exactly N records.
stream() {
  "$B" shuffle --copies "$copies" --seed 1 --threads 1 --quiet "$tmp/base.txt" |
    awk 'NR % 49 == 0 { print substr($0, 1, 80) } { print }' | head -n "$n"
}
echo "soak: $n records ($copies random symmetries of a $base-record base), solve | verify, 2 threads each"
start=$(date +%s.%N)
set +e
stream | tee >(wc -l > "$tmp/in.count") |
  /usr/bin/time -v -o "$tmp/solve.time" "$B" solve --threads 2 --limit 2 --format csv --quiet \
    --stats-json "$tmp/solve.json" |
  tee >(tail -n +2 | wc -l > "$tmp/out.count") |
  /usr/bin/time -v -o "$tmp/verify.time" "$B" verify --threads 2 --format csv --quiet \
    --stats-json "$tmp/verify.json" > "$tmp/report.csv"
codes=("${PIPESTATUS[@]}")
set -e
end=$(date +%s.%N)
sleep 1 # the process substitutions (wc) finish writing
echo "# $(date -u +%F) $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) cores" > scripts/results/soak.txt
python3 - "$tmp" "$n" "$start" "$end" "${codes[*]}" <<'PY' | tee -a scripts/results/soak.txt
import json, re, sys
tmp, n, start, end, codes = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4]), sys.argv[5]
s = json.load(open(f"{tmp}/solve.json")); v = json.load(open(f"{tmp}/verify.json"))
p = v["problems"]
def tm(name):
    t = open(f"{tmp}/{name}.time").read()
    rss = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", t).group(1))
    cpu = float(re.search(r"User time \(seconds\): ([\d.]+)", t).group(1)) + float(re.search(r"System time \(seconds\): ([\d.]+)", t).group(1))
    return rss, cpu
records_in = int(open(f"{tmp}/in.count").read()); records_out = int(open(f"{tmp}/out.count").read())
wall = end - start
checks = [
    ("records in == N", records_in == n),
    ("solve read every record", s["records"] == n),
    ("one output record per input record", records_out == n),
    ("verify read every record", v["records"] == n),
    ("no wrong solution", p.get("wrong-solution", 0) == 0 and p.get("bad-grid", 0) == 0 and p.get("clue-mismatch", 0) == 0),
    ("passed == solved", v["passed"] == s["solved"]),
    ("not-unique == multiple", p.get("not-unique", 0) == s["multiple"]),
    ("unsolvable == unsolvable", p.get("unsolvable", 0) == s["unsolvable"]),
    ("invalid-givens == invalid", p.get("invalid-givens", 0) == s["invalid"]),
    ("malformed == malformed", p.get("malformed", 0) == s["malformed"]),
    ("every status occurs", all(s[k] > 0 for k in ("solved", "multiple", "unsolvable", "invalid", "malformed"))),
    ("exit codes: solve 1, verify 1 (records with problems; nothing failed)", codes.split()[2] == "1" and codes.split()[4] == "1"),
]
print(f"records: {n:,}  wall: {wall:.1f} s  throughput: {n / wall:,.0f} records/s through solve and verify")
print(f"solve:  {s['solved']:,} solved, {s['multiple']:,} multiple, {s['unsolvable']:,} unsolvable, {s['invalid']:,} invalid, {s['malformed']:,} malformed")
print(f"verify: {v['passed']:,} passed; problems: " + ", ".join(f"{k} {c:,}" for k, c in sorted(p.items())))
for name in ("solve", "verify"):
    rss, cpu = tm(name)
    print(f"{name:6}  peak RSS {rss / 1024:.1f} MiB, CPU {cpu:.1f} s")
print(f"pipeline exit codes: {codes}")
ok = True
for label, good in checks:
    print(f"  {'ok  ' if good else 'FAIL'} {label}")
    ok &= good
print("PASS" if ok else "FAIL")
sys.exit(0 if ok else 1)
PY
