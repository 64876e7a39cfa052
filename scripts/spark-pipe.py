#!/usr/bin/env python3
"""The Spark recipe of docs/scale-out.md, run for real in local mode: every partition of a
puzzle file is piped through `sudoku-batch solve`, and the collected output must equal a plain
run.

    pip install pyspark            # needs a Java runtime (17 works)
    python3 scripts/spark-pipe.py [FILE] [PARTITIONS]
"""
import os
import subprocess
import sys

from pyspark import SparkConf, SparkContext

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
binary = os.path.join(root, "target", "release", "sudoku-batch")
path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, "datasets", "generated-hard-1k.txt")
partitions = int(sys.argv[2]) if len(sys.argv) > 2 else 4

subprocess.run(["cargo", "build", "--quiet", "--release", "--locked"], cwd=root, check=True)
plain = subprocess.run([binary, "solve", "-q", path], capture_output=True, text=True).stdout.splitlines()

conf = SparkConf().setMaster(f"local[{partitions}]").setAppName("sudoku-batch-pipe")
sc = SparkContext(conf=conf)
sc.setLogLevel("ERROR")
try:
    rdd = sc.textFile(path, minPartitions=partitions)
    piped = rdd.pipe(f"{binary} solve -q --threads 1").collect()
finally:
    sc.stop()

print(f"{path}: {rdd.getNumPartitions()} partitions, {len(piped)} lines piped, {len(plain)} lines plain")
if piped != plain:
    sys.exit("FAIL: rdd.pipe output differs from the plain run")
print("rdd.pipe output equals the plain run")
