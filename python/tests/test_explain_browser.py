"""explain's page in a real browser (headless Chromium through Selenium and chromedriver): it
loads without console errors, the keys move through every step, the drawing of each step
shows exactly the step's houses, cells, placements, eliminations and links (DOM classes
against the page's data), the page's drawing is the --svg file's element for element, and
screenshots of a single step and a chain step are not blank. Screenshots and load times are
kept under target/explain-browser/ (not committed). Skipped, with the reason, when Selenium,
Chromium or chromedriver is missing (.ci/run installs them)."""

from __future__ import annotations

import io
import json
import re
import shutil
import subprocess
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from conftest import DATASETS, HARD, REPO, cli_binary

webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed")
Image = pytest.importorskip("PIL.Image", reason="Pillow is not installed")

ARTEFACTS = REPO / "target" / "explain-browser"
TOP1465 = DATASETS / "puzzles3_magictour_top1465"
DIABOLICAL = DATASETS / "sudoku_exchange_diabolical.txt"


def browser_paths() -> tuple[str, str]:
    """Chromium and chromedriver, or a skip naming what is missing."""
    chrome = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver")
    if not chrome or not driver:
        pytest.skip("Chromium or chromedriver is missing (apt-get install chromium chromium-driver)")
    return chrome, driver


@pytest.fixture(scope="module")
def browser():
    chrome, driver_path = browser_paths()
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = chrome
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1400,950",
                "--disable-dev-shm-usage", "--allow-file-access-from-files"):
        options.add_argument(arg)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(driver_path), options=options)
    yield driver
    driver.quit()


def first_puzzles(path: Path, n: int) -> list[str]:
    """The first n 81-character puzzles of a file (comment lines left out)."""
    out = []
    for line in path.read_text().splitlines():
        field = next((f for f in line.split() if len(f) == 81), None)
        if field and not line.startswith("#"):
            out.append(field)
        if len(out) == n:
            break
    return out


