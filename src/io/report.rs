//! The verify report: one line per problem (`line,id,problem,detail`), as CSV, JSON lines or
//! text.

use std::io::{self, Write};

use serde::Serialize;

use crate::io::writer::OutputFormat;
use crate::io::Sink;
use crate::verify::{Checked, Problem};

/// Writes the problems of checked records.
pub struct ReportWriter<W: Write> {
    out: W,
    format: OutputFormat,
    header: bool,
    label: String,
}

#[derive(Serialize)]
struct Row<'a> {
    line: u64,
    id: Option<&'a str>,
    problem: Problem,
    detail: &'a str,
}

impl<W: Write> ReportWriter<W> {
    /// A report in `format` (`Line` means text); `label` names the input in text reports.
    pub fn new(out: W, format: OutputFormat, header: bool, label: &str) -> ReportWriter<W> {
        ReportWriter {
            out,
            format,
            header,
            label: label.to_string(),
        }
    }

    /// Change the input named in text reports (for the next input file).
    pub fn set_label(&mut self, label: &str) {
        self.label = label.to_string();
    }
}

/// Quote a CSV field when needed.
fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

impl<W: Write + Send> Sink<Checked> for ReportWriter<W> {
    fn start(&mut self) -> io::Result<()> {
        if self.header && self.format == OutputFormat::Csv {
            self.header = false;
            self.out.write_all(b"line,id,problem,detail\n")?;
        }
        Ok(())
    }

    fn write(&mut self, c: &Checked) -> io::Result<()> {
        for f in &c.findings {
            match self.format {
                OutputFormat::Csv => writeln!(
                    self.out,
                    "{},{},{},{}",
                    c.line,
                    csv_field(c.id.as_deref().unwrap_or("")),
                    f.problem,
                    csv_field(&f.detail)
                )?,
                OutputFormat::Jsonl => {
                    let row = Row {
                        line: c.line,
                        id: c.id.as_deref(),
                        problem: f.problem,
                        detail: &f.detail,
                    };
                    serde_json::to_writer(&mut self.out, &row)?;
                    self.out.write_all(b"\n")?;
                }
                OutputFormat::Line => {
                    let id =
                        c.id.as_deref()
                            .map(|i| format!(" (id {i})"))
                            .unwrap_or_default();
                    writeln!(
                        self.out,
                        "{}:{}{id}: {}: {}",
                        self.label, c.line, f.problem, f.detail
                    )?
                }
            }
        }
        Ok(())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}
