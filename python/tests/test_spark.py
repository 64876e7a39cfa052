"""The PySpark recipe of the docs, in local mode: `mapInPandas` over a CSV's partitions must
give the CLI's answers for every record, in order."""

from __future__ import annotations

import os
import shutil
import sys

import pytest

from conftest import DATASETS, SHIPPED, run_cli

pyspark = pytest.importorskip("pyspark", reason="pyspark is not installed (scripts/test.sh installs it)")


@pytest.mark.skipif(shutil.which("java") is None, reason="Spark needs a Java runtime")
def test_map_in_pandas_equals_the_cli(tmp_path):
    from pyspark.sql import SparkSession

    # Defined here so that Spark ships it to its Python workers by value.
    def solve_partition(frames):
        """The recipe: each Arrow batch of a partition, as a pandas DataFrame, solved at once."""
        import pandas as pd

        import sudoku_batch as sb

        for df in frames:
            r = sb.solve_df(df["puzzle"], threads=1)
            yield pd.DataFrame(
                {
                    "puzzle": df["puzzle"],
                    "solution": r["sb_solution"],
                    "status": r["sb_status"].astype(str),
                }
            )

    # Held back from tuning: a random sample of the 9M set (the shipped file when absent).
    path = DATASETS / "kaggle9m_vopani_random_2000.csv"
    if not path.exists():
        path = tmp_path / "hard.csv"
        lines = (SHIPPED / "generated-hard-1k.txt").read_text().split()
        path.write_text("puzzle\n" + "\n".join(lines) + "\n")
    os.environ["PYSPARK_PYTHON"] = sys.executable
    spark = (
        SparkSession.builder.master("local[2]")
        .appName("sudoku-batch-mapInPandas")
        .config("spark.sql.execution.arrow.maxRecordsPerBatch", "300")
        .config("spark.ui.enabled", "false")
        .getOrCreate()
    )
    try:
        frame = spark.read.csv(str(path), header=True).select("puzzle")
        rows = frame.mapInPandas(
            solve_partition, "puzzle string, solution string, status string"
        ).collect()
    finally:
        spark.stop()
    cli = run_cli("solve", str(path), "--quiet").splitlines()
    ours = [r.solution if r.solution is not None else r.status for r in rows]
    assert len(rows) == len(cli) > 0
    assert ours == cli
