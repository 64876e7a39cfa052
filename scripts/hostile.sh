#!/usr/bin/env bash
# Peak memory of every record command on hostile inputs of ~200 MB made in a temporary folder
# (a quote that never closes, a header of 50 million columns, lines near (and over) the
# 256 KiB record limit, blank lines, a giant board, a file without line breaks, rows of
# 60,000 fields, a zip listing 200,000 files), with /usr/bin/time; each must stay under
# 64 MiB (see docs/limits.md; figures in scripts/results/hostile.txt).
#
#   scripts/hostile.sh [BINARY]     (default: target/release/sudoku-batch, built here)
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -ge 1 ]; then
  bin=$(realpath "$1")
else
  cargo build --quiet --release --locked
  bin=$(realpath target/release/sudoku-batch)
fi
command -v /usr/bin/time >/dev/null || { echo "needs /usr/bin/time (apt-get install time)" >&2; exit 2; }
. scripts/lib.sh
scratch_dir
cd "$tmp"
python3 - <<'EOF'
import zipfile
p = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
MB = 200_000_000
with open("open-quote.csv", "w") as f:
    f.write("puzzle,solution\n" + (p + ",\n") * 3 + p + ',"' + ("x" * 99 + "\n") * (MB // 100))
with open("wide-header.csv", "w") as f:
    f.write("puzzle" + "," * 50_000_000 + "\n" + (p + "\n") * 3)
with open("long-lines.txt", "w") as f:  # just under the 256 KiB record limit
    f.write((p + " " + "x" * (256 * 1024 - 100) + "\n") * 800)
with open("over-long-lines.txt", "w") as f:  # 1 MB each: malformed records
    f.write((p + " " + "x" * 1_000_000 + "\n") * 200)
with open("blank.csv", "w") as f:
    f.write("puzzle\n" + "\n" * MB + p + "\n")
with open("board.txt", "w") as f:
    f.write("[[" + " " * MB + "]]\n")
with open("no-newline.txt", "w") as f:
    f.write("5" * MB)
with open("wide-rows.csv", "w") as f:
    f.write("puzzle,a\n" + (p + "," * 60_000 + "\n") * 2000)
with open("p200.txt", "w") as f:
    f.write((p + "\n") * 200)
with zipfile.ZipFile("many.zip", "w") as z:
    for i in range(200_000):
        z.writestr(f"d/f{i:07d}.txt", "")
EOF
peak() { # peak NAME ARGS...: peak RSS, seconds, exit code, the first message
  local name=$1; shift
  local rc=0
  /usr/bin/time -o time.txt -f "%M %e" timeout 300 "$bin" "$@" > /dev/null 2> err.txt || rc=$?
  read -r kib secs < <(tail -1 time.txt)
  printf '%-28s %7.1f MiB %6.2f s exit %s  %s\n' "$name" "$(echo "$kib / 1024" | bc -l)" "$secs" "$rc" \
    "$(grep -v '^Command' err.txt | head -1 | cut -c1-110)"
}
peak "solve open-quote.csv"        solve -q open-quote.csv
peak "verify open-quote.csv"       verify -q open-quote.csv
peak "solve wide-header.csv"       solve -q wide-header.csv
peak "solve long-lines.txt"        solve -q long-lines.txt
peak "solve --passthrough long"    solve -q --format csv --passthrough long-lines.txt
peak "  the same, 8 threads"       solve -q --format csv --passthrough -j 8 long-lines.txt
peak "solve over-long-lines.txt"   solve -q --format csv --passthrough over-long-lines.txt
peak "canon long-lines.txt"        canon -q long-lines.txt
peak "shuffle long-lines.txt"      shuffle -q long-lines.txt
peak "verify long-lines.txt"       verify -q long-lines.txt
peak "solve blank.csv"             solve -q blank.csv
peak "solve board.txt"             solve -q board.txt
peak "solve --shard 2/2 no-newl."  solve -q --shard 2/2 no-newline.txt
peak "solve jsonl wide-rows.csv"   solve -q --format jsonl --passthrough wide-rows.csv
peak "solve many.zip"              solve -q many.zip
peak "solve --threads 10000"       solve -q --threads 10000 p200.txt
