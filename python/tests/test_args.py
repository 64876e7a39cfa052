"""Every argument of every call at and past its bounds: the CLI's bounds (the library's, one set
for both) and messages, a ValueError naming the argument and the bound before any work starts;
nothing a caller passes aborts or hangs the interpreter."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import warnings

import numpy as np
import pytest

import sudoku_batch as sb
from conftest import HARD, PUZZLE, SOLUTION, cli_binary, run_cli

CORES = os.cpu_count() or 1
MAX_THREADS = max(8 * CORES, 64)


def threaded_calls():
    """Each call that takes `threads`, as a function of it."""
    return {
        "solve": lambda t: sb.solve([PUZZLE], threads=t),
        "verify": lambda t: sb.verify([PUZZLE], [SOLUTION], threads=t),
        "canon": lambda t: sb.canon([PUZZLE], threads=t),
        "rate": lambda t: sb.rate([PUZZLE], threads=t),
        "hint": lambda t: sb.hint([PUZZLE], threads=t),
        "steps": lambda t: sb.steps([PUZZLE], threads=t),
        "generate": lambda t: sb.generate(2, seed=1, threads=t),
        "shuffle": lambda t: sb.shuffle([PUZZLE], seed=1, threads=t),
        "to_digits": lambda t: sb.to_digits([PUZZLE], threads=t),
    }


@pytest.mark.parametrize("call", sorted(threaded_calls()))
def test_threads_within_the_clis_bound(call):
    f = threaded_calls()[call]
    assert len(f(1)) >= 1 and len(f(np.int64(2))) >= 1
    assert len(f(MAX_THREADS)) >= 1  # the bound itself: 8 per core, at least 64
    for past in (MAX_THREADS + 1, 5000, 20_000, 2**40, 2**70):
        message = (rf"threads={past}: {past} threads is far more than this machine can run "
                   rf"\({CORES} cores\): at most {MAX_THREADS}$")
        with pytest.raises(ValueError, match=message):
            f(past)
    for below in (0, -1, -(2**70)):
        with pytest.raises(ValueError, match=rf"threads={below}: at least 1 thread is needed"):
            f(below)
    for wrong in (2.0, True, "2"):
        with pytest.raises(TypeError, match="threads must be an integer"):
            f(wrong)


def test_the_bounds_and_messages_are_the_clis():
    # The CLI's parsers and the module's checks are the library's: the same words.
    out = subprocess.run(
        [str(cli_binary()), "shuffle", "--copies", "10001", "-"],
        input=b"", capture_output=True,
    )
    assert out.returncode == 2
    message = "10001 copies is more than the limit of 10000 per puzzle"
    assert message in out.stderr.decode()
    with pytest.raises(ValueError, match=f"copies=10001: {message}"):
        sb.shuffle([PUZZLE], seed=1, copies=10001)
    out = subprocess.run(
        [str(cli_binary()), "solve", "--threads", str(MAX_THREADS + 1)],
        input=b"", capture_output=True,
    )
    message = f"far more than this machine can run ({CORES} cores): at most {MAX_THREADS}"
    assert message in out.stderr.decode()


def test_rayon_num_threads_past_the_bound_is_warned_and_capped(monkeypatch):
    monkeypatch.setenv("RAYON_NUM_THREADS", "100000")
    with pytest.warns(RuntimeWarning, match=f"RAYON_NUM_THREADS=100000: .*; using {MAX_THREADS}"):
        r = sb.solve(HARD)
    assert (r.status == sb.Status.SOLVED).all()
    monkeypatch.setenv("RAYON_NUM_THREADS", "2")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        sb.solve(HARD)


def test_solve_limit():
    assert sb.solve([PUZZLE], limit=2**32 - 1).count.tolist() == [1]
    for bad in (0, -1, 2**32, 2**64):
        with pytest.raises(ValueError, match=rf"limit={bad}: "):
            sb.solve([PUZZLE], limit=bad)
    with pytest.raises(TypeError, match="limit must be an integer"):
        sb.solve([PUZZLE], limit=2.0)


def test_generate_count():
    assert len(sb.generate(1, seed=1)) == 1
    for bad in (10**9 + 1, 10**12, 2**64, 2**70):
        with pytest.raises(ValueError, match=rf"n={bad}: {bad} puzzles is more than the limit "
                                             r"of 1000000000 a run"):
            sb.generate(bad, seed=1)
    for bad in (0, -1):
        with pytest.raises(ValueError, match=rf"n={bad}: at least 1 puzzle is needed"):
            sb.generate(bad, seed=1)
    with pytest.raises(TypeError, match="n must be an integer"):
        sb.generate(1.0, seed=1)


def test_generate_seed_attempts_clues_guesses():
    top = 2**64 - 1
    assert len(sb.generate(1, seed=top)) == 1
    for bad in (-1, 2**64):
        with pytest.raises(ValueError, match=rf"seed={bad}: expected a whole number from 0"):
            sb.generate(1, seed=bad)
    assert sb.generate(1, seed=1, max_attempts=2**32 - 1).attempts[0] >= 1
    for bad in (0, -1, 2**32):
        with pytest.raises(ValueError, match=rf"max_attempts={bad}: "):
            sb.generate(1, seed=1, max_attempts=bad)
    assert len(sb.generate(1, seed=1, clues=(17, 80), max_attempts=100)) == 1
    for bad in ((16, 30), (30, 81), (40, 30)):
        with pytest.raises(ValueError, match="clues"):
            sb.generate(1, seed=1, clues=bad)
    with pytest.raises(ValueError, match="min_clues=-1"):
        sb.generate(1, seed=1, clues=(-1, 30))
    with pytest.raises(TypeError, match="min_clues must be an integer"):
        sb.generate(1, seed=1, clues=True)
    assert len(sb.generate(1, seed=1, guesses=(0, top))) == 1
    with pytest.raises(ValueError, match="min_guesses=-1"):
        sb.generate(1, seed=1, guesses=(-1, 5))


def test_shuffle_copies_and_seed():
    assert sb.shuffle([PUZZLE], seed=1, copies=10_000).puzzles.shape == (10_000, 81)
    for bad in (10_001, 10**9, 2**70):
        with pytest.raises(ValueError, match=rf"copies={bad}: {bad} copies is more than the "
                                             r"limit of 10000 per puzzle"):
            sb.shuffle([PUZZLE], seed=1, copies=bad)
    for bad in (0, -3):
        with pytest.raises(ValueError, match=rf"copies={bad}: at least 1 copy is needed"):
            sb.shuffle([PUZZLE], seed=1, copies=bad)
    with pytest.raises(ValueError, match="seed=-1"):
        sb.shuffle([PUZZLE], seed=-1)


def test_flags_and_choices():
    for call in (lambda: sb.verify([PUZZLE], [SOLUTION], unique="yes"),
                 lambda: sb.generate(1, seed=1, minimal=2),
                 lambda: sb.shuffle([PUZZLE], seed=1, solutions="no")):
        with pytest.raises(TypeError):
            call()
    with pytest.raises(ValueError, match="unknown algorithm"):
        sb.solve([PUZZLE], algorithm="dlx")
    with pytest.raises(ValueError, match="ladder"):
        sb.rate([PUZZLE], ladder="hodoku")
    with pytest.raises(ValueError, match="empty"):
        sb.to_strings([PUZZLE], empty="")
    assert list(sb.solve_df([PUZZLE], prefix="x.").columns)[0] == "x.solution"


def test_read_column():
    with pytest.raises(ValueError, match="column=-1"):
        sb.read(os.devnull, column=-1)
    with pytest.raises(TypeError, match="column must be an integer"):
        sb.read(os.devnull, column=1.5)


# Run in a child whose address space is capped, so that an allocation too big for it fails
# at once, whatever the machine's memory: it must be a MemoryError, never an abort.
_CAPPED = """
import resource, sys
import sudoku_batch as sb
resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))
puzzle = sys.argv[1]
for name, call in [
    ("generate", lambda: sb.generate(10**9, seed=1)),
    ("shuffle", lambda: sb.shuffle([puzzle] * 10_000, seed=1, copies=10_000)),
    ("shuffle solutions", lambda: sb.shuffle([puzzle] * 2_000, seed=1, copies=10_000,
                                             solutions=True)),
]:
    try:
        call()
        print(name, "made it")
    except MemoryError as e:
        print(name, "MemoryError", e)
