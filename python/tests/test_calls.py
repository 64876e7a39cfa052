"""verify, canon, generate, shuffle, to_digits, to_strings, read."""

from __future__ import annotations

import gzip

import numpy as np
import pytest

import sudoku_batch as sb
from conftest import HARD, PUZZLE, SOLUTION


def test_verify_finds_each_problem():
    wrong = SOLUTION[:-2] + SOLUTION[-1] + SOLUTION[-2]
    clue = "6" + SOLUTION[1:]
    empty = "." * 81
    r = sb.verify(
        [PUZZLE, PUZZLE, PUZZLE, empty, "55" + PUZZLE[2:], PUZZLE[:80]],
        [SOLUTION, wrong, clue, SOLUTION, SOLUTION, SOLUTION],
    )
    assert r.ok.tolist() == [True, False, False, False, False, False]
    P = sb.Problem
    assert r.has(P.BAD_GRID)[1] and r.has(P.BAD_GRID)[2] and r.has(P.CLUE_MISMATCH)[2]
    assert r.has(P.NOT_UNIQUE)[3] and r.has(P.INVALID_GIVENS)[4] and r.has(P.MALFORMED)[5]
    assert r.errors[3] == "not-unique: 2 or more solutions; the listed one is one of them"
    assert r.errors[5].startswith("malformed: puzzle: 80 cells")
    assert 0 not in r.errors
    # Without the uniqueness proof a listed valid grid passes.
    assert sb.verify([empty], [SOLUTION], unique=False).ok.all()


def test_verify_needs_one_solution_per_puzzle():
    with pytest.raises(ValueError, match="2 puzzles but 1 solutions"):
        sb.verify([PUZZLE, PUZZLE], [SOLUTION])


def test_canon_is_the_same_for_equivalent_puzzles():
    copies = sb.shuffle(HARD + [PUZZLE], seed=5, copies=4)
    c = sb.canon(copies.puzzles)
    assert (c.status == sb.CanonStatus.OK).all()
    forms = c.forms.reshape(len(HARD) + 1, 4, 81)
    assert (forms == forms[:, :1]).all()
    assert len({f.tobytes() for f in forms[:, 0]}) == len(HARD) + 1
    assert (c.automorphisms >= 1).all()
    bad = sb.canon(["55" + PUZZLE[2:], "nope"])
    assert bad.status.tolist() == [sb.CanonStatus.INVALID, sb.CanonStatus.MALFORMED]
    assert (bad.forms == 0).all() and set(bad.errors) == {0, 1}


def test_generate_is_seeded_and_unique():
    a = sb.generate(20, seed=7, clues=(24, 30), threads=1)
    b = sb.generate(20, seed=7, clues=(24, 30), threads=2)
    assert (a.puzzles == b.puzzles).all() and (a.solutions == b.solutions).all()
    clues = (a.puzzles != 0).sum(axis=1)
    assert ((clues >= 24) & (clues <= 30)).all()
    r = sb.solve(a.puzzles, limit=2)
    assert (r.status == sb.Status.SOLVED).all() and (r.solutions == a.solutions).all()
    assert not (sb.generate(20, seed=8).puzzles == a.puzzles).all()


def test_generate_says_which_bound_failed():
    with pytest.raises(ValueError, match="generate: .*17"):
        sb.generate(1, seed=1, clues=17, max_attempts=3)
    with pytest.raises(ValueError, match="clues"):
        sb.generate(1, seed=1, clues=(40, 30))


def test_shuffle_keeps_solution_counts_and_maps_solutions():
    s = sb.shuffle(HARD + [PUZZLE, "bad"], seed=3, copies=2, solutions=True)
    assert s.puzzles.shape == (12, 81) and s.source.tolist() == [0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5]
    assert s.ok.tolist() == [True] * 5 + [False] and list(s.errors) == [5]
    assert (s.puzzles[10:] == 0).all()
    r = sb.solve(s.puzzles[:10], limit=2)
    assert (r.status == sb.Status.SOLVED).all()
    assert (r.solutions == s.solutions[:10]).all()
    again = sb.shuffle(HARD + [PUZZLE, "bad"], seed=3, copies=2, threads=1)
    assert (again.puzzles == s.puzzles).all() and again.solutions is None


def test_digits_and_strings_round_trip():
    cells = sb.to_digits([PUZZLE, SOLUTION])
    assert cells.shape == (2, 81) and cells.dtype == np.uint8
    assert sb.to_strings(cells) == [PUZZLE, SOLUTION]
    assert sb.to_strings(cells, empty="0")[0] == PUZZLE.replace(".", "0")
    assert sb.to_strings(["nope", PUZZLE]) == [None, PUZZLE]
    with pytest.raises(ValueError, match="puzzle 1: 4 cells"):
        sb.to_digits([PUZZLE, "1234"])
    with pytest.raises(ValueError, match="empty"):
        sb.to_strings(cells, empty="..")


def test_read_takes_every_format_and_compression(tmp_path):
    lines = tmp_path / "p.txt"
    lines.write_text(f"# comment\n{PUZZLE}\n\n{HARD[0]}\nnot a puzzle\n")
    r = sb.read(lines)
    assert len(r) == 3 and r.lines.tolist() == [2, 4, 5] and r.solutions is None
    assert sb.to_strings(r.puzzles[:2]) == [PUZZLE, HARD[0]]
    assert list(r.errors) == [2] and r.malformed.tolist() == [False, False, True]
    # A malformed record stays malformed when the result is solved.
    s = sb.solve(r)
    assert s.status.tolist() == [0, 0, sb.Status.MALFORMED] and s.errors[2] == r.errors[2]

    csv = tmp_path / "k.csv.gz"
    with gzip.open(csv, "wt") as f:
        f.write("id,quizzes,solutions\n")
        f.write(f"7,{PUZZLE.replace('.', '0')},{SOLUTION}\n")
        f.write(f"8,{PUZZLE},{SOLUTION[:80]}\n")
    r = sb.read(csv)
    assert r.ids == ["7", "8"] and r.lines.tolist() == [2, 3]
    assert sb.to_strings(r.solutions[:1]) == [SOLUTION] and list(r.solution_errors) == [1]
    assert sb.to_strings(sb.read(csv, column="quizzes").puzzles) == [PUZZLE, PUZZLE]
    assert sb.read(csv, solutions=False).solutions is None

    block = tmp_path / "b.txt"
    block.write_text("\n".join(PUZZLE[i : i + 9] for i in range(0, 81, 9)) + "\n")
    assert sb.to_strings(sb.read(block, format="block").puzzles) == [PUZZLE]


def test_read_errors_name_the_file(tmp_path):
    with pytest.raises(FileNotFoundError, match="nowhere.csv"):
        sb.read(tmp_path / "nowhere.csv")
    with pytest.raises(OSError, match="directory"):
        sb.read(tmp_path)
    bad = tmp_path / "bad.csv"
    bad.write_text("a,b\n1,2\n")
    with pytest.raises(ValueError, match="no puzzle column"):
        sb.read(bad, format="csv")
    with pytest.raises(ValueError, match="unknown format"):
        sb.read(bad, format="xml")
