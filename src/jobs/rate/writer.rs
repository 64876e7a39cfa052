//! The output of `rate`: one output record per input record, in the order given.
//!
//! - `line`: `ER/EP/ED` as Sudoku Explainer's `serate` prints it (`2.6/1.2/1.2`), followed by
//!   ` capped` when the path stopped early (the rating is then a lower bound), or the status
//!   word of a record that was not rated (`multiple`, `unsolvable`, `invalid`, `malformed`,
//!   `failed`);
//! - `csv`: header `line,id,puzzle,status,er,ep,ed,hardest,steps,capped,error`, with a `file`
//!   column first when there are several inputs; the rating fields are empty for a record
//!   that was not rated, `error` holds the message of a malformed, invalid or failed one, and
//!   `2+ solutions` for a multiple one (the search stops at the second);
//! - `jsonl`: one object per record with the same fields (`null` where csv is empty; `error`
//!   only when there is one).
//!
//! With [`Columns::passthrough`](crate::io::passthrough::Columns::passthrough) a csv or jsonl record is the input record as read, then the
//! results `file` (several inputs), `line`, `status`, `er`, ... (see [`crate::io::passthrough`]).
//!
//! With steps (`--steps`, jsonl), every object has a `kind`: each record's steps come first,
//! one `"kind":"step"` object each — `file` (several inputs), `line`, `step` (1, 2, ...),
//! `technique`, `difficulty`, `houses` (`"r3"`, `"c4"`, `"b5"`: rows, then columns, then
//! boxes), `cells` (`"r1c2"`: for a chain, every cell of every chain), `digits`,
//! `placements` (`"r1c2=5"`), `eliminations` (`"r3c4<>7"`), for a chain step only `chain`,
//! `text`, the step in a plain-English sentence, `lines` (a chain step's and an aligned
//! exclusion's: sentences to follow one by one, one per link of each branch), and for a
//! chain step `branches` and `nested` (its chains as data, see below) — then the record's own
//! `"kind":"rating"` object, the jsonl record above. So every input record still has exactly
//! one rating object, its `steps` field counts the step objects before it, and
//! `select(.kind == "rating")` gives the plain jsonl output.
//!
//! `chain` is the step's chains in Eureka notation ([`StepChain`] has the rules): a string
//! for a cycle or a forcing chain (`"(5)r1c2-r1c7=(5=3)r2c8-r3c9=r3c2-(5)r1c2"`), an array of
//! strings, one per branch, for Nishio, cell, region and dynamic forcing chains (a branch of
//! a dynamic chain followed by its bracketed supporting chains). Steps of other techniques
//! (aligned triplet exclusion included) have no `chain` field.
//!
//! `branches` has one entry per entry of `chain`, each `{"links": [...]}`: a link is
//! `{"from": "r9c5=6", "to": "r8c5<>6", "kind": "weak", "why": "column 5"}` (a potential is
//! `r1c2=5` on or `r1c2<>5` off; `kind` `strong`, `weak`, `rule` or `nested`; `why` the
//! house or cell it lies in, the rule, or the nested chain), a `rule` link with its `rule`
//! (`technique`, `houses`, `cells`, `digits`), a `nested` one with `nested`, an index into
//! the step's `nested` array (whose entries have `technique`, `level`, `branches` of the same
//! shape and `lines`), and the first link of a bracketed chain with `"opens": true`.
//! docs/step.schema.json is the JSON Schema of a step object.

use std::io::{self, Write};

use crate::engines::rater::{Branches, Difficulty, LinkKind, Rating, Step, StepChain, Why};
use crate::grid::cell_name;
use crate::io::passthrough::RecordFields;
use crate::io::write::{write_csv_field, JsonObject, OutputFormat};
use crate::jobs::rate::{difficulty_value, RateStatus, RatedRecord};
use crate::jobs::records::{RecordFormat, RecordWriter};

/// The result fields of a passthrough record, in order (`file` only with several inputs).
const RESULT_FIELDS: [&str; 10] = [
    "file", "line", "status", "er", "ep", "ed", "hardest", "steps", "capped", "error",
];

const CSV_HEADER: &[u8] = b"line,id,puzzle,status,er,ep,ed,hardest,steps,capped,error\n";

/// Writes [`RatedRecord`]s in one format.
pub type RateWriter<W> = RecordWriter<W, RateFormat>;