def mid_solve_grid(puzzle: str, steps: int) -> str:
    """The 729-character candidate grid after the first `steps` steps of `rate --steps`."""
    out = subprocess.run([str(cli_binary()), "rate", "--steps", "-q", "-"], check=True,
                         input=puzzle + "\n", capture_output=True, text=True).stdout
    path = [json.loads(l) for l in out.splitlines() if '"kind":"step"' in l][:steps]

    def cell(name: str) -> int:
        return (int(name[1]) - 1) * 9 + int(name[3]) - 1

    masks = []
    for i, ch in enumerate(puzzle):
        if ch not in ".0":
            masks.append(1 << (int(ch) - 1))
            continue
        seen = {puzzle[o] for o in range(81) if o // 9 == i // 9 or o % 9 == i % 9
                or (o // 27, o % 9 // 3) == (i // 27, i % 9 // 3)}
        masks.append(sum(1 << (d - 1) for d in range(1, 10) if str(d) not in seen))
    for step in path:
        for e in step["eliminations"]:
            masks[cell(e[:4])] &= ~(1 << (int(e[-1]) - 1))
        for p in step["placements"]:
            c, bit = cell(p[:4]), 1 << (int(p[-1]) - 1)
            masks[c] = bit
            for o in range(81):
                if o != c and (o // 9 == c // 9 or o % 9 == c % 9
                               or (o // 27, o % 9 // 3) == (c // 27, c % 9 // 3)):
                    masks[o] &= ~bit
    return "".join(str(k + 1) if m >> k & 1 else "." for m in masks for k in range(9))


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    """The page and SVG files of top1465's first 20 puzzles (the fixtures' hard puzzles
    without the datasets) and a mid-solve candidate grid."""
    tmp = tmp_path_factory.mktemp("explain")
    puzzles = first_puzzles(TOP1465, 20) if TOP1465.exists() else HARD
    made = {}
    for name, rows in (("top20", puzzles), ("midsolve", [mid_solve_grid(puzzles[0], 25)])):
        inp = tmp / f"{name}.txt"
        inp.write_text("\n".join(rows) + "\n")
        page, svgs = tmp / f"{name}.html", tmp / f"{name}-svg"
        subprocess.run([str(cli_binary()), "explain", "-q", str(inp), "-o", str(page),
                        "--svg", str(svgs)], check=True)
        made[name] = (page, svgs)
    return made


def load(browser, page: Path) -> list[dict]:
    browser.get_log("browser")
    browser.get(page.as_uri())
    return browser.execute_script("return window.sbExplain.data;")


def console_errors(browser) -> list[str]:
    return [e["message"] for e in browser.get_log("browser") if e["level"] == "SEVERE"]


def shown(browser) -> tuple[int, int]:
    view = browser.find_element("id", "sb-view")
    return int(view.get_attribute("data-record")), int(view.get_attribute("data-step"))


# Every step in turn: the drawing's marks as the DOM has them, by pressing ArrowRight (a
# keydown event, as the key makes) from the first step to the last.
WALK = """
const out = [];
const view = document.getElementById('sb-view');
const n = window.sbExplain.data.reduce((a, r) => a + Math.max((r.s || []).length, 1), 0);
const marks = (sel, f) => Array.from(document.querySelectorAll('#sb-board ' + sel)).map(f);
const cand = e => [+e.dataset.cell, +e.dataset.digit];
for (let i = 0; i < n; i++) {
  out.push({r: +view.dataset.record, k: +view.dataset.step,
    h: marks('rect.house', e => +e.dataset.house),
    c: marks('rect.cell.mark', e => +e.dataset.cell),
    cells: marks('rect.cell', e => +e.dataset.cell).length,
    p: marks('circle.place', cand), e: marks('circle.elim', cand),
    l: marks('path.link', e => e.dataset.from.split(':').map(Number)
      .concat(e.dataset.to.split(':').map(Number), [e.classList[1]]))});
  document.dispatchEvent(new KeyboardEvent('keydown', {key: 'ArrowRight', bubbles: true}));
}
return out;
"""


def expected(step: dict) -> dict:
    return {"h": sorted(step["h"]), "c": sorted(step["c"]), "p": sorted(step["p"]),
            "e": sorted(step["e"]), "l": sorted(step["l"])}


def test_keys_reach_every_step_and_each_drawing_shows_its_step(browser, pages):
    data = load(browser, pages["top20"][0])
    assert not console_errors(browser)
    walked = browser.execute_script(WALK)
    want = [(r, k) for r, rec in enumerate(data) for k in range(len(rec.get("s") or [None]))]
    assert [(w["r"], w["k"]) for w in walked] == want
    for w in walked:
        step = data[w["r"]]["s"][w["k"]]
        got = {key: sorted(w[key]) for key in ("h", "c", "p", "e", "l")}
        assert got == expected(step), (w["r"], w["k"], step["t"])
        assert w["cells"] == 81
    assert any(w["l"] for w in walked), "some steps have chains"
    assert not console_errors(browser)


def test_a_key_press_changes_the_step(browser, pages):
    from selenium.webdriver.common.keys import Keys

    load(browser, pages["top20"][0])
    body = browser.find_element("tag name", "body")
    assert shown(browser) == (0, 0)
    body.send_keys(Keys.ARROW_RIGHT)
    assert shown(browser) == (0, 1)
    body.send_keys(Keys.ARROW_DOWN)
    assert shown(browser) == (1, 0)
    body.send_keys(Keys.ARROW_LEFT)
    assert shown(browser)[0] == 0
    assert not console_errors(browser)


def elements(root) -> list[tuple]:
    """(tag, class, data- attributes) of every element of an SVG drawing, in order."""
    out = []
    for e in root.iter():
        tag = e.tag.split("}")[-1]
        if tag in ("svg", "title", "style"):
            continue
        data = tuple(sorted((k, v) for k, v in e.attrib.items() if k.startswith("data-")))
        out.append((tag, e.attrib.get("class", ""), data, (e.text or "").strip()))
    return out


def test_the_page_draws_what_the_svg_files_draw(browser, pages):
    for name in ("midsolve", "top20"):
        page, svgs = pages[name]
        data = load(browser, page)
        for r, rec in enumerate(data[:2]):
            for k in range(len(rec["s"])):
                markup = browser.execute_script(
                    "const x = window.sbExplain; x.show(arguments[0], arguments[1]);"
                    "return document.querySelector('#sb-board svg').outerHTML;", r, k)
                ours = elements(ET.fromstring(re.sub(r' xmlns="[^"]*"', "", markup, count=1)
                                               .replace("<svg ", '<svg xmlns="x" ', 1)))
                theirs = elements(ET.parse(svgs / f"{rec['line']}-{k + 1}.svg").getroot())
                assert ours == theirs, (name, r, k)
        assert not console_errors(browser)


def non_background(png: bytes) -> int:
    """Pixels of a screenshot that are not the ground's white."""
    image = Image.open(io.BytesIO(png)).convert("RGB")
    colours = image.getcolors(image.width * image.height) or []
    return sum(count for count, colour in colours if colour != (255, 255, 255))


def test_screenshots_of_a_single_and_a_chain_step(browser, pages):
    data = load(browser, pages["top20"][0])
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    chain = next((r, k) for r, rec in enumerate(data) for k, s in enumerate(rec["s"])
                 if len(s["l"]) >= 4)
    for name, (r, k) in (("single", (0, 0)), ("chain", chain)):
        browser.execute_script("window.sbExplain.show(arguments[0], arguments[1]);", r, k)
        png = browser.find_element("id", "sb-view").screenshot_as_png
        (ARTEFACTS / f"{name}-step.png").write_bytes(png)
        board = browser.find_element("id", "sb-board").screenshot_as_png
        # The grid's lines, digits and marks: well past a blank or half-drawn board.
        assert non_background(board) > 20000, name
    assert not console_errors(browser)


@pytest.mark.skipif(not DIABOLICAL.exists(), reason=f"{DIABOLICAL} is absent")
def test_load_time_of_a_page_of_100_diabolical_puzzles(browser, tmp_path):
    """Measured, not asserted: the time is written to target/explain-browser/load-time.txt."""
    inp, page = tmp_path / "in.txt", tmp_path / "page.html"
    inp.write_text("\n".join(first_puzzles(DIABOLICAL, 100)) + "\n")
    subprocess.run([str(cli_binary()), "explain", "-q", str(inp), "-o", str(page)], check=True)
    start = time.perf_counter()
    data = load(browser, page)
    wall = time.perf_counter() - start
    loaded = browser.execute_script(
        "const t = performance.getEntriesByType('navigation')[0]; return t.loadEventEnd;")
    assert len(data) == 100
    assert not console_errors(browser)
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    line = (f"100 diabolical puzzles: page {page.stat().st_size / 1e6:.2f} MB, "
            f"{sum(len(r['s']) for r in data)} steps, load event at {loaded:.0f} ms, "
            f"driver.get {wall * 1000:.0f} ms\n")
    (ARTEFACTS / "load-time.txt").write_text(line)
    print(line)
