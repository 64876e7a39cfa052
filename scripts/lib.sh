# What the measuring scripts share: `. scripts/lib.sh` from the repository root.

# Build the release binary and name it (in $CARGO_TARGET_DIR when that is set).
build_release() {
  cargo build --quiet --release --locked
  ours=${CARGO_TARGET_DIR:-target}/release/sudoku-batch
}

# Wall-clock seconds of a command, its output discarded.
secs() { local t0 t1; t0=$(date +%s.%N); "$@" > /dev/null; t1=$(date +%s.%N); echo "$t1 - $t0" | bc -l; }

# The median of the numbers on stdin, one per line.
median() { sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }

# Median seconds of two shell commands run alternately ROUNDS times (side by side, so a noisy
# machine slows both alike): prints "MEDIAN_A MEDIAN_B".
pair_medians() {
  local rounds=$1 a=$2 b=$3 ta=() tb=()
  for _ in $(seq "$rounds"); do
    ta+=("$(secs sh -c "$a")")
    tb+=("$(secs sh -c "$b")")
  done
  echo "$(printf '%s\n' "${ta[@]}" | median) $(printf '%s\n' "${tb[@]}" | median)"
}

# The commit measured: the short hash, `+changes` when what the figures depend on (the code,
# Cargo files, scripts; not docs nor results) differs from it.
commit_label() {
  echo "$(git rev-parse --short HEAD)$(git diff --quiet HEAD -- src Cargo.toml Cargo.lock build.rs scripts ':!scripts/results' || echo '+changes')"
}

# The CPU as results name it: the model name, with the core generation when /proc/cpuinfo
# says only "AMD EPYC" (family 25 with AVX-512 is Zen 4, family 26 Zen 5), and the cores this
# run may use.
cpu_label() {
  local model family
  model=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)
  family=$(grep -m1 'cpu family' /proc/cpuinfo | cut -d: -f2 | xargs)
  if [ "$model" = "AMD EPYC" ] && [ "$family" = 25 ] && grep -qm1 avx512f /proc/cpuinfo; then
    model="AMD EPYC Zen 4"
  elif [ "$model" = "AMD EPYC" ] && [ "$family" = 26 ]; then
    model="AMD EPYC Zen 5"
  fi
  echo "$model, $(nproc) cores"
}

# A scratch directory, $tmp, removed when the script exits.
scratch_dir() {
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
}

# The public datasets' folder, $D; when it is absent, say so and end the script (exit 0).
need_datasets() {
  D=../shared/datasets
  [ -d "$D" ] || { echo "skipped: $D is absent" >&2; exit 0; }
}

# The first line of a results block: the date, the load, the commit and the CPU, then ARGS.
results_header() {
  echo "# $(date -u '+%F %H:%M') UTC, load $(cut -d' ' -f1 /proc/loadavg), commit $(commit_label), $(cpu_label)${1:+, $1}"
}
