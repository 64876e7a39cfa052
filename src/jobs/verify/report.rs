//! The verify report: one line per problem (`line,id,problem,detail`), as CSV, JSON lines or
//! text.

use std::io::{self, Write};

use serde::Serialize;

use crate::io::write::{write_csv_field, OutputFormat};
use crate::jobs::verify::{Checked, Problem};
use crate::pipeline::Sink;

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

    /// The output, to flush and close.
    pub fn into_inner(self) -> W {
        self.out
    }

    /// Change the input named in text reports (for the next input file).
    pub fn set_label(&mut self, label: &str) {
        self.label = label.to_string();
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
                OutputFormat::Csv => {
                    write!(self.out, "{},", c.line)?;
                    write_csv_field(&mut self.out, c.id.as_deref().unwrap_or("").as_bytes())?;
                    write!(self.out, ",{},", f.problem)?;
                    write_csv_field(&mut self.out, f.detail.as_bytes())?;
                    self.out.write_all(b"\n")?;
                }
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
