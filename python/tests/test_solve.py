"""solve: every input kind, statuses, messages, arguments, threads."""

from __future__ import annotations

import numpy as np
import pytest

import sudoku_batch as sb
from conftest import HARD, PUZZLE, SOLUTION


def digits(line: str) -> np.ndarray:
    return np.array([0 if c in ".0" else int(c) for c in line], dtype=np.uint8)


def test_a_puzzle_is_solved_and_counted():
    r = sb.solve([PUZZLE], limit=2)
    assert len(r) == 1
    assert r.status.tolist() == [sb.Status.SOLVED]
    assert r.solutions.shape == (1, 81) and r.solutions.dtype == np.uint8
    assert sb.to_strings(r.solutions) == [SOLUTION]
    assert r.count.tolist() == [1]
    assert r.nodes[0] >= 1 and r.errors == {}


def test_results_keep_input_order():
    puzzles = HARD + [PUZZLE] + HARD[::-1]
    r = sb.solve(puzzles)
    for i, p in enumerate(puzzles):
        alone = sb.solve(p)
        assert (r.solutions[i] == alone.solutions[0]).all()
        assert r.guesses[i] == alone.guesses[0] and r.nodes[i] == alone.nodes[0]


def kinds(lines: list[str]):
    """The same puzzles as every input kind the calls take."""
    cells = np.stack([digits(p) for p in lines])
    yield "uint8", cells
    yield "int64", cells.astype(np.int64)
    yield "int8", cells.astype(np.int8)
    yield "uint16 (n,9,9)", cells.astype(np.uint16).reshape(-1, 9, 9)
    yield "S81", np.array([p.encode() for p in lines], dtype="S81")
    yield "U81", np.array(lines, dtype="U81")
    yield "object array", np.array(lines, dtype=object)
    yield "list[str]", list(lines)
    yield "tuple[bytes]", tuple(p.encode() for p in lines)
    yield "list of rows", cells.tolist()
    pd = pytest.importorskip("pandas")
    yield "pandas object", pd.Series(lines, dtype=object)
    yield "pandas str", pd.Series(lines, dtype="string")
    try:
        import pyarrow as pa

        yield "pandas arrow", pd.Series(lines, dtype="string[pyarrow]")
        yield "pyarrow", pa.array(lines)
        yield "pyarrow chunked", pa.chunked_array([lines[:2], lines[2:]])
        yield "pyarrow large_string", pa.array(lines, type=pa.large_string())
    except ImportError:
        pass
    try:
        import polars as pl

        yield "polars", pl.Series(lines)
    except ImportError:
        pass


def test_every_input_kind_gives_the_same_results():
    lines = HARD + [PUZZLE, PUZZLE.replace(".", "0")]
    want = sb.solve(lines, limit=2)
    assert (want.status == sb.Status.SOLVED).all()
    seen = []
    for name, puzzles in kinds(lines):
        got = sb.solve(puzzles, limit=2)
        assert (got.solutions == want.solutions).all(), name
        assert (got.status == want.status).all(), name
        assert (got.nodes == want.nodes).all(), name
        seen.append(name)
    assert len(seen) >= 10


def test_ints_that_lost_their_leading_zeros_are_puzzles():
    # What pandas.read_csv makes of Kaggle's 81-digit puzzle column: the leading zeros (empty
    # cells) are gone.
    g = sb.generate(40, seed=3)
    lines = sb.to_strings(g.puzzles, empty="0")
    assert any(line.startswith("0") for line in lines)
    ints = [int(line) for line in lines]
    assert (sb.solve(np.array(ints, dtype=object)).solutions == g.solutions).all()
    pd = pytest.importorskip("pandas")
    assert (sb.solve(pd.Series(ints, dtype=object)).solutions == g.solutions).all()
    assert sb.solve(pd.Series([-5, 7], dtype=object)).status.tolist() == [4, 0]  # 7: one clue


def test_a_single_puzzle_in_any_shape():
    for one in (PUZZLE, digits(PUZZLE), digits(PUZZLE).reshape(9, 9)):
        r = sb.solve(one)
        assert sb.to_strings(r.solutions) == [SOLUTION]


