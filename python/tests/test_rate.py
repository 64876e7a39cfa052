"""rate: Sudoku Explainer 1.2.1.3's ER/EP/ED through the library's engine."""

from __future__ import annotations

import numpy as np
import pytest

import sudoku_batch as sb
from conftest import PUZZLE, REPO

FIXTURE = REPO / "tests" / "fixtures" / "rate" / "se-1.2.1.3.txt"


def fixtures():
    rows = []
    for line in FIXTURE.read_text().splitlines():
        if line.startswith("#") or not line.strip():
            continue
        fields = line.split()
        rows.append((fields[0], [float(x) for x in fields[1].split("/")]))
    return rows


def test_ratings_equal_sudoku_explainers():
    rows = fixtures()
    r = sb.rate([p for p, _ in rows])
    assert (r.status == sb.Status.SOLVED).all()
    exact = 0
    for i, (_, (er, ep, ed)) in enumerate(rows):
        if r.capped[i]:  # dynamic chains (+) (9.0) and up: capped, below SE's figure
            assert er >= 9.0 and r.er[i] <= er
        else:
            assert (round(float(r.er[i]), 1), round(float(r.ep[i]), 1), round(float(r.ed[i]), 1)) == (
                er, ep, ed
            ), rows[i][0]
            exact += 1
    assert exact >= 10


def test_nested_chains_of_level_4_equal_sudoku_explainers():
    # The first two puzzles SE 1.2.1.3 rated with nested dynamic forcing chains (10.5 + length).
    path = REPO / "tests" / "fixtures" / "rate" / "se-nested4.txt"
    rows = [line.split() for line in path.read_text().splitlines() if not line.startswith("#")][:2]
    r = sb.rate([p for p, _ in rows], threads=2)
    assert not r.capped.any()
    for i, (_, want) in enumerate(rows):
        got = "/".join(f"{float(x):.1f}" for x in (r.er[i], r.ep[i], r.ed[i]))
        assert got == want, rows[i][0]
        assert r.hardest_names()[i].endswith(" (+ Dynamic Forcing Chains)")


def test_rate_threads_and_statuses():
    rows = [p for p, _ in fixtures()]
    one = sb.rate(rows * 3, threads=1)
    two = sb.rate(rows * 3, threads=2)
    for field in ("er", "ep", "ed", "hardest", "steps", "capped", "status"):
        assert (getattr(one, field) == getattr(two, field)).all(), field
    bad = sb.rate([PUZZLE, "." * 81, "55" + PUZZLE[2:], "nope"])
    assert bad.status.tolist() == [sb.Status.SOLVED, sb.Status.MULTIPLE, sb.Status.INVALID,
                                   sb.Status.MALFORMED]
    assert set(bad.errors) == {1, 2, 3} and bad.errors[1] == "not rated: multiple"
    assert bad.er[0] > 0 and (bad.er[1:] == 0).all()
    assert bad.hardest_names()[0] in bad.techniques and bad.hardest_names()[1] is None


def test_max_rating_caps_and_bad_arguments():
    rows = [p for p, _ in fixtures()]
    r = sb.rate(rows, max_rating=2.0)
    assert (r.er <= np.float32(2.0)).all()
    assert r.capped.any()
    with pytest.raises(ValueError, match="ladder"):
        sb.rate(rows, ladder="hodoku")
    with pytest.raises(ValueError, match="max_rating"):
        sb.rate(rows, max_rating=-1)


def test_rate_to_pandas_keeps_the_index():
    pd = pytest.importorskip("pandas")
    df = sb.rate(pd.Series([PUZZLE, "nope"], index=["x", "y"])).to_pandas()
    assert list(df.index) == ["x", "y"]
    assert list(df.columns) == ["er", "ep", "ed", "hardest", "steps", "capped", "status", "error"]
    assert df.loc["y", "status"] == "malformed"
