//! The output of `hint`: one output record per input record, in the order given.
//!
//! - `jsonl` (the default): a record with a step is that step as `rate --steps` writes it,
//!   `{"kind":"step","line":..,"step":1,"technique":..,...}` (a `file` field first with
//!   several inputs); a record without one is `{"kind":"status","line":..,"status":..}`,
//!   with `error` when there is a message (`2+ solutions` for a multiple one).
//! - `text`: `line N` (`FILE line N` with several inputs), the position as a 9×9 grid of
//!   pencil marks (each cell a 3×3 block of its candidates, `.` where a digit is not one),
//!   then one line: the step in words ([`step_sentence`]) or the status and its message.
//!
//! Both forms are written as jsonl records are, on the workers: their length has no bound.

use std::io::{self, Write};

use crate::engines::rater::Step;
use crate::io::passthrough::{Columns, RecordFields};
use crate::io::write::{JsonObject, OutputFormat};
use crate::jobs::hint::{HintRecord, HintStatus};
use crate::jobs::rate::writer::write_steps;
use crate::jobs::records::{RecordFormat, RecordWriter};
use crate::position::Position;

/// Writes [`HintRecord`]s.
pub type HintWriter<W> = RecordWriter<W, HintFormat>;

/// How a hint record is written: jsonl or text.
#[derive(Clone, Debug)]
pub struct HintFormat {
    text: bool,
    fields: RecordFields,
}

impl HintFormat {
    /// Records as jsonl, or with `text` as pencil-mark grids and a line of words.
    pub fn new(text: bool) -> HintFormat {
        let mut fields = RecordFields::new(&["file", "line", "status", "error"]);
        fields.set_columns(Columns::default());
        HintFormat { text, fields }
    }

    fn json(&self, out: &mut impl Write, r: &HintRecord) -> io::Result<()> {
        if r.status == HintStatus::Step {
            return write_steps(out, &self.fields, r.line, &r.step);
        }
        let mut obj = JsonObject::new(out)?;
        obj.field("kind", &"status")?;
        if self.fields.columns.file {
            obj.field("file", &self.fields.file)?;
        }
        obj.field("line", &r.line)?;
        obj.field("status", &r.status)?;
        if let Some(e) = r.error_field() {
            obj.field("error", &e)?;
        }
        obj.end()
    }

    fn text(&self, out: &mut impl Write, r: &HintRecord) -> io::Result<()> {
        if self.fields.columns.file {
            write!(out, "{} ", self.fields.file)?;
        }
        writeln!(out, "line {}", r.line)?;
        if let Some(p) = &r.position {
            write_pencil_marks(out, p)?;
        }
        match (&r.sentence, r.error_field()) {
            (Some(s), _) => writeln!(out, "{s}"),
            (None, Some(e)) => writeln!(out, "{}: {e}", r.status.as_str()),
            (None, None) => writeln!(out, "{}", r.status.as_str()),
        }
    }
}

/// The position as nine rows of cells, each cell three lines of three candidates (`.` where
/// a digit is not one); a cell with one candidate shows it alone in its middle.
pub fn write_pencil_marks(out: &mut impl Write, p: &Position) -> io::Result<()> {
    const RULE: &[u8] = b"-------------+-------------+-------------\n";
    let masks = p.masks();
    for row in 0..9 {
        if row % 3 == 0 && row > 0 {
            out.write_all(RULE)?;
        }
        for sub in 0..3 {
            let mut line = Vec::with_capacity(48);
            for col in 0..9 {
                line.extend_from_slice(match col {
                    0 => b" ",
                    3 | 6 => b" | ",
                    _ => b" ",
                });
                let mask = masks[row * 9 + col];
                if mask.count_ones() == 1 {
                    // A placed digit stands alone in the middle of its cell, no dots.
                    let digit = b'1' + mask.trailing_zeros() as u8;
                    line.extend_from_slice(&if sub == 1 {
                        [b' ', digit, b' ']
                    } else {
                        *b"   "
                    });
                    continue;
                }
                for k in sub * 3..sub * 3 + 3 {
                    let set = mask >> k & 1 == 1;
                    line.push(if set { b'1' + k as u8 } else { b'.' });
                }
            }
            line.push(b'\n');
            out.write_all(&line)?;
        }
        if row % 3 != 2 {
            out.write_all(b"             |             |\n")?;
        }
    }
    Ok(())
}

/// A step in one line of words: technique, difficulty and the step's sentence
/// (`Hidden Single (1.2): Hidden single in box 1: 4 can only go in r1c3.`).
pub fn step_sentence(step: &Step<'_>) -> String {
    let mut d = [0u8; 4];
    let len = step.difficulty.write_text(&mut d);
    format!(
        "{} ({}): {}",
        step.technique.name(),
        std::str::from_utf8(&d[..len]).expect("ASCII"),
        step.text
    )
}

impl RecordFormat for HintFormat {
    type Record = HintRecord;
    const CSV_HEADER: &'static [u8] = b"";
    const LINE_MAX: usize = 0;

    /// Jsonl for both forms: records of any length, rendered on the workers.
    fn format(&self) -> OutputFormat {
        OutputFormat::Jsonl
    }
    fn fields(&mut self) -> &mut RecordFields {
        &mut self.fields
    }
    fn write_csv(&self, out: &mut impl Write, r: &HintRecord) -> io::Result<()> {
        self.write_jsonl(out, r)
    }
    fn write_jsonl(&self, out: &mut impl Write, r: &HintRecord) -> io::Result<()> {
        if self.text {
            self.text(out, r)
        } else {
            self.json(out, r)
        }
    }
    fn line(_: &HintRecord, _: &mut [u8]) -> usize {
        unreachable!("hint records are written as jsonl records are")
    }
}
