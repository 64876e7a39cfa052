#!/usr/bin/env bash
# Every test, on a fresh machine: the Rust suite (`cargo test --locked`) and the Python
# module's (pytest), with what they need installed first: a venv (target/python-venv, or
# $SUDOKU_BATCH_VENV) with maturin, numpy, pandas, pyarrow, polars, pytest, pyspark, selenium,
# pillow and jsonschema (for docs/step.schema.json) from PyPI, and the module built into it.
# explain's browser tests need Chromium and chromedriver too (.ci/run installs them with apt);
# without them they show as skipped.
# pytest's "no tests ran" (exit 5) is a failure. Among the pytest tests,
# python/tests/test_recipes.py makes a second, fresh venv, installs the module with README's
# own install lines (reusing pip's cache and the build above) and runs README's Python block
# as written.
#
#   scripts/test.sh            # everything
#   scripts/test.sh -k read    # arguments go to pytest
set -euo pipefail
cd "$(dirname "$0")/.."

venv=${SUDOKU_BATCH_VENV:-target/python-venv}
python=${PYTHON:-python3}
if [ ! -x "$venv/bin/python" ]; then
  echo "== python venv: $venv"
  "$python" -m venv "$venv"
fi
venv=$(cd "$venv" && pwd)
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
  "maturin>=1.9,<2" numpy pandas pyarrow polars pytest pyspark selenium pillow jsonschema

echo "== cargo test --locked"
cargo test --locked

echo "== the Python module (maturin develop) and its tests"
# The optimised dev build of python/Cargo.toml: as fast to run as release, without the link-time
# optimisation that makes the wheel's build slow. PIP_QUIET: maturin's pip call would list the
# optional dependencies it skips ("Ignoring pandas: markers ...") on every run.
(cd python && PIP_QUIET=1 VIRTUAL_ENV="$venv" PATH="$venv/bin:$PATH" \
  "$venv/bin/maturin" develop --locked --quiet)
status=0
SUDOKU_BATCH_CLI="$PWD/target/debug/sudoku-batch" "$venv/bin/python" -m pytest python/tests -q "$@" \
  || status=$?
if [ "$status" -eq 5 ]; then
  echo "pytest ran no tests: that is a failure" >&2
  exit 1
fi
exit "$status"
