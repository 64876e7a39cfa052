"""Shared fixtures: the datasets beside the repository, the CLI binary, small puzzle sets."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
# The public datasets beside the clone, or where $SUDOKU_BATCH_DATASETS says (a worktree).
DATASETS = Path(os.environ.get("SUDOKU_BATCH_DATASETS") or REPO.parent / "shared" / "datasets")
SHIPPED = REPO / "datasets"

# The same puzzle in three spellings, and its solution.
PUZZLE = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
SOLUTION = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
HARD = [
    # from puzzles3_magictour_top1465 (shipped with the tests so that they run without it)
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
    "52...6.........7.13...........4..8..6......5...........418.........3..2...87.....",
    "6.....8.3.4.7.................5.4.7.3..2.....1.6.......2.....5.....8.6......1....",
    "48.3............71.2.......7.5....6....2..8.............1.76...3.....4......5....",
]


def cli_binary() -> Path:
    """The CLI to compare with: $SUDOKU_BATCH_CLI, else the newest build under target/."""
    env = os.environ.get("SUDOKU_BATCH_CLI")
    if env:
        return Path(env)
    builds = [REPO / "target" / p / "sudoku-batch" for p in ("release", "debug")]
    found = [b for b in builds if b.exists()]
    if not found:
        pytest.fail("no sudoku-batch binary: run `cargo build --release` (or set SUDOKU_BATCH_CLI)")
    return max(found, key=lambda b: b.stat().st_mtime)


def run_cli(*args: str, stdin: bytes | None = None) -> str:
    """The CLI's standard output (its exit code 1, some records not fine, is allowed)."""
    done = subprocess.run(
        [str(cli_binary()), *args], input=stdin, capture_output=True, check=False
    )
    if done.returncode not in (0, 1):
        raise AssertionError(f"sudoku-batch {' '.join(args)}: {done.stderr.decode()}")
    return done.stdout.decode()


def dataset(name: str) -> Path:
    """A file of ../shared/datasets, or a skip saying it is absent."""
    path = DATASETS / name
    if not path.exists():
        pytest.skip(f"{path} is absent (the public datasets are not beside this clone)")
    return path


def all_datasets() -> list[Path]:
    if not DATASETS.is_dir():
        return []
    return sorted(p for p in DATASETS.iterdir() if p.is_file() and p.name != "SOURCES.md")
