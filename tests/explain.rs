//! `sudoku-batch explain` through the real binary: the page's data holds one entry per input
//! record (bad ones with their message), the page fetches nothing, the record limit stops a
//! run with a message and no page, and each `--svg` file is well-formed XML drawing exactly
//! what `rate --steps` says of its step (cells, placements, eliminations, links).

mod common;

use std::collections::BTreeSet;
use std::path::Path;

use serde_json::Value;

use common::bin;

/// Three puzzles of top1465 (the second and third have chain steps).
const TOP: [&str; 3] = [
    "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........",
    "7.8...3.....2.1...5.........4.....263...8.......1...9..9.6....4....7.5...........",
    "7.8...3.....6.1...5.........4.....263...8.......1...9..9.2....4....7.5...........",
];

/// Run `explain` on `input` with `args`; (exit code, stderr, the page or "").
fn explain(input: &str, args: &[&str]) -> (i32, String, String) {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("in.txt");
    std::fs::write(&file, input).unwrap();
    let page = dir.path().join("page.html");
    let out = bin()
        .arg("explain")
        .arg(&file)
        .arg("-o")
        .arg(&page)
        .args(args)
        .output()
        .unwrap();
    let html = std::fs::read_to_string(&page).unwrap_or_default();
    let stderr = String::from_utf8(out.stderr).unwrap();
    (out.status.code().unwrap(), stderr, html)
}

/// The records of a page's data script.
fn page_data(html: &str) -> Vec<Value> {
    let open = "<script id=\"sb-data\" type=\"application/json\">";
    let start = html.find(open).expect("the data script") + open.len();
    let end = start + html[start..].find("</script>").unwrap();
    serde_json::from_str::<Value>(&html[start..end])
        .unwrap()
        .as_array()
        .unwrap()
        .clone()
}

#[test]
fn every_record_has_its_entry_bad_ones_with_their_message() {
    let invalid = format!("44{}", &".".repeat(79));
    // r1c9 wants a 9, which r2c9 holds.
    let unsolvable = format!("12345678.........9{}", ".".repeat(63));
    let input = format!(
        "{}\n12345\n{invalid}\n{}\n{unsolvable}\n{}\n",
        TOP[0],
        ".".repeat(81),
        TOP[1]
    );
    let (code, stderr, html) = explain(&input, &["-q"]);
    assert_eq!(code, 1, "{stderr}");
    let data = page_data(&html);
    let got: Vec<(u64, &str)> = data
        .iter()
        .map(|r| (r["line"].as_u64().unwrap(), r["status"].as_str().unwrap()))
        .collect();
    assert_eq!(
        got,
        [
            (1, "rated"),
            (2, "malformed"),
            (3, "invalid"),
            (4, "multiple"),
            (5, "unsolvable"),
            (6, "rated")
        ]
    );
    for r in &data[1..5] {
        assert!(!r["error"].as_str().unwrap().is_empty(), "{r}");
        assert!(r.get("s").is_none());
    }
    assert!(data[1]["error"].as_str().unwrap().contains("5 cells"));
    assert_eq!(data[3]["error"], "2+ solutions");
    // A rated record's steps are rate --steps' path.
    let steps = data[0]["s"].as_array().unwrap();
    assert_eq!(steps.len(), rate_steps(TOP[0]).len());
    assert!(data[0]["er"].as_str().unwrap().parse::<f64>().unwrap() >= 9.0);
}

#[test]
fn the_page_fetches_nothing() {
    let (code, _, html) = explain(&format!("{}\n", TOP[1]), &["-q"]);
    assert_eq!(code, 0);
    assert!(html.starts_with("<!DOCTYPE html>"));
    for banned in [
        "http", "//", "@import", "src=", "<link", "<iframe", "<object",
    ] {
        assert!(!html.contains(banned), "the page holds {banned:?}");
    }
    // The only url() references are to the drawing's own arrowhead.
    let urls = html.matches("url(").count();
    assert_eq!(urls, html.matches("url(#sb-arrow)").count());
    // No text of the data can end its script element early.
    let data = &html[html.find("id=\"sb-data\"").unwrap()..];
    let data = &data[..data.find("</script>").unwrap()];
    assert!(!data[1..].contains('<'));
}

