"""The module against the CLI on the shipped and public datasets: the same records, statuses,
solutions, counts and messages."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import numpy as np
import pytest

import sudoku_batch as sb
from conftest import SHIPPED, all_datasets, dataset, run_cli

STATUS = {s.name.lower(): s.value for s in sb.Status}
PUBLIC = all_datasets()


def cli_rows(*args: str) -> list[dict]:
    return list(csv.DictReader(io.StringIO(run_cli(*args))))


def check_solve(path: Path) -> int:
    rows = cli_rows("solve", str(path), "--format", "csv", "--limit", "2", "--quiet")
    r = sb.read(path)
    s = sb.solve(r, limit=2)
    assert len(rows) == len(r), path
    text = sb.to_strings(s.solutions)
    lines = r.lines.tolist()
    for i, row in enumerate(rows):
        assert int(row["line"]) == lines[i], (path, i)
        assert STATUS[row["status"]] == s.status[i], (path, row["line"])
        assert row["solution"] == (text[i] if s.status[i] <= 1 else ""), (path, row["line"])
        assert int(row["solutions"] or 0) == s.count[i], (path, row["line"])
        assert int(row["guesses"] or 0) == s.guesses[i], (path, row["line"])
        assert int(row["nodes"] or 0) == s.nodes[i], (path, row["line"])
        assert row["error"] == s.errors.get(i, ""), (path, row["line"])
    return len(rows)


@pytest.mark.parametrize("path", sorted(SHIPPED.glob("generated-*")), ids=lambda p: p.name)
def test_solve_equals_the_cli_on_the_shipped_datasets(path):
    assert check_solve(path) > 0


@pytest.mark.skipif(not PUBLIC, reason="../shared/datasets is absent")
@pytest.mark.parametrize("path", PUBLIC, ids=lambda p: p.name)
def test_solve_equals_the_cli_on_every_public_dataset(path):
    assert check_solve(path) > 0


def test_malformed_and_invalid_rows_equal_the_cli(tmp_path):
    path = tmp_path / "bad.txt"
    good = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
    path.write_text(f"{good}\n{good[:80]}\n55{good[2:]}\n{'.' * 81}\nx{good[1:]}\n{good}\n")
    assert check_solve(path) == 6


def test_verify_equals_the_cli(tmp_path):
    path = dataset("sudoku_exchange_hard_500_with_solutions.txt")
    text = path.read_text().splitlines()
    # Break some solutions: a swapped pair, a changed clue, an empty cell.
    text[3] = text[3][:-2] + text[3][-1] + text[3][-2]
    text[7] = text[7][:82] + ("1" if text[7][82] != "1" else "2") + text[7][83:]
    text[9] = text[9][:90] + "0" + text[9][91:]
    broken = tmp_path / "broken.txt"
    broken.write_text("\n".join(text) + "\n")
    rows = cli_rows("verify", str(broken), "--format", "csv", "--quiet")
    r = sb.read(broken)
    v = sb.verify(r, r.solutions)
    cli = {}
    for row in rows:
        cli.setdefault(int(row["line"]), []).append(f"{row['problem']}: {row['detail']}")
    lines = r.lines.tolist()
    ours = {lines[i]: m.split("\n") for i, m in v.errors.items()}
    assert ours == cli and len(cli) >= 3
    assert v.ok.sum() == len(r) - len(cli)


def test_canon_equals_the_cli():
    path = dataset("puzzles2_17_clue")
    rows = cli_rows("canon", str(path), "--format", "csv", "--quiet")[:5000]
    r = sb.read(path)
    c = sb.canon(r.puzzles[:5000])
    forms = sb.to_strings(c.forms)
    for i, row in enumerate(rows):
        assert row["canonical"] == forms[i], row["line"]
        assert int(row["automorphisms"]) == c.automorphisms[i], row["line"]


def test_generate_equals_the_cli():
    out = run_cli(
        "generate", "--count", "300", "--seed", "42", "--clues", "24..32", "--with-solutions",
        "--quiet",
    )
    rows = [line.split(",") for line in out.splitlines()[1:] if line]
    g = sb.generate(300, seed=42, clues=(24, 32))
    assert [p for p, _ in rows] == sb.to_strings(g.puzzles)
    assert [s for _, s in rows] == sb.to_strings(g.solutions)


def test_shuffle_equals_the_cli():
    path = dataset("norvig_top95.txt")
    out = run_cli("shuffle", str(path), "--seed", "9", "--copies", "3", "--quiet")
    cli = [line for line in out.splitlines() if line]
    r = sb.read(path)
    assert r.lines.tolist() == list(range(1, len(r) + 1))  # one puzzle per line
    s = sb.shuffle(r, seed=9, copies=3)
    assert len(cli) == 3 * len(r) and sb.to_strings(s.puzzles) == cli


def test_read_equals_the_cli_records():
    path = dataset("kaggle3m_radcliffe_first1000.csv")
    rows = cli_rows("solve", str(path), "--format", "csv", "--quiet")
    r = sb.read(path)
    assert r.ids == [row["id"] for row in rows]
    assert r.lines.tolist() == [int(row["line"]) for row in rows]
    assert sb.to_strings(r.puzzles) == [row["puzzle"].replace("0", ".") for row in rows]
    assert (sb.solve(r).solutions == r.solutions).all()
