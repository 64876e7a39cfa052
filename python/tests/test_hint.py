"""hint and steps: the next step from a position, and a puzzle's whole path, as the CLI's
`hint` and `rate --steps` write them."""

from __future__ import annotations

import json

import numpy as np
import pytest

import sudoku_batch as sb
from conftest import HARD, PUZZLE, SOLUTION, run_cli


def candidates(puzzle: str) -> str:
    """The 729-character candidate grid of a puzzle: givens alone, the other cells every
    digit their houses leave."""
    cells = [0 if c in ".0" else int(c) for c in puzzle]
    out = []
    for i, v in enumerate(cells):
        if v:
            out.append("".join(str(d) if d == v else "." for d in range(1, 10)))
            continue
        seen = {cells[o] for o in range(81) if o // 9 == i // 9 or o % 9 == i % 9
                or (o // 27, o % 9 // 3) == (i // 27, i % 9 // 3)}
        out.append("".join("." if d in seen else str(d) for d in range(1, 10)))
    return "".join(out)


def flags(grid: str) -> np.ndarray:
    """A candidate grid as (729,) 0/1 flags."""
    return np.array([c != "." and c != "0" for c in grid], dtype=np.uint8)


def cli_hints(lines: list[str], *args: str) -> list[dict]:
    out = run_cli("hint", "-q", *args, "-", stdin=("\n".join(lines) + "\n").encode())
    return [json.loads(line) for line in out.splitlines()]


def test_hint_is_the_clis_step_for_puzzles_and_candidate_grids():
    positions = [PUZZLE, candidates(PUZZLE), *HARD, *map(candidates, HARD)]
    r = sb.hint(positions)
    assert (r.status == sb.HintStatus.STEP).all()
    cli = cli_hints(positions)
    assert r.steps == cli
    assert r.steps[0]["kind"] == "step" and r.steps[0]["step"] == 1
    assert r.steps[0]["line"] == 1


def test_arrays_of_both_shapes():
    grids = [candidates(p) for p in HARD]
    want = sb.hint(grids).steps
    flat = np.stack([flags(g) for g in grids])
    assert sb.hint(flat).steps == want
    assert sb.hint(flat.reshape(-1, 9, 9, 9)).steps == want
    assert sb.hint(flat.astype(bool)).steps == want
    assert sb.hint(flat.astype(np.int64), threads=2).steps == want
    with pytest.raises(ValueError, match="candidate flags must be 0 or 1"):
        sb.hint(flat * 2)


def test_statuses_and_messages():
    grid = candidates(PUZZLE)
    empty_cell = "." * 9 + grid[9:]
    # r1c3 holds 1, 2 or 4, and 4 in the one solution: without it there is none.
    no_four = grid[:18] + "12......." + grid[27:]
    clash = "1........" * 2 + grid[18:]
    rows = [SOLUTION, "." * 81, empty_cell, no_four, clash, "x" * 729, "1" * 80, grid]
    r = sb.hint(rows)
    assert [sb.HintStatus(s).name for s in r.status] == [
        "SOLVED", "MULTIPLE", "INVALID", "UNSOLVABLE", "INVALID", "MALFORMED", "MALFORMED",
        "STEP",
    ]
    assert r.errors[2] == "cell r1c1 has no candidate"
    assert r.errors[4] == "digit 1 appears twice in row 1 (r1c1 and r1c2)"
    assert "character 1 is 'x'" in r.errors[5]
    assert r.errors[1] == "2+ solutions"
    assert r.steps[:7] == [None] * 7
    statuses = [o.get("status", "step") for o in cli_hints(rows)]
    assert statuses == [sb.HintStatus(s).name.lower() for s in r.status]


def test_a_cap_below_every_step_gives_capped():
    r = sb.hint(HARD[:1], max_rating=1.0)
    s = sb.hint(HARD[:1])
    assert r.status[0] == (sb.HintStatus.CAPPED if s.steps[0]["difficulty"] > 1.0
                           else sb.HintStatus.STEP)


def test_steps_are_the_clis_path():
    puzzles = [PUZZLE, *HARD[:2], "." * 81, "1" * 80, SOLUTION]
    r = sb.steps(puzzles, max_rating=7.0)
    out = run_cli("rate", "--steps", "-q", "--max-rating", "7.0", "-",
                  stdin=("\n".join(puzzles) + "\n").encode())
    cli: list[list[dict]] = [[] for _ in puzzles]
    for line in out.splitlines():
        o = json.loads(line)
        if o["kind"] == "step":
            cli[o["line"] - 1].append(o)
    assert r.steps[:3] == cli[:3]
    assert r.steps[3] is None and r.steps[4] is None
    assert r.steps[5] == []  # a filled grid: rated, no step
    assert list(r.status) == [sb.RateStatus.RATED] * 3 + [sb.RateStatus.MULTIPLE,
                                                          sb.RateStatus.MALFORMED,
                                                          sb.RateStatus.RATED]
    assert r.steps[-1] == [] and len(r.steps[1:3]) == 2
    # The path's first step is the hint.
    assert sb.hint(puzzles[:3]).steps == [path[0] for path in r.steps[:3]]


def test_bad_arguments_are_the_clis():
    with pytest.raises(ValueError, match="expected a rating from 1.0 to 25.5"):
        sb.hint([PUZZLE], max_rating=0.5)
    with pytest.raises(ValueError):
        sb.steps([PUZZLE], ladder="hodoku")
    with pytest.raises(TypeError):
        sb.hint(3.5)
