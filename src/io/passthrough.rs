//! What a csv or jsonl result record holds besides its results, shared by the commands that
//! write one record per input record (`solve`, `rate`): the input's name, the puzzle field as
//! written in the input, and with `--passthrough` the input record itself, under its own
//! column names, before the results.
//!
//! A result name that equals an input column's gets `result_` in front (again, until it is
//! unique), so nothing is overwritten: a Kaggle `puzzle,solution` file solved gives
//! `puzzle,solution,line,result_solution,status,...`.

use std::borrow::Cow;
use std::io::{self, Write};

use crate::grid::{Grid, CELLS};
use crate::io::reader::Record;
use crate::io::write::{write_csv_field, JsonObject};

/// What csv and jsonl records hold besides the results.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Columns {
    /// A `file` field naming the input (when there are several).
    pub file: bool,
    /// Write the puzzle with this empty-cell mark instead of as written in the input.
    pub empty: Option<u8>,
    /// Repeat each input record before the results (see the module doc).
    pub passthrough: bool,
}

/// A passthrough problem: inputs whose columns differ cannot share one output header.
#[derive(Debug, thiserror::Error)]
#[error("--passthrough: {file} has the columns {found}, but the output already has {expected}; pass such files in separate runs")]
pub struct ColumnsDiffer {
    /// The input whose columns differ.
    pub file: String,
    /// Its columns.
    pub found: String,
    /// The columns of the output so far.
    pub expected: String,
}

/// The column names of a passthrough output: the input's, then the results' (renamed on a
/// clash, see the module doc).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PassthroughNames {
    /// The input's columns: a CSV header's names, or `input` for a line file's line.
    pub input: Vec<String>,
    /// The result names, in order, each unlike every input column.
    pub results: Vec<String>,
}

/// An input's column names: its CSV header (`None`: a line file, whose line is one `input`
/// column).
fn input_names(headers: Option<&csv::ByteRecord>) -> Vec<String> {
    match headers {
        Some(h) => h
            .iter()
            .map(|n| String::from_utf8_lossy(n).into_owned())
            .collect(),
        None => vec!["input".to_string()],
    }
}

impl PassthroughNames {
    /// The names for an input with `headers` (a CSV header's names, or `input` for a line
    /// file) and these results.
    pub fn new(headers: Option<&csv::ByteRecord>, results: &[String]) -> PassthroughNames {
        let input = input_names(headers);
        let results = results
            .iter()
            .map(|name| {
                let mut name = name.clone();
                while input.iter().any(|c| c.trim().eq_ignore_ascii_case(&name)) {
                    name.insert_str(0, "result_");
                }
                name
            })
            .collect();
        PassthroughNames { input, results }
    }

    /// Check that input `file`, with `headers`, has the columns of the output so far.
    pub fn check(
        &self,
        file: &str,
        headers: Option<&csv::ByteRecord>,
    ) -> Result<(), ColumnsDiffer> {
        let found = input_names(headers);
        if found == self.input {
            return Ok(());
        }
        Err(ColumnsDiffer {
            file: file.to_string(),
            found: found.join(","),
            expected: self.input.join(","),
        })
    }

    /// The CSV header line: every input column, then every result.
    pub fn write_csv_header(&self, out: &mut impl Write) -> io::Result<()> {
        for (i, name) in self.input.iter().chain(&self.results).enumerate() {
            if i > 0 {
                out.write_all(b",")?;
            }
            write_csv_field(&mut *out, name.as_bytes())?;
        }
        out.write_all(b"\n")
    }

    /// The input fields of `record` as CSV, each followed by a comma (a field the record
    /// lacks is empty).
    pub fn write_csv_fields(
        &self,
        out: &mut impl Write,
        record: Option<&Record>,
    ) -> io::Result<()> {
        for i in 0..self.input.len() {
            write_csv_field(&mut *out, &input_field(record, i))?;
            out.write_all(b",")?;
        }
        Ok(())
    }

    /// The input fields of `record` as JSON string fields under the input's names.
    pub fn write_json_fields<W: Write>(
        &self,
        obj: &mut JsonObject<'_, W>,
        record: Option<&Record>,
    ) -> io::Result<()> {
        for (i, name) in self.input.iter().enumerate() {
            obj.field(name, &String::from_utf8_lossy(&input_field(record, i)))?;
        }
        Ok(())
    }
}

/// Field `i` of the input record as read; without the fields (blocks, boards), the puzzle
/// stands for the first.
fn input_field(record: Option<&Record>, i: usize) -> Cow<'_, [u8]> {
    match record.and_then(|r| r.text.fields.as_ref()) {
        Some(f) => Cow::Borrowed(f.get(i).unwrap_or_default()),
        None if i == 0 => puzzle_field(record, None),
        None => Cow::Borrowed(&[][..]),
    }
}

