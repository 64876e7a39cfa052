#!/usr/bin/env bash
# Every public dataset, whole, through `rate` (2 threads) end to end: no panic, one output
# record per input record (as many as `solve --unique` gives, each status the same), no
# record failed. Prints per file: records, rated, capped, the other statuses, failed, wall
# and CPU seconds, the exit code.
#
#   scripts/rate-datasets.sh [-- RATE ARGS...]
#
# Results are appended to scripts/results/rate-datasets.txt.
set -euo pipefail
cd "$(dirname "$0")/.."
[ "${1:-}" = "--" ] && shift
extra=("$@")
. scripts/lib.sh
need_datasets
build_release
scratch_dir
out=scripts/results/rate-datasets.txt
bad=0

{
results_header "rate --threads 2 ${extra[*]:-}"
printf '%-50s %8s %8s %7s %8s %10s %7s %9s %6s %8s %7s %4s\n' dataset records rated capped multiple unsolvable invalid malformed failed "wall s" "CPU s" exit
for f in "$D"/*; do
  name=$(basename "$f")
  [ "$name" = SOURCES.md ] && continue
  code=0
  /usr/bin/time -f '%e %U %S' -o "$tmp/time" "$ours" rate -q --threads 2 "${extra[@]}" \
    --stats-json "$tmp/stats.json" -o "$tmp/rated.txt" "$f" 2> "$tmp/err" || code=$?
  if grep -q panicked "$tmp/err"; then echo "$name: panicked" >&2; bad=1; fi
  scode=0
  "$ours" solve -q --unique --threads 2 -o "$tmp/solved.txt" "$f" || scode=$?
  # One record per record, and the same status wherever solve did not solve.
  if ! paste -d' ' "$tmp/solved.txt" "$tmp/rated.txt" | awk 'length($1) == 81 { if ($2 !~ /\//) exit 1; next } $1 != $2 { exit 1 }' \
    || [ "$(wc -l < "$tmp/solved.txt")" != "$(wc -l < "$tmp/rated.txt")" ] || [ "$code" != "$scode" ]; then
    echo "$name: rate and solve disagree on the records" >&2; bad=1
  fi
  read -r wall user sys < <(tail -1 "$tmp/time")
  python3 - "$name" "$tmp/stats.json" "$wall" "$user" "$sys" "$code" <<'EOF'
import json, sys
name, path, wall, user, sys_, code = sys.argv[1:]
s = json.load(open(path))
print(f"{name:<50} {s['records']:>8} {s['rated']:>8} {s['capped']:>7} {s['multiple']:>8} {s['unsolvable']:>10} "
      f"{s['invalid']:>7} {s['malformed']:>9} {s['failed']:>6} {float(wall):>8.2f} {float(user) + float(sys_):>7.2f} {code:>4}")
EOF
done
echo
} | tee -a "$out"
exit $bad
