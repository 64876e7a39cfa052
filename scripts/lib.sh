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