"""


@pytest.mark.skipif(sys.platform != "linux", reason="RLIMIT_AS as Linux counts it")
def test_requests_at_the_bounds_that_memory_cannot_hold_are_memory_errors():
    done = subprocess.run([sys.executable, "-c", _CAPPED, PUZZLE], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == 3, done.stdout
    for line in lines:
        assert "MemoryError the call needs" in line and "GiB" in line, line


def test_a_list_holding_an_int_is_a_type_error():
    for bad in ([PUZZLE, 5], [5], (PUZZLE, 10**80)):
        with pytest.raises(TypeError, match="is a int, not a str"):
            sb.solve(bad)
    # Ints are taken where pandas puts them: a Series (or an object array) of Kaggle's
    # 81-digit column read without dtype=str.
    digits = int(PUZZLE.replace(".", "0"))
    assert sb.solve(np.array([digits], dtype=object)).status.tolist() == [sb.Status.SOLVED]
    pd = pytest.importorskip("pandas")
    assert sb.solve(pd.Series([digits, 5])).status.tolist() == [sb.Status.SOLVED] * 2


def test_values_outside_a_cell_are_reported_as_written():
    cells = np.array([[0 if c == "." else int(c) for c in PUZZLE]] * 5, dtype=np.int64)
    cells[0, 80] = -1
    cells[1, 5] = 10
    cells[2, 0] = 300
    cells[3, 7] = -(2**63)
    r = sb.solve(cells)
    assert r.status.tolist() == [sb.Status.MALFORMED] * 4 + [sb.Status.SOLVED]
    assert r.errors[0] == "cell 81 holds -1, not 0 (empty) or a digit 1-9"
    assert r.errors[1] == "cell 6 holds 10, not 0 (empty) or a digit 1-9"
    assert r.errors[2].startswith("cell 1 holds 300,")
    assert r.errors[3].startswith(f"cell 8 holds {-(2**63)},")
    big = np.zeros((1, 81), dtype=np.uint64)
    big[0, 3] = 2**64 - 1
    assert sb.solve(big).errors[0].startswith(f"cell 4 holds {2**64 - 1},")
    assert sb.verify(cells[:1], [SOLUTION]).errors[0].startswith(
        "malformed: puzzle: cell 81 holds -1"
    )
    assert sb.canon(cells.astype(np.int8)).errors[0].startswith("cell 81 holds -1,")


def test_the_cli_refuses_what_python_refuses():
    # One set of bounds: the CLI's options take the same values.
    for args in (["generate", "--count", "1000000001"], ["generate", "--max-attempts", "0"],
                 ["rate", "--max-rating", "8.95", "-"], ["solve", "--limit", "0", "-"]):
        out = subprocess.run([str(cli_binary()), *args], input=b"",
                             capture_output=True)
        assert out.returncode == 2, args
    assert run_cli("generate", "--count", "1", "--max-attempts", "4294967295", "--quiet")
