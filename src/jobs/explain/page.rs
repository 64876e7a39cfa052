//! `explain`'s page: one self-contained HTML file (inline CSS, script and data; nothing is
//! fetched), written as the records come, in input order.
//!
//! ```text
//! <head> <style> the drawing's CSS (layout::drawing_css) and the page's (PAGE_CSS)
//! <body> the records' list │ the step shown: title, SVG, sentence, chain │ the steps' list
//!        <script id="sb-layout" type="application/json"> the drawing's sizes
//!        <script id="sb-data" type="application/json"> [record, record, ...]
//!        <script> page.js: draws the step shown, keys
//! ```
//!
//! A record's JSON (`<` written `\u003c`, so no text ends a script element):
//! `{"line":N,"file":..,"status":..,"error":..,"er":"7.2","ep":..,"ed":..,"capped":false,
//! "m":HEX,"g":GIVENS,"s":[step,..]}`, `m` the start's 81 candidate masks, three hex digits
//! each, `g` its placed digits (`.` for none), `file` only with several inputs, the rating and
//! steps only for a rated record, `m` and `g` only for one not malformed. A step:
//! `{"t":technique,"d":"4.2","h":[house,..],"c":[cell,..],"p":[[cell,digit],..],
//! "e":[[cell,digit],..],"l":[[cell,digit,cell,digit,"strong"|"weak"|"rule"],..],
//! "ch":[chain,..],"x":sentence}`. The script replays the steps from `m` and `g` to get the
//! grid each one is taken on.

use std::io::{self, Write};

use serde::Serialize;

use super::layout::{drawing_css, SIZES};
use super::{Board, ExplainRecord, ExplainStep};
use crate::engines::rater::Difficulty;
use crate::pipeline::Sink;

/// The page's script.
const PAGE_JS: &str = include_str!("page.js");

