"""The documented recipes as written: the pandas join on every Kaggle layout, and README's
Python section in a fresh venv installed with README's own install lines."""

from __future__ import annotations

import gzip
import os
import re
import shlex
import shutil
import subprocess
import sys
import textwrap
import venv
from pathlib import Path

import pytest

import sudoku_batch as sb
from conftest import DATASETS, REPO

FIXTURES = REPO / "tests" / "fixtures"

# The three Kaggle layouts: the repository's excerpts and the public samples, each with its
# puzzle and solution columns.
LAYOUTS = [
    (FIXTURES / "kaggle1m.csv", "quizzes", "solutions"),
    (FIXTURES / "kaggle3m.csv", "puzzle", "solution"),
    (FIXTURES / "kaggle9m.csv", "puzzle", "solution"),
    (DATASETS / "kaggle1m_sample_first24997.csv", "quizzes", "solutions"),
    (DATASETS / "kaggle3m_radcliffe_first1000.csv", "puzzle", "solution"),
    (DATASETS / "kaggle9m_vopani_first10000.csv", "puzzle", "solution"),
]


@pytest.mark.parametrize("path,puzzle,solution", LAYOUTS, ids=lambda v: getattr(v, "name", v))
def test_the_pandas_join_recipe_works_on_every_kaggle_layout(path, puzzle, solution):
    pd = pytest.importorskip("pandas")
    if not path.exists():
        pytest.skip(f"{path} is absent (the public datasets are not beside this clone)")
    # README's and docs/python.md's recipe, with this layout's column names.
    df = pd.read_csv(path, dtype=str)
    df = df.join(sb.solve_df(df[puzzle]))
    ok = sb.verify(df[puzzle], df[solution]).ok
    assert len(df) > 0 and ok.all()
    assert (df.sb_solution == df[solution]).all()
    assert (df.sb_status == "solved").all()
    # docs/python.md's: limit=2 proves each published solution the only one.
    out = sb.solve_df(df[puzzle], limit=2)
    assert (out.sb_status == "solved").all() and (out.sb_solutions == 1).all()


def readme_python_section() -> str:
    text = (REPO / "README.md").read_text()
    start = text.index("\n## Python\n")
    end = text.index("\n## ", start + 1)
    return text[start:end]


def fenced(section: str, language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", section, flags=re.S)


def install_lines(section: str) -> list[str]:
    """The `pip install` commands of the section's sh blocks, comments left out."""
    lines = []
    for block in fenced(section, "sh"):
        for line in block.splitlines():
            command = line.split(" #")[0].strip()
            if command.startswith("pip install"):
                lines.append(command)
    return lines


# What README's Python block takes as given: the files it names, made from the repository's
# fixtures, and `spark`, a SparkSession (as the `pyspark` shell makes one).
_PRELUDE = """
import gzip, os, shutil, sys
import numpy as np, pandas as pd
fixtures = sys.argv[1]
kaggle = pd.read_csv(os.path.join(fixtures, "kaggle1m.csv"), dtype=str)
digits = np.array([[int(c) for c in q] for q in kaggle["quizzes"]], dtype=np.uint8)
np.save("train.npy", digits)
shutil.copy(os.path.join(fixtures, "kaggle1m.csv"), "sudoku.csv")
with open("sudoku.csv", "rb") as f, gzip.open("sudoku.csv.gz", "wb") as g:
    g.write(f.read())
pd.DataFrame({"puzzle": kaggle["quizzes"]}).to_csv("puzzles.csv", index=False)
os.environ["PYSPARK_PYTHON"] = sys.executable
from pyspark.sql import SparkSession
spark = (SparkSession.builder.master("local[2]").config("spark.ui.enabled", "false")
         .getOrCreate())
"""

_CHECK = """
solved = pd.read_parquet("solved")
assert len(solved) == len(kaggle) and solved["solution"].notna().all(), solved
assert (df.sb_solution == df.solutions).all() and ok.all()
spark.stop()
print("README's Python block ran")
"""


@pytest.mark.skipif(shutil.which("java") is None, reason="README's PySpark lines need Java")
@pytest.mark.skipif(shutil.which("cargo") is None, reason="README's install line needs Rust")
def test_readmes_python_section_runs_in_a_fresh_venv(tmp_path):
    section = readme_python_section()
    commands = install_lines(section)
    assert commands and commands[0].startswith("pip install ") and "./python" in commands[0]
    blocks = fenced(section, "python")
    assert len(blocks) == 1, "README's Python section has one Python block"
    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=True)
    python = env_dir / "bin" / "python"
    env = dict(os.environ, PIP_DISABLE_PIP_VERSION_CHECK="1", PIP_QUIET="1",
               # The build as `maturin develop` made it for the other tests (optimised, no
               # link-time optimisation) and for any interpreter: the same compiled crates,
               # so the install takes seconds, not a release build's minutes.
               MATURIN_PEP517_ARGS="--profile dev", MATURIN_PEP517_USE_BASE_PYTHON="1")
    env.pop("VIRTUAL_ENV", None)
    for command in commands:
        args = shlex.split(command)
        assert args[:2] == ["pip", "install"]
        subprocess.run([str(python), "-m", "pip", *args[1:]], cwd=REPO, env=env, check=True)
    work = tmp_path / "work"
    work.mkdir()
    script = _PRELUDE + blocks[0] + _CHECK
    done = subprocess.run([str(python), "-c", script, str(FIXTURES)], cwd=work, env=env,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-4000:]
    assert "README's Python block ran" in done.stdout