/// How a rate record is written, for the current input (shared by the writer and the
/// workers' render, so both give the same bytes).
#[derive(Clone, Debug)]
pub struct RateFormat {
    format: OutputFormat,
    /// Each record's steps before it, every object with its `kind` (jsonl only).
    steps: bool,
    fields: RecordFields,
}

impl RateFormat {
    /// Records in `format`; with `steps`, each record's steps before it (jsonl only: other
    /// formats leave them out).
    pub fn new(format: OutputFormat, steps: bool) -> RateFormat {
        RateFormat {
            format,
            steps: steps && format == OutputFormat::Jsonl,
            fields: RecordFields::new(&RESULT_FIELDS),
        }
    }

    fn json(&self, out: &mut impl Write, r: &RatedRecord) -> io::Result<()> {
        let mut obj = JsonObject::new(out)?;
        if self.steps {
            obj.field("kind", &"rating")?;
        }
        let mut name = self
            .fields
            .write_json_start(&mut obj, r.line, r.input.as_deref())?
            .map(String::as_str);
        let mut name = move || name.next().expect("a name per result field");
        obj.field(name(), &r.status)?;
        let rating = r.rating.as_ref();
        let value = |f: fn(&Rating) -> Difficulty| rating.map(|x| difficulty_value(f(x)));
        obj.field(name(), &value(|x| x.er))?;
        obj.field(name(), &value(|x| x.ep))?;
        obj.field(name(), &value(|x| x.ed))?;
        obj.field(name(), &rating.and_then(|x| x.hardest).map(|t| t.name()))?;
        obj.field(name(), &rating.map(|x| x.steps))?;
        obj.field(name(), &rating.map(|x| x.capped))?;
        if let Some(e) = r.error_field() {
            obj.field(name(), &e)?;
        }
        obj.end()
    }

    /// The record's step objects (see [`write_steps`]).
    fn steps(&self, out: &mut impl Write, r: &RatedRecord) -> io::Result<()> {
        write_steps(out, &self.fields, r.line, &r.steps)
    }
}

/// How a step object starts.
const STEP_OPEN: &[u8] = b"{\"kind\":\"step\",";

/// Step objects: each body of `bodies` (one per line, see [`step_body`]) after
/// `"kind":"step"` and the fields that name the record of `line` (`file` with several inputs).
pub fn write_steps(
    out: &mut impl Write,
    fields: &RecordFields,
    line: u64,
    bodies: &[u8],
) -> io::Result<()> {
    if bodies.is_empty() {
        return Ok(());
    }
    let mut head = STEP_OPEN.to_vec();
    if fields.columns.file {
        head.extend_from_slice(b"\"file\":");
        serde_json::to_writer(&mut head, &fields.file)?;
        head.push(b',');
    }
    head.extend_from_slice(b"\"line\":");
    head.extend_from_slice(itoa::Buffer::new().format(line).as_bytes());
    head.push(b',');
    for body in bodies.split_inclusive(|&b| b == b'\n') {
        out.write_all(&head)?;
        out.write_all(body)?;
    }
    Ok(())
}

/// A difficulty as SE prints it: `2.3`, `10.5`.
fn write_difficulty(out: &mut impl Write, d: Difficulty) -> io::Result<()> {
    let mut buf = [0u8; 4];
    let len = d.write_text(&mut buf);
    out.write_all(&buf[..len])
}