/// The page's own CSS (the drawing's is [`drawing_css`]): three columns on screen, the step
/// alone when printed.
const PAGE_CSS: &str = "\
body{font:15px/1.45 system-ui,sans-serif;margin:0;color:#1f2933;background:#f5f7fa}
header{padding:8px 16px;background:#1f2933;color:#fff}
header h1{font-size:17px;margin:0;display:inline}
header .keys{margin-left:16px;font-size:13px;opacity:.85}
main{display:grid;grid-template-columns:minmax(200px,280px) auto minmax(220px,1fr);gap:14px;padding:12px}
ol{margin:0;padding:0;list-style:none;max-height:calc(100vh - 80px);overflow:auto;background:#fff;border:1px solid #d9e2ec}
li{padding:3px 8px;cursor:pointer;border-bottom:1px solid #eef2f6;font-size:13px}
li.bad{color:#b42318}
li.current{background:#c9defa}
#sb-view{background:#fff;border:1px solid #d9e2ec;padding:10px;max-width:560px}
#sb-view h2{font-size:15px;margin:0 0 6px}
#sb-board svg{display:block;max-width:100%;height:auto}
#sb-head{font-weight:600;margin:8px 0 2px}
#sb-text{margin:2px 0}
#sb-chain{white-space:pre-wrap;font-size:12px;color:#52606d;margin:4px 0}
.legend span{display:inline-block;margin-right:10px;font-size:12px}
.legend i{display:inline-block;width:11px;height:11px;margin-right:4px;vertical-align:-1px;border-radius:2px}
@media print{
header .keys,#sb-records,#sb-steps{display:none}
body{background:#fff}
main{display:block;padding:0}
#sb-view{border:0;max-width:none}
#sb-board svg{width:15cm}
}
";

/// The page's fixed markup, between the `<style>` and the data.
const BODY: &str = "\
<header><h1>sudoku-batch explain</h1><span class=\"keys\">Left/Right: step &middot; Up/Down: record &middot; Home/End: first/last step</span></header>
<main>
<ol id=\"sb-records\" aria-label=\"records\"></ol>
<section id=\"sb-view\" aria-live=\"polite\">
<h2 id=\"sb-title\"></h2>
<div id=\"sb-board\"></div>
<p id=\"sb-head\"></p>
<p id=\"sb-text\"></p>
<pre id=\"sb-chain\"></pre>
<p class=\"legend\"><span><i style=\"background:var(--sb-house)\"></i>houses</span><span><i style=\"background:var(--sb-cell)\"></i>cells</span><span><i style=\"background:var(--sb-place)\"></i>placement</span><span><i style=\"background:var(--sb-elim)\"></i>elimination</span><span>links: strong solid, weak dashed, rule dotted</span></p>
</section>
<ol id=\"sb-steps\" aria-label=\"steps\"></ol>
</main>
";

/// Writes the page: [`begin`](Self::begin), a record at a time, then [`end`](Self::end).
pub struct PageWriter<W: Write> {
    out: W,
    records: u64,
    file: Option<String>,
    buf: Vec<u8>,
}

impl<W: Write> PageWriter<W> {
    /// A page into `out`.
    pub fn new(out: W) -> PageWriter<W> {
        PageWriter {
            out,
            records: 0,
            file: None,
            buf: Vec::new(),
        }
    }

    /// The input the next records come from, named in each record (several inputs), or
    /// `None`.
    pub fn set_file(&mut self, file: Option<String>) {
        self.file = file;
    }

    /// The page up to its data.
    pub fn begin(&mut self) -> io::Result<()> {
        write!(
            self.out,
            "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
             <meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">\n\
             <title>sudoku-batch explain</title>\n<style>\n{}{PAGE_CSS}</style>\n</head>\n<body>\n{BODY}\
             <script id=\"sb-layout\" type=\"application/json\">{}</script>\n\
             <script id=\"sb-data\" type=\"application/json\">[",
            drawing_css(),
            SIZES.json()
        )
    }

    /// One record's entry.
    pub fn record(&mut self, r: &ExplainRecord) -> io::Result<()> {
        let mut buf = std::mem::take(&mut self.buf);
        buf.clear();
        entry(&mut buf, r, self.file.as_deref());
        let written = self.push_entry(&buf);
        self.buf = buf;
        written
    }

    /// One record's entry as [`entry`] made it (on another thread, say).
    pub fn push_entry(&mut self, json: &[u8]) -> io::Result<()> {
        if self.records > 0 {
            self.out.write_all(b",\n")?;
        }
        self.records += 1;
        self.out.write_all(json)
    }

    /// The rest of the page: the end of the data, the script. Returns the output.
    pub fn end(mut self) -> io::Result<W> {
        write!(
            self.out,
            "]</script>\n<script>\n{PAGE_JS}</script>\n</body>\n</html>\n"
        )?;
        self.out.flush()?;
        Ok(self.out)
    }
}

/// A record's entry in the page's data, appended to `out` (`file` names its input when there
/// are several): its JSON with every `<` written `\u003c` (JSON holds `<` only inside
/// strings), so that no text of a record can close the script element it sits in.
pub fn entry(out: &mut Vec<u8>, r: &ExplainRecord, file: Option<&str>) {
    let start = out.len();
    serde_json::to_writer(&mut *out, &RecordJson::of(r, file)).expect("writing to a vector");
    let lt = out[start..].iter().filter(|&&b| b == b'<').count();
    if lt == 0 {
        return;
    }
    let json = out.split_off(start);
    out.reserve(json.len() + 5 * lt);
    for (i, part) in json.split(|&b| b == b'<').enumerate() {
        if i > 0 {
            out.extend_from_slice(b"\\u003c");
        }
        out.extend_from_slice(part);
    }
}

impl<W: Write> Sink<ExplainRecord> for PageWriter<W> {
    fn start(&mut self) -> io::Result<()> {
        Ok(())
    }
    fn write(&mut self, r: &ExplainRecord) -> io::Result<()> {
        self.record(r)
    }
    fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

/// A record as the page's data holds it (see the module doc).
#[derive(Serialize)]
struct RecordJson<'a> {
    line: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    file: Option<&'a str>,
    status: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<&'a str>,
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    rating: Option<RatingJson>,
    #[serde(skip_serializing_if = "Option::is_none")]
    m: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    g: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    s: Option<Vec<StepJson<'a>>>,
}

#[derive(Serialize)]
struct RatingJson {
    er: String,
    ep: String,
    ed: String,
    capped: bool,
}

#[derive(Serialize)]
struct StepJson<'a> {
    t: &'a str,
    d: String,
    h: &'a [u8],
    c: &'a [u8],
    p: &'a [(u8, u8)],
    e: &'a [(u8, u8)],
    l: Vec<(u8, u8, u8, u8, &'static str)>,
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    ch: &'a [String],
    x: &'a str,
}

impl<'a> RecordJson<'a> {
    fn of(r: &'a ExplainRecord, file: Option<&'a str>) -> RecordJson<'a> {
        let text = |d: Difficulty| d.to_string();
        RecordJson {
            line: r.line,
            file,
            status: r.status.as_str(),
            error: r.error.as_deref(),
            rating: r.rating.as_ref().map(|g| RatingJson {
                er: text(g.er),
                ep: text(g.ep),
                ed: text(g.ed),
                capped: g.capped,
            }),
            m: r.start.as_ref().map(masks_hex),
            g: r.start.as_ref().map(givens),
            s: r.rating
                .is_some()
                .then(|| r.steps.iter().map(StepJson::of).collect()),
        }
    }
}

impl<'a> StepJson<'a> {
    fn of(s: &'a ExplainStep) -> StepJson<'a> {
        StepJson {
            t: s.technique,
            d: s.difficulty.to_string(),
            h: &s.houses,
            c: &s.cells,
            p: &s.placements,
            e: &s.eliminations,
            l: s.links
                .iter()
                .map(|l| (l.from.0, l.from.1, l.to.0, l.to.1, l.kind.class()))
                .collect(),
            ch: &s.chains,
            x: &s.text,
        }
    }
}

/// The 81 masks, three hex digits each.
fn masks_hex(b: &Board) -> String {
    b.masks.iter().map(|m| format!("{m:03x}")).collect()
}

/// The placed digits, `.` for none.
fn givens(b: &Board) -> String {
    b.placed
        .iter()
        .map(|&d| if d == 0 { '.' } else { char::from(b'0' + d) })
        .collect()
}