def test_statuses_and_messages():
    invalid = "55" + PUZZLE[2:]
    unsolvable = "12345678." + "........9" + "." * 63
    empty = "." * 81
    r = sb.solve(
        [PUZZLE, empty, unsolvable, invalid, PUZZLE[:80], "x" + PUZZLE[1:], None, ""], limit=2
    )
    S = sb.Status
    assert r.status.tolist() == [
        S.SOLVED, S.MULTIPLE, S.UNSOLVABLE, S.INVALID, S.MALFORMED, S.MALFORMED, S.MALFORMED,
        S.MALFORMED,
    ]
    assert r.count.tolist()[:4] == [1, 2, 0, 0]
    assert (r.solutions[2:] == 0).all()
    assert set(r.errors) == {3, 4, 5, 6, 7}
    assert "5" in r.errors[3] and "row" in r.errors[3].lower()
    assert r.errors[4] == "80 cells, expected 81"
    assert "'x'" in r.errors[5]
    assert r.errors[6] == "0 cells, expected 81"


def test_released_result_arrays_are_reused_and_fully_rewritten():
    # 20,000 rows: solutions (1.6 MB) and guesses / nodes (160 kB each: not recycled) of a
    # call; once Python frees them, the next call of that size writes into the same memory.
    n = 20000
    first = sb.solve([PUZZLE] * n)
    address = first.solutions.__array_interface__["data"][0]
    del first
    rows = ["55" + PUZZLE[2:], "bad", PUZZLE, "." * 81]
    mixed = [rows[i % 4] for i in range(n)]
    second = sb.solve(mixed, limit=2)
    assert second.solutions.__array_interface__["data"][0] == address
    fresh = sb.solve(rows, limit=2)  # small arrays: never recycled
    for k in range(4):
        assert (second.solutions[k::4] == fresh.solutions[k]).all()
        assert (second.status[k::4] == fresh.status[k]).all()
        assert (second.count[k::4] == fresh.count[k]).all()
    assert (second.solutions[0::4] == 0).all() and (second.solutions[1::4] == 0).all()
    assert (second.nodes[1::4] == 0).all() and (second.guesses[1::4] == 0).all()