/// The puzzle field: as written in the input, or normalised with `empty` (`--empty`), or
/// (blocks and boards, whose text is not one field) with `.` for empty cells; a candidate grid
/// as read, or in its 729-character form; empty when the record was not kept.
pub fn puzzle_field(record: Option<&Record>, empty: Option<u8>) -> Cow<'_, [u8]> {
    let line = |g: &Grid, mark: u8| {
        let mut buf = [0u8; CELLS];
        g.write_line(mark, &mut buf);
        Cow::Owned(buf.to_vec())
    };
    let Some(record) = record else {
        return Cow::Borrowed(&[]);
    };
    match (empty, record.puzzle.as_ref().ok(), &record.text.puzzle) {
        (Some(mark), Some(g), _) => line(g, mark),
        (_, _, Some(text)) => Cow::Borrowed(text),
        (_, Some(g), None) => line(g, b'.'),
        (_, None, None) if record.position.is_some() => Cow::Owned(
            record
                .position
                .as_ref()
                .map(|p| p.to_line().into_bytes())
                .unwrap_or_default(),
        ),
        (_, None, None) => Cow::Borrowed(&[]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn result_names_that_clash_with_input_columns_get_a_prefix_until_unique() {
        let headers = csv::ByteRecord::from(vec!["puzzle", "Solution", "result_solution"]);
        let results: Vec<String> = ["line", "solution", "status"].map(String::from).into();
        let names = PassthroughNames::new(Some(&headers), &results);
        assert_eq!(names.results, ["line", "result_result_solution", "status"]);
        assert!(names.check("a.csv", Some(&headers)).is_ok());
        let err = names.check("b.txt", None).unwrap_err();
        assert_eq!(err.found, "input");
        assert_eq!(err.expected, "puzzle,Solution,result_solution");
    }
}

/// The fields that open every csv and jsonl result record, and the names of all its fields:
/// a writer's [`Columns`], the current input's name, and with passthrough the input's column
/// names before the results'.
#[derive(Clone, Debug)]
pub struct RecordFields {
    /// What the records hold besides the results.
    pub columns: Columns,
    /// The current input's name (for the `file` field).
    pub file: String,
    /// The command's result names as without passthrough, `file` and `line` first.
    results: &'static [&'static str],
    /// Passthrough: the input's column names, then the result names (renamed on a clash).
    names: Option<PassthroughNames>,
    /// The result names without passthrough (computed once, not per record).
    plain: Vec<String>,
}

impl RecordFields {
    /// The fields of a command whose results are named `results` (`file` and `line` first).
    pub fn new(results: &'static [&'static str]) -> RecordFields {
        let mut fields = RecordFields {
            columns: Columns::default(),
            file: String::new(),
            results,
            names: None,
            plain: Vec::new(),
        };
        fields.set_columns(Columns::default());
        fields
    }

    /// What the records hold besides the results.
    pub fn set_columns(&mut self, columns: Columns) {
        self.plain = self.plain_names(columns.file);
        self.columns = columns;
    }

    /// The result names without passthrough (`file` only with several inputs).
    fn plain_names(&self, file: bool) -> Vec<String> {
        self.results
            .iter()
            .filter(|&&n| n != "file" || file)
            .map(|n| n.to_string())
            .collect()
    }

    /// The input whose records come next: its name, and its CSV header (`None`: a line file,
    /// whose line is one `input` column). With passthrough, every input must have the first
    /// one's columns.
    pub fn set_input(
        &mut self,
        file: &str,
        headers: Option<&csv::ByteRecord>,
    ) -> Result<(), ColumnsDiffer> {
        self.file = file.to_string();
        if !self.columns.passthrough {
            return Ok(());
        }
        match &self.names {
            Some(names) => names.check(file, headers),
            None => {
                let results = self.plain_names(self.columns.file);
                self.names = Some(PassthroughNames::new(headers, &results));
                Ok(())
            }
        }
    }

    /// The CSV header line: with passthrough, the input's columns and the results'; else
    /// `file,` (several inputs) and `plain`, the command's header line.
    pub fn write_csv_header(&self, out: &mut impl Write, plain: &[u8]) -> io::Result<()> {
        match &self.names {
            Some(names) => names.write_csv_header(out),
            None => {
                if self.columns.file {
                    out.write_all(b"file,")?;
                }
                out.write_all(plain)
            }
        }
    }

    /// A CSV record's opening fields, each followed by a comma: the input's (passthrough),
    /// `file`, `line`, and without passthrough the record's `id` and `puzzle`.
    #[inline]
    pub fn write_csv_start(
        &self,
        out: &mut impl Write,
        line: u64,
        input: Option<&Record>,
    ) -> io::Result<()> {
        if let Some(names) = &self.names {
            names.write_csv_fields(&mut *out, input)?;
        }
        if self.columns.file {
            write_csv_field(&mut *out, self.file.as_bytes())?;
            out.write_all(b",")?;
        }
        // Numbers through `itoa`: `write!` took ~5% of a csv run (format machinery per call).
        out.write_all(itoa::Buffer::new().format(line).as_bytes())?;
        out.write_all(b",")?;
        if self.names.is_none() {
            if let Some(id) = input.and_then(|i| i.id.as_ref()) {
                write_csv_field(&mut *out, id.as_bytes())?;
            }
            out.write_all(b",")?;
            write_csv_field(&mut *out, &puzzle_field(input, self.columns.empty))?;
            out.write_all(b",")?;
        }
        Ok(())
    }

    /// A JSON record's opening fields (as [`write_csv_start`](Self::write_csv_start)'s);
    /// returns the names of the fields that follow `line`, in order.
    #[inline]
    pub fn write_json_start<W: Write>(
        &self,
        obj: &mut JsonObject<'_, W>,
        line: u64,
        input: Option<&Record>,
    ) -> io::Result<std::slice::Iter<'_, String>> {
        let mut names = match &self.names {
            Some(names) => {
                names.write_json_fields(obj, input)?;
                names.results.iter()
            }
            None => self.plain.iter(),
        };
        if self.columns.file {
            obj.field(names.next().expect("file"), &self.file)?;
        }
        obj.field(names.next().expect("line"), &line)?;
        if self.names.is_none() {
            obj.field("id", &input.and_then(|i| i.id.as_ref()))?;
            let puzzle = puzzle_field(input, self.columns.empty);
            let puzzle = (!puzzle.is_empty()).then(|| String::from_utf8_lossy(&puzzle));
            obj.field("puzzle", &puzzle)?;
        }
        Ok(names)
    }
}
