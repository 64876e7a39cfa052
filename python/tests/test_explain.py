"""explain: the page of `sudoku-batch explain`, made by the module as by the CLI."""

from __future__ import annotations

import json

import pytest

import sudoku_batch as sb
from conftest import HARD, PUZZLE, run_cli


def page_records(html: str) -> list[dict]:
    """The records of a page's data script."""
    start = html.index('<script id="sb-data" type="application/json">')
    start = html.index(">", start) + 1
    return json.loads(html[start:html.index("</script>", start)])


def test_explain_is_the_clis_page_bad_rows_included():
    rows = [PUZZLE, "12345", HARD[0], "." * 81]
    cli = run_cli("explain", "-q", "-", stdin=("\n".join(rows) + "\n").encode())
    ours = sb.explain(rows)
    assert ours == cli
    records = page_records(ours)
    assert [r["status"] for r in records] == ["rated", "malformed", "rated", "multiple"]
    assert [r["line"] for r in records] == [1, 2, 3, 4]
    assert records[1]["error"] == "5 cells, expected 81"
    assert records[3]["error"] == "2+ solutions"
    assert len(records[2]["s"]) > 10


def test_explain_writes_the_page_to_a_path(tmp_path):
    path = tmp_path / "page.html"
    assert sb.explain([PUZZLE], path, threads=2) is None
    assert path.read_text(encoding="utf-8") == sb.explain([PUZZLE], threads=1)


def test_explain_refuses_more_than_a_page():
    with pytest.raises(ValueError, match="at most 1000 records"):
        sb.explain([PUZZLE] * 1001)


def test_explain_looks_at_the_path_before_writing(tmp_path):
    page = sb.explain([PUZZLE])
    # A symbolic link stays; its target gets the page.
    target = tmp_path / "target.html"
    target.write_text("old")
    link = tmp_path / "link.html"
    link.symlink_to(target)
    sb.explain([PUZZLE], link)
    assert link.is_symlink()
    assert target.read_text(encoding="utf-8") == page
    # A directory is refused and left as it was.
    folder = tmp_path / "folder"
    folder.mkdir()
    with pytest.raises(IsADirectoryError):
        sb.explain([PUZZLE], folder)
    assert list(folder.iterdir()) == []
    # No temporary file is left beside the page.
    assert sorted(p.name for p in tmp_path.iterdir()) == ["folder", "link.html", "target.html"]