def test_an_array_in_use_is_never_reused():
    n = 20000
    first = sb.solve([PUZZLE] * n)
    kept = first.solutions[n // 2]  # a view keeps the whole buffer alive
    address = first.solutions.__array_interface__["data"][0]
    del first
    second = sb.solve(["." * 81] * n)
    assert second.solutions.__array_interface__["data"][0] != address
    assert sb.to_strings(kept.reshape(1, 81)) == [SOLUTION]


def test_values_outside_a_cell_are_malformed_not_raised():
    cells = np.stack([digits(PUZZLE)] * 4).astype(np.int64)
    cells[1, 5] = 10
    cells[2, 80] = -1
    cells[3, 0] = 300
    r = sb.solve(cells)
    assert r.status.tolist() == [0, 4, 4, 4]
    assert r.errors[1] == "cell 6 holds 10, not 0 (empty) or a digit 1-9"
    assert r.errors[2].startswith("cell 81 holds -1,")
    assert r.errors[3].startswith("cell 1 holds 300,")


def test_wrong_shapes_and_dtypes_are_value_errors_naming_them():
    with pytest.raises(ValueError, match=r"\(3, 80\)"):
        sb.solve(np.zeros((3, 80), dtype=np.uint8))
    with pytest.raises(ValueError, match=r"\(2, 3, 9, 9\)"):
        sb.solve(np.zeros((2, 3, 9, 9), dtype=np.uint8))
    with pytest.raises(ValueError, match="float64"):
        sb.solve(np.zeros((3, 81)))
    with pytest.raises(ValueError, match="bool"):
        sb.solve(np.zeros((3, 81), dtype=bool))
    with pytest.raises(ValueError, match="1-D"):
        sb.solve(np.array([[PUZZLE]]))
    with pytest.raises(TypeError, match="float"):
        sb.solve([PUZZLE, 5.5])
    with pytest.raises(TypeError, match="dict"):
        sb.solve({"a": PUZZLE})


def test_bad_arguments_are_value_errors():
    with pytest.raises(ValueError, match="limit"):
        sb.solve([PUZZLE], limit=0)
    with pytest.raises(ValueError, match="threads"):
        sb.solve([PUZZLE], threads=0)
    with pytest.raises(ValueError, match="unknown algorithm"):
        sb.solve([PUZZLE], algorithm="dlx")


def test_an_empty_input_gives_empty_arrays():
    r = sb.solve([])
    assert len(r) == 0 and r.solutions.shape == (0, 81)
    r = sb.solve(np.zeros((0, 81), dtype=np.uint8))
    assert len(r) == 0


@pytest.mark.parametrize("algorithm", ["fast", "bands", "hybrid", "jcz", "mrv", "naive"])
def test_every_algorithm_solves(algorithm):
    r = sb.solve(HARD + [PUZZLE], algorithm=algorithm, limit=2)
    assert (r.status == sb.Status.SOLVED).all()
    for p, s in zip(HARD + [PUZZLE], sb.to_strings(r.solutions)):
        assert all(a in ".0" or a == b for a, b in zip(p, s))


def test_threads_do_not_change_results():
    shuffled = sb.shuffle(HARD * 50 + [PUZZLE] * 50, seed=11, copies=3).puzzles
    one = sb.solve(shuffled, threads=1, limit=2)
    for threads in (2, 3, 8):
        many = sb.solve(shuffled, threads=threads, limit=2)
        for field in ("solutions", "status", "count", "guesses", "nodes"):
            assert (getattr(one, field) == getattr(many, field)).all(), (threads, field)


def test_rayon_num_threads_is_honoured(monkeypatch):
    monkeypatch.setenv("RAYON_NUM_THREADS", "1")
    a = sb.solve(HARD * 10)
    monkeypatch.setenv("RAYON_NUM_THREADS", "bogus")
    with pytest.warns(RuntimeWarning, match="RAYON_NUM_THREADS=bogus: .* is not a whole number"):
        b = sb.solve(HARD * 10)
    assert (a.solutions == b.solutions).all()


def test_solve_df_keeps_the_index_and_has_the_cli_columns():
    pd = pytest.importorskip("pandas")
    s = pd.Series([PUZZLE, "123", "." * 81], index=["a", "b", "c"])
    df = sb.solve_df(s, limit=2, prefix="")
    assert list(df.index) == ["a", "b", "c"]
    assert list(df.columns) == ["solution", "status", "solutions", "guesses", "nodes", "error"]
    assert df.loc["a", "solution"] == SOLUTION and df.loc["a", "status"] == "solved"
    assert df.loc["b", "status"] == "malformed" and pd.isna(df.loc["b", "solution"])
    assert df.loc["b", "error"] == "3 cells, expected 81"
    assert df.loc["c", "status"] == "multiple"
    # By default each name has the prefix sb_, so that the frame joins to its input.
    assert list(sb.solve_df(s).columns) == [
        "sb_solution", "sb_status", "sb_solutions", "sb_guesses", "sb_nodes", "sb_error"
    ]


def test_the_series_accessor():
    pd = pytest.importorskip("pandas")
    sb.register_accessor()
    s = pd.Series([PUZZLE] * 3, index=[10, 20, 30])
    df = s.sudoku.solve()
    assert list(df.index) == [10, 20, 30] and (df.sb_solution == SOLUTION).all()
    assert (s.sudoku.digits() == digits(PUZZLE)).all()
    forms = s.sudoku.canon()
    assert list(forms.index) == [10, 20, 30] and forms.nunique() == 1
    assert s.sudoku.verify(pd.Series([SOLUTION] * 3)).ok.all()


def test_docstrings_are_there():
    for f in (sb.solve, sb.verify, sb.canon, sb.generate, sb.shuffle, sb.read, sb.to_digits):
        assert f.__doc__ and len(f.__doc__) > 100
    assert "limit" in sb.solve.__doc__ and "threads" in sb.solve.__doc__