/// One step's JSON object body, from `"step"` to the closing brace and line break, appended
/// to `out` (the fields naming the record are written before it by the writer): `n` is the
/// step's number on the path, from 1.
pub fn step_body(out: &mut Vec<u8>, n: u32, step: &Step<'_>) {
    out.extend_from_slice(b"\"step\":");
    out.extend_from_slice(itoa::Buffer::new().format(n).as_bytes());
    out.extend_from_slice(b",\"technique\":");
    json_string(out, step.technique.name());
    out.extend_from_slice(b",\"difficulty\":");
    let mut d = [0u8; 4];
    let len = step.difficulty.write_text(&mut d);
    out.extend_from_slice(&d[..len]);
    out.extend_from_slice(b",\"houses\":[");
    // "r3": ASCII, no escaping.
    json_items(out, step.houses.iter(), |out, h| {
        let _ = write!(out, "\"{h}\"");
    });
    out.extend_from_slice(b"],\"cells\":[");
    json_items(out, step.cells.iter(), |out, &cell| {
        candidate(out, cell, b"", None);
    });
    out.extend_from_slice(b"],\"digits\":[");
    let digits = (1..=9u8).filter(|d| step.digits & (1 << (d - 1)) != 0);
    json_items(out, digits, |out, digit| out.push(b'0' + digit));
    out.extend_from_slice(b"],\"placements\":[");
    json_items(out, step.placements.iter(), |out, p| {
        candidate(out, p.cell, b"=", Some(p.digit));
    });
    out.extend_from_slice(b"],\"eliminations\":[");
    json_items(out, step.eliminations.iter(), |out, e| {
        candidate(out, e.cell, b"<>", Some(e.digit));
    });
    out.push(b']');
    match step.chain {
        StepChain::None => {}
        StepChain::Single(chain) => {
            out.extend_from_slice(b",\"chain\":");
            json_string(out, chain);
        }
        StepChain::Branches(branches) => {
            out.extend_from_slice(b",\"chain\":[");
            json_items(out, branches.iter(), json_string);
            out.push(b']');
        }
    }
    out.extend_from_slice(b",\"text\":");
    json_string(out, step.text);
    if !step.lines.is_empty() {
        out.extend_from_slice(b",\"lines\":[");
        json_items(out, step.lines.iter(), json_string);
        out.push(b']');
    }
    if !step.branches.is_empty() {
        out.extend_from_slice(b",\"branches\":");
        json_branches(out, step.branches);
        out.extend_from_slice(b",\"nested\":[");
        json_items(out, step.branches.nested(), |out, chain| {
            out.extend_from_slice(b"{\"technique\":");
            json_string(out, chain.technique.name());
            out.extend_from_slice(b",\"level\":");
            out.push(b'0' + chain.level);
            out.extend_from_slice(b",\"branches\":");
            json_branches(out, chain.branches);
            out.extend_from_slice(b",\"lines\":[");
            json_items(out, chain.lines.iter(), json_string);
            out.extend_from_slice(b"]}");
        });
        out.push(b']');
    }
    out.extend_from_slice(b"}\n");
}

/// A chain's branches: `[{"links":[{"from":"r9c5=6","to":"r8c5<>6","kind":"weak","why":"column
/// 5"}, ...]}, ...]`, a rule link with its `rule`, a nested one with its `nested` index, a
/// link that starts a bracketed chain with `"opens":true`.
fn json_branches(out: &mut Vec<u8>, branches: Branches<'_>) {
    out.push(b'[');
    json_items(out, branches.iter(), |out, branch| {
        out.extend_from_slice(b"{\"links\":[");
        json_items(out, branch.links().iter(), |out, link| {
            // Potentials, kinds, houses, rules and techniques are ASCII without quotes.
            let kind = link.kind();
            let _ = write!(
                out,
                "{{\"from\":\"{}\",\"to\":\"{}\",\"kind\":\"{}\",\"why\":\"",
                link.from,
                link.to,
                kind.name()
            );
            let _ = match link.why {
                Why::Cell(c) => write!(out, "{}", cell_name(c)),
                Why::House(h) => write!(out, "{h:#}"),
                Why::Rule(i) => match branches.rule(i) {
                    Some(rule) => write!(out, "{rule}"),
                    None => write!(out, "a basic rule"),
                },
                Why::Nested(j) => match branches.nested_chain(j) {
                    Some(chain) => {
                        write!(out, "nested chain {}, {}", j + 1, chain.technique.name())
                    }
                    None => write!(out, "a nested chain"),
                },
            };
            out.push(b'"');
            match (kind, link.why) {
                (LinkKind::Rule, Why::Rule(i)) => {
                    if let Some(rule) = branches.rule(i) {
                        out.extend_from_slice(b",\"rule\":{\"technique\":");
                        json_string(out, rule.technique.name());
                        out.extend_from_slice(b",\"houses\":[");
                        json_items(out, rule.houses.iter(), |out, h| {
                            let _ = write!(out, "\"{h}\"");
                        });
                        out.extend_from_slice(b"],\"cells\":[");
                        json_items(out, rule.cells().iter(), |out, &cell| {
                            candidate(out, cell, b"", None);
                        });
                        out.extend_from_slice(b"],\"digits\":[");
                        let digits = (1..=9u8).filter(|d| rule.digits & (1 << (d - 1)) != 0);
                        json_items(out, digits, |out, digit| out.push(b'0' + digit));
                        out.extend_from_slice(b"]}");
                    }
                }
                (LinkKind::Nested, Why::Nested(j)) => {
                    out.extend_from_slice(b",\"nested\":");
                    out.extend_from_slice(itoa::Buffer::new().format(j).as_bytes());
                }
                _ => {}
            }
            if link.opens {
                out.extend_from_slice(b",\"opens\":true");
            }
            out.push(b'}');
        });
        out.extend_from_slice(b"]}");
    });
    out.push(b']');
}

