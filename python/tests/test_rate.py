"""rate: Sudoku Explainer 1.2.1.3's ER/EP/ED through the library's engine."""

from __future__ import annotations

import csv
import io
import json

import numpy as np
import pytest

import sudoku_batch as sb
from conftest import PUZZLE, REPO, run_cli

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
    assert (r.status == sb.RateStatus.RATED).all()
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
    S = sb.RateStatus
    assert bad.status.tolist() == [S.RATED, S.MULTIPLE, S.INVALID, S.MALFORMED]
    # The CLI's error column: the solutions a multiple row has, the message of invalid and
    # malformed ones.
    assert set(bad.errors) == {1, 2, 3} and bad.errors[3].startswith("character 1 is 'n'")
    assert bad.errors[1] == "2+ solutions"
    assert bad.er[0] > 0 and (bad.er[1:] == 0).all()
    assert bad.hardest_names()[0] in bad.techniques and bad.hardest_names()[1] is None


def test_max_rating_caps_and_bad_arguments():
    rows = [p for p, _ in fixtures()]
    r = sb.rate(rows, max_rating=2.0)
    assert (r.er <= 2.0).all()
    assert r.capped.any()
    for same in (2, "2.0", " 2 ", np.float64(2.0)):
        assert (sb.rate(rows, max_rating=same).er == r.er).all(), same
    with pytest.raises(ValueError, match="ladder"):
        sb.rate(rows, ladder="hodoku")
    # As the CLI's --max-rating: one decimal at most, 1.0 to 25.5; never rounded.
    for bad in (-1, 0, 0.9, 8.95, 25.6, 26, float("nan"), float("inf"), "x", "6.25", 2**70):
        with pytest.raises(ValueError, match=r"max_rating=.*1\.0 to 25\.5 with one decimal"):
            sb.rate(rows[:1], max_rating=bad)
    assert not sb.rate(rows[:1], max_rating=25.5).capped.any()
    assert sb.rate(rows[:1], max_rating=1.0).status.tolist() == [sb.RateStatus.RATED]
    for wrong in (True, [6.2], b"6.2"):
        with pytest.raises(TypeError, match="max_rating"):
            sb.rate(rows[:1], max_rating=wrong)


# Rated (two), multiple, invalid, unsolvable, malformed (80 cells, a bad character, empty).
MIXED = [
    PUZZLE,
    "." * 81,
    "55" + PUZZLE[2:],
    "531.7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
    PUZZLE[:80],
    "000050000000206000064000390045000810000020000000107000053000980090804060100030004",
    "x" + PUZZLE[1:],
]


def test_rate_equals_the_cli_record_for_record(tmp_path):
    path = tmp_path / "mixed.txt"
    path.write_text("\n".join(MIXED) + "\n")
    cli = list(csv.DictReader(io.StringIO(run_cli("rate", "-f", "csv", "--quiet", str(path)))))
    statuses = [row["status"] for row in cli]
    assert set(statuses) == {"rated", "multiple", "unsolvable", "invalid", "malformed"}
    for threads in (1, 2):
        r = sb.rate(MIXED, threads=threads)
        df = r.to_pandas()
        assert df["status"].astype(str).tolist() == statuses
        assert df["error"].fillna("").tolist() == [row["error"] for row in cli]
        for i, row in enumerate(cli):
            rated = row["status"] == "rated"
            for field in ("er", "ep", "ed"):
                # Tenths as the CLI prints them: 1.2, not 1.2000000476837158.
                assert (repr(float(df[field][i])) if rated else "") == row[field], (i, field)
            assert df["hardest"].fillna("")[i] == row["hardest"]
            assert (str(df["steps"][i]) if rated else "") == row["steps"]
            assert (str(df["capped"][i]).lower() if rated else "") == row["capped"]


def test_ratings_are_tenths_in_dicts_and_json():
    pd = pytest.importorskip("pandas")
    r = sb.rate(MIXED)
    assert r.er.dtype == np.float64
    text = json.dumps(r.to_pandas().to_dict("records"))
    assert '"er": 1.2' in text and '"er": 3.0' in text
    assert "00000" not in text and "99999" not in text
    assert pd.isna(r.to_pandas()["error"][0])


def test_rate_to_pandas_keeps_the_index():
    pd = pytest.importorskip("pandas")
    df = sb.rate(pd.Series([PUZZLE, "nope"], index=["x", "y"])).to_pandas()
    assert list(df.index) == ["x", "y"]
    assert list(df.columns) == ["er", "ep", "ed", "hardest", "steps", "capped", "status", "error"]
    assert df.loc["y", "status"] == "malformed" and df.loc["x", "status"] == "rated"
    assert list(df["status"].cat.categories) == [
        "rated", "multiple", "unsolvable", "invalid", "malformed", "failed"
    ]


def test_status_enums_are_the_librarys():
    # The words are the CLI's and the codes the library's, in one place (the Rust enums).
    assert [(s.name.lower(), s.value) for s in sb.RateStatus] == [
        ("rated", 0), ("multiple", 1), ("unsolvable", 2), ("invalid", 3), ("malformed", 4),
        ("failed", 5),
    ]
    assert [s.name.lower() for s in sb.Status] == [
        "solved", "multiple", "unsolvable", "invalid", "malformed", "aborted"
    ]
    assert [s.name.lower() for s in sb.CanonStatus] == ["ok", "invalid", "malformed"]
    assert [s.value for s in sb.Status] == list(range(6))