#[test]
fn past_the_record_limit_no_page_and_a_message() {
    let input: String = std::iter::repeat_n(format!("{}\n", TOP[0]), 1001).collect();
    // --max-rating keeps the 1000 puzzles' paths short.
    let (code, stderr, html) = explain(&input, &["-q", "--max-rating", "1.2"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(html.is_empty(), "no page is left");
    assert!(stderr.contains("in.txt:1001:"), "{stderr}");
    assert!(stderr.contains("at most 1000 records"), "{stderr}");
    assert!(stderr.contains("split -l 1000"), "{stderr}");
    let (code, stderr, html) = explain(&input[..input.len() - 82], &["-q", "--max-rating", "1.2"]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(page_data(&html).len(), 1000);
}

/// `rate --steps`' step objects of one puzzle.
fn rate_steps(puzzle: &str) -> Vec<Value> {
    let out = bin()
        .args(["rate", "--steps", "-q"])
        .write_stdin(format!("{puzzle}\n"))
        .output()
        .unwrap();
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|v| v["kind"] == "step")
        .collect()
}

/// `r3c7` as a cell 0..81.
fn cell(name: &str) -> u64 {
    let b = name.as_bytes();
    u64::from(b[1] - b'1') * 9 + u64::from(b[3] - b'1')
}

/// `r3c7=5` or `r3c7<>5` as `cell:digit`.
fn candidate(text: &str) -> String {
    let digit = text.chars().last().unwrap();
    format!("{}:{digit}", cell(&text[..4]))
}

/// The `data-` value `attr` of the elements of `svg` whose class is `class`.
fn marked(svg: &roxmltree::Document, class: &str, attr: &str) -> BTreeSet<String> {
    svg.descendants()
        .filter(|n| n.attribute("class") == Some(class))
        .map(|n| match attr {
            "candidate" => format!(
                "{}:{}",
                n.attribute("data-cell").unwrap(),
                n.attribute("data-digit").unwrap()
            ),
            a => n.attribute(a).unwrap().to_string(),
        })
        .collect()
}

/// What `rate --steps` says of `step`, against its SVG file.
fn check_svg(path: &Path, step: &Value) {
    let text = std::fs::read_to_string(path).unwrap();
    let svg = roxmltree::Document::parse(&text).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    let root = svg.root_element();
    assert_eq!(root.tag_name().name(), "svg");
    assert_eq!(
        root.tag_name().namespace(),
        Some("http://www.w3.org/2000/svg")
    );
    let cells = svg
        .descendants()
        .filter(|n| n.attribute("class").is_some_and(|c| c.starts_with("cell")))
        .count();
    assert_eq!(cells, 81, "{path:?}");
    let names = |key: &str, f: &dyn Fn(&str) -> String| -> BTreeSet<String> {
        step[key]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| f(v.as_str().unwrap()))
            .collect()
    };
    let what = format!("{path:?}: {step}");
    let cells = names("cells", &|c| cell(c).to_string());
    assert_eq!(marked(&svg, "cell mark", "data-cell"), cells, "{what}");
    assert_eq!(
        marked(&svg, "place", "candidate"),
        names("placements", &candidate),
        "{what}"
    );
    assert_eq!(
        marked(&svg, "elim", "candidate"),
        names("eliminations", &candidate),
        "{what}"
    );
    assert_eq!(
        svg.descendants()
            .filter(|n| n.attribute("class") == Some("house"))
            .count(),
        step["houses"].as_array().unwrap().len()
    );
    // One link per link symbol of the chains (an in-cell `(5=3)` is a strong link too).
    let chains = match &step["chain"] {
        Value::String(s) => s.clone(),
        Value::Array(a) => a
            .iter()
            .map(|s| s.as_str().unwrap())
            .collect::<Vec<_>>()
            .join("\n"),
        _ => String::new(),
    };
    for (class, symbol) in [("link strong", '='), ("link weak", '-'), ("link rule", '~')] {
        let links = svg
            .descendants()
            .filter(|n| n.attribute("class") == Some(class))
            .count();
        assert_eq!(links, chains.matches(symbol).count(), "{class}: {what}");
    }
}

#[test]
fn each_svg_draws_its_step() {
    let dir = tempfile::tempdir().unwrap();
    let svgs = dir.path().join("svg");
    let input = format!("{}\n{}\n", TOP[1], TOP[2]);
    let (code, stderr, _) = explain(&input, &["-q", "--svg", svgs.to_str().unwrap()]);
    assert_eq!(code, 0, "{stderr}");
    let mut chains = 0;
    for (line, puzzle) in [(1, TOP[1]), (2, TOP[2])] {
        let steps = rate_steps(puzzle);
        for (k, step) in steps.iter().enumerate() {
            check_svg(&svgs.join(format!("{line}-{}.svg", k + 1)), step);
            chains += usize::from(step.get("chain").is_some());
        }
        assert!(!svgs
            .join(format!("{line}-{}.svg", steps.len() + 1))
            .exists());
    }
    assert!(chains > 5, "the puzzles have chain steps");
}

#[test]
fn svg_wants_a_directory() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("file");
    std::fs::write(&file, "keep").unwrap();
    let (code, stderr, html) =
        explain(&format!("{}\n", TOP[0]), &["--svg", file.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(stderr.contains("not one"), "{stderr}");
    assert!(html.is_empty());
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "keep");
}

/// Two inputs with the same file name in different folders: each keeps its own SVG files.
#[test]
fn svg_files_of_inputs_with_one_name_stay_apart() {
    let dir = tempfile::tempdir().unwrap();
    let svgs = dir.path().join("svg");
    let mut inputs = Vec::new();
    for (k, puzzle) in [TOP[1], TOP[2]].iter().enumerate() {
        let folder = dir.path().join(format!("part{k}"));
        std::fs::create_dir(&folder).unwrap();
        let file = folder.join("in.txt");
        std::fs::write(&file, format!("{puzzle}\n")).unwrap();
        inputs.push(file);
    }
    let out = bin()
        .arg("explain")
        .args(&inputs)
        .args(["-q", "-o"])
        .arg(dir.path().join("page.html"))
        .arg("--svg")
        .arg(&svgs)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for (k, puzzle) in [TOP[1], TOP[2]].iter().enumerate() {
        let steps = rate_steps(puzzle);
        let last = svgs.join(format!("{}-in.txt-1-{}.svg", k + 1, steps.len()));
        check_svg(&last, &steps[steps.len() - 1]);
    }
}
