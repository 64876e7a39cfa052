"""Every step object the fixtures' puzzles give, from `sb.steps` and from `sudoku-batch rate
--steps`, is valid against docs/step.schema.json (JSON Schema 2020-12), and the chain steps
carry their chains as data: `branches` (one per entry of `chain`), `nested`, `lines`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import sudoku_batch as sb
from conftest import REPO, run_cli

jsonschema = pytest.importorskip("jsonschema")

FIXTURES = REPO / "tests" / "fixtures"

# Puzzle files of the fixtures, and how many of their puzzles to rate (the nested ones take
# seconds each: the first few, which meet every level).
SOURCES = [
    ("mixed.txt", None),
    ("golden.txt", None),
    ("rate/se-techniques.txt", None),
    ("rate/se-chains.txt", None),
    ("rate/sukaku-bank-chains.txt", None),
    ("rate/se-nested.txt", 3),
    ("rate/se-nested3.txt", 1),
    ("rate/se-nested4.txt", 1),
]


def puzzles(name: str, first: int | None) -> list[str]:
    """The 81-character puzzles of a fixture file (comment lines and bad records left out)."""
    out = []
    for line in (FIXTURES / name).read_text().splitlines():
        cand = line.split()[0] if line.split() else ""
        cand = cand.split(":")[0].split(",")[0]
        if len(cand) == 81 and not line.startswith("#"):
            out.append(cand)
    return out[:first] if first else out


@pytest.fixture(scope="module")
def validator():
    schema = json.loads((REPO / "docs" / "step.schema.json").read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


@pytest.fixture(scope="module")
def fixture_steps() -> list[dict]:
    steps = []
    for name, first in SOURCES:
        ps = puzzles(name, first)
        assert ps, name
        result = sb.steps(ps)
        for path in result.steps:
            steps.extend(path or [])
    return steps


def test_every_fixture_step_is_valid(validator, fixture_steps):
    assert len(fixture_steps) > 10_000
    for step in fixture_steps:
        errors = sorted(validator.iter_errors(step), key=lambda e: list(e.path))
        assert not errors, f"{step['technique']} {step['line']}/{step['step']}: {errors[0]}"


def test_chain_steps_carry_their_chains_as_data(fixture_steps):
    chains = [s for s in fixture_steps if "chain" in s]
    techniques = {s["technique"] for s in chains}
    # Every family: cycles, static forcing chains, Nishio, multiple, dynamic, (+), nested.
    for t in ["Bidirectional Cycle", "Forcing Chain", "Nishio Forcing Chains",
              "Cell Forcing Chains", "Dynamic Double Forcing Chains",
              "Dynamic Contradiction Forcing Chains (+)",
              "Dynamic Region Forcing Chains (+ Forcing Chains)"]:
        assert t in techniques, t
    kinds = set()
    for s in chains:
        texts = [s["chain"]] if isinstance(s["chain"], str) else s["chain"]
        assert len(s["branches"]) == len(texts)
        links = [l for b in s["branches"] for l in b["links"]]
        assert len(s["lines"]) >= len(links)
        kinds |= {l["kind"] for l in links}
        for link in links:
            if link["kind"] == "nested":
                assert link["nested"] < len(s["nested"])
    assert kinds == {"strong", "weak", "rule", "nested"}
    nested = [n for s in chains for n in s["nested"]]
    assert nested and all(n["branches"] and n["lines"] for n in nested)


def test_the_cli_writes_the_same_valid_steps(validator, tmp_path):
    ps = puzzles("rate/se-chains.txt", None)[:40] + puzzles("rate/se-nested.txt", 1)
    path = tmp_path / "p.txt"
    path.write_text("\n".join(ps) + "\n")
    out = run_cli("rate", "--steps", "-q", str(path))
    cli = [json.loads(l) for l in out.splitlines() if '"kind":"step"' in l]
    for step in cli:
        validator.validate(step)
    py = [s for p in sb.steps(ps).steps for s in p]
    assert py == cli