/// `items` written by `item`, separated by commas.
fn json_items<T>(
    out: &mut Vec<u8>,
    items: impl Iterator<Item = T>,
    mut item: impl FnMut(&mut Vec<u8>, T),
) {
    for (i, x) in items.enumerate() {
        if i > 0 {
            out.push(b',');
        }
        item(out, x);
    }
}

/// A JSON string, escaped.
fn json_string(out: &mut Vec<u8>, text: &str) {
    serde_json::to_writer(&mut *out, text).expect("writing to a vector");
}

/// `"r1c2"`, or with a digit `"r1c2=5"` (with `op` between cell and digit).
fn candidate(out: &mut Vec<u8>, cell: u8, op: &[u8], digit: Option<u8>) {
    out.push(b'"');
    out.extend_from_slice(cell_name(cell).as_bytes());
    if let Some(digit) = digit {
        out.extend_from_slice(op);
        out.push(b'0' + digit);
    }
    out.push(b'"');
}

/// The most bytes of one line record: `25.5/25.5/25.5 capped` and its line break.
const LINE_MAX: usize = 3 * 4 + 2 + 7 + 1;

/// One line record at the start of `out` (at least [`LINE_MAX`] bytes); returns its length.
#[inline]
fn line_record(r: &RatedRecord, out: &mut [u8]) -> usize {
    let Some(rating) = r.rating.as_ref().filter(|_| r.status == RateStatus::Rated) else {
        let word = r.status.as_str().as_bytes();
        out[..word.len()].copy_from_slice(word);
        out[word.len()] = b'\n';
        return word.len() + 1;
    };
    let mut len = rating.er.write_text(out);
    for d in [rating.ep, rating.ed] {
        out[len] = b'/';
        len += 1 + d.write_text(&mut out[len + 1..]);
    }
    if rating.capped {
        out[len..len + 7].copy_from_slice(b" capped");
        len += 7;
    }
    out[len] = b'\n';
    len + 1
}

impl RecordFormat for RateFormat {
    type Record = RatedRecord;
    const CSV_HEADER: &'static [u8] = CSV_HEADER;
    const LINE_MAX: usize = LINE_MAX;

    fn format(&self) -> OutputFormat {
        self.format
    }
    fn fields(&mut self) -> &mut RecordFields {
        &mut self.fields
    }
    fn write_csv(&self, out: &mut impl Write, r: &RatedRecord) -> io::Result<()> {
        self.fields
            .write_csv_start(&mut *out, r.line, r.input.as_deref())?;
        let mut number = itoa::Buffer::new();
        out.write_all(r.status.as_str().as_bytes())?;
        match &r.rating {
            Some(rating) => {
                for d in [rating.er, rating.ep, rating.ed] {
                    out.write_all(b",")?;
                    write_difficulty(&mut *out, d)?;
                }
                out.write_all(b",")?;
                if let Some(t) = rating.hardest {
                    write_csv_field(&mut *out, t.name().as_bytes())?;
                }
                out.write_all(b",")?;
                out.write_all(number.format(rating.steps).as_bytes())?;
                out.write_all(if rating.capped { b",true," } else { b",false," })?;
            }
            None => out.write_all(b",,,,,,,")?,
        }
        if let Some(e) = r.error_field() {
            write_csv_field(&mut *out, e.as_bytes())?;
        }
        out.write_all(b"\n")
    }

    /// The record's steps first, when asked, then its own object.
    fn write_jsonl(&self, out: &mut impl Write, r: &RatedRecord) -> io::Result<()> {
        if self.steps {
            self.steps(out, r)?;
        }
        self.json(out, r)
    }
    fn line(r: &RatedRecord, out: &mut [u8]) -> usize {
        line_record(r, out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn difficulties_print_as_se_prints_them() {
        let text = |tenths| {
            let mut buf = [0u8; 4];
            let len = Difficulty(tenths).write_text(&mut buf);
            String::from_utf8(buf[..len].to_vec()).unwrap()
        };
        assert_eq!(text(0), "0.0");
        assert_eq!(text(12), "1.2");
        assert_eq!(text(100), "10.0");
        assert_eq!(text(255), "25.5");
    }
}
